"""Move generation checked against files of counts (perft), one file per preset.

Each line of ``tests/data/perft/<variant>.txt`` is ``<start> <moves> <depth 2> [<depth 3>]``:
the number of legal moves in the start position, then the number of distinct positions
(by ``Position`` equality, not the symmetric key) reached by exactly 2 and 3 moves. The
start is a deal number or the name of a board in ``tests/data/boards``. The files are
written by ``tests/data/make_perft.py``; change them only when a rule change is meant.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from freecell.deals import Deal
from freecell.position import Position
from freecell.rules import Rules, find_rules

DATA = Path(__file__).parent / "data"
PERFT = DATA / "perft"

# variant -> (preset, cells); the variants whose counts are kept
VARIANTS: dict[str, tuple[str, int | None]] = {
    "standard": ("standard", None),
    "strict": ("strict", None),
    "supermove": ("supermove", None),
    "bakers-game": ("bakers-game", None),
    "eight-off": ("eight-off", None),
    "double": ("double", None),
    "app-4": ("app", 4),
    "app-2": ("app", 2),
    "app-1": ("app", 1),
    "cardems": ("cardems", None),
}

# what each file holds: (start, depth)
STARTS: dict[str, list[tuple[str, int]]] = {
    name: [("1", 3), ("617", 3), ("617-after-46", 3)] for name in VARIANTS if name != "double"
}
STARTS["double"] = [("1", 3), ("617", 2)]
STARTS["app-1"] = [("1", 3), ("617", 3)]  # the board holds two cards in cells


def variant_rules(variant: str) -> Rules:
    preset, cells = VARIANTS[variant]
    return find_rules(preset, cells=cells)


def start_position(start: str, rules: Rules) -> Position:
    if start.isdigit():
        return Deal(rules, int(start)).position()
    return Position.from_text((DATA / "boards" / f"{start}.txt").read_text(), rules)


def perft(position: Position, rules: Rules, depth: int) -> list[int]:
    """The legal moves of ``position``, then the distinct positions after exactly 2 .. depth moves."""
    counts = [len(position.legal_moves(rules))]
    layer = {position}
    for ply in range(1, depth + 1):
        layer = {before.apply_unchecked(move) for before in layer for move in before.legal_moves(rules)}
        if ply >= 2:
            counts.append(len(layer))
    return counts


def _read(variant: str) -> dict[str, list[int]]:
    table = {}
    for line in (PERFT / f"{variant}.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            start, *numbers = line.split()
            table[start] = [int(n) for n in numbers]
    return table


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_move_counts_match_the_perft_file(variant: str) -> None:
    rules = variant_rules(variant)
    table = _read(variant)
    assert sorted(table) == sorted(start for start, _ in STARTS[variant])
    for start, depth in STARTS[variant]:
        assert perft(start_position(start, rules), rules, depth) == table[start], start


def test_the_presets_differ_where_their_rules_do() -> None:
    """The counts are not all alike: the mid-game board tells the rulesets apart."""
    mid = {variant: _read(variant)["617-after-46"] for variant in VARIANTS if variant not in ("double", "app-1")}
    assert mid["standard"] == mid["supermove"]  # the same rules, the capacity only shown
    assert mid["strict"][0] < mid["standard"][0]  # runs are not listed as one move
    assert mid["app-4"][0] > mid["standard"][0]  # take-backs to the tableau
    assert mid["cardems"][0] > mid["app-4"][0]  # and to the cells
    assert mid["app-2"][0] < mid["app-4"][0]
    assert len({tuple(counts) for counts in mid.values()}) == len(mid) - 1  # all but supermove
