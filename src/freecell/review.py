"""Game review: every step of a game as it was played, marked by whether the position it
led to could still be won, with the move that lost it, the steps that went back, and the
game's length beside the solver's solution from the start.

The verdicts come from whoever judges positions (in play, the advisor's cache, fed by the
solver under the in-play limit); this module only says which position to judge next and
what the verdicts known imply for the others, so that few are judged:

* a move leads from ``before`` to ``after`` by legal moves, so if ``after`` can be won,
  ``before`` can (play the move, then win); and so if ``before`` is lost, ``after`` is.
  Along a line of moves the verdicts are therefore "winnable" up to one move and "lost"
  after it, and the position judged next is the one that settles the most of those not
  yet known, whichever the answer (on a line, its middle: a bisection);
* an undo or a restart is not a move: it implies nothing (it goes back to a position
  already in the review).

"Unknown" (the search reached its limit) is final unless a neighbour's verdict settles it.
Everything here is pure: positions in, verdicts and steps out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from freecell.errors import InvalidInputError
from freecell.game import Game, is_lost
from freecell.position import Position
from freecell.replay import replay
from freecell.rules import Rules
from freecell.solver import SolveStatus

# The logged actions that change the position, and those that set how the game plays on.
STEP_KINDS = ("move", "undo", "redo", "restart")


class Verdict(Enum):
    """What is known of a position in a review."""

    WINNABLE = "winnable"
    LOST = "lost"
    UNKNOWN = "unknown"  # the solver reached its limit
    PENDING = "pending"  # not judged yet


@dataclass(frozen=True, slots=True)
class PlayedStep:
    """One step of a game: a move (with the automatic moves that followed it: ``notation``
    lists them all, the player's first), a redo, an undo or a restart, from ``before`` to
    ``after``. ``moves_from_start`` is how many card moves the line from the start to
    ``after`` holds."""

    kind: str
    notation: tuple[str, ...]
    before: Position
    after: Position
    moves_from_start: int

    @property
    def is_move(self) -> bool:
        """Whether ``after`` was reached from ``before`` by legal moves (not by going back)."""
        return self.kind in ("move", "redo")


def played_steps(game: Game, log: Iterable[tuple[str, str | None]]) -> list[PlayedStep]:
    """The steps of the game logged as ``log`` (each entry its kind and, for a move, its
    standard notation), played through ``game`` (at its start). Entries of other kinds
    (pause, hint, …) are skipped, except ``auto-on``/``auto-off``, which change how later
    moves play. Under single-card rules a run asked for as one move is one step."""
    steps = []
    for kind, move in log:
        before = game.position
        if kind == "move":
            assert move is not None
            notation = tuple(text for action in game.play(move) for text in action.notation)
        elif kind == "redo":
            notation = game.redo().notation
        elif kind == "undo":
            notation = game.undo().notation
        elif kind == "restart":
            notation = ()
            game.restart()
        else:
            if kind in ("auto-on", "auto-off"):
                game.auto_home = kind == "auto-on"
            continue
        steps.append(PlayedStep(kind, notation, before, game.position, len(game.line)))
    return steps


@dataclass(frozen=True, slots=True)
class ReviewedStep:
    """A step with the verdict on the position it led to; ``loses`` when it was a move
    from a winnable position to a lost one; ``returns_to``: the number of the earlier
    step after which the game stood where this one left it (0: the start), for a move or
    an undo that went back. Positions that differ only in the order of their columns or
    cells count as the same (a card moved from one free cell to another went nowhere)."""

    number: int
    step: PlayedStep
    verdict: Verdict
    loses: bool
    returns_to: int | None


@dataclass(frozen=True, slots=True)
class Review:
    """A game's review as far as it is known. ``next_to_judge`` is the position whose
    verdict is wanted next (None: the review is complete); ``solution`` is the solver's
    winning line from the start, replayed through the rules engine (empty if unknown)."""

    start: Position
    start_verdict: Verdict
    steps: tuple[ReviewedStep, ...]
    solution: tuple[str, ...]
    next_to_judge: Position | None

    @property
    def complete(self) -> bool:
        return self.next_to_judge is None

    @property
    def lost_at(self) -> int | None:
        """The number of the last move that lost a winnable game, if the game ended lost."""
        if not self.steps or self.steps[-1].verdict is not Verdict.LOST:
            return None
        return next((step.number for step in reversed(self.steps) if step.loses), None)

    @property
    def moves_played(self) -> int:
        """Card moves on the line from the start to where the game stands, automatic ones
        included (as the solver's solution counts them)."""
        return self.steps[-1].step.moves_from_start if self.steps else 0


# What the judge knows of a position: its verdict (None: not known yet) and, if winnable,
# a winning line from exactly it (may be empty where none is kept).
Known = tuple[SolveStatus, tuple[str, ...]] | None
_FROM_STATUS = {SolveStatus.SOLVED: Verdict.WINNABLE, SolveStatus.UNSOLVABLE: Verdict.LOST}


def review(start: Position, steps: Sequence[PlayedStep], rules: Rules, known: Callable[[Position], Known]) -> Review:
    """The review of ``steps`` played from ``start`` under ``rules``, from what ``known``
    says of each position (asked once for each, and not at all where a won position or
    one with no useful move left says it alone). The start is judged first, whatever
    else settles it: its solution is the measure of the game's length."""
    nodes: dict[Position, int] = {start: 0}
    for step in steps:
        nodes.setdefault(step.before, len(nodes))
        nodes.setdefault(step.after, len(nodes))
    positions = list(nodes)
    parents: list[list[int]] = [[] for _ in positions]
    children: list[list[int]] = [[] for _ in positions]
    for step in steps:
        if step.is_move:
            before, after = nodes[step.before], nodes[step.after]
            if before != after:
                parents[after].append(before)
                children[before].append(after)

    verdicts = []
    start_line: tuple[str, ...] = ()
    for index, position in enumerate(positions):
        verdict, line = _judged(position, rules, known)
        verdicts.append(verdict)
        if index == 0:
            start_line = line
    start_judged = verdicts[0] is not Verdict.PENDING  # its solution is wanted even where others settle it
    _spread(verdicts, parents, Verdict.WINNABLE)
    _spread(verdicts, children, Verdict.LOST)

    reviewed = []
    seen = {start.key(): 0}
    for number, step in enumerate(steps, start=1):
        was, now = verdicts[nodes[step.before]], verdicts[nodes[step.after]]
        loses = step.is_move and was is Verdict.WINNABLE and now is Verdict.LOST
        returns_to = None if step.kind == "redo" else seen.get(step.after.key())
        reviewed.append(ReviewedStep(number, step, now, loses, returns_to))
        seen.setdefault(step.after.key(), number)

    following = 0 if not start_judged else _next_to_judge(verdicts, parents, children)
    return Review(start, verdicts[0], tuple(reviewed), start_line, None if following is None else positions[following])


def _judged(position: Position, rules: Rules, known: Callable[[Position], Known]) -> tuple[Verdict, tuple[str, ...]]:
    """The verdict on ``position`` and its winning line, from the position alone if it can
    be told, else from ``known``; a line that does not replay to a win is not trusted."""
    if position.is_won():
        return Verdict.WINNABLE, ()
    if is_lost(position, rules):
        return Verdict.LOST, ()
    found = known(position)
    if found is None:
        return Verdict.PENDING, ()
    status, line = found
    if status is SolveStatus.SOLVED and line:
        try:
            if not replay(position, rules, line).is_won():
                return Verdict.PENDING, ()
        except InvalidInputError:  # a ReplayError
            return Verdict.PENDING, ()
    return _FROM_STATUS.get(status, Verdict.UNKNOWN), line


def _spread(verdicts: list[Verdict], towards: list[list[int]], verdict: Verdict) -> None:
    """Give ``verdict`` to every position reached from one that has it by following
    ``towards`` (parents for winnable, children for lost)."""
    stack = [index for index, known in enumerate(verdicts) if known is verdict]
    while stack:
        for neighbour in towards[stack.pop()]:
            if verdicts[neighbour] is not verdict:
                verdicts[neighbour] = verdict
                stack.append(neighbour)


def _next_to_judge(verdicts: list[Verdict], parents: list[list[int]], children: list[list[int]]) -> int | None:
    """The pending position that settles the most others whatever its verdict (the most
    pending ancestors a "winnable" settles, or descendants a "lost" does, whichever is
    fewer); the latest of equals. None when nothing is pending."""
    pending = [index for index, verdict in enumerate(verdicts) if verdict is Verdict.PENDING]
    if not pending:
        return None

    def reach(index: int, towards: list[list[int]]) -> int:
        found, stack = {index}, [index]
        while stack:
            for neighbour in towards[stack.pop()]:
                if neighbour not in found and verdicts[neighbour] is Verdict.PENDING:
                    found.add(neighbour)
                    stack.append(neighbour)
        return len(found)

    # Of equals, the latest: a game that ended winnable is then settled at once.
    return max(pending, key=lambda index: (min(reach(index, parents), reach(index, children)), index))
