"""What a chunk size means in other tools: the guide's first check, "find the size unit".

``SPLITTERS`` is data: for each common splitter of LangChain, LlamaIndex, Chonkie, Unstructured
and Haystack, the unit its size counts, the tokenizer behind it, the parameter names and the
defaults, as read from each library's source (langchain-text-splitters 1.1, llama-index-core
0.14, chonkie 1.7; Unstructured's chunking module and Haystack 2's splitters as of 2026).
Defaults change between releases: pin yours. ``explain`` turns a splitter and its settings into what that size is in the chosen
model's tokens, measured on the user's own documents.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..errors import ConfigError
from ..model import Document
from ..renamed import renamed_attribute
from ..tokens import Sizer, load_sizer


@dataclass(frozen=True)
class SplitterUnit:
    """How one splitter counts.

    ``unit``: ``chars``, ``words``, ``tokens`` (of ``tokenizer``), ``sentences`` or ``none``
    (no size limit). ``tokenizer``: ``tiktoken:NAME`` or ``hf:MODEL`` for token units.
    ``size_param``/``overlap_param``: the names of its settings; ``default_size``/
    ``default_overlap``: their defaults (None: no such setting, or taken from a model).
    ``unit_param``: a setting that changes the unit, with what each value means
    (``unit_choices``: value -> (unit, tokenizer)).
    """

    unit: str
    tokenizer: str | None
    size_param: str | None
    overlap_param: str | None
    default_size: int | None
    default_overlap: int | None
    note: str = ""
    unit_param: str | None = None
    unit_choices: Mapping[str, tuple[str, str | None]] = field(default_factory=dict)


_LC_LEN = ("length_function=len counts characters; from_tiktoken_encoder() counts tiktoken "
           "tokens (gpt2 unless encoding_name/model_name say otherwise), "
           "from_huggingface_tokenizer() that tokenizer's tokens (a tokenizer file with "
           "truncation on caps every count).")
_LC_OVERLAP = ("Overlap is a most, built from whole pieces carried over: where the cut falls "
               "between pieces longer than the overlap, neighbours share nothing.")

#: chonkie's ``tokenizer=`` values and what its sizes then count
_CHONKIE_TOKENIZERS = {"character": ("chars", None), "word": ("words", None),
                       "gpt2": ("tokens", "tiktoken:gpt2"),
                       "cl100k_base": ("tokens", "tiktoken:cl100k_base")}

#: splitter name ("library:Class") -> how it counts
SPLITTERS: dict[str, SplitterUnit] = {
    "langchain:RecursiveCharacterTextSplitter": SplitterUnit(
        "chars", None, "chunk_size", "chunk_overlap", 4000, 200,
        "Separators blank line, line break, space, single characters; no sentence step. "
        + _LC_LEN + " " + _LC_OVERLAP),
    "langchain:CharacterTextSplitter": SplitterUnit(
        "chars", None, "chunk_size", "chunk_overlap", 4000, 200,
        "Splits at one separator (blank line by default); a piece longer than chunk_size is "
        "kept whole, over the limit, with a warning. " + _LC_LEN + " " + _LC_OVERLAP),
    "langchain:MarkdownTextSplitter": SplitterUnit(
        "chars", None, "chunk_size", "chunk_overlap", 4000, 200,
        "RecursiveCharacterTextSplitter with Markdown separators. " + _LC_LEN),
    "langchain:TokenTextSplitter": SplitterUnit(
        "tokens", "tiktoken:gpt2", "chunk_size", "chunk_overlap", 4000, 200,
        "Windows of tiktoken ids decoded back to text.", "encoding_name",
        {"gpt2": ("tokens", "tiktoken:gpt2"), "cl100k_base": ("tokens", "tiktoken:cl100k_base"),
         "o200k_base": ("tokens", "tiktoken:o200k_base")}),
    "langchain:SentenceTransformersTokenTextSplitter": SplitterUnit(
        "tokens", "hf:sentence-transformers/all-mpnet-base-v2", "tokens_per_chunk",
        "chunk_overlap", None, 50,
        "tokens_per_chunk defaults to the model's max_seq_length (384 for all-mpnet-base-v2); "
        "windows of token ids decoded back to text, so the chunks are that tokenizer's "
        "normalised text (lower-cased for uncased models), not spans of the source."),
    "langchain:MarkdownHeaderTextSplitter": SplitterUnit(
        "none", None, None, None, None, None,
        "One chunk per header section, however long: follow it with a size-limited splitter."),
    "llamaindex:SentenceSplitter": SplitterUnit(
        "tokens", "tiktoken:cl100k_base", "chunk_size", "chunk_overlap", 1024, 200,
        "Counts with llama_index's global tokenizer: tiktoken cl100k_base (gpt-3.5-turbo's) "
        "unless Settings.tokenizer is set; metadata printed before the text is counted too "
        "(include_metadata)."),
    "llamaindex:TokenTextSplitter": SplitterUnit(
        "tokens", "tiktoken:cl100k_base", "chunk_size", "chunk_overlap", 1024, 20,
        "Same global tokenizer (cl100k_base unless Settings.tokenizer is set); splits at a "
        "separator (space) then joins words up to chunk_size."),
    "llamaindex:SentenceWindowNodeParser": SplitterUnit(
        "sentences", None, "window_size", None, 3, None,
        "One node per sentence, however long; window_size sentences either side go into "
        "metadata (window), which may be embedded with it."),
    "llamaindex:SemanticSplitterNodeParser": SplitterUnit(
        "none", None, None, None, None, None,
        "Cuts where sentence embeddings drift (breakpoint_percentile_threshold=95, "
        "buffer_size=1); no size limit at all, so a chunk can run past the model's input."),
    "chonkie:TokenChunker": SplitterUnit(
        "chars", None, "chunk_size", "chunk_overlap", 2048, 0,
        "tokenizer='character' by default: the 'tokens' are characters unless a tokenizer is "
        "given (e.g. tokenizer='gpt2').", "tokenizer",
        _CHONKIE_TOKENIZERS),
    "chonkie:SentenceChunker": SplitterUnit(
        "chars", None, "chunk_size", "chunk_overlap", 2048, 0,
        "tokenizer='character' by default; packs sentences (delimiters '. ', '! ', '? ', "
        "newline).", "tokenizer",
        _CHONKIE_TOKENIZERS),
    "chonkie:RecursiveChunker": SplitterUnit(
        "chars", None, "chunk_size", None, 2048, None,
        "tokenizer='character' by default; no overlap setting.", "tokenizer",
        _CHONKIE_TOKENIZERS),
    "unstructured:chunk_by_title": SplitterUnit(
        "chars", None, "max_characters", "overlap", 500, 0,
        "Hard maximum max_characters (500); new_after_n_chars is the soft maximum "
        "(defaults to max_characters); overlap applies only to text split out of an oversized "
        "element unless overlap_all=True."),
    "unstructured:chunk_elements": SplitterUnit(
        "chars", None, "max_characters", "overlap", 500, 0,
        "Same limits as chunk_by_title, without starting a chunk at each title."),
    "haystack:DocumentSplitter": SplitterUnit(
        "words", None, "split_length", "split_overlap", 200, 0,
        "split_by='word' splits at spaces; 'sentence', 'passage', 'page', 'line' count those "
        "instead, with no limit on their length.", "split_by",
        {"word": ("words", None), "sentence": ("sentences", None), "passage": ("none", None),
         "page": ("none", None), "line": ("none", None)}),
    "haystack:RecursiveDocumentSplitter": SplitterUnit(
        "words", None, "split_length", "split_overlap", 200, 0,
        "split_unit='word' by default; 'char' counts characters, 'token' tiktoken tokens.",
        "split_unit",
        {"word": ("words", None), "char": ("chars", None),
         "token": ("tokens", "tiktoken:o200k_base")}),
}

#: short names accepted for libraries
_ALIASES = {"lc": "langchain", "langchain_text_splitters": "langchain", "llama": "llamaindex",
            "llama_index": "llamaindex", "llama-index": "llamaindex"}


@dataclass(frozen=True)
class Explanation:
    """What one splitter setting means in the chosen model's tokens.

    ``size``/``overlap``: the values given (or the defaults), in ``unit`` (of ``tokenizer``).
    ``model_tokens_per_unit``: the model's tokens per unit measured on the documents (median
    over documents, and the range); ``size_in_model_tokens``: what ``size`` comes to there,
    the model's special tokens and prefix included; None where it could not be measured
    (``why`` says so).
    """

    splitter: str
    unit: str
    tokenizer: str | None
    size_param: str | None
    overlap_param: str | None
    size: int | None
    overlap: int | None
    default_size: int | None
    default_overlap: int | None
    note: str
    model: str
    max_input_tokens: int | None
    documents: int = 0
    model_tokens_per_unit: float | None = None
    per_unit_range: tuple[float, float] | None = None
    size_in_model_tokens: int | None = None
    size_range: tuple[int, int] | None = None
    overlap_in_model_tokens: int | None = None
    why: str = ""

    #: deprecated: ``max_input_tokens``'s old name (the model's input limit)
    max_input = renamed_attribute("max_input", "max_input_tokens")

    def lines(self) -> list[str]:
        """A plain-text rendering, one statement a line."""
        what = {"chars": "characters (Unicode code points)", "words": "words",
                "sentences": "sentences (of any length)", "none": "nothing: no size limit"}
        unit = (f"tokens of {self.tokenizer}" if self.unit == "tokens"
                else what.get(self.unit, self.unit))
        out = [f"{self.splitter}: {self.size_param or 'size'} counts {unit}."]
        if self.size_param:
            out.append(f"defaults: {self.size_param}={self.default_size}"
                       + (f", {self.overlap_param}={self.default_overlap}" if self.overlap_param
                          else ", no overlap setting"))
        if self.note:
            out.append(self.note)
        if self.size is not None and self.size_in_model_tokens is not None:
            lo, hi = self.size_range or (self.size_in_model_tokens,) * 2
            per = (f"{self.tokenizer} token" if self.unit == "tokens" and self.tokenizer
                   else self.unit[:-1])
            out.append(
                f"{self.size_param}={self.size} is about {self.size_in_model_tokens} tokens of "
                f"{self.model} on your {self.documents} document(s) "
                f"({self.model_tokens_per_unit:.3g} model tokens per {per}; "
                f"{lo}–{hi} across documents), special tokens included.")
            if self.overlap is not None and self.overlap_in_model_tokens is not None:
                out.append(f"{self.overlap_param}={self.overlap} is about "
                           f"{self.overlap_in_model_tokens} model tokens.")
            if self.max_input_tokens:
                verdict = ("over" if hi > self.max_input_tokens else
                           "within" if lo <= self.max_input_tokens else "near")
                out.append(f"the model's maximum input is {self.max_input_tokens} tokens: that size is "
                           f"{verdict} it" + (" — the rest of a chunk would be cut off before "
                                              "embedding (silently, in sentence-transformers)."
                                              if verdict == "over" else "."))
        elif self.why:
            out.append(self.why)
        return out


def splitter_names() -> list[str]:
    """Every splitter ``explain`` knows."""
    return sorted(SPLITTERS)


def find_splitter(name: str) -> str:
    """The table key for ``name`` (``library:Class``; the library may be abbreviated, the case
    may differ, or the class alone may be given where only one library has it)."""
    lib, sep, cls = name.partition(":")
    if not sep:
        lib, cls = "", name
    lib = _ALIASES.get(lib.lower(), lib.lower())
    hits = [k for k in SPLITTERS if k.split(":")[1].lower() == cls.lower()
            and (not lib or k.split(":")[0] == lib)]
    if len(hits) == 1:
        return hits[0]
    known = ", ".join(splitter_names())
    if hits:
        raise ConfigError(f"{name!r} is ambiguous: {', '.join(hits)}")
    raise ConfigError(f"unknown splitter {name!r}; known: {known}")


def explain(splitter: str, params: Mapping[str, Any] | None = None,
            documents: Sequence[Document] = (), model: Any = None) -> Explanation:
    """What ``splitter`` with ``params`` (e.g. ``{"chunk_size": 300}``) counts, and what its
    size comes to in ``model``'s tokens (None: the default multilingual-e5-small) on
    ``documents`` (none: the conversion is left out)."""
    key = find_splitter(splitter)
    s = SPLITTERS[key]
    params = dict(params or {})
    unit, tok = s.unit, s.tokenizer
    if s.unit_param and s.unit_param in params:
        choice = str(params[s.unit_param])
        unit, tok = s.unit_choices.get(choice, ("tokens", f"tiktoken:{choice}"))
    size = _int(s.size_param, params.get(s.size_param)) if s.size_param else None
    overlap = _int(s.overlap_param, params.get(s.overlap_param)) if s.overlap_param else None
    size = s.default_size if size is None else size
    overlap = s.default_overlap if overlap is None else overlap
    sizer = load_sizer(model)
    base = Explanation(key, unit, tok, s.size_param, s.overlap_param, size, overlap,
                       s.default_size, s.default_overlap, s.note, sizer.name, sizer.max_input_tokens,
                       len(documents))
    if unit not in ("chars", "words", "tokens"):
        return _replace(base, why=f"{unit}: no fixed size to convert")
    if size is None:
        return _replace(base, why="the size comes from the splitter's model; give it "
                                  f"({s.size_param}=N) to convert")
    if not documents:
        return _replace(base, why="give your documents (--source) to convert this into the "
                                  "model's tokens")
    counter = _unit_counter(unit, tok)
    if counter is None:
        return _replace(base, why=f"{tok} is not available offline here: cannot measure your "
                                  "documents in it")
    overhead = sizer.overhead
    ratios = []
    for d in documents:
        n = counter(d.text)
        if n:
            ratios.append(max(0, sizer.count(d.text) - overhead) / n)
    if not ratios:
        return _replace(base, why="the documents hold no text to measure")
    r = statistics.median(ratios)
    return _replace(base, model_tokens_per_unit=r, per_unit_range=(min(ratios), max(ratios)),
                    size_in_model_tokens=round(size * r) + overhead,
                    size_range=(round(size * min(ratios)) + overhead,
                                round(size * max(ratios)) + overhead),
                    overlap_in_model_tokens=None if overlap is None else round(overlap * r))


def _int(name: str, v: Any) -> int | None:
    if v is None:
        return None
    try:
        return int(v)
    except (TypeError, ValueError):
        raise ConfigError(f"{name}: expected a whole number, got {v!r}") from None


def _replace(e: Explanation, **changes: Any) -> Explanation:
    import dataclasses

    return dataclasses.replace(e, **changes)


def _unit_counter(unit: str, tokenizer: str | None) -> Any:
    """A function counting text in ``unit`` (of ``tokenizer``), without special tokens; None
    where that tokenizer cannot be loaded offline."""
    if unit == "chars":
        return len
    if unit == "words":
        return lambda t: len(t.split())
    if tokenizer and tokenizer.startswith("tiktoken:"):
        try:  # only encodings shipped offline: anything else would try a download
            import tiktoken

            if f"{tokenizer.split(':', 1)[1]}_offline" not in tiktoken.list_encoding_names():
                return None
            sizer: Sizer = load_sizer(tokenizer)
        except Exception:  # not available offline (a download would be needed)
            return None
        return sizer.count
    return None


__all__ = ["SplitterUnit", "SPLITTERS", "Explanation", "explain", "find_splitter",
           "splitter_names"]
