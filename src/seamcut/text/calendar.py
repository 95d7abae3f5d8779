"""The words a date or a quarter is written with, in English, Hindi and Marathi: one table each
for the reader's rules (``readers.found_fields``) and for a question's words (``index.asked``).

Keys are NFC and lower case; a Devanagari name is there with and without its nukta (``फ़रवरी``,
``फरवरी``) and in the spellings in use (``सितंबर``, ``सितम्बर``).
"""
from __future__ import annotations

import unicodedata


def _table(rows: tuple[str, ...]) -> dict[str, int]:
    """``{word: n}`` for the space-separated words of each row, ``n`` counting rows from 1."""
    return {unicodedata.normalize("NFC", w): n for n, words in enumerate(rows, 1) for w in words.split()}


#: month names and their numbers: English with its abbreviations, Hindi, Marathi
MONTHS: dict[str, int] = _table((
    "january jan जनवरी जानेवारी", "february feb फरवरी फ़रवरी फेब्रुवारी", "march mar मार्च",
    "april apr अप्रैल अप्रेल एप्रिल", "may मई मे", "june jun जून", "july jul जुलाई जुलै",
    "august aug अगस्त ऑगस्ट", "september sep sept सितंबर सितम्बर सप्टेंबर सप्टेम्बर",
    "october oct अक्टूबर अक्तूबर ऑक्टोबर", "november nov नवंबर नवम्बर नोव्हेंबर नोव्हेम्बर",
    "december dec दिसंबर दिसम्बर डिसेंबर डिसेम्बर"))

#: the words that number a quarter ("third quarter", "तीसरी तिमाही", "तिसऱ्या तिमाहीत") and its number
QUARTER_ORDINALS: dict[str, int] = _table((
    "first 1st पहली पहला पहले पहिली पहिला पहिल्या",
    "second 2nd दूसरी दूसरा दूसरे दुसरी दुसरा दुसरे दुसऱ्या दुसर्या",
    "third 3rd तीसरी तीसरा तीसरे तिसरी तिसरा तिसरे तिसऱ्या तिसर्या",
    "fourth 4th चौथी चौथा चौथे चौथ्या"))
