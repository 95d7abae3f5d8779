"""Filters read from a question without a model (issue 54, point 3): ``seamcut.index.asked``.

Values are shaped like the two corpora the issue names: docugami's SEC filings (company with its
ticker, quarter periods) and the farmers' helpline (crop with Hindi and Marathi names, year,
doc_type, language), and the questions like theirs, in English, Hindi and Marathi."""
from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from seamcut.index.asked import ANY_VALUES, FieldValues, read_filters, without
from seamcut.index.filters import MAX_IN, Filter

FILINGS = FieldValues({
    "company": {"Apple": ("AAPL",), "Amazon": ("AMZN",), "Intel": ("INTC",), "Microsoft": ("MSFT",),
                "Nvidia": ("NVDA",)},
    "period": {"2022 Q3": (), "2023 Q1": (), "2023 Q2": (), "2023 Q3": ()},
})
HELPLINE = FieldValues({
    "crop": {"cotton": ("कापूस", "कपास"), "soybean": ("सोयाबीन",), "orange": ("संत्रा",), "all": ()},
    "year": {2019: (), 2024: (), 2025: (), 2026: ()},
    "doc_type": {"manual": (), "scheme notice": (), "circular": ()},
    "language": {"hi": (), "mr": (), "en": ()},
})


def filters(question: str, fields: FieldValues) -> list[Filter]:
    return [a.filter for a in read_filters(question, fields)]


@pytest.mark.parametrize("question, want", [
    ("How did Apple's operating expenses for Q1 2023 compare to its revenue for the same quarter?",
     [Filter("company", "eq", "Apple"), Filter("period", "eq", "2023 Q1")]),
    ("In the second quarter of 2023, what was the primary driver behind the change in Apple's net income?",
     [Filter("company", "eq", "Apple"), Filter("period", "eq", "2023 Q2")]),
    ("What was Apple's cash flow from operating activities as reported in the Q3 2022 10-Q?",
     [Filter("company", "eq", "Apple"), Filter("period", "eq", "2022 Q3")]),
    ("Compare NVDA and MSFT in Q2 2023",
     [Filter("company", "in", ["Nvidia", "Microsoft"]), Filter("period", "eq", "2023 Q2")]),
    ("How did AMAZON’s revenue change between 2022 Q3 and 2023 Q1?",
     [Filter("company", "eq", "Amazon"), Filter("period", "in", ["2022 Q3", "2023 Q1"])]),
    ("Which of Intel, Microsoft and Intel's rivals grew most?", [Filter("company", "in", ["Intel", "Microsoft"])]),
])
def test_filings_questions(question: str, want: list[Filter]) -> None:
    assert filters(question, FILINGS) == want


@pytest.mark.parametrize("said", [
    "Q3 2023", "2023 Q3", "Q3'23", "Q3’23", "Q3 FY23", "Q3 FY2023", "FY23 Q3", "2023-Q3", "third quarter of 2023",
    "3rd quarter 2023", "the third quarter of fiscal 2023", "fiscal 2023 third quarter", "third fiscal quarter of 2023",
    "2023 की तीसरी तिमाही", "तीसरी तिमाही 2023", "तिसरी तिमाही 2023", "२०२३ च्या तिसऱ्या तिमाहीत",
])
def test_quarter_spellings(said: str) -> None:
    (asked,) = read_filters(f"What did Nvidia report for {said}?", FILINGS)[1:]
    assert asked.filter == Filter("period", "eq", "2023 Q3")
    assert asked.why.endswith("names period '2023 Q3'") and f"'{said.removeprefix('the ')}' names" in asked.why


@pytest.mark.parametrize("value", ["2023 Q3", "Q3 2023", "2023-Q3", "FY2023 Q3", "Q3 FY23", "2023q3"])
def test_quarter_values(value: str) -> None:
    assert filters("third quarter of 2023", FieldValues({"period": {value: ()}})) == [Filter("period", "eq", value)]


def test_why() -> None:
    assert [a.why for a in read_filters("Compare NVDA and Apple in the second quarter of 2023", FILINGS)] == [
        "'NVDA' is an alias of company 'Nvidia'; 'Apple' in the question names company 'Apple'",
        "'second quarter of 2023' names period '2023 Q2'"]


