"""Fields found in a document's text without a catalog: title, date, period, year, language,
folder; a catalog's fields over them; a catalog's aliases; ``seamcut read`` showing them
(issue 54 point 2)."""
from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seamcut
from seamcut.errors import InputError
from seamcut.model import Document, Element
from seamcut.pipeline.catalog import RESERVED, load_catalog
from seamcut.readers import read
from seamcut.readers.found_fields import (FOUND_FIELDS, Found, calendar_quarter, date_at,
                                          field_sources, find_fields, is_title, stated_quarter,
                                          with_found_fields)
from seamcut.strategies.chunks import DOCUMENT_ONLY
from seamcut.strategies.context import fields_line

ROOT = Path(__file__).resolve().parents[2]
HELPLINE = ROOT / "examples" / "helpline"

#: the cover of Intel's 10-Q for the quarter ended July 1, 2023, as seamcut reads it (the date
#: on a line of its own under the phrase)
COVER_10Q = ("(Mark One)\n\nUNITED STATES SECURITIES AND EXCHANGE COMMISSION\n\nWashington, D.C. 20549\n\n"
             "FORM 10-Q\n\nQUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES "
             "EXCHANGE ACT OF 1934 For the quarterly period ended\n\nJuly 1, 2023\n\nor\n\n"
             "TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n\n"
             "For the transition period from to\n\nCommission File Number 000-06217\n\n"
             "INTEL CORPORATION\n\n(Exact name of registrant as specified in its charter)\n")


def doc_of(text: str, title: str | None = None, *, source: str = "", language: str | None = "en",
           pages: tuple[int, ...] = (), metadata: dict | None = None) -> Document:
    """``text`` as a read document: a title element first where ``title`` is given."""
    elements = []
    if title is not None:
        text = title + "\n\n" + text
        elements.append(Element("title", 0, len(title)))
    return Document(text=text, source=source, elements=tuple(elements), language=language,
                    page_starts=pages, metadata=metadata or {})


def values(doc: Document) -> dict:
    return {k: f.value for k, f in find_fields(doc).items()}


# -- date ----------------------------------------------------------------------------------------

def test_a_filings_period_end_is_its_date_and_gives_its_calendar_quarter():
    found = find_fields(doc_of(COVER_10Q))
    assert found["date"] == Found("2023-07-01", "cover: quarterly period ended")
    assert found["period"] == Found("2023 Q2", "calendar quarter of the period end")
    assert found["year"] == Found(2023, "year of the date")


@pytest.mark.parametrize("text, date, rule, period", [
    ("For the Quarterly Period Ended September 30, 2022", "2022-09-30", "cover: quarterly period ended", "2022 Q3"),
    ("For the quarterly period ended October 30, 2022", "2022-10-30", "cover: quarterly period ended", "2022 Q3"),
    ("ANNUAL REPORT for the fiscal year ended June 30, 2023", "2023-06-30", "cover: fiscal year ended", None),
    ("Results for the quarter ended 31st March, 2024", "2024-03-31", "cover: quarter ended", "2024 Q1"),
    ("Statement for the period ended 30 Sept. 2021", "2021-09-30", "cover: period ended", None),
    ("Financial results for the year ended 31.03.2024", "2024-03-31", "cover: year ended", None),
])
def test_period_end_phrases(text, date, rule, period):
    found = find_fields(doc_of(text))
    assert found["date"] == Found(date, rule)
    assert (found["period"].value if "period" in found else None) == period


def test_a_labelled_date_near_the_top():
    assert find_fields(doc_of("Circular No. 14\nDate: 12 March 2024\nSeed will be given."))["date"] \
        == Found("2024-03-12", "first pages date: Date")
    assert values(doc_of("Dated 1st July, 2023\nTo all district officers"))["date"] == "2023-07-01"
    assert values(doc_of("DATE: 2024-03-12"))["date"] == "2024-03-12"
    # a deadline, a date in a sentence citing another paper, a word ending in "date": not its date
    assert "date" not in values(doc_of("Last Date: 31 July 2024 for enrolment."))
    assert "date" not in values(doc_of("As per the circular dated 5 May 2023, seed is given."))
    assert "date" not in values(doc_of("Update: 12 March 2024"))
    # a period end wins over a labelled date, wherever each stands
    assert values(doc_of("Date: 1 August 2023\n" + COVER_10Q))["date"] == "2023-07-01"


