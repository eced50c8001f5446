"""Players read their own words: every text the page or a message shows names presets by
what they are (never a rule document's number or a preset's slug), cards as the table
shows them (10♦, never TD) and the capacity as a player reckons it (never ``2^``)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from freecell.lessons import LESSONS
from freecell.rules import PRESETS
from freecell.web.rules_text import HELP_TEXT, RULES_TEXT

SOURCE = Path(__file__).resolve().parent.parent / "src" / "freecell"
STATIC = SOURCE / "web" / "static"

DOCUMENT_NUMBER = re.compile(r"\b00[0-3]\b")
CARD_CODE = re.compile(r"(?<!')\b[2-9TJQKA][CDHS]\b(?!')")  # 'TH' in quotes is an example to type
POWER = re.compile(r"2\s*\^")  # "× 2^(empty columns)": written in words instead
# Slugs that are not also words a player uses ("standard", "double", "app", "strict" are).
SLUGS = re.compile(r"\b(?:bakers-game|eight-off|supermove|cardems)\b")  # case matters: "Cardems" is its name


def _texts() -> Iterator[tuple[str, str]]:
    """Every text shown to players as written: (where, text)."""
    for name, rules in PRESETS.items():
        yield f"preset {name} title", rules.title
        yield f"preset {name} description", rules.description
        yield f"rules panel of {name}", RULES_TEXT[name]
    yield "help", HELP_TEXT
    for lesson in LESSONS:
        yield f"lesson {lesson.id}", lesson.title
        yield f"lesson {lesson.id}", lesson.summary
        yield f"lesson {lesson.id}", lesson.done
        for number, step in enumerate(lesson.steps, start=1):
            yield f"lesson {lesson.id} step {number}", step.text
            yield f"lesson {lesson.id} step {number}", step.why


def _faults(text: str, *, slugs: bool = True) -> list[str]:
    patterns = [DOCUMENT_NUMBER, CARD_CODE, POWER, *([SLUGS] if slugs else [])]
    return [found[0] for pattern in patterns for found in pattern.finditer(text)]


@pytest.mark.parametrize(("where", "text"), list(_texts()), ids=lambda value: value[:40])
def test_every_shown_text_is_in_players_words(where: str, text: str) -> None:
    assert _faults(text) == [], f"{where}: {text}"


def _python_messages(path: Path) -> Iterator[tuple[int, str]]:
    """The string constants of a module, docstrings left out (they are for developers)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


# Checked above through their objects: their other strings are data (boards, card fields,
# the registry's aliases and document references), not messages. The solver speaks to developers.
_DATA_MODULES = {SOURCE / "lessons.py", SOURCE / "rules.py"}


def _message_modules() -> list[Path]:
    return [
        path
        for path in sorted(SOURCE.rglob("*.py"))
        if path not in _DATA_MODULES and "solver" not in path.relative_to(SOURCE).parts
    ]


@pytest.mark.parametrize("path", _message_modules(), ids=lambda path: str(path.relative_to(SOURCE)))
def test_messages_of_the_python_sources_are_in_players_words(path: Path) -> None:
    faults = [f"line {line}: {text!r}" for line, text in _python_messages(path) if _faults(text, slugs=False)]
    assert faults == []


def _page_source(path: Path) -> str:
    """A page file without its comments, and without the board-format example of the import
    field (the format a pasted board is written in)."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"<!--.*?-->|/\*.*?\*/", "", text, flags=re.DOTALL)
    text = re.sub(r"^\s*//.*$|\s//\s.*$", "", text, flags=re.MULTILINE)
    return re.sub(r'placeholder="Foundations:[^"]*"', "", text)


@pytest.mark.parametrize(
    "path", sorted([*STATIC.rglob("*.js"), *STATIC.glob("*.html")]), ids=lambda path: str(path.relative_to(STATIC))
)
def test_the_page_shows_players_words(path: Path) -> None:
    text = _page_source(path)
    faults = [found[0] for pattern in (DOCUMENT_NUMBER, CARD_CODE, POWER) for found in pattern.finditer(text)]
    assert faults == []


def test_the_words_test_catches_what_it_looks_for() -> None:
    assert _faults("The 001 app: move the TD onto the JC, (empty cells + 1) × 2^(empty columns)") == [
        "001",
        "TD",
        "JC",
        "2^",
    ]
    assert _faults("(bakers-game, 4 cells)") == ["bakers-game"]
    assert _faults("Move the 10♦ onto the J♣ in Cardems; write 'TH' to type it") == []
