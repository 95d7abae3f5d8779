"""Markup of the MADE UP scale corpus: HTML for the English documents (WeasyPrint, the helpline
example's style.css), Pango markup pages for the Hindi and Marathi ones (pango-view).

Every document is written from its planned facts (corpus_plan.Doc) and, for the running text around
them, from ``random.Random(doc.seed)``: the same plan gives the same markup. Running text uses whole
numbers only, so it never repeats an answer value (those all have decimals or dates in words).
"""
from __future__ import annotations

import math
import random
from html import escape

from corpus_plan import Doc, answer, crop_name
from corpus_words import DISEASES, DISTRICTS, PESTS, SCHEMES

MADE_UP_EN = ("MADE UP: this document was written to test document chunking. Every dose, date, price and "
              "number in it is invented. Do not act on these numbers.")
MADE_UP_HI = "काल्पनिक (MADE UP): यह दस्तावेज़ परीक्षण के लिए लिखा गया है। इसकी मात्राएँ, तारीखें और दाम असली नहीं हैं।"
MADE_UP_MR = "काल्पनिक (MADE UP): हा दस्तऐवज चाचणीसाठी लिहिला आहे. यातील मात्रा, तारखा आणि दर खरे नाहीत."

FILLER_EN = [
    "Walk through the {crop} field at least twice a week and look at the underside of the leaves.",
    "Keep a crop diary: write down the date of sowing, every spray and every irrigation.",
    "Farmers in {district} district who sowed {crop} on ridges saved about {n} percent of water.",
    "Do not burn crop residue; mix it into the soil or use it as mulch.",
    "Clean the sprayer with water after every use and store chemicals away from children.",
    "Remove weeds from the bunds as well, because they shelter pests between seasons.",
    "A soil test every three years tells you how much fertiliser the field really needs.",
    "Buy inputs only from licensed dealers and keep the bill until the harvest is sold.",
    "Sow across the slope on sloping land so that rain water does not wash the soil away.",
    "Where the rain stops for more than {n} days, give a light protective irrigation if water is available.",
    "Extension workers of {district} district hold a field day on {crop} every season; ask the village officer.",
    "Use certified seed; seed kept from the last harvest loses vigour after two seasons.",
    "Rotate {crop} with a pulse crop to break the life cycle of soil-borne pests.",
    "Yellow sticky traps at {n} per acre help to watch the number of flying pests.",
    "Light traps near the field show when the moths start flying.",
    "Neem seed kernel extract at {n} percent is a safe first spray when pest numbers are low.",
    "Birds eat many caterpillars; bird perches at {n} per acre invite them into the field.",
    "Drain excess water within {n} hours after heavy rain; standing water harms the roots.",
    "Mulching with crop residue keeps the soil moist and holds back weeds.",
    "Spray in the morning or evening when the wind is calm, never in the heat of noon.",
    "Wear gloves, a mask and full sleeves while mixing and spraying.",
    "Do not enter the field for {n} hours after a spray.",
    "Sell through the market committee yard to get the declared rate and a receipt.",
    "Group farming lets small farmers share machines and buy inputs at a lower price.",
    "Keep {n} percent of the area under a border crop to attract natural enemies.",
    "A leaf colour chart helps to decide when the crop needs more nitrogen.",
    "A farmer producer company in {district} district buys {crop} from its members at harvest.",
    "Check the weather advisory before every spray; rain within {n} hours washes the spray off.",
    "Store the produce on wooden planks, away from the walls, in a dry and airy room.",
    "Grade the produce before sale; graded lots fetch a better price.",
    "Deep ploughing in summer exposes the resting stages of pests to the sun and to birds.",
    "Farm yard manure at {n} cartloads per acre improves the soil and its water holding.",
    "Gap filling within {n} days of sowing keeps the plant stand even.",
    "Intercropping {crop} with a short pulse gives extra income in a good year and insurance in a bad one.",
    "Do not mix two pesticides in one tank unless the label says it is safe.",
]
FILLER_HI = [
    "सप्ताह में कम से कम दो बार {crop} के खेत में घूमें और पत्तियों की निचली सतह देखें।",
    "फसल डायरी रखें: बुवाई, हर छिड़काव और हर सिंचाई की तारीख लिखें।",
    "{district} जिले के किसानों ने मेड़ पर {crop} बोकर लगभग {n} प्रतिशत पानी बचाया।",
    "फसल के अवशेष न जलाएँ, उन्हें मिट्टी में मिलाएँ।",
    "हर उपयोग के बाद स्प्रेयर को पानी से साफ करें और दवाएँ बच्चों से दूर रखें।",
    "मेड़ों पर उगे खरपतवार भी निकालें, क्योंकि उनमें कीट छिपते हैं।",
    "हर तीन साल में मिट्टी की जाँच कराएँ।",
    "खाद और दवा केवल लाइसेंसधारी विक्रेता से खरीदें और बिल संभाल कर रखें।",
    "यदि {n} दिन से अधिक बारिश न हो, तो पानी उपलब्ध होने पर हल्की सिंचाई करें।",
    "प्रमाणित बीज का ही उपयोग करें।",
    "{crop} के बाद दलहनी फसल लें ताकि मिट्टी के कीटों का चक्र टूटे।",
    "प्रति एकड़ {n} पीले चिपचिपे जाल लगाएँ।",
    "कीट कम हों तो पहले {n} प्रतिशत नीम बीज अर्क का छिड़काव करें।",
    "भारी बारिश के बाद {n} घंटे के भीतर खेत से पानी निकालें।",
    "छिड़काव सुबह या शाम को करें, जब हवा शांत हो।",
    "दवा मिलाते और छिड़कते समय दस्ताने और मास्क पहनें।",
    "छिड़काव के बाद {n} घंटे तक खेत में न जाएँ।",
    "उपज को मंडी समिति में बेचें और रसीद लें।",
    "छिड़काव से पहले मौसम की सलाह देखें।",
    "उपज को सूखे और हवादार कमरे में लकड़ी के तख्तों पर रखें।",
    "गर्मी में गहरी जुताई करने से कीटों की अवस्थाएँ धूप में नष्ट हो जाती हैं।",
    "प्रति एकड़ {n} गाड़ी गोबर की खाद डालने से मिट्टी सुधरती है।",
]
FILLER_MR = [
    "आठवड्यातून किमान दोन वेळा {crop} पिकाच्या शेतात फिरून पानांची खालची बाजू तपासा.",
    "पीक दैनंदिनी ठेवा: पेरणी, प्रत्येक फवारणी आणि प्रत्येक पाणी देण्याची तारीख लिहा.",
    "{district} जिल्ह्यातील शेतकऱ्यांनी सरीवर {crop} लावून सुमारे {n} टक्के पाणी वाचवले.",
    "पिकाचे अवशेष जाळू नका, ते जमिनीत मिसळा.",
    "प्रत्येक वापरानंतर फवारणी यंत्र पाण्याने स्वच्छ करा आणि औषधे मुलांपासून दूर ठेवा.",
    "बांधावरील तणही काढा, कारण त्यात किडी लपतात.",
    "दर तीन वर्षांनी माती परीक्षण करा.",
    "खते आणि औषधे फक्त परवानाधारक विक्रेत्याकडून घ्या आणि बिल जपून ठेवा.",
    "{n} दिवसांपेक्षा जास्त पाऊस न पडल्यास पाणी उपलब्ध असेल तर हलके पाणी द्या.",
    "प्रमाणित बियाणेच वापरा.",
    "{crop} नंतर कडधान्य पीक घ्या म्हणजे जमिनीतील किडींचे चक्र तुटते.",
    "एकरी {n} पिवळे चिकट सापळे लावा.",
    "किडींची संख्या कमी असल्यास आधी {n} टक्के निंबोळी अर्काची फवारणी करा.",
    "मुसळधार पावसानंतर {n} तासांच्या आत शेतातील पाणी काढून टाका.",
    "फवारणी सकाळी किंवा संध्याकाळी, वारा शांत असताना करा.",
    "औषध मिसळताना आणि फवारताना हातमोजे आणि मास्क वापरा.",
    "फवारणीनंतर {n} तास शेतात जाऊ नका.",
    "शेतमाल बाजार समितीत विका आणि पावती घ्या.",
    "फवारणीपूर्वी हवामान सल्ला पाहा.",
    "शेतमाल कोरड्या आणि हवेशीर खोलीत लाकडी फळ्यांवर ठेवा.",
    "उन्हाळ्यात खोल नांगरट केल्याने किडींच्या अवस्था उन्हात नष्ट होतात.",
    "एकरी {n} गाड्या शेणखत दिल्याने जमीन सुधारते.",
]
FILLER = {"en": FILLER_EN, "hi": FILLER_HI, "mr": FILLER_MR}


