"""The plan of the MADE UP scale corpus: which documents, their facts and the questions on them.

Everything is drawn from one ``random.Random(seed)`` in a fixed order, so the same page count and
seed give the same plan. Every value a question can ask for (a dose, a sowing window, a last date,
a rainfall total, ...) is drawn through :class:`Unique`: no two values of one family are equal or
contain one another, so an answer string occurs on one page of the corpus only (make_corpus.py
checks this on the PDFs' text).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from corpus_words import (ABSENT_CROPS, CROPS, DAYS_IN_MONTH, DISEASES, DISTRICTS, FUNGICIDES, MONTHS,
                          MONTHS_HI, MONTHS_MR, PESTS, PRODUCTS, SCHEMES, SEED_FUNGICIDES, YEARS)

FULL_PAGES = 9000
#: share of the pages per kind of document (real PDFs come on top, about 0.6%)
SHARES = {"manual-en": 0.28, "manual-dev": 0.15, "faq": 0.15, "notice": 0.20, "advisory": 0.22}
#: at full size: one English manual per crop, Hindi or Marathi manuals for 30 crops
FULL_MANUALS_EN, FULL_MANUALS_DEV = len(CROPS), 30
#: Hindi/Marathi share of the FAQs, notices and advisories (manuals-dev are all Devanagari)
DEV_SHARE = 0.3
#: share of the pages scanned (image only); the issue asks for at least 5%
SCAN_TARGET = 0.065
VARIETY_WORDS = ["Krishna", "Sona", "Tara", "Godavari", "Purna", "Wainganga", "Tapi", "Bhima", "Koyna",
                 "Penganga", "Indrayani", "Manjira", "Kanhan", "Pranhita", "Girna", "Panchganga"]
FERTILISER_STAGES = ["At sowing (basal dose)", "30 days after sowing", "At flowering"]
IRRIGATION_STAGES = ["Establishment", "Vegetative growth", "Flowering", "Grain or fruit filling"]


class Unique:
    """Values drawn per family so that none equals or contains another of its family."""

    def __init__(self) -> None:
        self.taken: dict[str, list[str]] = {}

    def draw(self, family: str, make: Callable[[], str]) -> str:
        values = self.taken.setdefault(family, [])
        for _ in range(20000):
            value = make()
            if not any(value in old or old in value for old in values):
                values.append(value)
                return value
        raise RuntimeError(f"no free value left in family {family!r} after {len(values)} values")


@dataclass
class Question:
    """One question: ``must`` holds the answer's alternatives, the first one on ``source``."""

    question: str
    must: list[str]
    source: str | None
    kind: str
    language: str


@dataclass
class Doc:
    """One document to render: ``pages`` is a target (WeasyPrint decides the real count)."""

    name: str
    kind: str  # manual, faq, notice, advisory
    lang: str  # en, hi, mr
    crop: str  # English crop name, or "all"
    year: int
    pages: int
    scanned: bool
    seed: int
    facts: dict = field(default_factory=dict)
    questions: list[Question] = field(default_factory=list)


def dev_month(lang: str) -> list[str]:
    return MONTHS_HI if lang == "hi" else MONTHS_MR


def crop_name(crop: int, lang: str) -> str:
    en, hi, mr, _ = CROPS[crop]
    return {"en": en, "hi": hi, "mr": mr}[lang]


def slug(text: str) -> str:
    return "-".join(text.lower().replace("(", "").replace(")", "").split())