def test_quarter_takes_the_nearest_year() -> None:
    assert filters("Q3 2022 versus Q1 2023", FILINGS) == [Filter("period", "in", ["2022 Q3", "2023 Q1"])]
    asked = read_filters("Q2 and Q3 2023", FILINGS)
    assert [a.filter for a in asked] == [Filter("period", "in", ["2023 Q2", "2023 Q3"])]
    assert asked[0].why == "'Q2 and Q3 2023' names period '2023 Q2'; 'Q3 2023' names period '2023 Q3'"


def test_year_or_quarter_alone_names_no_period() -> None:
    assert filters("What did Intel earn in 2023?", FILINGS) == [Filter("company", "eq", "Intel")]
    assert filters("What did Intel earn in Q3?", FILINGS) == [Filter("company", "eq", "Intel")]
    both = FieldValues({"year": {2023: ()}, "period": {"2023 Q3": ()}})
    assert filters("in 2023", both) == [Filter("year", "eq", 2023)]
    assert filters("in Q3 2023", both) == [Filter("year", "eq", 2023), Filter("period", "eq", "2023 Q3")]


@pytest.mark.parametrize("said", ["July 1, 2023", "1 July 2023", "1st of July 2023", "Jul 1st 2023", "2023-07-01",
                                  "2023/07/01",
                                  "1 जुलाई 2023", "१ जुलै २०२३"])
def test_dates(said: str) -> None:
    dates = FieldValues({"date": {"2023-07-01": (), "2023-07-02": ()}})
    (asked,) = read_filters(f"What was announced on {said}?", dates)
    assert (asked.filter, asked.why) == (Filter("date", "eq", "2023-07-01"), f"'{said}' names date '2023-07-01'")
    question = unicodedata.normalize("NFC", f"What was announced on {said}?")
    assert [question[a:b] for a, b in asked.words] == [said]


def test_not_dates() -> None:
    dates = FieldValues({"date": {"2023-07-01": ()}})
    assert read_filters("July 2023", dates) == read_filters("31 June 2023", dates) == []
    assert read_filters("2023 07 01", dates) == []


@pytest.mark.parametrize("question, want", [
    # Hindi: cotton by its Hindi name; crop 'all' kept as it holds for cotton too
    ("कपास में सफेद मक्खी के लिए कौन सी दवा?", [Filter("crop", "in", ["cotton", "all"])]),
    # Marathi, year in ASCII and in Devanagari digits
    ("संत्रा बागेसाठी 2026 च्या योजनेची शेवटची तारीख काय?",
     [Filter("crop", "in", ["orange", "all"]), Filter("year", "eq", 2026)]),
    ("संत्रा बागेसाठी २०२६ च्या योजनेची शेवटची तारीख काय?",
     [Filter("crop", "in", ["orange", "all"]), Filter("year", "eq", 2026)]),
    ("२०२४ मध्ये सोयाबीन आणि कापूस पिकांसाठी कोणती योजना आहे?",
     [Filter("crop", "in", ["soybean", "cotton", "all"]), Filter("year", "eq", 2024)]),
    ("सोयाबीन पर 2025 का circular क्या कहता है?",
     [Filter("crop", "in", ["soybean", "all"]), Filter("year", "eq", 2025), Filter("doc_type", "eq", "circular")]),
    ("Is there a scheme notice for Cotton in 2025?",
     [Filter("crop", "in", ["cotton", "all"]), Filter("year", "eq", 2025),
      Filter("doc_type", "eq", "scheme notice")]),
    ("What does the Marathi manual say about soybean?",
     [Filter("crop", "in", ["soybean", "all"]), Filter("doc_type", "eq", "manual"), Filter("language", "eq", "mr")]),
    ("मराठी परिपत्रक", [Filter("language", "eq", "mr")]),
    ("हिंदी में कपास की जानकारी", [Filter("crop", "in", ["cotton", "all"]), Filter("language", "eq", "hi")]),
])
def test_helpline_questions(question: str, want: list[Filter]) -> None:
    assert filters(question, HELPLINE) == want


def test_helpline_why() -> None:
    crop, year = read_filters("संत्रा बागेसाठी २०२६ च्या योजनेची शेवटची तारीख काय?", HELPLINE)
    assert crop.why == "'संत्रा' is an alias of crop 'orange'; crop 'all' kept: it holds for every one"
    assert year.why == "'२०२६' in the question names year 2026"
    (language,) = read_filters("Hindi", HELPLINE)
    assert language.why == "'Hindi' is the name of language 'hi'"