def sentences(rng: random.Random, lang: str, crop: str, count: int) -> str:
    """``count`` sentences of running text (whole numbers only)."""
    out = []
    for _ in range(count):
        district = DISTRICTS[rng.randrange(len(DISTRICTS))]
        out.append(rng.choice(FILLER[lang]).format(crop=crop, n=rng.randint(2, 40),
                                                   district=district[0] if lang == "en" else district[1]))
    return " ".join(out)


def paragraphs(rng: random.Random, lang: str, crop: str, count: int) -> list[str]:
    return [sentences(rng, lang, crop, rng.randint(3, 6)) for _ in range(count)]


# -- HTML (English) ---------------------------------------------------------------------------------
def _page(title: str, body: str) -> str:
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            f'<title>{escape(title)}</title>\n<link rel="stylesheet" href="style.css"></head>\n<body>\n'
            f"<h1>{escape(title)}</h1>\n<p class=\"madeup\">{MADE_UP_EN}</p>\n{body}</body></html>\n")


def _table(header: list[str], rows: list[list[object]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>\n" for row in rows)
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody></table>\n"


def _ps(texts: list[str]) -> str:
    return "".join(f"<p>{escape(t)}</p>\n" for t in texts)


def _chapter(title: str, body: str) -> str:
    return f'<section class="chapter">\n<h2>{escape(title)}</h2>\n{body}</section>\n'


#: measured on WeasyPrint's output with style.css: a page holds about this many table rows / sentences
ROWS_PER_PAGE, SENTENCES_PER_PAGE = 26, 40
#: a manual with no extra running text or calendar rows; pages per page of extra text asked for
MANUAL_BASE_PAGES, MANUAL_PAGE_GROWTH = 11.3, 1.19


def manual_html(doc: Doc) -> str:
    rng, f = random.Random(doc.seed), doc.facts
    crop = crop_name(f["crop"], "en")
    extra = max(0.0, (doc.pages - MANUAL_BASE_PAGES) / MANUAL_PAGE_GROWTH)
    calendar_rows = int(extra * 0.4 * ROWS_PER_PAGE)
    filler_per_pest = max(1, int(extra * 0.6 * SENTENCES_PER_PAGE / 4.5 / (len(f["pests"]) + len(f["diseases"]))))
    chapters = ["About the crop", "Land preparation and sowing", "Varieties", "Nutrient management",
                "Irrigation schedule", "Weed management", "Pests and the dose table", "Pests one by one",
                "Diseases", "Harvest and storage", "Crop calendar"]
    body = [_ps(paragraphs(rng, "en", crop, 1)), "<h2>Contents</h2>\n<ol>\n",
            "".join(f"<li>{c}</li>\n" for c in chapters), "</ol>\n"]
    cap = crop[0].upper() + crop[1:]
    body.append(_chapter(f"1. About the crop", _ps(paragraphs(rng, "en", crop, 4))))
    steps = [f"Treat the seed with {f['seed_treatment']}.", f"Keep {f['spacing']}.",
             f"Use {f['seed_rate']}.", "Buy certified seed and keep the bill and the seed packet until the harvest.",
             "Prepare a fine seed bed with one ploughing and two harrowings."]
    windows = [[DISTRICTS[w["district"]][0], answer("window", w["window"], "en"), w["variety"]] for w in f["windows"]]
    body.append(_chapter("2. Land preparation and sowing",
                         "<ol>\n" + "".join(f"<li>{escape(s)}</li>\n" for s in steps) + "</ol>\n"
                         + _ps(paragraphs(rng, "en", crop, 1))
                         + f"<h3>Sowing windows by district</h3>\n<p>Sow {escape(crop)} within the window given for "
                           "your district. The variety named is the one the district trials found best.</p>\n"
                         + _table(["District", "Sowing window", "Recommended variety"], windows)))
    varieties = [[v["name"], v["days"], f"{v['yield']} quintals per acre",
                  rng.choice(["rainfed", "irrigated", "light soils", "heavy soils", "late sowing"])]
                 for v in f["varieties"]]
    body.append(_chapter("3. Varieties", _ps(paragraphs(rng, "en", crop, 1))
                         + _table(["Variety", "Duration (days)", "Yield", "Suited to"], varieties)))
    fert = [[s["stage"], f"{s['urea']} kg urea", f"{s['dap']} kg DAP",
             rng.choice(["broadcast and mix into the soil", "in a band beside the row", "with irrigation water"])]
            for s in f["fertiliser"]]
    body.append(_chapter("4. Nutrient management", _ps(paragraphs(rng, "en", crop, 1))
                         + _table(["Stage", "Urea (per acre)", "DAP (per acre)", "How to apply"], fert)
                         + _ps(paragraphs(rng, "en", crop, 1))))
    irrigation = [[s["stage"], f"every {s['interval']} days", f"{s['water']} mm of water"] for s in f["irrigation"]]
    body.append(_chapter("5. Irrigation schedule", _ps(paragraphs(rng, "en", crop, 1))
                         + _table(["Stage", "Interval", "Water per irrigation"], irrigation)))
    body.append(_chapter("6. Weed management", _ps(paragraphs(rng, "en", crop, 2))
                         + "<ul>\n" + "".join(f"<li>{escape(sentences(rng, 'en', crop, 1))}</li>\n" for _ in range(5))
                         + "</ul>\n"))
    doses = [[PESTS[p["pest"]][0], answer("pest", p["dose"], "en"), f"{p['repeat']} days",
              f"{p['threshold']} insects per plant"] for p in f["pests"]]
    body.append(_chapter("7. Pests and the dose table",
                         _ps(paragraphs(rng, "en", crop, 1)) + "<h3>Dose table</h3>\n"
                         + _table(["Pest", "Spray (per litre of water)", "Repeat after", "Threshold"], doses)
                         + _ps(["Spray in the evening, when bees are not foraging. The doses are per litre of water "
                                "for the made-up products named in the advisories; they are not real advice."])))
    pests = "".join(f"<h3>{escape(PESTS[p['pest']][0])}</h3>\n"
                    + _ps([sentences(rng, "en", crop, 4) for _ in range(filler_per_pest)]) for p in f["pests"])
    body.append(_chapter("8. Pests one by one", pests))
    dis = [[DISEASES[d["disease"]][0], f"{d['fungicide']} {answer('disease', d['dose'], 'en')}",
            f"{d['repeat']} days"] for d in f["diseases"]]
    body.append(_chapter("9. Diseases", _table(["Disease", "Spray (per litre of water)", "Repeat after"], dis)
                         + "".join(f"<h3>{escape(DISEASES[d['disease']][0])}</h3>\n"
                                   + _ps([sentences(rng, "en", crop, 4) for _ in range(filler_per_pest)])
                                   for d in f["diseases"])))
    body.append(_chapter("10. Harvest and storage", _ps(paragraphs(rng, "en", crop, 1))
                         + _ps([f"Dry the produce to {f['moisture']} percent moisture before storage."])
                         + _ps(paragraphs(rng, "en", crop, 2))))
    stages = ["land preparation", "sowing", "early growth", "vegetative growth", "flowering", "fruit or grain set",
              "maturity", "harvest"]
    cal = [[f"Week {i + 1}", stages[min(len(stages) - 1, i * len(stages) // max(1, calendar_rows))],
            sentences(rng, "en", crop, 1)] for i in range(calendar_rows)]
    body.append(_chapter("11. Crop calendar", _ps([f"A week-by-week plan for {crop}."])
                         + (_table(["Week", "Stage", "Work to do"], cal) if cal else "")))
    return _page(f"{cap} Crop Manual {doc.year} (MADE UP)", "".join(body))


def notice_html(doc: Doc) -> str:
    rng, f = random.Random(doc.seed), doc.facts
    scheme, dist = SCHEMES[f["scheme"]][0], DISTRICTS[f["district"]][0]
    crop = crop_name(f["crop"], "en") if f["crop"] is not None else "all crops"
    day, month = f["issued"]
    body = [_ps([f"Office of the District Superintending Agriculture Officer, {dist}. Notice issued on "
                 f"{day:02d}-{month + 1:02d}-{doc.year}."]),
            "<h2>About the scheme</h2>\n", _ps(paragraphs(rng, "en", crop, 1)),
            "<h2>Benefit</h2>\n",
            _ps([f"The scheme gives a subsidy of {answer('subsidy', f['subsidy'], 'en')} for {crop}, paid into the "
                 f"farmer's bank account. Where insurance is part of the scheme, the farmer pays "
                 f"{f['premium']} percent of the sum insured as premium."]),
            "<h2>How to apply</h2>\n",
            _ps([f"Fill {f['form']} at the taluka agriculture office or online, and apply before the last date, "
                 f"{answer('date', f['last_date'], 'en')}. Late applications are not accepted."]),
            "<h3>Documents needed</h3>\n<ol>\n<li>Land record (7/12 extract)</li>\n<li>Aadhaar card</li>\n"
            "<li>Bank passbook (first page)</li>\n<li>Sowing certificate from the village officer</li>\n</ol>\n",
            _ps([f"Helpline: {f['phone']} (10 am to 6 pm on working days)."])]
    for _ in range(max(0, doc.pages - 1)):
        body.append("<h2>" + escape(rng.choice(["Frequently asked questions", "Grievances", "Selection of "
                                                "beneficiaries", "Inspection and payment", "Conditions"])) + "</h2>\n")
        body.append(_ps(paragraphs(rng, "en", crop, 5)))
        body.append(_table(["Taluka office", "Working days", "Applications handled per day"],
                           [[f"{dist} taluka office {i + 1}", rng.choice(["Monday to Friday", "Monday to Saturday"]),
                             rng.randint(20, 200)] for i in range(rng.randint(4, 10))]))
    return _page(f"{scheme} {doc.year}, {dist} district: notice (MADE UP)", "".join(body))


def advisory_html(doc: Doc) -> str:
    rng, f = random.Random(doc.seed), doc.facts
    dist, week = DISTRICTS[f["district"]][0], f["week"]
    crops = [crop_name(c, "en") for c in f["crops"]]
    rows = [[f"Day {i + 1}", f"{r} mm", f"{hi} °C", f"{lo} °C", f"{h} %"] for i, (r, hi, lo, h) in enumerate(f["days"])]
    body = [_ps([f"Agromet advisory bulletin for {dist} district, week {week} of {doc.year}, from the district "
                 "agro-meteorology unit."]),
            "<h2>Weather in the coming five days</h2>\n",
            _table(["Day", "Rain", "Maximum", "Minimum", "Humidity"], rows),
            _ps([(f"A total {answer('rain', f['rain'], 'en')} is expected over the week. " if f["rain"][1] else
                  f"In all, {answer('rain', f['rain'], 'en')} is expected over the week. ")
                 + sentences(rng, "en", crops[0], 2)]),
            "<h2>Advice by crop</h2>\n"]
    pest = PESTS[f["pest"]][0].lower()
    body.append(f"<h3>{escape(crops[0].capitalize())}</h3>\n"
                + _ps([f"Where {pest} is seen on {crops[0]}, spray {answer('advice', f['advice'], 'en')}. "
                       + sentences(rng, "en", crops[0], 2)]))
    per_crop = 1 if doc.pages == 1 else 4
    for crop in crops[1:3] if doc.pages == 1 else crops[1:]:
        body.append(f"<h3>{escape(crop.capitalize())}</h3>\n" + _ps([sentences(rng, "en", crop, per_crop)]))
    if doc.pages > 1:
        body.append("<h2>Animal husbandry and general advice</h2>\n" + _ps(paragraphs(rng, "en", crops[0], 2)))
    return _page(f"Agromet Advisory: {dist}, week {week}, {doc.year} (MADE UP)", "".join(body))


def faq_html(doc: Doc) -> str:
    rng, f = random.Random(doc.seed), doc.facts
    crop = crop_name(f["crop"], "en")
    questions = [
        (f"What is the minimum support price of {crop} this year?",
         f"For {doc.year}, the support price of {crop} is {answer('msp', f['msp'], 'en')} of fair average quality."),
        ("What germination should certified seed have?",
         f"Certified {crop} seed must show at least {f['germination']} percent germination in the test."),
    ]
    asks = ["How do I", "When should I", "Where can I", "Why does", "What should I do if", "Can I", "Is it safe to"]
    topics = ["store the harvest", "sell at the market yard", "test my soil", "get a soil health card",
              "claim crop insurance", "control weeds", "save water", "use neem extract", "buy seed",
              "register on the farmer portal", "hire a sprayer", "dispose of pesticide bottles"]
    count = round(doc.pages * 6.4)  # questions per page, measured
    for _ in range(count):
        questions.append((f"{rng.choice(asks)} {rng.choice(topics)} for {crop}?", sentences(rng, "en", crop, 4)))
    first = questions[:2]
    rest = questions[2:]
    rng.shuffle(rest)
    at = rng.randint(0, len(rest))
    questions = rest[:at] + first + rest[at:]
    body = "".join(f"<h3>{i}. {escape(q)}</h3>\n<p>{escape(a)}</p>\n" for i, (q, a) in enumerate(questions, start=1))
    return _page(f"Frequently asked questions on {crop}, {doc.year} (MADE UP)",
                 _ps(["Questions farmers asked the helpline, with the answers of the crop experts."]) + body)


# -- Pango (Hindi, Marathi) --------------------------------------------------------------------------
LINES_PER_PAGE, CHARS_PER_LINE = 31, 66


def _lines(block: str) -> int:
    text = block.replace("<b>", "").replace("</b>", "")
    return sum(max(1, math.ceil(len(line) / CHARS_PER_LINE)) for line in text.split("\n")) + 1


def paginate(blocks: list[str]) -> list[str]:
    """Blocks of markup -> page bodies of about LINES_PER_PAGE lines (a block is never split)."""
    pages: list[list[str]] = [[]]
    used = 0
    for block in blocks:
        n = _lines(block)
        if used + n > LINES_PER_PAGE and pages[-1]:
            pages.append([])
            used = 0
        pages[-1].append(block)
        used += n
    return ["\n\n".join(page) for page in pages]


def _head(text: str) -> str:
    return f'<span size="large" weight="bold">{escape(text, quote=False)}</span>'


def _title(text: str) -> str:
    return f'<span size="x-large" weight="bold">{escape(text, quote=False)}</span>'


WORDS = {
    "hi": {"manual": "फसल देखभाल पुस्तिका", "sowing": "बुवाई", "windows": "जिलेवार बुवाई का समय",
           "variety": "किस्म", "varieties": "किस्में", "days": "दिन", "yield": "उपज", "pests": "कीट और छिड़काव की मात्रा",
           "repeat": "दिन बाद दोबारा", "diseases": "रोग और दवा", "fert": "खाद", "urea": "किलो यूरिया",
           "water": "सिंचाई", "harvest": "कटाई और भंडारण", "about": "फसल के बारे में", "district": "जिला",
           "notes": "अधिक जानकारी", "every": "हर", "mm": "मिमी पानी"},
    "mr": {"manual": "पीक व्यवस्थापन पुस्तिका", "sowing": "पेरणी", "windows": "जिल्हानिहाय पेरणीची वेळ",
           "variety": "वाण", "varieties": "वाण", "days": "दिवस", "yield": "उत्पादन", "pests": "किडी आणि फवारणीची मात्रा",
           "repeat": "दिवसांनी पुन्हा", "diseases": "रोग आणि औषध", "fert": "खते", "urea": "किलो युरिया",
           "water": "पाणी व्यवस्थापन", "harvest": "काढणी आणि साठवण", "about": "पिकाविषयी", "district": "जिल्हा",
           "notes": "अधिक माहिती", "every": "दर", "mm": "मिमी पाणी"},
}


def manual_pango(doc: Doc) -> tuple[list[str], str]:
    rng, f, lang = random.Random(doc.seed), doc.facts, doc.lang
    w, crop = WORDS[lang], crop_name(f["crop"], lang)
    made_up = MADE_UP_HI if lang == "hi" else MADE_UP_MR
    title = f"{crop} {w['manual']} {doc.year} (काल्पनिक)"
    sections: list[tuple[str, list[str]]] = [
        (f"1. {w['about']}", paragraphs(rng, lang, crop, 2)),
        (f"2. {w['sowing']}", [f"{w['windows']}:"] + [
            f"{DISTRICTS[x['district']][1]}: {answer('window', x['window'], lang)}, {w['variety']} {x['variety']}"
            for x in f["windows"]]),
        (f"3. {w['varieties']}", [f"{v['name']}: {v['days']} {w['days']}, {w['yield']} {answer('yield', v['yield'], lang)}"
                                  for v in f["varieties"]]),
        (f"4. {w['fert']}", [f"{i + 1}. {s['urea']} {w['urea']}" for i, s in enumerate(f["fertiliser"])]),
        (f"5. {w['water']}", [f"{i + 1}. {w['every']} {s['interval']} {w['days']}" for i, s in enumerate(f["irrigation"])]),
        (f"6. {w['pests']}", [f"{PESTS[p['pest']][1 if lang == 'hi' else 2]}: {answer('pest', p['dose'], lang)}, "
                              f"{p['repeat']} {w['repeat']}" for p in f["pests"]]),
        (f"7. {w['diseases']}", [f"{DISEASES[d['disease']][1 if lang == 'hi' else 2]}: {d['fungicide']} "
                                 f"{answer('disease', d['dose'], lang)}, {d['repeat']} {w['repeat']}"
                                 for d in f["diseases"]]),
        (f"8. {w['harvest']}", paragraphs(rng, lang, crop, 1)),
    ]
    # table-like sections: one block of lines per section (a dose table stays with its heading)
    blocks = [f"{_title(title)}\n\n<b>{made_up}</b>"]
    core = []
    for head, lines in sections:
        if head.startswith(("2.", "3.", "4.", "5.", "6.", "7.")):
            chunks = [lines[i:i + 24] for i in range(0, len(lines), 24)]
            core.append([_head(head) + "\n" + "\n".join(chunks[0])] + ["\n".join(c) for c in chunks[1:]])
        else:
            core.append([_head(head)] + lines)
    used = len(paginate(blocks + [b for sec in core for b in sec]))
    extra_paras = max(0, doc.pages - used) * LINES_PER_PAGE // 5
    for i in range(extra_paras):
        core[i % len(core)].append(sentences(rng, lang, crop, rng.randint(3, 5)))
    for sec in core:
        blocks.extend(sec)
    header = f"{title} - MADE UP"
    return paginate(blocks), header


def notice_pango(doc: Doc) -> tuple[list[str], str]:
    rng, f, lang = random.Random(doc.seed), doc.facts, doc.lang
    scheme = SCHEMES[f["scheme"]][1 if lang == "hi" else 2]
    dist = DISTRICTS[f["district"]][1]
    crop = crop_name(f["crop"], lang) if f["crop"] is not None else ("सभी फसलें" if lang == "hi" else "सर्व पिके")
    day, month = f["issued"]
    made_up = MADE_UP_HI if lang == "hi" else MADE_UP_MR
    title = f"{scheme} {doc.year}, {dist} (काल्पनिक)"
    date, subsidy = answer("date", f["last_date"], lang), answer("subsidy", f["subsidy"], lang)
    if lang == "hi":
        facts = [f"सूचना दिनांक {day:02d}-{month + 1:02d}-{doc.year}, जिला कृषि अधिकारी कार्यालय, {dist}।",
                 f"इस योजना में {crop} के लिए {subsidy} अनुदान सीधे बैंक खाते में दिया जाता है।",
                 f"आवेदन {f['form']} में तालुका कृषि कार्यालय में जमा करें। आवेदन की अंतिम तिथि {date} है।",
                 f"हेल्पलाइन: {f['phone']}"]
    else:
        facts = [f"सूचना दिनांक {day:02d}-{month + 1:02d}-{doc.year}, जिल्हा कृषी अधिकारी कार्यालय, {dist}.",
                 f"या योजनेत {crop} साठी {subsidy} अनुदान थेट बँक खात्यात जमा केले जाते.",
                 f"अर्ज {f['form']} मध्ये तालुका कृषी कार्यालयात द्यावा. अर्ज करण्याची शेवटची तारीख {date} आहे.",
                 f"हेल्पलाइन: {f['phone']}"]
    blocks = [f"{_title(title)}\n\n<b>{made_up}</b>"] + facts
    while len(paginate(blocks)) < doc.pages:
        blocks.append(sentences(rng, lang, crop, rng.randint(3, 5)))
    return paginate(blocks), f"{title} - MADE UP"


def advisory_pango(doc: Doc) -> tuple[list[str], str]:
    rng, f, lang = random.Random(doc.seed), doc.facts, doc.lang
    dist, week = DISTRICTS[f["district"]][1], f["week"]
    crops = [crop_name(c, lang) for c in f["crops"]]
    made_up = MADE_UP_HI if lang == "hi" else MADE_UP_MR
    rain, advice = answer("rain", f["rain"], lang), answer("advice", f["advice"], lang)
    pest = PESTS[f["pest"]][1 if lang == "hi" else 2]
    if lang == "hi":
        title = f"कृषि मौसम सलाह: {dist}, सप्ताह {week}, {doc.year} (काल्पनिक)"
        days = [f"दिन {i + 1}: बारिश {r} मिमी, अधिकतम {hi}°C, न्यूनतम {lo}°C" for i, (r, hi, lo, _) in enumerate(f["days"])]
        lines = [f"इस सप्ताह कुल {rain} का अनुमान है।",
                 f"{crops[0]} में {pest} दिखने पर {advice} में मिलाकर छिड़कें।"]
    else:
        title = f"कृषी हवामान सल्ला: {dist}, आठवडा {week}, {doc.year} (काल्पनिक)"
        days = [f"दिवस {i + 1}: पाऊस {r} मिमी, कमाल {hi}°C, किमान {lo}°C" for i, (r, hi, lo, _) in enumerate(f["days"])]
        lines = [f"या आठवड्यात एकूण {rain} अपेक्षित आहे.",
                 f"{crops[0]} पिकावर {pest} दिसल्यास {advice} मध्ये मिसळून फवारणी करा."]
    blocks = [f"{_title(title)}\n\n<b>{made_up}</b>", "\n".join(days)] + lines
    for crop in crops[1:]:
        blocks.append(f"<b>{escape(crop, quote=False)}</b>: " + sentences(rng, lang, crop, 2 if doc.pages == 1 else 5))
    while len(paginate(blocks)) < doc.pages:
        blocks.append(sentences(rng, lang, crops[0], 4))
    return paginate(blocks), f"{title} - MADE UP"


def faq_pango(doc: Doc) -> tuple[list[str], str]:
    rng, f, lang = random.Random(doc.seed), doc.facts, doc.lang
    crop = crop_name(f["crop"], lang)
    made_up = MADE_UP_HI if lang == "hi" else MADE_UP_MR
    msp = answer("msp", f["msp"], lang)
    if lang == "hi":
        title = f"{crop}: किसानों के सवाल और जवाब, {doc.year} (काल्पनिक)"
        first = [(f"{doc.year} में {crop} का न्यूनतम समर्थन मूल्य कितना है?", f"इस वर्ष {crop} का समर्थन मूल्य {msp} है।"),
                 ("प्रमाणित बीज का अंकुरण कितना होना चाहिए?", f"प्रमाणित बीज का अंकुरण कम से कम {f['germination']} प्रतिशत होना चाहिए।")]
        asks = ["कैसे करें", "कब करें", "कहाँ मिलेगा", "क्या करें"]
        topics = ["भंडारण", "मंडी में बिक्री", "मिट्टी की जाँच", "फसल बीमा दावा", "खरपतवार नियंत्रण", "पानी की बचत", "बीज खरीद"]
    else:
        title = f"{crop}: शेतकऱ्यांचे प्रश्न आणि उत्तरे, {doc.year} (काल्पनिक)"
        first = [(f"{doc.year} मध्ये {crop} चा किमान हमीभाव किती आहे?", f"या वर्षी {crop} चा हमीभाव {msp} आहे."),
                 ("प्रमाणित बियाण्याची उगवण किती असावी?", f"प्रमाणित बियाण्याची उगवण किमान {f['germination']} टक्के असावी.")]
        asks = ["कसे करावे", "कधी करावे", "कुठे मिळेल", "काय करावे"]
        topics = ["साठवण", "बाजार समितीत विक्री", "माती परीक्षण", "पीक विमा दावा", "तण नियंत्रण", "पाण्याची बचत", "बियाणे खरेदी"]
    qa = [(f"{crop}: {rng.choice(topics)} {rng.choice(asks)}?", sentences(rng, lang, crop, 3))
          for _ in range(doc.pages * 6)]
    at = rng.randint(0, len(qa))
    qa = qa[:at] + first + qa[at:]
    blocks = [f"{_title(title)}\n\n<b>{made_up}</b>"] + [
        f"<b>{i}. {escape(q, quote=False)}</b>\n{a}" for i, (q, a) in enumerate(qa, start=1)]
    return paginate(blocks), f"{title} - MADE UP"


def markup(doc: Doc) -> tuple[str, object]:
    """("html", the HTML page) for English documents, ("pango", (page bodies, header)) otherwise."""
    if doc.lang == "en":
        return "html", {"manual": manual_html, "scheme notice": notice_html, "advisory": advisory_html,
                        "faq": faq_html}[doc.kind](doc)
    return "pango", {"manual": manual_pango, "scheme notice": notice_pango, "advisory": advisory_pango,
                     "faq": faq_pango}[doc.kind](doc)

