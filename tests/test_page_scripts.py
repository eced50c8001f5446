"""What the page's scripts leave to the server (docs/architecture.md): no rule chosen by a
preset's name, no move notation read by hand; and the page's one helper for the DOM."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from freecell.rules import ALIASES, PRESETS
from freecell.web.service_worker import STATIC

# The static site's worker runs our Python and is no part of the page.
LITERAL = re.compile(r"""(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1""")
SCRIPTS = sorted(path for path in (STATIC / "js").rglob("*.js") if path.name not in ("worker.js", "sw.js"))


def literals(path: Path) -> set[str]:
    """The string literals of a script, in any of JavaScript's quotes."""
    return {match[2] for match in LITERAL.finditer(path.read_text())}


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: path.relative_to(STATIC / "js").as_posix())
def test_no_script_names_a_preset(path: Path) -> None:
    names = set(PRESETS) | set(ALIASES)
    assert not literals(path) & names


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: path.relative_to(STATIC / "js").as_posix())
def test_no_script_spells_the_places_letters(path: Path) -> None:
    text = path.read_text()
    assert "1234567890" not in text and "abcdefg" not in text
    assert 'startsWith("h")' not in text and "`h${" not in text


def test_one_script_defines_the_dom_helper() -> None:
    defining = [path.name for path in SCRIPTS if re.search(r"(const|let|function)\s+\$\s*[=(]", path.read_text())]
    assert defining == ["dom.js"]