@pytest.mark.parametrize("question", [
    "What is the weather like today?",
    "hi, can you tell me what to spray?",          # 'hi' is a language code, never read
    "Which scheme is open to all farmers?",        # 'all' means every crop, never read
    "My farm has 300 trees and 2000 plants",       # not years: 300; 2000 is not a year held
    "How much pineapple juice? Cottonseed oil?",   # whole words only
    "कपासाच्या पिकावर कोणता रोग?",                   # an inflected form is not the alias
    "मुझे सब फसलों के बारे में बताइए और क्या है",         # Hindi function words
    "", "   ", "?!…।", "'s",
])
def test_nothing_named(question: str) -> None:
    assert read_filters(question, HELPLINE) == []


def test_pineapple_is_not_apple() -> None:
    assert read_filters("Pineapple sales in Q5 2023, page 12", FILINGS) == []


def test_question_language_sets_no_filter() -> None:
    assert filters("कपास", HELPLINE) == [Filter("crop", "in", ["cotton", "all"])]  # a Hindi question, no language


def test_language_alias() -> None:
    fields = FieldValues({"language": {"hi": ("hi", "Hindi-medium"), "en": ("ENG",)}})
    assert filters("hi there in eng", fields) == [Filter("language", "eq", "en")]  # a stop word never matches
    assert filters("Hindi-medium schools", fields) == [Filter("language", "eq", "hi")]
    named = FieldValues({"language": {"Hindi": (), "mar": ()}})  # a name is read, a code is not
    assert filters("Hindi or mar?", named) == [Filter("language", "eq", "Hindi")]


def test_longest_match() -> None:
    fields = FieldValues({"title": {"insurance": (), "Crop insurance": ()}})
    assert filters("Crop insurance 2026", fields) == [Filter("title", "eq", "Crop insurance")]
    assert filters("crop insurance and insurance premiums", fields) == [
        Filter("title", "in", ["Crop insurance", "insurance"])]


def test_short_and_numeric_values_skipped() -> None:
    fields = FieldValues({"grade": {"A": (), "B2": ()}, "page": {3: (), 300: ()}, "code": {"300": (), "2024": ()}})
    assert filters("Grade A or B2 on page 3 or 300 in 2024", fields) == [
        Filter("grade", "eq", "B2"), Filter("code", "eq", "2024")]


def test_years() -> None:
    fields = FieldValues({"year": {2019: (), 2024: (), 1800: (), True: ()}})
    assert filters("FY2019 and २०२४ and 1800", fields) == [Filter("year", "in", [2019, 2024])]


def test_any_values_own_and_case() -> None:
    fields = FieldValues({"crop": {"cotton": (), "ALL": (), "every": ()}}, any_values=frozenset({"all", "every"}))
    assert filters("all cotton for every one", fields) == [Filter("crop", "in", ["cotton", "ALL", "every"])]


def test_in_is_capped() -> None:
    fields = FieldValues({"code": {f"c{i:03d}": () for i in range(MAX_IN + 20)}, })
    (asked,) = read_filters(" ".join(f"c{i:03d}" for i in range(MAX_IN + 20)), fields)
    assert asked.filter.op == "in" and asked.filter.value == [f"c{i:03d}" for i in range(MAX_IN)]


def test_field_order_is_given_order() -> None:
    fields = FieldValues({"period": FILINGS.values["period"], "company": FILINGS.values["company"]})
    assert [a.filter.field for a in read_filters("Apple in Q1 2023", fields)] == ["period", "company"]


WORDS = st.sampled_from(["Apple", "AAPL", "apple's", "Q3", "Q3'23", "third", "quarter", "of", "fiscal", "2023",
                         "२०२३", "FY23", "कपास", "कापूस", "तिसऱ्या", "तिमाही", "की", "all", "hi", "Hindi", "हिंदी",
                         "July", "1st", "जुलाई", "-", "'", "’", "।", "?", ",", "\u200d", "\u093f", "s", "1", "2026"])
TEXT = st.lists(st.one_of(WORDS, st.text(max_size=8)), max_size=30).map(" ".join) | st.text()
VALUES = st.dictionaries(
    st.sampled_from(["company", "period", "crop", "year", "language", "date"]),
    st.dictionaries(st.one_of(st.sampled_from(["Apple", "2023 Q3", "Q3 FY23", "cotton", "all", "hi", "2023-07-01",
                                               "कपास", "a"]), st.integers(0, 3000), st.text(max_size=6)),
                    st.lists(st.one_of(WORDS, st.text(max_size=6)), max_size=3).map(tuple), max_size=6),
    max_size=4)


