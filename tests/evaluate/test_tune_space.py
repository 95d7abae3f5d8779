"""The space `seamcut tune` searches (YAML: strategies x options x search modes), the Pareto
front, the held-out split, and the heading-path option the space turns off."""
from __future__ import annotations

import pytest

from seamcut.evaluate.pareto import pareto_front
from seamcut.evaluate.questions import Question
from seamcut.evaluate.space import MODES, SpaceError, default_space, load_space, parse_space
from seamcut.evaluate.tune_plan import split_questions
from seamcut import chunk, read
from seamcut.strategies import REGISTRY
from seamcut.strategies.spec import parse_spec


def test_the_product_is_taken_per_strategy_and_bad_combinations_are_counted(tmp_path):
    f = tmp_path / "space.yaml"
    f.write_text("modes: [vector, hybrid]\nstrategies:\n"
                 "  recursive: {size: [32, 64, 300], overlap: [0, 40], within_paragraph: [false, true]}\n"
                 "  parent-child: {size: [64, 100], parent_size: [80, 800], parents: [sections, blocks]}\n"
                 "  structure: [{}, {heading_path: false}, {size: 300}]\n", encoding="utf-8")
    space = load_space(f)
    labels = [s.label for s in space.chunkings]
    # recursive: overlap 40 with size 32 refused (2 of 12); parent-child: parent_size 80 below
    # size 100 refused (2 of 8); structure size 300 is its default: the same chunking as {}
    assert space.dropped == 4
    assert len([x for x in labels if x.startswith("recursive")]) == 10
    assert len([x for x in labels if x.startswith("parent-child")]) == 6
    assert [x for x in labels if x.startswith("structure")] == ["structure", "structure:heading_path=false"]
    assert "recursive:size=32:overlap=0" in labels and "recursive:overlap=0" in labels  # 300 = default
    assert "parent-child:size=64:parent_size=80:parents=blocks" in labels
    for spec in space.chunkings:  # every label is a spec `seamcut index --strategy` takes
        assert parse_spec(spec.label).options == spec.options
    assert space.modes == ("vector", "hybrid")
    assert [c.label for c in space.candidates()][:2] == [f"{labels[0]} @vector", f"{labels[0]} @hybrid"]
    assert len(space.candidates()) == 2 * len(labels)


def test_a_chunkings_label_does_not_depend_on_the_order_its_options_are_written():
    one = parse_space({"strategies": {"parent-child": {"parents": "blocks", "parent_size": 400, "size": 64},
                                      "recursive": {"overlap": 0, "size": 32}}})
    two = parse_space({"strategies": {"parent-child": {"size": 64, "parents": "blocks", "parent_size": 400},
                                      "recursive": {"size": 32, "overlap": 0}}})
    assert [s.label for s in one.chunkings] == [s.label for s in two.chunkings] == [
        "parent-child:size=64:parent_size=400:parents=blocks", "recursive:size=32:overlap=0"]


@pytest.mark.parametrize("text, says", [
    ("strategies:\n  chonk: {}\n", ":2: strategies: unknown strategy 'chonk'; choose from"),
    ("strategies:\n  recursiv: {}\n", ":2: strategies: unknown strategy 'recursiv' (did you mean 'recursive'?)"),
    ("strategies:\n  recursive: {sizes: [1]}\n",
     ":2: strategies.recursive.sizes: recursive has no option 'sizes' (did you mean 'size'?); it has "),
    ("strategies:\n  structure:\n    - {}\n    - {size: 300,\n       heading_pth: false}\n",
     ":5: strategies.structure.heading_pth: structure has no option 'heading_pth' (did you mean 'heading_path'?)"),
    ("strategies:\n  recursive: {size: [abc]}\n", ":2: strategies.recursive.size: 'abc' is not a whole number"),
    ("strategies:\n  structure: {heading_path: [1]}\n",
     "strategies.structure.heading_path: 1 is not true or false"),
    ("modes:\n  - vector\n  - hybird\nstrategies:\n  fixed: {}\n",
     ":3: modes: unknown search mode 'hybird' (did you mean 'hybrid'?)"),
    ("strategy:\n  fixed: {}\n", ":1: unknown key 'strategy' (did you mean 'strategies'?); known keys: modes, strategies"),
    ("modes: [vector]\n", "'strategies' must map"),
    ("strategies: [fixed\n", "not valid YAML"),
])
def test_a_bad_space_names_the_file_and_the_key(tmp_path, text, says):
    f = tmp_path / "space.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(SpaceError) as exc:
        load_space(f)
    assert str(exc.value).startswith(str(f)) and says in str(exc.value)
    with pytest.raises(SpaceError, match="cannot read"):
        load_space(tmp_path / "missing.yaml")


def test_the_default_space_holds_every_strategy_with_its_defaults():
    space = default_space()
    labels = [s.label for s in space.chunkings]
    assert set(REGISTRY) <= set(labels) and space.modes == MODES and space.dropped == 0
    assert 20 <= len(labels) <= 40 and len(set(labels)) == len(labels)
    assert "structure:heading_path=false" in labels and "parent-child:parents=blocks" in labels
    # context on and off: fixed also with the title and heading path in front, sentence,
    # paragraph, recursive and semantic (whose default that is) also without
    assert "fixed:context=title+path" in labels
    assert {f"{n}:context=none" for n in ("sentence", "paragraph", "recursive", "semantic")} <= set(labels)


