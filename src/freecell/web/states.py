"""How the library's objects become the JSON of ``docs/api.md``: plain Python (dicts and
lists), shared by the FastAPI server and the browser's worker, which has no pydantic.

The shapes are described for OpenAPI by :mod:`freecell.web.models`; the values are made
here, once.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from freecell.cards import SUIT_LETTERS, SUIT_NAMES, card_name
from freecell.daily import DailyDeal
from freecell.notation import parse_move_text, place_char, place_text
from freecell.position import Move, Place, Position
from freecell.rules import Rules, SequenceMoves, cells_text
from freecell.store import DailyStats
from freecell.web.rules_text import HELP_TEXT, RULES_TEXT
from freecell.web.session import Session

Json = dict[str, Any]


def rules_info(rules: Rules) -> Json:
    """The ruleset as the state's ``rules`` field."""
    return {
        "name": rules.name, "title": rules.title, "description": rules.description,
        "cell_options": list(rules.cell_options), "cells": rules.cells, "columns": rules.columns,
        "decks": rules.decks, "building": rules.building.value,
        "scoring": rules.scoring is not None, "takes_back": rules.takes_back,
        "show_capacity": rules.show_capacity, "undo_limit": rules.undo_limit,
        "single_card_moves": rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS,
        "tap_to_foundation": rules.tap_sends_home,
    }


def rules_entry(rules: Rules) -> Json:
    """An item of ``GET /api/rules``: the ruleset, its rules panel and our help."""
    return {**rules_info(rules), "text": RULES_TEXT.get(rules.name, rules.description), "help": HELP_TEXT}


def places_info(position: Position) -> Json:
    """The table's places, in the order of the state's ``columns``, ``cells`` and
    ``foundations``: each with its letters in standard notation (``source`` where a move
    takes cards from, ``target`` where it puts them) and its name for the player. The page
    reads them here rather than knowing the notation."""

    def place(source: Place, name: str) -> Json:
        return {"source": place_text(source), "target": place_char(source), "name": name}

    def pile_name(pile: int) -> str:
        # With two decks, the second pile of a suit is "hearts foundation 2".
        return f"{SUIT_NAMES[pile % 4]} foundation" + (f" {pile // 4 + 1}" if pile >= 4 else "")

    columns = [Place.column(index) for index in range(len(position.columns))]
    cells = [Place.cell(index) for index in range(len(position.cells))]
    piles = range(len(position.foundations))
    return {
        "columns": [place(column, f"column {place_char(column)}") for column in columns],
        "cells": [place(cell, f"free cell {place_char(cell)}") for cell in cells],
        "foundations": [place(Place.foundation(pile % 4), pile_name(pile)) for pile in piles],
    }


def last_places(moves: tuple[str, ...]) -> list[Json]:
    """For each move of the state's ``last``, the letters of its source and target places
    (as :func:`places_info` writes them), so that the page need not read the notation."""
    found = []
    for text in moves:
        move = parse_move_text(text)
        source = move.source if move.suit is None else place_text(Place.foundation(move.suit))
        found.append({"source": source, "target": move.target})
    return found


def capacity_detail(rules: Rules, empty_cells: int, empty_columns: int) -> Json:
    """The capacity the library computes with that many empty cells and empty columns
    (``to_empty`` is 0 when no column is empty)."""
    columns = tuple(() if i < empty_columns else (0,) for i in range(max(rules.columns, empty_columns)))
    table = Position(columns, (None,) * empty_cells, (0,) * rules.foundation_count)
    occupied = table.capacity(rules, to_empty_column=False)
    empty = table.capacity(rules, to_empty_column=True) if empty_columns else 0
    unlimited = rules.sequence_moves is SequenceMoves.UNLIMITED
    return {
        "empty_cells": empty_cells, "empty_columns": empty_columns, "to_occupied": occupied, "to_empty": empty,
        "formula_occupied": "unlimited" if unlimited else _formula(empty_cells, occupied),
        "formula_empty": (
            "no empty column" if not empty_columns else "unlimited" if unlimited else _formula(empty_cells, empty)
        ),
    }


