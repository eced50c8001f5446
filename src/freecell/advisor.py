"""The solver in play: winning hints, a winnable verdict, the losing move, winnable deals.

An :class:`Advisor` answers questions about positions with the solver, under a limit on
every call, and remembers what it learnt:

* verdicts are kept by canonical position (:meth:`Position.key`), so positions that
  differ only in the order of columns or cells are solved once;
* a winning line is kept for every position along it, so following a hint, or stepping
  back and forth through a solution, costs nothing; a line found for a position with its
  columns or cells in another order is translated to this one.

Every line the solver returns was replayed by the rules engine before it was returned;
a translated line is replayed again here before it is trusted.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from freecell.deals import Deal, random_deal
from freecell.errors import InvalidInputError, UnavailableError
from freecell.game import is_lost
from freecell.notation import parse_move_text
from freecell.position import Move, Place, PlaceKind, Position
from freecell.replay import replay
from freecell.rules import Rules, SequenceMoves
from freecell.solver import SearchLimit, SolveResult, SolveStatus, solve

# The in-play limit. What it leaves unknown stops at the clock now, not at the
# positions: the 26 deals that the samples of 3,000 of seed 457 left unknown
# (bench/fewcells.py: app 1 cell 13, app 2 cells 8, standard 2 cells 5) stopped at
# 121,022 to 229,250 positions. Without a limit 14 of them took 300,000 positions or
# fewer, and in play with 3.5 s or 4 s rather than 3, 8 or 9 of them were decided: a
# solver 1.2 times as fast would decide about a third of them. Those figures were taken
# on pyenv's CPython, where a deal in play takes a median 1.10 to 1.12 times the CPU it
# takes on Debian's (see scripts/choose-python): on Debian's, seed 463's app 2-cell
# unknowns fell from 9 to 5. (The unknowns of seeds 281 to 317, with the solver before dead ends, mostly needed
# more: 15 of 17 with one cell and 11 of 13 with two took over 300,000 positions
# without a limit.) Since the relaxed walks run on the other core in play (the server's
# worker solves with ``helper=True``: see freecell.solver.plan.HELPER_SHARE), the
# positions, not the clock, stop most of what is left unknown (seed 523, app 2 cells:
# 3 unknown of 3,000 against 7 without the helper; the slowest deal decided took 2.3 s
# of wall clock, against 2.9).
HINT_LIMIT: Final = SearchLimit(seconds=3.0, positions=300_000, memory_mb=600)
DEAL_LIMIT: Final = SearchLimit(seconds=5.0, positions=300_000, memory_mb=600)
# When the in-play search reaches its limit, a longer one runs in the background: within
# this limit, every deal of the few-cell samples of 300 in ``bench/fewcells.py`` was
# decided (app, 1 and 2 cells, seeds 229 and 313), though not every deal is (app 2
# cells, 8162, left unknown in play on seed 457, was undecided after 30 s CPU on pyenv's
# CPython and proven in 31.6 s on Debian's; app 1 cell, 9331, undecided after 30 s).
LONGER_LIMIT: Final = SearchLimit(seconds=30.0, memory_mb=1000)
CACHE_SIZE: Final = 20_000


class Difficulty(Enum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class Analysis:
    """What is known of a position: the verdict (``LIMIT_REACHED``: unknown, the search
    reached its limit) and, when solved, a winning line (standard notation, every move
    listed) from exactly this position."""

    verdict: SolveStatus
    line: tuple[str, ...] = ()
    expanded: int = 0
    seconds: float = 0.0
    cached: bool = False

    @property
    def next_move(self) -> str | None:
        return self.line[0] if self.line else None


@dataclass(frozen=True, slots=True)
class LosingMove:
    """The move that turned a winnable position into a lost one: ``index`` counts the
    positions from the start of the history (the move played from position ``index``)."""

    index: int
    move: str
    moves_back: int


@dataclass(frozen=True, slots=True)
class WinnableDeal:
    deal: Deal
    analysis: Analysis
    difficulty: Difficulty
    tries: int


class NoWinnableDealError(UnavailableError):
    """No deal of those tried was won within the limit: ask again."""


class Advisor:
    """Solves positions under a limit and caches the answers. Safe to share between
    threads; the solver itself runs in the calling thread."""

    def __init__(self, *, limit: SearchLimit = HINT_LIMIT, cache_size: int = CACHE_SIZE) -> None:
        self.limit = limit
        self._lines: OrderedDict[tuple[Rules, Position], tuple[str, ...]] = OrderedDict()
        self._by_key: OrderedDict[tuple[Rules, object], tuple[Position, SolveStatus]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def known(self, position: Position, rules: Rules) -> Analysis | None:
        """The cached analysis of ``position``, or None if it would need a search. A won
        position, and one with no useful move left, need none: they are known at once."""
        if position.is_won():
            return Analysis(SolveStatus.SOLVED, cached=True)
        with self._lock:
            line = self._lines.get((rules, position))
            if line is not None:
                self._lines.move_to_end((rules, position))
                return Analysis(SolveStatus.SOLVED, line, cached=True)
            entry = self._by_key.get((rules, position.key()))
        if entry is None:
            return Analysis(SolveStatus.UNSOLVABLE, cached=True) if is_lost(position, rules) else None
        solved_position, verdict = entry
        if verdict is not SolveStatus.SOLVED:
            return Analysis(verdict, cached=True)
        with self._lock:
            line = self._lines.get((rules, solved_position))
        if line is None:
            return None
        try:
            translated = translate_line(line, solved_position, position, rules)
            if not replay(position, rules, translated).is_won():
                return None
        except InvalidInputError:  # a ReplayError too
            return None
        self._remember_line(position, rules, translated)
        return Analysis(SolveStatus.SOLVED, translated, cached=True)

    def lost_on_the_way(self, position: Position, rules: Rules, earlier: Sequence[Position]) -> bool:
        """Whether ``position``, reached by legal moves through ``earlier`` (the latest
        last), is known lost because one of those was proven lost: whatever is reached
        from a lost position is lost. If so, it is recorded, with no search. The look back
        ends at the first winnable position (all before it are winnable too)."""
        for before in reversed(earlier):
            with self._lock:  # the cache alone: a position with no move left has led nowhere
                entry = self._by_key.get((rules, before.key()))
            verdict = None if entry is None else entry[1]
            if verdict is SolveStatus.UNSOLVABLE:
                self.remember_verdict(position, rules, SolveStatus.UNSOLVABLE)
                return True
            if verdict is SolveStatus.SOLVED:
                return False
        return False

    def analyse(self, position: Position, rules: Rules, *, limit: SearchLimit | None = None) -> Analysis:
        """The verdict on ``position`` and a winning line when it is winnable."""
        known = self.known(position, rules)
        if known is not None and known.verdict is not SolveStatus.LIMIT_REACHED:
            return known
        result = solve(position, rules, limit=limit or self.limit)
        return self.learn(position, rules, result)

    def learn(self, position: Position, rules: Rules, result: SolveResult) -> Analysis:
        """Record what a solve of ``position`` found (a solve run elsewhere, e.g. in a
        worker process) and return it as an analysis."""
        verdict = result.status
        if verdict is SolveStatus.SOLVED:
            self._remember_line(position, rules, result.moves)
        else:
            self.remember_verdict(position, rules, verdict)
        return Analysis(verdict, result.moves, result.expanded, result.seconds)

    def remember_verdict(self, position: Position, rules: Rules, verdict: SolveStatus) -> None:
        """Record a verdict without a line. LIMIT_REACHED (unknown) is kept so that it is
        not asked again and again, and never replaces a real verdict."""
        key = (rules, position.key())
        with self._lock:
            if verdict is SolveStatus.LIMIT_REACHED and key in self._by_key:
                return
            self._by_key[key] = (position, verdict)
            self._trim()

    def _remember_line(self, position: Position, rules: Rules, line: Sequence[str]) -> None:
        """Keep the line for every position along it: each suffix wins from there."""
        entries = []
        current = position
        for i, text in enumerate(line):
            entries.append((current, tuple(line[i:])))
            current = current.apply_unchecked(current.parse_move(text, rules))
        with self._lock:
            for where, suffix in entries:
                self._lines[(rules, where)] = suffix
                self._by_key[(rules, where.key())] = (where, SolveStatus.SOLVED)
            self._trim()

    def _trim(self) -> None:
        while len(self._lines) > self._cache_size:
            self._lines.popitem(last=False)
        while len(self._by_key) > self._cache_size:
            self._by_key.popitem(last=False)

    def losing_move(
        self, positions: Sequence[Position], moves: Sequence[str], rules: Rules, *, search: bool = True
    ) -> LosingMove | None:
        """The last move of the history that lost a game that could be won: the current
        position (``positions[-1]``) is proven lost and an earlier one is winnable.
        ``positions[i + 1]`` is where ``moves[i]`` led from ``positions[i]``. Without
        ``search``, only what is cached is used (the server's live status fills it).
        """
        for index in range(len(positions) - 1, -1, -1):
            analysis = self.analyse(positions[index], rules) if search else self.known(positions[index], rules)
            verdict = None if analysis is None else analysis.verdict
            if verdict is SolveStatus.SOLVED:
                if index == len(positions) - 1:
                    return None
                return LosingMove(index, moves[index], len(positions) - 1 - index)
            if verdict is not SolveStatus.UNSOLVABLE:
                return None
        return None


def translate_line(line: Sequence[str], source: Position, target: Position, rules: Rules) -> tuple[str, ...]:
    """Rewrite a line found from ``source`` for ``target``, which has the same canonical
    key: the same columns and cells, perhaps in other places. Each move is read in its
    position and played from the places of ``target`` that hold the same cards. Raises
    :class:`~freecell.errors.InvalidInputError` if the line does not play from ``source``."""
    columns = _matching(source.columns, target.columns)
    cells = _matching(source.cells, target.cells)

    def where(place: Place) -> Place:
        if place.kind is PlaceKind.COLUMN:
            return Place.column(columns.get(place.index, place.index))
        if place.kind is PlaceKind.CELL:
            return Place.cell(cells.get(place.index, place.index))
        return place  # a foundation is named by its suit

    translated = []
    here, there = source, target
    for text in line:
        move = here.parse_move(text, rules)
        moved = Move(where(move.source), where(move.target), move.count)
        translated.append(there.notation(moved))
        here, there = here.apply_unchecked(move), there.apply_unchecked(moved)
    return tuple(translated)


def _matching(source: Sequence[object], target: Sequence[object]) -> dict[int, int]:
    """For each slot of ``source``, the slot of ``target`` holding the same thing."""
    free: dict[object, list[int]] = {}
    for index, value in enumerate(target):
        free.setdefault(value, []).append(index)
    mapping = {}
    for index, value in enumerate(source):
        slots = free.get(value)
        if slots:
            mapping[index] = slots.pop(0)
    return mapping


def grade(analysis: Analysis, rules: Rules) -> Difficulty:
    """Easy, medium or hard, from the length of the winning line (moves that do not go
    home) and how hard the search worked to find it, both measured against a standard
    deal: a double deck's line is twice as long and its search far wider, and under
    single-card rules a run costs a move per card."""
    length = sum(1 for text in analysis.line if not parse_move_text(text).to_foundation)
    length_scale = rules.decks * (2.2 if rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS else 1.0)
    search_scale = rules.decks**3
    if length <= 35 * length_scale and analysis.expanded <= 400 * search_scale:
        return Difficulty.EASY
    if length <= 50 * length_scale and analysis.expanded <= 5_000 * search_scale:
        return Difficulty.MEDIUM
    return Difficulty.HARD


Solver = Callable[[Position, Rules, SearchLimit], SolveResult]


def _solve_here(position: Position, rules: Rules, limit: SearchLimit) -> SolveResult:
    return solve(position, rules, limit=limit)


def winnable_deal(
    rules: Rules, *, limit: SearchLimit = DEAL_LIMIT, max_tries: int = 50, solver: Solver = _solve_here
) -> WinnableDeal:
    """A random deal under ``rules`` that ``solver`` (by default the solver, in this
    process) has won; the line was replayed by the rules engine.

    Raises :class:`NoWinnableDealError` if ``max_tries`` deals in a row were not won
    within the limit.
    """
    for tries in range(1, max_tries + 1):
        deal = random_deal(rules)
        result = solver(deal.position(), rules, limit)
        if result.status is SolveStatus.SOLVED:
            analysis = Analysis(SolveStatus.SOLVED, result.moves, result.expanded, result.seconds)
            return WinnableDeal(deal, analysis, grade(analysis, rules), tries)
    raise NoWinnableDealError(f"no winnable {rules.name} deal was found in {max_tries} tries: try again")