def test_the_pareto_front_keeps_what_nothing_beats_on_every_count():
    p = [dict(label=n, hit_rate=h, mrr=m, tokens_per_question=t, index_bytes=b)
         for n, h, m, t, b in [("a", .9, .8, 800, 10), ("b", .9, .8, 400, 10), ("c", .5, .4, 100, 10),
                               ("d", .5, .3, 100, 10), ("e", .95, .5, 900, 5), ("f", .5, .4, 100, 10)]]
    assert [x["label"] for x in pareto_front(p)] == ["b", "c", "e", "f"]  # c and f equal: both kept
    assert [x["label"] for x in pareto_front(p, minimise=())] == ["a", "b", "e"]


def test_the_held_out_split_is_seeded_disjoint_and_split_by_language():
    english = [Question(f"e{i}", f"How many litres of water for spraying field number {i} today?", ("x",))
               for i in range(20)]
    hindi = [Question(f"h{i}", f"खेत संख्या {i} में छिड़काव के लिए कितने लीटर पानी चाहिए?", ("x",))
             for i in range(10)]
    qs = english + hindi
    tune, held = split_questions(qs, 0.3, seed=0)
    assert {q.id for q in tune}.isdisjoint({q.id for q in held}) and len(tune) + len(held) == 30
    assert sum(q.id.startswith("e") for q in held) == 6 and sum(q.id.startswith("h") for q in held) == 3
    assert split_questions(qs, 0.3, seed=0) == (tune, held)  # the same seed, the same split
    assert split_questions(qs, 0.3, seed=1)[1] != held
    assert [q.id for q in tune] == [q.id for q in qs if q in tune]  # the given order kept
    assert split_questions(qs, 0.0, seed=0) == (qs, [])
    with pytest.raises(ValueError, match="held-out share"):
        split_questions(qs, 1.0, seed=0)


def test_heading_path_false_leaves_the_path_out_of_every_chunk(tmp_path):
    f = tmp_path / "cotton.md"
    f.write_text("# Cotton manual\n\n## Pests\n\n### Whitefly\n\nSpray 2 ml per litre in the evening.\n\n"
                 "### Aphid\n\nSpray 3 ml per litre.\n", encoding="utf-8")
    doc = read(f)
    for name in ("structure", "parent-child"):
        on, off = chunk(doc, strategy=name), chunk(doc, strategy=name, heading_path=False)
        assert any(c.context.startswith("Cotton manual / Pests") for c in on), name
        assert off and all(c.context == "" and c.text == c.body for c in off), name
        assert {c.id for c in on}.isdisjoint({c.id for c in off})  # another config, other ids
    # left at its default, the option is not in the ids: chunks cut before it existed keep theirs
    assert chunk(doc, strategy="structure", heading_path=True)[0].id == chunk(doc, strategy="structure")[0].id


def test_seamcut_tune_stops_on_bad_inputs_before_any_work(tmp_path):
    import seamcut

    (tmp_path / "a.md").write_text("# A\n\nSome text.\n", encoding="utf-8")
    q = [Question("q", "What text?", ("Some text",), source="b.md")]
    with pytest.raises(ValueError, match="no documents read"):
        seamcut.tune(tmp_path / "nowhere", q)
    with pytest.raises(SpaceError, match="missing.yaml: cannot read"):
        seamcut.tune(tmp_path, q, space=tmp_path / "missing.yaml")


def test_a_chunking_over_the_models_input_is_found_before_any_work(tmp_path, minilm_path):
    """Sizes are checked against the model's maximum input (all-MiniLM-L6-v2: 256 tokens, the
    default e5: 512): fixed's default 300 does not fit MiniLM, so tune leaves it out of the
    defaults and the space with the reason instead of failing in its final round."""
    import seamcut
    from seamcut.evaluate.space import over_model

    minilm = str(minilm_path.parent)
    assert "size 300 tokens is over the model's maximum input of 256" in over_model(parse_spec("fixed"), minilm)
    assert over_model(parse_spec("fixed:size=256"), minilm) is None
    assert over_model(parse_spec("parent-child"), minilm) is None  # parents are not embedded
    assert over_model(parse_spec("fixed:size=200:unit=words"), minilm) is None  # held at the input as cut
    assert over_model(parse_spec("fixed"), "default") is None
    assert "of 512 tokens" in over_model(parse_spec("recursive:size=600"), "default")

    (tmp_path / "a.md").write_text("# A\n\nSome text.\n", encoding="utf-8")
    (tmp_path / "space.yaml").write_text("strategies:\n  fixed:\n    size: [600, 700]\nmodes: [text]\n",
                                         encoding="utf-8")
    q = [Question("q", "What text?", ("Some text",), source="a.md")]
    with pytest.raises(ValueError, match="no chunking of the space fits the model: fixed:size=600: size 600"):
        seamcut.tune(tmp_path, q, space=tmp_path / "space.yaml")