def test_hindi_and_marathi_dates_in_devanagari():
    hindi = doc_of("कृषि विभाग\nदिनांक 12 मार्च 2024\nसभी किसानों के लिए सूचना", language="hi")
    assert find_fields(hindi)["date"] == Found("2024-03-12", "first pages date: दिनांक")
    assert values(doc_of("दिनांक १२ मार्च २०२४\nसूचना", language="hi"))["date"] == "2024-03-12"
    marathi = doc_of("कृषी विभाग\nदि. १५ जानेवारी २०२४\nसर्व शेतकऱ्यांसाठी सूचना", language="mr")
    assert find_fields(marathi)["date"] == Found("2024-01-15", "first pages date: दि.")
    assert values(doc_of("दिनांक: ५ ऑगस्ट, २०२३", language="mr"))["date"] == "2023-08-05"
    assert values(doc_of("तारीख 3 सितंबर 2022", language="hi"))["date"] == "2022-09-03"
    # फ़रवरी with the nukta, precomposed or not, and without it
    for month in ("\u095eरवरी", "\u092b\u093cरवरी", "फरवरी"):
        assert values(doc_of(f"दिनांक 7 {month} 2024", language="hi"))["date"] == "2024-02-07"
    assert values(doc_of("दिनांक ३१ अक्टूबर २०२३", language="hi"))["year"] == 2023


def test_hindi_and_marathi_period_ends_come_after_the_date():
    hindi = find_fields(doc_of("31 मार्च 2024 को समाप्त तिमाही के वित्तीय परिणाम", language="hi"))
    assert hindi["date"] == Found("2024-03-31", "cover: को समाप्त तिमाही")
    assert hindi["period"].value == "2024 Q1"
    marathi = find_fields(doc_of("३० जून २०२३ रोजी संपलेल्या तिमाहीचे निकाल", language="mr"))
    assert marathi["date"].value == "2023-06-30" and marathi["period"].value == "2023 Q2"
    yearly = find_fields(doc_of("३१ मार्च २०२४ रोजी संपलेल्या वर्षाचा अहवाल", language="mr"))
    assert yearly["date"].value == "2024-03-31" and "period" not in yearly


def test_figures_in_an_order_that_could_be_either_are_read_day_first_only_in_hindi_and_marathi():
    assert values(doc_of("Date: 13/03/2024"))["date"] == "2024-03-13"
    assert values(doc_of("Date: 03/13/2024"))["date"] == "2024-03-13"
    assert values(doc_of("Date: 05/05/2024"))["date"] == "2024-05-05"
    assert "date" not in values(doc_of("Date: 01/07/2023"))  # 1 July or January 7
    assert values(doc_of("दिनांक १२/०३/२०२४", language="mr"))["date"] == "2024-03-12"
    assert values(doc_of("दिनांक 01.07.2023", language="hi"))["date"] == "2023-07-01"


@pytest.mark.parametrize("text", ["Date: February 30, 2023", "Date: 32 March 2024", "Date: 12 March 1850",
                                  "Date: 12 March 2150", "Date: 2024-13-01", "Date: 00/00/2024"])
def test_no_date_that_does_not_exist_or_lies_outside_1900_2100(text):
    assert "date" not in values(doc_of(text)) and "year" not in values(doc_of(text))


def test_date_forms():
    assert date_at("July 1, 2023") == dt.date(2023, 7, 1)
    assert date_at("Jul. 1 2023") == dt.date(2023, 7, 1)
    assert date_at("1 July 2023") == dt.date(2023, 7, 1)
    assert date_at("1-Jul-2023") == dt.date(2023, 7, 1)
    assert date_at("2023/07/01") == dt.date(2023, 7, 1)
    assert date_at("१२ मार्च २०२४") == dt.date(2024, 3, 12)
    assert date_at("12 मे 2024") == dt.date(2024, 5, 12)
    assert date_at("01/07/2023") is None and date_at("01/07/2023", day_first=True) == dt.date(2023, 7, 1)
    assert date_at("Mayor 1, 2023") is None