class Planner:
    """Draws the documents of one corpus in a fixed order from ``random.Random(seed)``."""

    def __init__(self, pages: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.unique = Unique()
        self.names: set[str] = set()
        self.crop_facts: dict[int, dict] = {}

    # -- values --------------------------------------------------------------------------------------
    def _decimal(self, family: str, lo: float, hi: float, digits: int, unit: str) -> str:
        return self.unique.draw(family, lambda: f"{self.rng.uniform(lo, hi):.{digits}f} {unit}")

    def _rain(self, lang: str) -> tuple[str, int]:
        """A week's rain total and its wording (English bulletins word it two ways, so 1,800 totals fit)."""
        form = self.rng.randrange(2) if lang == "en" else 0
        return self._decimal(f"rain-{lang}-{form}", 10.0, 99.9, 1, "mm").split()[0], form

    def _window(self) -> tuple[int, int, int, int]:
        """A sowing window as (day, month, day, month), unique as its English text."""
        def make() -> str:
            month = self.rng.randrange(12)
            day = self.rng.randint(1, DAYS_IN_MONTH[month])
            length = self.rng.randint(10, 40)
            end_month, end_day = month, day + length
            while end_day > DAYS_IN_MONTH[end_month]:
                end_day -= DAYS_IN_MONTH[end_month]
                end_month = (end_month + 1) % 12
            return f"{day} {MONTHS[month]} to {end_day} {MONTHS[end_month]}"

        text = self.unique.draw("window", make)
        d1, m1, _, d2, m2 = text.split()
        return int(d1), MONTHS.index(m1), int(d2), MONTHS.index(m2)

    def _date(self, year: int) -> tuple[int, int, int]:
        """A last date, unique as its English text (dates in other words are written 01-07-2026)."""
        def make() -> str:
            month = self.rng.randrange(12)
            return f"{self.rng.randint(1, DAYS_IN_MONTH[month])} {MONTHS[month]} {year}"

        day, month, yr = self.unique.draw("date", make).split()
        return int(day), MONTHS.index(month), int(yr)

    def _name(self, stem: str) -> str:
        name, n = f"{stem}.pdf", 2
        while name in self.names:
            name, n = f"{stem}-{n}.pdf", n + 1
        self.names.add(name)
        return name

    # -- crop facts (shared by a crop's English and Devanagari manuals) ------------------------------
    def crop(self, crop: int) -> dict:
        if crop in self.crop_facts:
            return self.crop_facts[crop]
        rng, group = self.rng, CROPS[crop][3]
        pests = [i for i, p in enumerate(PESTS) if group in p[3].split()]
        pests = rng.sample(pests, min(len(pests), rng.randint(6, 10)))
        diseases = rng.sample(range(len(DISEASES)), rng.randint(4, 6))
        varieties = [self.unique.draw("variety", lambda: f"{rng.choice(VARIETY_WORDS)}-{rng.randint(100, 999)}")
                     for _ in range(rng.randint(5, 8))]
        facts = {
            "crop": crop,
            "pests": [{"pest": p, "dose": self._decimal("ml", 0.2, 9.9, 2, "ml per litre").split()[0],
                       "repeat": rng.randint(5, 21), "threshold": rng.randint(2, 20)} for p in pests],
            "diseases": [{"disease": d, "fungicide": rng.choice(FUNGICIDES),
                          "dose": self._decimal("g", 0.2, 9.9, 2, "g per litre").split()[0],
                          "repeat": rng.randint(7, 21)} for d in diseases],
            "seed_treatment": self.unique.draw(
                "seed", lambda: f"{rng.uniform(1, 9.9):.1f} g of {rng.choice(SEED_FUNGICIDES)} per kg of seed"),
            "spacing": self.unique.draw(
                "spacing", lambda: f"{rng.randrange(30, 300, 5)} cm between rows and "
                                   f"{rng.randrange(5, 200, 5)} cm between plants"),
            "seed_rate": self._decimal("seedrate", 1.0, 60.0, 1, "kg seed per acre"),
            "varieties": [{"name": v, "days": rng.randint(85, 190),
                           "yield": self._decimal("yield", 10.0, 99.9, 1, "quintals per acre").split()[0]}
                          for v in varieties],
            "windows": [{"district": d, "window": self._window(), "variety": rng.choice(varieties)}
                        for d in range(len(DISTRICTS))],
            "fertiliser": [{"stage": s, "urea": self._decimal("urea", 10.0, 99.9, 1, "kg urea").split()[0],
                            "dap": rng.randint(10, 60)} for s in FERTILISER_STAGES],
            "irrigation": [{"stage": s, "interval": rng.randint(4, 20),
                            "water": self._decimal("water", 10.0, 99.9, 1, "mm of water").split()[0]}
                           for s in IRRIGATION_STAGES],
            "moisture": self._decimal("moisture", 8.0, 14.9, 1, "percent moisture").split()[0],
        }
        self.crop_facts[crop] = facts
        return facts

    # -- documents ------------------------------------------------------------------------------------
    def manual(self, crop: int, lang: str, pages: int, scanned: bool = False) -> Doc:
        year = self.rng.choice(YEARS)
        tag = "" if lang == "en" else f"-{lang}"
        doc = Doc(self._name(f"{slug(CROPS[crop][0])}-manual-{year}{tag}"), "manual", lang, CROPS[crop][0],
                  year, pages, scanned, self.rng.randrange(2**31), self.crop(crop))
        return doc

    def notice(self, lang: str, pages: int, scanned: bool) -> Doc:
        rng = self.rng
        scheme, district, year = rng.randrange(len(SCHEMES)), rng.randrange(len(DISTRICTS)), rng.choice(YEARS)
        facts = {
            "scheme": scheme, "district": district, "last_date": self._date(year),
            "subsidy": self.unique.draw("subsidy", lambda: f"{rng.randint(1000, 9999):,}"),
            "premium": self._decimal("premium", 0.5, 9.9, 2, "percent").split()[0],
            "form": self.unique.draw("form", lambda: f"Form {rng.choice('ABCDEFGHKLMNPRSTW')}"
                                                     f"{rng.choice('ABCDEFGHKLMNPRSTW')}-{rng.randint(1000, 9999)}"),
            "phone": self.unique.draw("phone", lambda: f"1800-{rng.randint(100, 999)}-{rng.randint(1000, 9999)}"),
            "issued": (rng.randint(1, 28), rng.randrange(12)),
            "crop": rng.randrange(len(CROPS)) if rng.random() < 0.5 else None,
        }
        tag = "" if lang == "en" else f"-{lang}"
        stem = f"{slug(SCHEMES[scheme][0])}-{DISTRICTS[district][0].lower()}-{year}{tag}" + ("-scan" if scanned else "")
        crop = CROPS[facts["crop"]][0] if facts["crop"] is not None else "all"
        return Doc(self._name(stem), "scheme notice", lang, crop, year, pages, scanned, rng.randrange(2**31), facts)

    def advisory(self, lang: str, pages: int, scanned: bool) -> Doc:
        rng = self.rng
        district, year, week = rng.randrange(len(DISTRICTS)), rng.choice(YEARS), rng.randint(1, 52)
        crops = rng.sample(range(len(CROPS)), rng.randint(3, 6))
        pest = rng.choice([i for i, p in enumerate(PESTS) if CROPS[crops[0]][3] in p[3].split()])
        facts = {
            "district": district, "week": week, "crops": crops, "pest": pest,
            "rain": self._rain(lang),
            "advice": self.unique.draw(f"advice-{lang}", lambda: f"{rng.choice(PRODUCTS)} at {rng.randint(10, 250)} ml"),
            "days": [(rng.randint(0, 40), rng.randint(26, 42), rng.randint(14, 27), rng.randint(40, 95))
                     for _ in range(5)],
        }
        tag = "" if lang == "en" else f"-{lang}"
        stem = f"advisory-{DISTRICTS[district][0].lower()}-{year}-w{week:02d}{tag}" + ("-scan" if scanned else "")
        return Doc(self._name(stem), "advisory", lang, "all", year, pages, scanned, rng.randrange(2**31), facts)

    def faq(self, crop: int, year: int, lang: str, pages: int) -> Doc:
        facts = {"crop": crop, "msp": self.unique.draw("msp", lambda: f"{self.rng.randint(1200, 9800):,}"),
                 "germination": self._decimal("germination", 60.0, 98.9, 1, "percent").split()[0]}
        tag = "" if lang == "en" else f"-{lang}"
        return Doc(self._name(f"faq-{slug(CROPS[crop][0])}-{year}{tag}"), "faq", lang, CROPS[crop][0], year, pages,
                   False, self.rng.randrange(2**31), facts)


def _lengths(rng: random.Random, count: int, lo: int, hi: int, budget: float) -> list[int]:
    """``count`` lengths in [lo, hi], scaled down (not below lo) when they overrun ``budget`` pages."""
    lengths = [rng.randint(lo, hi) for _ in range(count)]
    if sum(lengths) > 1.1 * budget:
        scale = budget / sum(lengths)
        lengths = [max(lo, round(x * scale)) for x in lengths]
    return lengths


def _small_docs(rng: random.Random, budget: float, lo: int, hi: int) -> list[int]:
    """Lengths of small documents until ``budget`` pages (at least one document)."""
    lengths: list[int] = []
    while not lengths or sum(lengths) < budget:
        lengths.append(rng.randint(lo, hi))
    return lengths


def plan(pages: int = FULL_PAGES, seed: int = 12) -> list[Doc]:
    """The documents of a corpus of about ``pages`` pages (every kind and language at any size)."""
    p = Planner(pages, seed)
    rng, scale = p.rng, pages / FULL_PAGES
    crops = list(range(len(CROPS)))
    rng.shuffle(crops)
    n_en = max(2, min(len(CROPS), round(FULL_MANUALS_EN * scale)))
    n_dev = max(1, min(len(CROPS), round(FULL_MANUALS_DEV * scale)))
    en_lengths = _lengths(rng, n_en, 22, 78, SHARES["manual-en"] * pages)  # WeasyPrint may add or take one
    dev_lengths = _lengths(rng, n_dev, 20, 70, SHARES["manual-dev"] * pages)
    faq_lengths = _small_docs(rng, SHARES["faq"] * pages, 5, 15)
    notice_lengths = _small_docs(rng, SHARES["notice"] * pages, 1, 4)
    advisory_lengths = _small_docs(rng, SHARES["advisory"] * pages, 1, 2)

    # languages and scans first, so the shares hold at any size; then the facts, in a fixed order
    def langs(count: int) -> list[str]:
        dev = round(count * DEV_SHARE) if count > 1 else 0
        out = ["hi" if i % 2 == 0 else "mr" for i in range(dev)] + ["en"] * (count - dev)
        rng.shuffle(out)
        return out

    faq_langs, notice_langs, advisory_langs = langs(len(faq_lengths)), langs(len(notice_lengths)), langs(
        len(advisory_lengths))
    if "en" not in notice_langs:
        notice_langs[0] = "en"
    scan_pages = 0
    want = SCAN_TARGET * sum(en_lengths + dev_lengths + faq_lengths + notice_lengths + advisory_lengths)
    notice_scan, advisory_scan = [False] * len(notice_lengths), [False] * len(advisory_lengths)
    # scanned notices first (old circulars), one advisory in four among them; both kinds at any size
    order = [("n", i) for i in range(len(notice_lengths))]
    order_adv = [("a", i) for i in range(len(advisory_lengths))]
    rng.shuffle(order)
    rng.shuffle(order_adv)
    queue = []
    while order or order_adv:
        for _ in range(3):
            if order:
                queue.append(order.pop())
        if order_adv:
            queue.append(order_adv.pop())
    for kind, i in queue:
        if scan_pages >= want:
            break
        if kind == "n":
            notice_scan[i] = True
            notice_lengths[i] = min(2, notice_lengths[i])  # old circulars, photocopied: one or two pages
            scan_pages += notice_lengths[i]
        else:
            advisory_scan[i] = True
            scan_pages += advisory_lengths[i]

    docs: list[Doc] = []
    for crop, n in zip(crops[:n_en], en_lengths):
        docs.append(p.manual(crop, "en", n))
    dev_crops = crops[n_en:] + crops[:n_en] if n_en < len(crops) and scale < 1 else crops
    for i, (crop, n) in enumerate(zip(dev_crops[:n_dev], dev_lengths)):
        docs.append(p.manual(crop, "hi" if i % 2 == 0 else "mr", n))
    pairs = [(c, y) for c in range(len(CROPS)) for y in YEARS]
    rng.shuffle(pairs)
    for (crop, year), lang, n in zip(pairs, faq_langs, faq_lengths):
        docs.append(p.faq(crop, year, lang, n))
    for lang, n, scanned in zip(notice_langs, notice_lengths, notice_scan):
        docs.append(p.notice(lang, n, scanned))
    for lang, n, scanned in zip(advisory_langs, advisory_lengths, advisory_scan):
        docs.append(p.advisory(lang, n, scanned))
    questions(docs, rng, pages)
    return docs


# -- questions --------------------------------------------------------------------------------------
def _window_text(window: tuple[int, int, int, int], lang: str) -> str:
    d1, m1, d2, m2 = window
    if lang == "en":
        return f"{d1} {MONTHS[m1]} to {d2} {MONTHS[m2]}"
    months = dev_month(lang)
    return f"{d1} {months[m1]} {'से' if lang == 'hi' else 'ते'} {d2} {months[m2]}"


def _date_text(date: tuple[int, int, int], lang: str) -> str:
    day, month, year = date
    return f"{day} {(MONTHS if lang == 'en' else dev_month(lang))[month]} {year}"


#: the answer strings of a fact in each language (make_corpus's markup writes exactly these)
def answer(fact: str, value, lang: str) -> str:
    per_litre = {"en": "per litre", "hi": "प्रति लीटर", "mr": "प्रति लिटर"}[lang]
    if fact == "pest":
        return f"{value} {'ml' if lang == 'en' else 'मिली'} {per_litre}"
    if fact == "disease":
        return f"{value} {'g' if lang == 'en' else 'ग्राम' if lang == 'hi' else 'ग्रॅम'} {per_litre}"
    if fact == "window":
        return _window_text(value, lang)
    if fact == "yield":
        return {"en": f"{value} quintals per acre", "hi": f"{value} क्विंटल प्रति एकड़",
                "mr": f"{value} क्विंटल प्रति एकर"}[lang]
    if fact == "date":
        return _date_text(value, lang)
    if fact == "subsidy":
        return {"en": f"Rs {value} per hectare", "hi": f"₹ {value} प्रति हेक्टेयर", "mr": f"₹ {value} प्रति हेक्टर"}[lang]
    if fact == "rain":
        total, form = value
        if lang == "en":
            return f"rainfall of {total} mm" if form else f"{total} mm of rain"
        return {"hi": f"{total} मिमी बारिश", "mr": f"{total} मिमी पाऊस"}[lang]
    if fact == "advice":
        product, ml = value.rsplit(" at ", 1)
        ml = ml.split()[0]
        return {"en": f"{product} at {ml} ml per 10 litres of water", "hi": f"{product} {ml} मिली प्रति 10 लीटर पानी",
                "mr": f"{product} {ml} मिली प्रति 10 लिटर पाणी"}[lang]
    if fact == "msp":
        return {"en": f"Rs {value} per quintal", "hi": f"₹ {value} प्रति क्विंटल", "mr": f"₹ {value} प्रति क्विंटल"}[lang]
    raise ValueError(fact)


#: a Hindi/Marathi manual's questions: pest dose, disease dose, sowing window, variety yield
DEV_MANUAL_QUESTIONS = {
    "hi": ["{name} में {pest} लगी है, प्रति लीटर कितनी दवा छिड़कें?",
           "{name} में {disease} रोग के लिए प्रति लीटर कितना {fungicide} डालें?",
           "{district} जिले में {name} की बुवाई कब करें?", "{name} की किस्म {variety} की उपज कितनी है?"],
    "mr": ["{name} पिकावर {pest} आढळल्यास प्रति लिटर किती औषध फवारावे?",
           "{name} पिकावरील {disease} साठी प्रति लिटर किती {fungicide} वापरावे?",
           "{district} जिल्ह्यात {name} पेरणी कधी करावी?", "{name} च्या {variety} वाणाचे एकरी उत्पादन किती?"],
}


def _manual_questions(doc: Doc, rng: random.Random, others: dict[str, Doc]) -> list[Question]:
    f, lang, crop = doc.facts, doc.lang, doc.facts["crop"]
    name = crop_name(crop, lang)

    def alts(fact: str, value) -> list[str]:
        # the same fact in the crop's manual in another language is also a right answer
        return [answer(fact, value, lang)] + [answer(fact, value, o.lang) for o in others.values()
                                              if o is not doc and o.lang != lang]

    pest = rng.choice(f["pests"])
    disease = rng.choice(f["diseases"])
    window = rng.choice(f["windows"])
    variety = rng.choice(f["varieties"])
    pe, pd = PESTS[pest["pest"]], DISEASES[disease["disease"]]
    dist = DISTRICTS[window["district"]]
    if lang == "en":
        stage = rng.choice(f["fertiliser"])
        irrigation = rng.choice(f["irrigation"])
        pool = [
            (f"{pe[0]} is on my {name}. How many ml of spray should I mix per litre of water?",
             alts("pest", pest["dose"]), "manual pest dose"),
            (f"My {name} has {pd[0].lower()}. How much {disease['fungicide']} per litre should I spray?",
             alts("disease", disease["dose"]), "manual disease dose"),
            (f"When should {name} be sown in {dist[0]} district?", alts("window", window["window"]),
             "manual sowing window"),
            (f"How many quintals per acre does the {name} variety {variety['name']} give?",
             alts("yield", variety["yield"]), "manual variety yield"),
            (f"How much urea per acre should {name} get {stage['stage'].split(' (')[0].lower()}?",
             [f"{stage['urea']} kg urea"], "manual fertiliser"),
            (f"How much water should each irrigation of {name} give at the {irrigation['stage'].lower()} stage?",
             [f"{irrigation['water']} mm of water"], "manual irrigation"),
            (f"How should I treat {name} seed before sowing?", [f["seed_treatment"]], "manual seed treatment"),
            (f"What spacing should I keep between {name} rows and plants?", [f["spacing"]], "manual spacing"),
            (f"How much {name} seed do I need per acre?", [f["seed_rate"]], "manual seed rate"),
            (f"To what moisture should {name} be dried before storage?", [f"{f['moisture']} percent moisture"],
             "manual storage"),
        ]
        picks = pool[:1] + rng.sample(pool[1:], 2)
    else:
        t, col = DEV_MANUAL_QUESTIONS[lang], 1 if lang == "hi" else 2
        picks = [
            (t[0].format(name=name, pest=pe[col]), alts("pest", pest["dose"]), "manual pest dose"),
            (t[1].format(name=name, disease=pd[col], fungicide=disease["fungicide"]),
             alts("disease", disease["dose"]), "manual disease dose"),
            (t[2].format(name=name, district=dist[1]), alts("window", window["window"]), "manual sowing window"),
            (t[3].format(name=name, variety=variety["name"]), alts("yield", variety["yield"]), "manual variety yield"),
        ]
        picks = picks[:1] + rng.sample(picks[1:], 1)
    return [Question(q, must, doc.name, kind, lang) for q, must, kind in picks]


def _notice_questions(doc: Doc, rng: random.Random) -> list[Question]:
    f, lang = doc.facts, doc.lang
    scheme, dist = SCHEMES[f["scheme"]], DISTRICTS[f["district"]]
    if lang == "en":
        pool = [(f"What is the last date to apply for the {scheme[0]} {doc.year} in {dist[0]} district?",
                 answer("date", f["last_date"], lang), "notice last date"),
                (f"How much subsidy per hectare does the {scheme[0]} {doc.year} give in {dist[0]} district?",
                 answer("subsidy", f["subsidy"], lang), "notice subsidy"),
                (f"Which application form is used for the {scheme[0]} {doc.year} in {dist[0]} district?",
                 f["form"], "notice form")]
    elif lang == "hi":
        pool = [(f"{dist[1]} जिले में {scheme[1]} {doc.year} के लिए आवेदन की अंतिम तिथि क्या है?",
                 answer("date", f["last_date"], lang), "notice last date"),
                (f"{dist[1]} जिले में {scheme[1]} {doc.year} में प्रति हेक्टेयर कितना अनुदान मिलता है?",
                 answer("subsidy", f["subsidy"], lang), "notice subsidy")]
    else:
        pool = [(f"{dist[1]} जिल्ह्यात {scheme[2]} {doc.year} साठी अर्ज करण्याची शेवटची तारीख कोणती?",
                 answer("date", f["last_date"], lang), "notice last date"),
                (f"{dist[1]} जिल्ह्यात {scheme[2]} {doc.year} अंतर्गत प्रति हेक्टर किती अनुदान मिळते?",
                 answer("subsidy", f["subsidy"], lang), "notice subsidy")]
    q, must, kind = rng.choice(pool)
    return [Question(q, [must], doc.name, kind + (" (scan)" if doc.scanned else ""), lang)]


def _advisory_questions(doc: Doc, rng: random.Random) -> list[Question]:
    f, lang = doc.facts, doc.lang
    dist, week, year = DISTRICTS[f["district"]], f["week"], doc.year
    crop, pest = f["crops"][0], PESTS[f["pest"]]
    if lang == "en":
        pool = [(f"How much rain does the {dist[0]} agromet advisory for week {week} of {year} forecast?",
                 answer("rain", f["rain"], lang), "advisory rain"),
                (f"What does the {dist[0]} advisory for week {week} of {year} say to spray against "
                 f"{pest[0].lower()} on {crop_name(crop, lang)}?", answer("advice", f["advice"], lang), "advisory spray")]
    elif lang == "hi":
        pool = [(f"{dist[1]} जिले की {year} के सप्ताह {week} की कृषि मौसम सलाह में कितनी बारिश का अनुमान है?",
                 answer("rain", f["rain"], lang), "advisory rain")]
    else:
        pool = [(f"{dist[1]} जिल्ह्याच्या {year} मधील आठवडा {week} च्या कृषी हवामान सल्ल्यात किती पावसाचा अंदाज आहे?",
                 answer("rain", f["rain"], lang), "advisory rain")]
    q, must, kind = rng.choice(pool)
    return [Question(q, [must], doc.name, kind + (" (scan)" if doc.scanned else ""), lang)]


def _faq_questions(doc: Doc) -> list[Question]:
    name = crop_name(doc.facts["crop"], doc.lang)
    q = {"en": f"What is the minimum support price of {name} in {doc.year}?",
         "hi": f"{doc.year} में {name} का न्यूनतम समर्थन मूल्य कितना है?",
         "mr": f"{doc.year} मध्ये {name} चा किमान हमीभाव किती आहे?"}[doc.lang]
    return [Question(q, [answer("msp", doc.facts["msp"], doc.lang)], doc.name, "faq support price", doc.lang)]


def no_answer_questions(count: int, rng: random.Random) -> list[Question]:
    """Questions about crops in no document (``must_contain: []``)."""
    templates = [("What is the whitefly dose on {c}?", "en"), ("When should {c} be sown in Akola district?", "en"),
                 ("How much subsidy is given for a {c} orchard?", "en"), ("How many quintals per acre does {c} give?", "en")]
    crops = rng.sample(ABSENT_CROPS, min(count, len(ABSENT_CROPS)))
    return [Question(templates[i % len(templates)][0].format(c=c), [], None, "no answer", "en")
            for i, c in enumerate(crops)]


#: questions per document of each kind (a fraction: that share of the documents get one)
RATES = {"manual": None, "faq": 0.5, "scheme notice": 0.12, "advisory": 0.08, "scan": 0.35}


def questions(docs: list[Doc], rng: random.Random, pages: int) -> None:
    """Attach questions to ``docs``: every manual, a share of the others; the first of each kind always."""
    by_crop: dict[str, dict[str, Doc]] = {}
    for d in docs:
        if d.kind == "manual":
            by_crop.setdefault(d.crop, {})[d.lang] = d
    seen: set[tuple[str, bool]] = set()
    for d in docs:
        key = (d.kind, d.scanned)
        first = key not in seen
        seen.add(key)
        if d.kind == "manual":
            d.questions = _manual_questions(d, rng, by_crop[d.crop])
        elif first or rng.random() < (RATES["scan"] if d.scanned else RATES[d.kind]):
            d.questions = {"faq": lambda: _faq_questions(d), "scheme notice": lambda: _notice_questions(d, rng),
                           "advisory": lambda: _advisory_questions(d, rng)}[d.kind]()
