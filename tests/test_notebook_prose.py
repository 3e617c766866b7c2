"""Numbers in a notebook's prose come from its code: hand-written markdown says what was done and
why, never what came out (GUIDE.md, "Findings come from the data").

The check looks for result-like numbers in every markdown cell of every notebook: decimals
(``0.39``), percentages (``39%``), counts of the form "x in y" / "x of y" (``9 of 24``, "two games
in three") and fractions (``3/4``).  Allowed, because they are not results:

* headings (a line starting with ``#``) — their numbering and titles;
* code: inline code spans (`` `FAIR_MARGIN = 0.05` ``, `` `±0.02` ``) and fenced blocks — this is
  how parameter names, parameter values and rule constants are written in prose;
* a confidence level naming an interval: "95% interval", "95% Wilson interval", "95% confidence".

A number that is a result belongs in a code cell's output (``gamelib.stats.findings`` renders
Markdown from the tables), so a rerun with other parameters cannot leave stale text behind.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]*-*.ipynb"))

WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+)"
RESULT_LIKE = {
    "decimal": re.compile(r"(?<![\w.])\d*\.\d+(?![\w.])"),
    "percentage": re.compile(r"\b\d+(?:\.\d+)?\s*%"),
    "count": re.compile(
        rf"\b{WORD}\s+(?:\w+\s+)?(?:in|of|out of)\s+(?:every\s+)?{WORD}\b", re.IGNORECASE
    ),
    "fraction": re.compile(r"\b\d+\s*/\s*\d+\b"),
    "ratio": re.compile(rf"\b{WORD}\s+times\s+(?:as|more|less|fewer)\b", re.IGNORECASE),
}
#: what prose may contain although it matches a pattern above (see the module docstring)
ALLOWED = [
    re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL),  # fenced code blocks
    re.compile(r"`[^`\n]*`"),  # inline code spans: parameters, values, rule constants
    re.compile(r"^\s*#.*$", re.MULTILINE),  # headings
    re.compile(r"\b\d+(?:\.\d+)?\s*%\s+(?:\w+\s+)?(?:interval|confidence)", re.IGNORECASE),
]


def hard_coded_numbers(markdown: str) -> list[tuple[str, str]]:
    """(kind, text) for every result-like number in ``markdown`` outside the allowed places."""
    text = markdown
    for pattern in ALLOWED:
        text = pattern.sub(" ", text)
    return [(kind, m.group(0)) for kind, rx in RESULT_LIKE.items() for m in rx.finditer(text)]


def test_the_check_flags_results_and_allows_method_and_parameters():
    bad = [
        "seat 0 wins 0.393 of its games",
        "it stalls in 13% of games",
        "9 of 24 rule sets have an interval below 0.5",
        "seat 0 wins two games in three or more",
        "the fair share is 1/4",
        "blackouts cost about .66 of the wins",
        "claim_characters wins about three times as often",
    ]
    for text in bad:
        assert hard_coded_numbers(text), text
    good = [
        "# 01 — Garner: which setup is fairest?\n## 2. The screen",
        "seat 0's share with its 95% Wilson interval; every estimate carries its 95% interval",
        "a fair set lies within `FAIR_MARGIN` of one half (`FAIR_MARGIN = 0.05`), `±0.02` wide",
        "All 72 rule sets, for setups A–E and the 18 patterns, each deal played from 2 seats.",
        "```sh\ngamelib sweep garner -n 0.5 --out 3/4.parquet\n```",
    ]
    for text in good:
        assert not hard_coded_numbers(text), (text, hard_coded_numbers(text))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_prose_states_no_hard_coded_results(path: Path):
    nb = nbformat.read(path, as_version=4)
    found = [
        (i, kind, text)
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "markdown"
        for kind, text in hard_coded_numbers(cell.source)
    ]
    assert not found, f"{path.name}: numbers in prose (cell, kind, text): {found}"