def test_only_the_first_two_pages_are_looked_at():
    page = "Crop advice for the season. " * 20 + "\n"
    text = page * 3 + "Date: 12 March 2024\n"
    starts = (0, len(page), 2 * len(page))
    assert "date" not in values(doc_of(text, pages=starts))
    assert values(doc_of(text, pages=()))["date"] == "2024-03-12"  # no pages, well within the top


# -- period --------------------------------------------------------------------------------------

def test_calendar_quarter_of_a_period_end():
    assert calendar_quarter(dt.date(2022, 6, 25)) == "2022 Q2"  # Apple's fiscal 2022 Q3
    assert calendar_quarter(dt.date(2022, 12, 31)) == "2022 Q4"
    assert calendar_quarter(dt.date(2022, 10, 30)) == "2022 Q3"  # Nvidia: August to October
    assert calendar_quarter(dt.date(2023, 1, 1)) == "2022 Q4"  # a 53-week year's end


@pytest.mark.parametrize("text, quarter", [
    ("third quarter of fiscal 2023", "2023 Q3"), ("Q3 2023", "2023 Q3"), ("Q3 FY24", "2024 Q3"),
    ("fiscal 2023 third quarter", "2023 Q3"), ("2023 Q4", "2023 Q4"), ("first quarter of fiscal year 2024", "2024 Q1"),
    ("Q1 of fiscal year 2022", "2022 Q1"), ("2023 की तीसरी तिमाही", "2023 Q3"), ("तिसऱ्या तिमाहीत 2023", "2023 Q3"),
    ("Q2 २०२४", "2024 Q2"), ("no quarter here", None), ("Q5 2023", None), ("Q3 1850", None)])
def test_stated_quarters(text, quarter):
    assert stated_quarter(text) == quarter


def test_a_quarter_stated_near_the_top_of_a_quarterly_document_wins_over_the_calendar():
    text = COVER_10Q + "\nResults for the second quarter of fiscal 2023 are set out below.\n"
    assert find_fields(doc_of(text))["period"] == Found("2023 Q2", "quarter stated near the top")
    apple = "For the quarterly period ended June 25, 2022\n\nApple's third quarter of fiscal 2022."
    assert find_fields(doc_of(apple))["period"] == Found("2022 Q3", "quarter stated near the top")


def test_a_quarter_only_for_quarterly_documents():
    assert "period" not in values(doc_of("Annual report. In Q3 2023 we opened two plants."))
    assert "period" not in values(doc_of("For the fiscal year ended June 30, 2023. Q3 2023 was strong."))
    titled = find_fields(doc_of("Revenue grew.", title="Q3 2023 Results"))
    assert titled["period"] == Found("2023 Q3", "quarter in the title")
    assert titled["year"] == Found(2023, "year of the period")


def test_a_quarter_in_the_running_headers():
    furniture = [{"kind": "page_footer", "text": f"Apple Inc. | Q3 2022 Form 10-Q | {n}", "page": n + 3}
                 for n in (1, 2, 3)]
    doc = doc_of("For the quarterly period ended June 25, 2022\n\nApple Inc.", metadata={"furniture": furniture})
    found = find_fields(doc)
    assert found["period"] == Found("2022 Q3", "quarter in the running header")
    assert found["year"] == Found(2022, "year of the date")
    once = doc_of("Text.", metadata={"furniture": furniture[:1]})
    assert "period" not in values(once)  # a header seen once is no running header


# -- title, year, language, folder ---------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "FOR IMMEDIATE RELEASE", "Press Release", "Table of Contents", "(Mark One)", "Washington, D.C. 20549",
    "One Apple Park Way, Cupertino, California 95014", "July 1, 2023", "१२ मार्च २०२४", "Date: 12 March 2024",
    "Page 3 of 10", "12", "www.example.com", "info@example.com", "—", "a " * 40])
def test_lines_that_are_no_title(line):
    assert not is_title(line)
    assert "title" not in values(doc_of("Body text of the page.", title=line))


@pytest.mark.parametrize("line", [
    "Cotton Crop-Care Manual (MADE UP)", "संत्रा बाग व्यवस्थापन पुस्तिका (काल्पनिक)", "Apple Inc.",
    "Crop Insurance Scheme 2024: Kharif Notice", "Row and Column Access Control Support in IBM DB2 for i",
    "Press release templates for beginners and the people who write them"])