def _formula(empty_cells: int, value: int) -> str:
    """``(F + 1) × 2 × 2 = value``: doubled once for each empty column the library counted,
    written as a player multiplies (``F + 1 = value`` with none)."""
    doublings = (value // (empty_cells + 1)).bit_length() - 1
    if doublings == 0:
        return f"{empty_cells} + 1 = {value}"
    return f"({empty_cells} + 1)" + " × 2" * doublings + f" = {value}"


def table(position: Position) -> Json:
    """The cards on the table: the state's ``columns``, ``cells`` and ``foundations``."""
    return {
        "columns": [[card_name(card) for card in column] for column in position.columns],
        "cells": [None if card is None else card_name(card) for card in position.cells],
        "foundations": [
            {
                "suit": SUIT_LETTERS[pile % 4],
                "top": None if top is None else card_name(top),
                "height": position.foundations[pile],
            }
            for pile in range(len(position.foundations))
            for top in [position.foundation_top(pile)]
        ],
    }


def game_state(session: Session, now: float, *, played: bool = False) -> Json:
    """The state of ``session`` at ``now``; ``last`` lists the moves just played only when
    ``played`` (the answer to the request that played them)."""
    game = session.game
    position, rules = game.position, game.rules
    lesson = None
    if session.lesson is not None:
        number = session.lesson_step
        steps = len(session.lesson.steps)
        lesson = {
            "id": session.lesson.id, "title": session.lesson.title, "step": min(number + 1, steps), "steps": steps,
            "text": session.lesson.text(number), "done": number >= steps,
        }
        deal = f"lesson: {session.lesson.title}"
    else:
        # The page shows the rules' title beside it: the deal and its cells are enough here.
        deal = "imported position" if game.deal is None else f"{game.deal.name}, {cells_text(rules.cells)}"
    detail = capacity_detail(rules, position.empty_cells, position.empty_columns)
    return {
        "id": session.id,
        "rules": rules_info(rules),
        "code": game.code,
        "deal": deal,
        **table(position),
        "moves": game.moves_made,
        "score": game.score if rules.scoring is not None else None,
        "can_undo": game.can_undo and not session.abandoned,
        "can_redo": game.can_redo and not session.abandoned,
        "outcome": session.outcome().value,
        "can_finish": session.finishing_moves() is not None,
        "capacity": {key: detail[key] for key in ("empty_cells", "empty_columns", "to_occupied", "to_empty")},
        "elapsed_seconds": round(session.clock.elapsed(now), 1),
        "paused": session.clock.paused,
        "last": list(session.last) if played else [],
        "last_places": last_places(session.last) if played else [],
        "lesson": lesson,
        "abandoned": session.abandoned,
        "difficulty": session.record.difficulty,
        "daily": session.record.daily,
        "played": list(game.line),
        "hints": session.hints,
        "assisted": session.assisted,
        "auto_home": game.auto_home,
        "places": places_info(position),
    }


def move_hint(move: Move, position: Position, text: str, *, verdict: str | None) -> Json:
    """A hint naming ``move`` (see ``GET /hint`` in ``docs/api.md``)."""
    return {
        "move": position.notation(move), "source": place_text(move.source), "target": place_char(move.target),
        "count": move.count, "text": text, "verdict": verdict, "pending": False, "searching": False,
    }


def no_move_hint(text: str, *, verdict: str | None = None, pending: bool = False) -> Json:
    """A hint without a move: the game is won or lost, or the solver is still thinking."""
    return {"move": None, "source": None, "target": None, "count": None, "text": text, "verdict": verdict,
            "pending": pending, "searching": False}


def daily_info(chosen: DailyDeal, stats: DailyStats, game_id: str | None) -> Json:
    """The answer of ``GET /api/daily``: the day's deal, its grade, the day's last game of
    it (``game_id``) and the preset's daily statistics."""
    rules = chosen.deal.rules
    return {
        "date": chosen.day.isoformat(), "rules": rules.name, "title": rules.title, "cells": rules.cells,
        "deal": chosen.deal.number, "code": chosen.deal.code(), "difficulty": chosen.difficulty.value,
        "game_id": game_id, "stats": asdict(stats),
    }
