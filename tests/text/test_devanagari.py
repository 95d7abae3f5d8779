from seamcut.text.devanagari import join_split_signs


def test_spaces_before_vowel_signs_are_removed():
    assert join_split_signs("सोयाबीन फसल दे खभाल पुस्तिका") == ("सोयाबीन फसल देखभाल पुस्तिका", 1)
    assert join_split_signs("मध्य प्रदे श और महाराष्ट्र") == ("मध्य प्रदेश और महाराष्ट्र", 1)


def test_nothing_else_changes():
    for text in ("सोयाबीन की बुवाई जून में करें।", "Whitefly 2 ml", "क ख ग", "a ा"):
        assert join_split_signs(text) == (text, 0)