def test_titles(line):
    assert is_title(line)
    assert find_fields(doc_of("Body.", title=line))["title"] == Found(line, "title element")


def test_no_title_without_a_title_element_not_the_file_name():
    assert "title" not in values(doc_of("Sow after the first rain.", source="notes/sowing.txt"))
    pdf_like = doc_of("Body.", metadata={"title": "Seed Subsidy Circular"})
    assert find_fields(pdf_like)["title"] == Found("Seed Subsidy Circular", "reader's title")


@pytest.mark.parametrize("cover", [
    "FORM 10-Q\n\nNVIDIA CORPORATION\n\n(Exact name of registrant as specified in its charter)\n\nDelaware",
    "Commission File Number 000-06217\n\nNVIDIA CORPORATION\n(Exact name of Registrant as specified in its charter) "
    "Delaware (State or other jurisdiction)",
])
def test_an_sec_covers_registrant_is_the_title_where_no_title_element_is(cover):
    # Intel's and Nvidia's 10-Qs: no title element, so the context line's title was the file name
    doc = doc_of(cover + "\n\nPART I. FINANCIAL INFORMATION", source="2023 Q3 NVDA.pdf", pages=(0, len(cover)))
    assert find_fields(doc)["title"] == Found("NVIDIA CORPORATION", "cover: name of registrant")
    once = with_found_fields(doc)
    assert with_found_fields(once).metadata == once.metadata  # found again by its rule, not as a reader's title
    assert once.metadata[FOUND_FIELDS]["title"] == "cover: name of registrant"
    # on the cover only, and never an address or a banner
    later = doc_of("Body.\n\nNVIDIA CORPORATION\n(Exact name of registrant as specified in its charter)",
                   pages=(0, 6))
    assert "title" not in values(later)


def test_year_in_the_title():
    assert find_fields(doc_of("Body.", title="Crop Insurance Scheme 2024: Kharif Notice"))["year"] \
        == Found(2024, "year in the title")
    assert values(doc_of("Body.", title="बीज अनुदान परिपत्रक २०१९"))["year"] == 2019
    assert "year" not in values(doc_of("Body.", title="Rules of 1850 and the 12345 acts"))


def test_language_and_folder():
    found = find_fields(doc_of("Text.", source="manuals/cotton.md", language="hi"))
    assert found["language"] == Found("hi", "language detector")
    assert found["folder"] == Found("manuals", "folder")
    assert "language" not in values(doc_of("Text.", language="und"))
    assert "folder" not in values(doc_of("Text.", source=""))


# -- on the document: read, catalog over found, context, cache -----------------------------------

def test_read_puts_found_fields_on_the_metadata(tmp_path):
    folder = tmp_path / "filings"
    folder.mkdir()
    f = folder / "intel.txt"
    f.write_text(COVER_10Q, encoding="utf-8")
    doc = read(f)
    assert doc.metadata["date"] == "2023-07-01" and doc.metadata["period"] == "2023 Q2"
    assert doc.metadata["year"] == 2023 and isinstance(doc.metadata["year"], int)
    assert doc.metadata["folder"] == "filings" and "language" not in doc.metadata
    assert doc.metadata[FOUND_FIELDS] == {"title": "cover: name of registrant", "date": "cover: quarterly period ended",
                                         "period": "calendar quarter of the period end",
                                         "year": "year of the date", "folder": "folder"}
    assert doc.metadata["title"] == "INTEL CORPORATION"
    assert "date" not in read(f, found=False).metadata
    chunks = seamcut.chunk(doc, strategy="paragraph", context="fields")
    assert {c.context for c in chunks} == {"date: 2023-07-01; period: 2023 Q2; year: 2023\n"}
    assert all(c.metadata["year"] == 2023 and FOUND_FIELDS not in c.metadata for c in chunks)
    assert FOUND_FIELDS in DOCUMENT_ONLY and FOUND_FIELDS in RESERVED and "aliases" in RESERVED


