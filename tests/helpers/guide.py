"""The guide's LangChain case, as text: six paragraphs a splitter is to keep apart."""
from __future__ import annotations

GUIDE_WORDS = ("Spray neem oil on cotton at dusk when whitefly numbers rise and check the "
               "underside of leaves again after seven days").split()


def guide_paragraphs() -> str:
    """The guide's LangChain case: six paragraphs of 202 characters (as in test_guide_demos)."""
    paras = []
    for k in range(6):
        p = " ".join(GUIDE_WORDS[(k + i) % len(GUIDE_WORDS)] for i in range(60))[:202]
        paras.append(p.ljust(202, "x"))
    assert all(len(p) == 202 for p in paras)
    return "\n\n".join(paras)
