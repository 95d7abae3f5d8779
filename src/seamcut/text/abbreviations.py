"""Abbreviation data for :mod:`seamcut.text.segment` (data only).

Keys are the token *before* the final period, lower-cased (``"e.g"`` for
``e.g.``, ``"dr"`` for ``Dr.``).  Devanagari keys are stored as written.
Each key maps to how a following sentence break is decided:

``NEVER``
    never ends a sentence (titles, ``e.g.``, ``approx.``): no break.
``NUMBER``
    precedes a number (``No. 11``, ``Rs. 500``, ``pp. 12``): no break when the
    next character is a digit, otherwise an ordinary sentence end.
``MAYBE``
    may end a sentence (``Inc.``, ``U.S.``, ``a.m.``, ``Jan.``): no break unless
    the next word is a common sentence opener (see :data:`STARTERS`).
``ETC``
    ``etc.``: no break unless a line break follows.
"""

from __future__ import annotations

NEVER = 0
NUMBER = 1
MAYBE = 2
ETC = 3

_NEVER_EN = """
mr mrs messrs mme mlle dr prof
e.g eg i.e ie cf v vs viz approx appx ca cca esp incl excl resp w.r.t
"""

_NUMBER_EN = """
no nos nr rs p pp art arts sec secs ch chap fig figs vol vols eq eqs ref refs
tel op para paras pg pgs
"""

_MAYBE_EN = """
inc ltd llc plc pvt ft al
u.s u.k u.n e.u u.s.a a.m p.m b.c a.d b.c.e c.e d.c ph.d m.d b.a m.a b.sc m.sc
govt dept univ assn
"""

# Only when written with a capital letter ("Sun." is a month-day abbreviation,
# "sun." is a word; "ms." could be milliseconds).
_NEVER_CAPITALISED = """
ms mx rev fr hon gen col capt lt sgt cpl maj adm cmdr gov sen rep pres supt insp
"""

_MAYBE_CAPITALISED = """
co corp bros st ave rd blvd mt jr sr esq
jan feb mar apr jun jul aug sep sept oct nov dec
mon tue tues wed thu thur thurs fri sat sun
"""

# Hindi / Marathi.  Sentence-final verbs (है, थी, ली, दी, आई, ...) must never
# appear here.
_NEVER_DEVA = """
डॉ डा श्री श्रीमती श्रीमान सौ कु कुं प्रा प्रो पं स्व स्वा मा सं वि क्र नं क्रं
कि.मी मि.ली मि.मी से.मी कि.ग्रा ग्रॅ ग्रा मि ई.पू इ.स इ.स.पू ई.स उदा अ.क्र
ए बी सी डी ई एफ जी एच जे के एल एम एन ओ पी क्यू आर एस टी यू वी व्ही डब्ल्यू
एक्स वाई वाय जेड झेड ज़ेड आय
"""

_NUMBER_DEVA = """
रु रू ता पृ
"""

ETC_KEYS = ("etc", "etc.")


def _table(*groups: tuple[str, int]) -> dict[str, int]:
    table: dict[str, int] = {}
    for words, kind in groups:
        for word in words.split():
            table[word] = kind
    return table


#: token (lower-cased, without its final period) -> NEVER / NUMBER / MAYBE / ETC
ABBREVIATIONS: dict[str, int] = _table(
    (_MAYBE_EN, MAYBE),
    (_NUMBER_EN, NUMBER),
    (_NEVER_EN, NEVER),
    (_NUMBER_DEVA, NUMBER),
    (_NEVER_DEVA, NEVER),
    (" ".join(ETC_KEYS), ETC),
)

#: Like :data:`ABBREVIATIONS`, but only for tokens that start with a capital.
CAPITALISED_ABBREVIATIONS: dict[str, int] = _table(
    (_MAYBE_CAPITALISED, MAYBE),
    (_NEVER_CAPITALISED, NEVER),
)

#: Capitalised words that commonly open an English sentence.  After a ``MAYBE``
#: abbreviation or a single-letter initial, one of these as the next word means
#: the period did end the sentence ("... in the U.S. The ...").
STARTERS: frozenset[str] = frozenset(
    """
    The A An This That These Those There Their They Them Then Thus Therefore He
    She It Its We I You Your Our My His Her In On At As After Before When
    Whenever While If But And Or So For However Although Though Because Since
    During Today Yesterday Tomorrow Meanwhile Also Some Many Most Other Others
    Such Each Every All Any Not One Two Three What Why How Who Whom Whose Where
    Which According Last Next First Later Earlier Now Still Yet Here Both Even
    Only Once Instead Despite Following Under Until With Without From By To Of
    Many Several Nobody Nothing None Instead Further Furthermore Moreover
    Nevertheless Otherwise Unlike Like Over Between Among Around About Most
    Another Let Please Do Does Did Is Are Was Were Has Have Had Will Would Can
    Could Should May Might Must Yes No
    """.split()
)