def test_a_catalogs_fields_override_and_extend_the_found_ones(tmp_path):
    f = tmp_path / "intel.txt"
    f.write_text(COVER_10Q, encoding="utf-8")
    doc = read(f, fields={"company": "Intel", "year": 2024, "folder": "10-Q"})
    meta = doc.metadata
    assert meta["year"] == 2024 and meta["folder"] == "10-Q" and meta["company"] == "Intel"
    assert set(meta[FOUND_FIELDS]) == {"title", "date", "period"}  # the catalog's year and folder win
    assert fields_line(doc) == "company: Intel; year: 2024; folder: 10-Q; date: 2023-07-01; period: 2023 Q2"
    sources = field_sources(doc)
    assert sources["year"] == (2024, "catalog") and sources["date"] == ("2023-07-01", "cover: quarterly period ended")
    assert sources["language"] == ("en", "language detector")


def test_with_found_fields_finds_again_and_keeps_a_readers_title():
    doc = doc_of(COVER_10Q, source="filings/intel.txt", metadata={"title": "INTEL CORPORATION"})
    once = with_found_fields(doc)
    assert with_found_fields(once).metadata == once.metadata
    stale = dataclasses.replace(once, metadata={**once.metadata, "period": "1999 Q1",
                                                FOUND_FIELDS: {**once.metadata[FOUND_FIELDS], "period": "old rule"}})
    assert with_found_fields(stale).metadata == once.metadata  # an older rule's value is found again
    assert once.metadata["title"] == "INTEL CORPORATION" and "title" in once.metadata[FOUND_FIELDS]
    assert with_found_fields(doc_of("nothing to find here at all")).metadata == {}


def test_the_parse_cache_holds_the_parse_and_fields_are_found_after(tmp_path):
    from seamcut.pipeline.corpus import Limits, read_corpus
    f = tmp_path / "intel.txt"
    f.write_text(COVER_10Q, encoding="utf-8")
    cache = tmp_path / "cache"
    first = read_corpus([f], cache=cache, progress=False, limits=Limits(workers=0)).documents[0]
    stored = [json.loads(p.read_text(encoding="utf-8")) for p in cache.glob("*.json")]
    assert len(stored) == 1 and "2023-07-01" not in json.dumps(stored[0])  # no found field cached
    again = read_corpus([f], cache=cache, progress=False, limits=Limits(workers=0)).documents[0]
    assert first.metadata == again.metadata and again.metadata["date"] == "2023-07-01"


def test_helpline_pdfs():
    notice = read(HELPLINE / "crop-insurance-2024.pdf")
    assert notice.metadata["year"] == 2024 and notice.metadata[FOUND_FIELDS]["year"] == "year in the title"
    assert notice.metadata["folder"] == "helpline" and notice.metadata["title"].startswith("Crop Insurance")
    marathi = read(HELPLINE / "orange-manual-mr.pdf")
    assert marathi.metadata["title"] == "संत्रा बाग व्यवस्थापन पुस्तिका (काल्पनिक)" and "year" not in marathi.metadata


# -- catalog aliases -----------------------------------------------------------------------------

def test_catalog_aliases(tmp_path):
    cat = tmp_path / "catalog.csv"
    cat.write_text("file,company,crop,year\na.md,Apple|AAPL,cotton|कापूस|कपास,2025|FY25\nb.md,Intel,soybean,2024\n",
                   encoding="utf-8")
    catalog = load_catalog(cat)
    assert catalog.fields_for("a.md") == {"company": "Apple", "crop": "cotton", "year": 2025,
                                          "aliases": {"company": ["AAPL"], "crop": ["कापूस", "कपास"],
                                                      "year": ["FY25"]}}
    assert catalog.fields_for("b.md") == {"company": "Intel", "crop": "soybean", "year": 2024}
    f = tmp_path / "a.md"
    f.write_text("# Notes\n\nSow after the first rain.\n", encoding="utf-8")
    doc = read(f, fields=catalog.fields_for(f))
    assert doc.metadata["catalog_fields"] == ["company", "crop", "year"]
    assert doc.metadata["aliases"]["crop"] == ["कापूस", "कपास"]
    assert fields_line(doc) == "company: Apple (AAPL); crop: cotton (कापूस, कपास); year: 2025 (FY25)"
    assert field_sources(doc)["crop"] == ("cotton", "catalog, aliases: कापूस, कपास")
    ycat = tmp_path / "catalog.yaml"
    ycat.write_text("a.md:\n  company: Apple|AAPL\n", encoding="utf-8")
    assert load_catalog(ycat).fields_for("a.md")["aliases"] == {"company": ["AAPL"]}