@given(TEXT, VALUES)
def test_never_raises_and_names_only_what_is_given(question: str, values: dict) -> None:
    fields = FieldValues(values)
    asked = read_filters(question, fields)
    assert len({a.filter.field for a in asked}) == len(asked)
    for a in asked:
        assert a.filter.field in values and a.why
        named = [a.filter.value] if a.filter.op == "eq" else a.filter.value
        assert a.filter.op in ("eq", "in") and (a.filter.op == "eq") == (len(named) == 1) and len(named) <= MAX_IN
        assert all(v in values[a.filter.field] for v in named)
        assert len(set(map(repr, named))) == len(named)


@given(TEXT)
def test_helpline_any_question(question: str) -> None:
    for a in read_filters(question, HELPLINE):
        if a.filter.field == "crop":
            assert a.filter.value[-1] == "all" and "all" in ANY_VALUES
        assert a.filter.field != "language" or a.why.endswith(("language 'hi'", "language 'mr'", "language 'en'"))


def test_values_written_in_devanagari_are_read_from_hindi_and_marathi_questions() -> None:
    """A catalog whose values are written in Devanagari (its columns named in ASCII, as an index's
    columns are), the year in Devanagari digits in the question."""
    marathi = FieldValues({"crop": {"कापूस": (), "सोयाबीन": (), "संत्री": ()}, "year": {2024: (), 2026: ()},
                           "doc_type": {"पीक विमा योजना": (), "मार्गदर्शिका": ()}})
    assert filters("२०२६ च्या पीक विमा योजना मध्ये सोयाबीनसाठी हप्ता किती?", marathi) == [
        Filter("year", "eq", 2026), Filter("doc_type", "eq", "पीक विमा योजना")]
    assert filters("कापूस पिकावर पांढरी माशी आल्यास काय फवारावे?", marathi) == [Filter("crop", "eq", "कापूस")]
    hindi = FieldValues({"crop": {"कपास": (), "सोयाबीन": ()}, "year": {2025: ()}})
    assert filters("सोयाबीन में पीला मोज़ेक रोग २०२५ में कैसे रोकें?", hindi) == [
        Filter("crop", "eq", "सोयाबीन"), Filter("year", "eq", 2025)]


@pytest.mark.parametrize("question, fields, left", [
    ("How did Apple's operating expenses for Q1 2023 compare to its revenue for the same quarter?", FILINGS,
     "How did operating expenses for compare to its revenue for the same quarter?"),
    ("What was AAPL’s gross margin in the third quarter of fiscal 2023?", FILINGS,
     "What was gross margin in the?"),
    ("Q2 and Q3 2023 at NVDA", FILINGS, "at"),
    ("संत्रा बागेसाठी २०२६ च्या योजनेची शेवटची तारीख काय?", HELPLINE, "बागेसाठी च्या योजनेची शेवटची तारीख काय?"),
    ("कपास में सफेद मक्खी के लिए कौन सी दवा?", HELPLINE, "में सफेद मक्खी के लिए कौन सी दवा?"),
    ("Apple Q3 2023", FILINGS, "Apple Q3 2023"),  # nothing would be left: the question itself
    ("For Apple's Q2 2023 report, how does Apple's revenue abroad relate to AAPL's currency risk?", FILINGS,
     "For report, how does revenue abroad relate to currency risk?"),  # every time it is named
    ("Which pest eats cotton leaves?", FieldValues({"year": {2024: ()}}), "Which pest eats cotton leaves?"),
])
def test_without_the_words_that_named_the_filters(question: str, fields: FieldValues, left: str) -> None:
    assert without(question, [w for a in read_filters(question, fields) for w in a.words]) == left


@given(TEXT, VALUES)
def test_words_are_where_the_question_names_the_value(question: str, values: dict) -> None:
    text = unicodedata.normalize("NFC", question)
    words = [w for a in read_filters(question, FieldValues(values)) for w in a.words]
    for a, b in words:
        assert 0 <= a < b <= len(text) and text[a:b].strip() == text[a:b]
    left = without(question, words)
    assert any(c.isalnum() for c in left) or left == (text if words else question)
    assert len(left) <= len(text) or not words
