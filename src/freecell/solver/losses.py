"""The losses a process keeps from one solve to the next: positions proven lost, and
classes of relaxed problems known to reach no goal (dead ends).

Every position a proof saw is lost too (the proof saw every position it leads to), and
every position of a dead class. A later solve in the same process (the next position
of a game, in the in-play worker, or an earlier one, when the advisor looks back for
the losing move) ends at once when its start is one of them, and passes the others by
(see :class:`~freecell.solver.board.DeadEnds`).

A key names the cards in play, which tell the foundations only when no card is missing
from the table (a prepared position may leave some out): the keys are kept apart by the
rules, the cards missing, and their kind (0: positions of the exhaustive problem; else
the relaxation whose classes they are). At most :data:`LOST_KEPT` keys are kept in all,
the older forgotten past it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Final

from freecell.position import Position
from freecell.rules import Rules
from freecell.solver.board import FreeCellProblem
from freecell.solver.twins import can_relax

# By the rules and the cards missing, then by kind: a solve hashes its rules once here.
LOST: Final[dict[tuple[Rules, bytes], dict[int, set[bytes]]]] = {}
_ONE_DECK: Final = frozenset(range(52))
LOST_KEPT: Final = 600_000  # about 150 bytes a key; a game left unknown keeps 100,000 a solve


def lost_sets(position: Position, rules: Rules, relaxations: Iterable[int]) -> dict[int, set[bytes]]:
    """The sets of keys kept for ``position``'s rules and missing cards: the exhaustive
    problem's (0) and each relaxation's, made empty where there were none."""
    kinds = LOST.setdefault((rules, _missing(position, rules)), {})
    sets = {}
    for twins in (0, *relaxations):
        keys = kinds.get(twins)
        if keys is None:
            keys = kinds[twins] = set()
        sets[twins] = keys
    return sets


def known_lost(position: Position, rules: Rules, lost: dict[int, set[bytes]]) -> bool:
    """Whether ``position`` (its safe cards sent home) is a position or, where a relaxed
    problem applies, in a class kept in ``lost``. (Its keys are made only where some are
    kept: a process that has found no loss makes none.)"""
    if lost[0]:
        exhaustive = exhaustive_problem(rules)
        if exhaustive.key(exhaustive.initial(position)[0]) in lost[0]:
            return True
    for twins, keys in lost.items():  # a loop: nearly always every set is empty
        if twins and keys and can_relax(rules) and _relaxed_key(position, rules, twins) in keys:
            return True
    return False


def exhaustive_problem(rules: Rules) -> FreeCellProblem:
    """The problem whose positions a proof keeps: under take-back rules only the complete
    problem is exhaustive. (The relaxed walks' proofs keep classes, under keys of their
    own: see :func:`key_maker`.)"""
    return FreeCellProblem(rules, complete=rules.takes_back)


def key_maker(rules: Rules, twins: int) -> FreeCellProblem:
    """A relaxed problem ``twins`` whose keys are the classes its walks see."""
    return FreeCellProblem(rules, complete=rules.takes_back, runs=False, twins=twins)


def keep_lost(lost: set[bytes], keys: Collection[bytes]) -> None:
    """Add ``keys`` (all lost) to ``lost``, one of :data:`LOST`'s sets, forgetting every
    set rather than growing past :data:`LOST_KEPT`."""
    if not keys or len(keys) > LOST_KEPT:
        return
    # Only the keys not kept yet count (a walk's dead ends are among the classes it saw).
    added = sum(1 for key in keys if key not in lost) if lost else len(keys)
    if kept_count() + added > LOST_KEPT:
        for kinds in LOST.values():
            for kept in kinds.values():
                kept.clear()
    lost.update(keys)


def kept_count() -> int:
    """How many keys :data:`LOST` holds, of every rules and kind."""
    return sum(len(keys) for kinds in LOST.values() for keys in kinds.values())


def _relaxed_key(position: Position, rules: Rules, twins: int) -> bytes:
    """The class of ``position``, its safe cards sent home, in the relaxed problem ``twins``."""
    relaxed = key_maker(rules, twins)
    return relaxed.key(relaxed.initial(position)[0])


def _missing(position: Position, rules: Rules) -> bytes:
    """The cards neither in play nor home (none, in a whole deal)."""
    # Every card there (no card missing, as nearly always) is told by a set of the cards
    # where there is one deck, made in C, for less than they are counted one by one (the
    # columns added in one call: through a chain of chains they cost a fifth more).
    if rules.decks == 1:
        cards = set(position.cells)
        cards.update(*position.columns)
        cards.discard(None)
        if any(position.foundations):
            for suit, height in enumerate(position.foundations):
                cards.update(range(suit, suit + 4 * height, 4))
        if cards == _ONE_DECK:
            return b""
    count = [rules.decks] * 52
    for column in position.columns:
        for card in column:
            count[card] -= 1
    for held in position.cells:
        if held is not None:
            count[held] -= 1
    for pile, height in enumerate(position.foundations):
        for rank in range(height):
            count[rank * 4 + (pile & 3)] -= 1
    if not any(count):
        return b""  # a whole deal, as nearly always
    return bytes(card for card in range(52) for _ in range(count[card]))