@pytest.mark.parametrize("cell", ["Apple||AAPL", "|Apple", "Apple|", "Apple| |AAPL", "|"])
def test_an_empty_alternative_is_an_error_naming_the_row_and_field(tmp_path, cell):
    cat = tmp_path / "catalog.csv"
    cat.write_text(f"file,company\na.md,{cell}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line 2, entry 1: field 'company' has an empty alternative"):
        load_catalog(cat)


def test_aliases_and_found_fields_are_names_a_catalog_cannot_take(tmp_path):
    for name in ("aliases", "found_fields"):
        cat = tmp_path / "catalog.csv"
        cat.write_text(f"file,{name}\na.md,x\n", encoding="utf-8")
        with pytest.raises(InputError, match="a name seamcut sets itself"):
            load_catalog(cat)


# -- seamcut read --------------------------------------------------------------------------------

def test_read_command_shows_each_field_and_where_it_came_from(tmp_path):
    from typer.testing import CliRunner

    from seamcut.cli import app
    folder = tmp_path / "filings"
    folder.mkdir()
    f = folder / "intel.txt"
    f.write_text(COVER_10Q, encoding="utf-8")
    (folder / "catalog.csv").write_text("file,company,year\nintel.txt,Intel|INTC,2024\n", encoding="utf-8")
    runner = CliRunner()
    r = runner.invoke(app, ["read", str(f), "--catalog", str(folder / "catalog.csv")])
    assert r.exit_code == 0, r.output
    assert "<!-- fields\n" in r.stdout
    for line in ("company: Intel (catalog, aliases: INTC)", "year: 2024 (catalog)",
                 "date: 2023-07-01 (cover: quarterly period ended)",
                 "period: 2023 Q2 (calendar quarter of the period end)", "folder: filings (folder)",
                 "language: en (language detector)"):
        assert line in r.stdout, r.stdout[:800]
    r = runner.invoke(app, ["read", str(f), "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["fields"]["date"] == {"value": "2023-07-01", "from": "cover: quarterly period ended"}
    assert data["fields"]["year"] == {"value": 2023, "from": "year of the date"}
    assert data["metadata"]["found_fields"]["folder"] == "folder"


# -- never raises --------------------------------------------------------------------------------

_PIECES = st.sampled_from([
    "Date: ", "Dated ", "दिनांक ", "दि. ", "for the quarterly period ended ", "fiscal year ended ",
    "को समाप्त तिमाही", "रोजी संपलेल्या वर्ष", "Q3 ", "FY", "third quarter of fiscal ", "तीसरी तिमाही ",
    "July ", "मार्च ", "फ़रवरी ", "31, ", "1st ", "१२ ", "२०२४", "2023", "1850", "9999", "0000", "13/13/",
    "/", ".", "-", "\n", " ", "Page 3 of ", "FOR IMMEDIATE RELEASE", "\u093c", "\ud800"])
TEXTS = st.one_of(st.text(max_size=400), st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=60).map("".join))


@settings(max_examples=int(os.environ.get("SEAMCUT_EXAMPLES", "200")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, title=st.one_of(st.none(), TEXTS), language=st.sampled_from(["en", "hi", "mr", "und", None]),
       source=st.sampled_from(["", "a.txt", "docs/a.txt", "/", "x://y/z"]),
       furniture=st.lists(st.fixed_dictionaries({"text": TEXTS}), max_size=4))
def test_find_fields_never_raises_and_years_stay_in_range(text, title, language, source, furniture):
    doc = doc_of(text, title, source=source, language=language, metadata={"furniture": furniture},
                 pages=(0, len(text) // 2) if text else ())
    found = find_fields(doc)
    assert set(found) <= {"title", "date", "period", "year", "language", "folder"}
    if "year" in found:
        assert isinstance(found["year"].value, int) and 1900 <= found["year"].value <= 2100
    if "date" in found:
        assert 1900 <= dt.date.fromisoformat(str(found["date"].value)).year <= 2100
    if "period" in found:
        year, q = str(found["period"].value).split(" Q")
        assert 1900 <= int(year) <= 2100 and q in "1234"
    assert all(isinstance(f.rule, str) and f.rule for f in found.values())
    with_found_fields(doc)  # nor does putting them on the metadata
