"""One best-first search over any problem, its budget, and the wrapper that counts.

The problem is kept apart from the algorithm (see :class:`Problem`): the search only
asks for a state's moves (with how far each child looks from the goal, or not), to
play a move, for a state's key and heuristic, and whether a state is the goal. Strategies are the core with
a priority: greedy best-first ranks by the heuristic alone, weighted A* adds the
path's cost.

Children are made lazily: the frontier holds a parent and a move, and the child is
made only when it is taken from the frontier, which most never are. So a state already
seen is recognised when taken, not when found.
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Final, Generic, Protocol, TypeVar

from freecell.errors import InvalidInputError
from freecell.solver.frontier import Frontier

if TYPE_CHECKING:
    from mypy_extensions import i64  # (compiled, a machine int; just an int otherwise)

S = TypeVar("S")
M = TypeVar("M")
T = TypeVar("T")

# What one remembered position costs, on average, in the seen table and the frontier,
# counting a position for every _MOVES_PER_POSITION moves waiting in the frontier: the
# estimate of the memory used where the resident size cannot be read (e.g. Pyodide;
# measured on a 4-cell search that ran long: see docs/solver.md).
BYTES_PER_POSITION: Final = 640
# Kept free below a memory limit for each position remembered, where the resident size
# is read: growing a table of them asks for a new one at once (a dict of bytes keys
# about 60 bytes an entry when it doubles, a set about 53).
RESERVE_PER_POSITION: Final = 64
# And room for what the search makes between two readings (see _READ_EVERY).
_HEADROOM: Final = 8_000_000
# How long freeing what a search made takes, by how much the process grew (measured:
# see docs/solver.md). A search stops that much before its time is up, less _LATE_BY,
# by which an answer may come after it.
FREEING_SECONDS_PER_BYTE: Final = 2.5e-9
_LATE_BY: Final = 0.5
# What a problem's rated_moves gives a child that is a goal, and only such a child: a
# search takes it first, and checks is_goal only on what it takes at such a priority.
WON: Final = -(10**9)
_GOAL_BELOW: Final = WON // 2
_MOVES_PER_POSITION: Final = 4
# A search asks its budget whether it is spent every CHECK_EVERY positions expanded (the
# clock is read each time), and the budget reads the resident size every _READ_EVERY
# of those questions (about 20 µs a reading: every 1,024 positions).
CHECK_EVERY: Final = 64
_READ_EVERY: Final = 16


class Problem(Protocol[S, M, T]):
    """What a search needs to know about a problem. ``M`` is a move from a state, and
    ``T`` what playing it leads through (here, a tuple of steps)."""

    def key(self, state: S) -> bytes: ...

    def is_goal(self, state: S) -> bool:
        """Whether the search may stop at ``state``."""
        ...

    def heuristic(self, state: S) -> int: ...

    def moves(self, state: S) -> list[M]:
        """Each move from ``state``."""
        ...

    def rated_moves(self, state: S) -> list[tuple[int, M, int, tuple[S, T] | None]]:
        """Each move from ``state``, with the heuristic of the child it leads to
        (worked out without making the child, where the problem can; :data:`WON` if
        and only if that child is a goal), the move's cost (as the search's ``cost``
        tells it: handed over here, a call for each child is saved), and what
        :meth:`play` gives for it when that child had to be made (else None)."""
        ...

    def play(self, state: S, move: M) -> tuple[S, T]:
        """The child ``move`` leads to, and what leads there."""
        ...

    def reverse(self, state: S, move: M, child: S, via: T) -> M | None:
        """The move from ``child`` (what ``move`` from ``state`` led to, through
        ``via``) that leads back to ``state``, if any; a move ``child`` does not list
        will do too. A search that has seen ``state`` may pass it by."""
        ...

    def child_key(self, state: S, key: bytes, move: M) -> bytes | None:
        """The key of the child ``move`` leads to, from ``key`` (the key of ``state``)
        without making the child, where the problem can tell it so; else None."""
        ...

    def unseen_child(
        self, came_from: dict[bytes, tuple[bytes, T] | None], state: S, key: bytes, move: M
    ) -> tuple[bytes, S, T] | None:
        """The key of the child ``move`` leads to from ``state`` (whose key is ``key``),
        the child and what leads there; None if that key is in ``came_from``. Most
        children were seen already: where :meth:`child_key` tells the key, such a child
        is not made. (One call of the problem's for each child: compiled, its own
        :meth:`child_key`, :meth:`play` and :meth:`key` are then called directly, their
        results never boxed.)"""
        ...


# A pattern's text, which re compiles on first use and keeps: only the command line reads
# a limit from text, and compiling it with the module would cost every solve's start-up.
_LIMIT_PART: Final = r"(?P<number>[0-9]+(?:\.[0-9]+)?)\s*(?P<unit>[a-zA-Z]*)"
# Each unit: the field it sets, and by how much its number is multiplied.
_LIMIT_UNITS: Final = {
    "": ("positions", 1),
    "p": ("positions", 1),
    "positions": ("positions", 1),
    "k": ("positions", 1000),
    "ms": ("seconds", 0.001),
    "s": ("seconds", 1),
    "sec": ("seconds", 1),
    "secs": ("seconds", 1),
    "seconds": ("seconds", 1),
    "min": ("seconds", 60),
    "mb": ("memory_mb", 1),
    "gb": ("memory_mb", 1000),
}
# The largest limits: beyond them a limit is a typing mistake, not a plan.
_LIMIT_MOST: Final = {"seconds": 7 * 24 * 3600, "positions": 10**12, "memory_mb": 1_000_000}
_LIMIT_WORDS: Final = {
    "seconds": "a time is at most a week (604800s)",
    "positions": "positions are at most 10^12 (1000000000k)",
    "memory_mb": "memory is at most 1,000,000MB (1000GB)",
}


@dataclass(frozen=True, slots=True)
class SearchLimit:
    """A budget: wall-clock seconds, positions expanded, and megabytes of the process's
    peak resident memory (see :class:`Budget`). None means no bound on that count."""

    seconds: float | None = None
    positions: int | None = None
    memory_mb: int | None = None

    def __post_init__(self) -> None:
        for name, most in _LIMIT_MOST.items():
            value = getattr(self, name)
            if value is not None and not 0 < value <= most:
                raise InvalidInputError(f"a search limit's {name} must be above 0 and at most {most:,}, not {value}")

    def __reduce__(self) -> tuple[type[SearchLimit], tuple[float | None, int | None, int | None]]:
        # A limit goes to worker processes. Compiled by mypyc, a frozen dataclass cannot
        # be unpickled field by field: it is made again from its fields instead.
        return SearchLimit, (self.seconds, self.positions, self.memory_mb)

    @classmethod
    def from_text(cls, text: str) -> SearchLimit:
        """Read a limit as a person writes it: a time (``10s``, ``500ms``, ``2min``), a
        number of positions (``200000``, ``200k``) or memory (``500MB``, ``2GB``, a GB being
        1000 MB), or several joined by commas (``10s,500MB``). ``2m`` is refused: minutes
        or millions? Raises :class:`InvalidInputError` naming the part that is wrong, and the largest
        limit allowed when a part is larger. ``"10s, 200k, 1GB"`` is 10 seconds,
        200,000 positions and 1000 MB. (No doctest here: this module may run compiled.)
        """
        values: dict[str, float] = {}
        for raw in text.split(","):
            part = raw.strip()
            shown = repr(part if len(part) <= 24 else part[:20] + "…")
            match = re.fullmatch(_LIMIT_PART, part)
            if match is None or match["unit"].lower() not in _LIMIT_UNITS:
                hint = " (minutes or millions? write 2min or 2000k)" if part.lower().endswith("m") else ""
                raise InvalidInputError(
                    f"not a limit: {shown}{hint}; write a time (10s, 500ms, 2min), positions "
                    "(200000, 200k) or memory (500MB, 2GB), several joined by commas"
                )
            name, scale = _LIMIT_UNITS[match["unit"].lower()]
            value = float(match["number"]) * scale
            if value <= 0:
                raise InvalidInputError(f"not a limit: {shown}: a limit is more than 0")
            if value > _LIMIT_MOST[name]:
                raise InvalidInputError(f"the limit {shown} is too large: {_LIMIT_WORDS[name]}")
            if name != "seconds":
                if abs(value - round(value)) > 1e-6:
                    what = "a number of positions" if name == "positions" else "memory in MB"
                    raise InvalidInputError(f"not a limit: {shown}: {what} is a whole number")
                values[name] = round(value)
            else:
                values[name] = value
        return cls(**values)  # type: ignore[arg-type]


def resident_bytes() -> int | None:
    """This process's resident memory now, or None where the OS does not tell it cheaply
    (no /proc, as under Pyodide)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


_PAGE: Final = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def give_back_freed_memory() -> None:
    """Ask the C allocator to return the memory it holds free to the OS, where it is
    glibc's (elsewhere nothing happens). A search that let go of its keys (spilled to
    disk, or dropped) frees them, but the resident size the memory limit reads stays as
    it was until then; a search after it would find the memory short."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], object] | None:
    """glibc's ``malloc_trim``, or None where there is none."""
    try:
        import ctypes

        trim: Callable[[int], object] = ctypes.CDLL("libc.so.6").malloc_trim
        return trim
    except (ImportError, OSError, AttributeError):
        return None


@functools.cache
def _reads_resident() -> bool:
    """Whether this process can read its resident size (see :func:`resident_bytes`)."""
    return resident_bytes() is not None


class Budget:
    """A :class:`SearchLimit` being spent, shared by the successive searches of one solve.

    The memory limit bounds the resident size of the whole process, read from the OS
    once positions are expanded (a process already past the limit stops at the first
    reading, after about a thousand), less a reserve for the next growth of the search's tables (see
    :data:`RESERVE_PER_POSITION`) and for what it makes before the next reading; where
    the resident size cannot be read, the positions remembered are counted at
    :data:`BYTES_PER_POSITION` each.

    The time limit bounds when the answer comes, the freeing of what the search made
    included (see :data:`FREEING_SECONDS_PER_BYTE`): a search that grew large stops
    that much sooner."""

    def __init__(self, limit: SearchLimit) -> None:
        self.limit = limit
        self.started = time.perf_counter()
        self.expanded = 0
        self.deadline = None if limit.seconds is None else self.started + limit.seconds
        self.memory = None if limit.memory_mb is None else limit.memory_mb * 1_000_000
        self.measured = (self.memory is not None or self.deadline is not None) and _reads_resident()
        # The resident size at the first reading, from which a search's growth is counted.
        # Not read here: most solves end before their first reading (about 10 µs each).
        self.at_start = -1
        self.grown = 0  # how much the resident size grew, at the last reading
        self.asked = 0
        self.spent = False
        self.for_memory = False  # whether it is spent because the memory ran short

    def exhausted(self, stored: int) -> bool:
        """Whether the budget is spent, now that ``stored`` positions are remembered (by
        the search asking). Once spent, it stays spent: a search that stops for memory
        still holds it while the next one asks (unless it gives it back: see
        :meth:`relieve`)."""
        if not self.spent:
            self.spent = self._spent_now(stored)
        return self.spent

    def relieve(self) -> None:
        """The search that held the memory gave it back (its keys went to disk): a
        budget spent for memory alone is not spent any more; the next question reads
        the resident size again."""
        if self.for_memory:
            self.spent = self.for_memory = False
            self.asked = -1

    def _spent_now(self, stored: int) -> bool:
        limit = self.limit
        if limit.positions is not None and self.expanded >= limit.positions:
            return True
        if self.measured:
            self.asked += 1
            # Between searches (nothing stored), and every _READ_EVERY questions; before
            # anything is expanded, nothing has grown to read.
            if (not stored and self.expanded) or self.asked % _READ_EVERY == 0:
                resident = resident_bytes() or 0
                if self.at_start < 0:
                    self.at_start = resident
                self.grown = resident - self.at_start
                if self.memory is not None and resident + stored * RESERVE_PER_POSITION + _HEADROOM >= self.memory:
                    self.for_memory = True
                    return True
            grown = self.grown
        else:
            grown = stored * BYTES_PER_POSITION
            if self.memory is not None and grown >= self.memory:
                self.for_memory = True
                return True
        if self.deadline is None:
            return False
        freeing = grown * FREEING_SECONDS_PER_BYTE - _LATE_BY
        return time.perf_counter() + max(freeing, 0.0) >= self.deadline

    def give_back(self, positions: int) -> None:
        """``positions`` counted as expanded were not (held for a search elsewhere that
        ended sooner): they may be spent again, and a budget spent for its count alone is
        not spent any more."""
        self.expanded -= positions
        if self.spent and not self.for_memory:
            self.spent = self._spent_now(0)

    def seconds_left(self) -> float | None:
        """How much work may still be done before the deadline, the freeing of what the
        search made (as grown at the last reading) left room for (None: no time limit)."""
        if self.deadline is None:
            return None
        return self.deadline - time.perf_counter() - max(self.grown * FREEING_SECONDS_PER_BYTE - _LATE_BY, 0.0)

    def memory_short(self, stored: int, *, reserve: int) -> bool:
        """Whether the process, now that ``stored`` positions are remembered, is within
        ``reserve`` bytes of where the memory limit stops a search (False without a
        memory limit). It reads the resident size: call it seldom."""
        if self.memory is None:
            return False
        if not self.measured:
            return stored * BYTES_PER_POSITION + reserve >= self.memory
        resident = resident_bytes() or 0
        return resident + stored * RESERVE_PER_POSITION + _HEADROOM + reserve >= self.memory

    def memory_left(self) -> int | None:
        """About how many bytes more the process may take before the memory limit stops
        a search (None without a memory limit). It reads the resident size: call it
        seldom."""
        if self.memory is None:
            return None
        resident = (resident_bytes() or 0) if self.measured else 0
        return max(self.memory - resident - _HEADROOM, 0)

    def positions_left(self) -> int | None:
        if self.limit.positions is None:
            return None
        return max(self.limit.positions - self.expanded, 0)

    def positions_allowed(self, cap: int | None) -> int | None:
        """How many more positions a search with ``cap`` may expand now: the fewer of
        the cap and the positions left (None: no bound)."""
        left = self.positions_left()
        if cap is None:
            return left
        return cap if left is None else min(left, cap)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started


class InstrumentedProblem(Generic[S, M, T]):
    """A problem that counts the positions expanded and the moves generated through it."""

    def __init__(self, problem: Problem[S, M, T]) -> None:
        self.problem = problem
        self.expanded = 0
        self.generated = 0
        # Passed straight through: they are called for every state made.
        self.key: Callable[[S], bytes] = problem.key
        self.is_goal: Callable[[S], bool] = problem.is_goal
        self.heuristic: Callable[[S], int] = problem.heuristic
        self.play: Callable[[S, M], tuple[S, T]] = problem.play
        self.reverse: Callable[[S, M, S, T], M | None] = problem.reverse
        self.child_key: Callable[[S, bytes, M], bytes | None] = problem.child_key
        self.unseen_child: Callable[[dict[bytes, tuple[bytes, T] | None], S, bytes, M], tuple[bytes, S, T] | None] = (
            problem.unseen_child
        )
        # Counted, but called through bound methods kept here: compiled, a method of
        # the problem (a protocol) is looked up by name at every call.
        self._moves: Callable[[S], list[M]] = problem.moves
        self._rated_moves: Callable[[S], list[tuple[int, M, int, tuple[S, T] | None]]] = problem.rated_moves

    def moves(self, state: S) -> list[M]:
        found = self._moves(state)
        self.expanded += 1
        self.generated += len(found)
        return found

    def rated_moves(self, state: S) -> list[tuple[int, M, int, tuple[S, T] | None]]:
        found = self._rated_moves(state)
        self.expanded += 1
        self.generated += len(found)
        return found


class SearchEnd(Enum):
    """How one search run stopped: it reached its goal, it saw every position it could
    reach without finding one, or its budget ran out. (A game's result is
    :class:`freecell.game.Outcome`; a solve's verdict is :class:`SolveStatus`.)"""

    FOUND = "found"
    EXHAUSTED = "exhausted"
    LIMIT = "limit"


class SearchRun(Generic[S, T]):
    """How a search ended, and the path to the goal and the goal when one was found.

    (A plain class: mypyc does not compile a generic dataclass.)"""

    def __init__(self, outcome: SearchEnd, path: Sequence[T] = (), goal: S | None = None) -> None:
        self.outcome: Final = outcome
        self.path: Final = path
        self.goal: Final = goal

    def __repr__(self) -> str:
        return f"SearchRun({self.outcome}, {len(self.path)} steps)"


def _draws(seed: int) -> Callable[[int], int]:
    """``randrange`` of a generator seeded with ``seed``. Only a search with noise draws:
    random is imported there, not in every solve's start-up."""
    import random

    return random.Random(seed).randrange


class BestFirst(Generic[S, M, T]):
    """Expand first the state of lowest ``h + path_weight * g``, each canonical key once.

    ``h`` is the heuristic and ``g`` the sum of ``cost`` over the moves of the path: a
    path weight of 0 is greedy best-first search, more is weighted A*. A move whose
    ``g`` reaches ``bound`` is not kept (to look for paths cheaper than one already
    known).

    ``lazy`` makes a child only when it is taken from the frontier (see the module
    docstring), and takes each move's cost from the problem's ``rated_moves`` (which
    must agree with ``cost``). Otherwise each child is made when found and dropped at once if seen:
    cheaper when nearly every child will be taken anyway, as in a proof.

    ``noise`` adds a random amount below it (from ``seed``) to each priority: searches
    that differ only in their seed walk into different dead ends.

    :meth:`run` may be called again after it stopped at its cap: the search goes on
    where it was, so several searches can take turns.
    """

    def __init__(
        self,
        problem: Problem[S, M, T],
        start: S,
        *,
        path_weight: int,
        cost: Callable[[M], int],
        bound: int | None = None,
        lazy: bool = True,
        noise: int = 0,
        seed: int = 0,
    ) -> None:
        self.problem = problem
        self.path_weight = path_weight
        self.cost = cost
        self.bound = bound
        self.lazy = lazy
        self.noise = noise
        # (A generator costs about 4 µs to make, a good part of a quick search.)
        self.randrange = _draws(seed) if noise else None
        self.start = start
        start_key = problem.key(start)
        self.came_from: dict[bytes, tuple[bytes, T] | None] = {start_key: None}
        # Each entry waiting is (g, key, state, None, None) for a state already made and
        # seen, or (g, parent's key, parent, move, what playing it gives, if it was made
        # already) for a child not yet seen.
        self.frontier: Frontier[tuple[int, bytes, S, M | None, tuple[S, T] | None]] = Frontier()
        self.frontier.push(0, (0, start_key, start, None, None))
        self.expanded = 0
        self.ended: SearchRun[S, T] | None = None
        # States known to reach no goal (see DeadEnds): seen, never expanded.
        self.prune: Callable[[S], bool] | None = None

    def run(self, budget: Budget, cap: int | None = None) -> SearchRun[S, T]:
        """Go on until the goal (FOUND), every state reachable from the start (within the
        bound) is expanded (EXHAUSTED), or ``cap`` more expansions or ``budget`` are
        spent (LIMIT, and the search may go on later).

        A hot loop (every position a search expands or makes passes through it; see
        ``bench/position_cost.py``): kept whole, as calls would cost each position."""
        if self.ended is not None:
            return self.ended
        if self.problem.is_goal(self.start):
            self.ended = SearchRun(SearchEnd.FOUND, (), self.start)
            return self.ended
        came_from = self.came_from
        frontier = self.frontier
        # The counts, costs and priorities are machine ints compiled (i64): no call for
        # each sum, product and comparison.
        path_weight: i64 = self.path_weight
        cost = self.cost
        bound = self.bound
        noise = self.noise
        expanded: i64 = 0
        allowed = budget.positions_allowed(cap)
        stop_at = -1 if allowed is None else allowed  # (an int: compiled, compared as one)
        randrange = self.randrange
        problem = self.problem
        key_of = problem.key
        is_goal = problem.is_goal
        moves: Callable[[S], list[M]] = problem.moves
        rated_moves: Callable[[S], list[tuple[int, M, int, tuple[S, T] | None]]] = problem.rated_moves
        # A counted problem's moves are counted here: a call less each expansion.
        counted: InstrumentedProblem[S, M, T] | None = None
        if isinstance(problem, InstrumentedProblem):
            counted = problem
            moves = problem._moves
            rated_moves = problem._rated_moves
        heuristic = problem.heuristic
        unseen_child = problem.unseen_child
        prune = self.prune
        plain = bound is None and randrange is None  # (as nearly every search: a loop without either)
        found: SearchRun[S, T] | None = None
        g: i64
        h: i64
        child_cost: i64
        child_g: i64
        while frontier.size:
            taken = frontier.take()
            g, key, state, move, made = taken
            if move is not None:
                parent_key = key
                if made is None:
                    # Seen already (as most children are): not made, where its key is
                    # told from its parent's.
                    unseen = unseen_child(came_from, state, key, move)
                    if unseen is None:
                        continue
                    key, state, via = unseen
                else:
                    state, via = made
                    key = key_of(state)
                    if key in came_from:
                        continue
                if frontier.priority < _GOAL_BELOW and is_goal(state):
                    came_from[key] = (parent_key, via)
                    found = SearchRun(SearchEnd.FOUND, path_to(came_from, key), state)
                    break
            if expanded == stop_at or (
                expanded % CHECK_EVERY == 0 and budget.exhausted(len(came_from) + frontier.size // _MOVES_PER_POSITION)
            ):
                # A search stopped here loses nothing: the entry waits again, as it was.
                frontier.push(frontier.priority, taken)
                self.expanded += expanded
                return SearchRun(SearchEnd.LIMIT)
            if move is not None:
                came_from[key] = (parent_key, via)
            if prune is not None and prune(state):
                expanded += 1  # toward the turn, not the budget
                continue  # seen, and known to reach no goal: never expanded
            expanded += 1
            budget.expanded += 1
            if self.lazy:
                rated = rated_moves(state)
                if counted is not None:
                    counted.expanded += 1
                    counted.generated += len(rated)
                if plain:
                    for h, child_move, child_cost, child_made in rated:
                        child_g = g + child_cost
                        frontier.push(h + path_weight * child_g, (child_g, key, state, child_move, child_made))
                    continue
                for h, child_move, child_cost, child_made in rated:
                    child_g = g + child_cost
                    if bound is None or child_g < bound:
                        if randrange is not None:
                            h += randrange(noise)
                        frontier.push(h + path_weight * child_g, (child_g, key, state, child_move, child_made))
                continue
            found_moves = moves(state)
            if counted is not None:
                counted.expanded += 1
                counted.generated += len(found_moves)
            for child_move in found_moves:
                child_g = g + cost(child_move)
                if bound is not None and child_g >= bound:
                    continue
                unseen = unseen_child(came_from, state, key, child_move)
                if unseen is None:
                    continue
                child_key, child, via = unseen
                came_from[child_key] = (key, via)
                if is_goal(child):
                    found = SearchRun(SearchEnd.FOUND, path_to(came_from, child_key), child)
                    break
                frontier.push(heuristic(child) + path_weight * child_g, (child_g, child_key, child, None, None))
            if found is not None:
                break
        self.expanded += expanded
        self.ended = found or SearchRun(SearchEnd.EXHAUSTED)
        return self.ended


class Alternating(Generic[S, M, T]):
    """Best first under several rankings taking turns, one expansion each, over one
    table of the positions seen. Each ranking ``(path_weight, per_unit)`` ranks a state
    by the heuristic plus ``per_unit`` times ``measure(state)`` plus the path weight
    times ``g`` (as in :class:`BestFirst`), and has a frontier of its own; every child
    goes into each frontier, with its priority there (the heuristic is worked out once).
    A position is expanded once, under whichever ranking takes it first, and the other
    frontiers pass it by.

    Two rankings that each get lost where the other walks straight to a win cost little
    more together than the faster of the two (twice, at worst), where two searches taking
    turns would pay twice for a proof: here every position is still expanded once, so the
    search ends when any frontier is empty, and that end is a proof, as
    :class:`BestFirst`'s is. (Alternation over open lists: Röger and Helmert, "The More,
    the Merrier", ICAPS 2010.) Children are made when found (not lazily), and
    :meth:`run` may stop and go on later, as :meth:`BestFirst.run` does.
    """

    def __init__(
        self,
        problem: Problem[S, M, T],
        start: S,
        *,
        rankings: Sequence[tuple[int, int]],
        measure: Callable[[S], int],
        cost: Callable[[M], int],
    ) -> None:
        self.problem = problem
        self.rankings = tuple(rankings)
        self.measure = measure
        self.cost = cost
        self.start = start
        start_key = problem.key(start)
        self.came_from: dict[bytes, tuple[bytes, T] | None] = {start_key: None}
        # Each child waiting is (g, key, state) in ``waiting``, at its number, and in each
        # ranking's frontier by its number, with its priority there; None once it is
        # expanded, which the other frontiers then pass by.
        self.waiting: list[tuple[int, bytes, S] | None] = [(0, start_key, start)]
        self.frontiers: list[Frontier[int]] = []
        for _ in self.rankings:
            frontier: Frontier[int] = Frontier()
            frontier.push(0, 0)
            self.frontiers.append(frontier)
        self.expanded_keys: set[bytes] = set()
        self.turn = 0
        self.expanded = 0
        self.ended: SearchRun[S, T] | None = None
        self.prune: Callable[[S], bool] | None = None  # as BestFirst's

    def run(self, budget: Budget, cap: int | None = None) -> SearchRun[S, T]:
        """Go on until the goal (FOUND), every reachable state is expanded (EXHAUSTED),
        or ``cap`` more expansions or ``budget`` are spent (LIMIT; it may go on later).

        A hot loop (every position a search expands or makes passes through it; see
        ``bench/position_cost.py``): kept whole, as calls would cost each position."""
        if self.ended is not None:
            return self.ended
        problem = self.problem
        if problem.is_goal(self.start):
            self.ended = SearchRun(SearchEnd.FOUND, (), self.start)
            return self.ended
        came_from = self.came_from
        frontiers = self.frontiers
        waiting = self.waiting
        expanded_keys = self.expanded_keys
        rankings = self.rankings
        count = len(rankings)
        cost = self.cost
        measure = self.measure
        is_goal = problem.is_goal
        moves = problem.moves
        heuristic = problem.heuristic
        unseen_child = problem.unseen_child
        turn = self.turn
        prune = self.prune
        expanded = 0
        stop_at = budget.positions_allowed(cap)
        found: SearchRun[S, T] | None = None
        while True:
            frontier = frontiers[turn]
            order = -1
            taken = None
            while frontier.size:
                order = frontier.take()
                taken = waiting[order]
                if taken is not None:
                    break
            if taken is None:
                break  # this frontier is empty: every position seen was expanded
            if expanded == stop_at or (
                expanded % CHECK_EVERY == 0
                and budget.exhausted(len(came_from) + sum(each.size for each in frontiers) // _MOVES_PER_POSITION)
            ):
                frontier.push(frontier.priority, order)
                self.turn = turn
                self.expanded += expanded
                return SearchRun(SearchEnd.LIMIT)
            turn = turn + 1 if turn + 1 < count else 0
            waiting[order] = None
            g, key, state = taken
            expanded_keys.add(key)
            if prune is not None and prune(state):
                expanded += 1  # toward the turn, not the budget
                continue  # known to reach no goal: never expanded
            expanded += 1
            budget.expanded += 1
            for child_move in moves(state):
                unseen = unseen_child(came_from, state, key, child_move)
                if unseen is None:
                    continue
                child_key, child, via = unseen
                came_from[child_key] = (key, via)
                if is_goal(child):
                    found = SearchRun(SearchEnd.FOUND, path_to(came_from, child_key), child)
                    break
                child_g = g + cost(child_move)
                number = len(waiting)
                waiting.append((child_g, child_key, child))
                h = heuristic(child)
                units = measure(child)
                for index in range(count):
                    path_weight, per_unit = rankings[index]
                    frontiers[index].push(h + per_unit * units + path_weight * child_g, number)
            if found is not None:
                break
        self.turn = turn
        self.expanded += expanded
        self.ended = found or SearchRun(SearchEnd.EXHAUSTED)
        return self.ended


def path_to(came_from: dict[bytes, tuple[bytes, T] | None], key: bytes) -> tuple[T, ...]:
    path: list[T] = []
    link = came_from[key]
    while link is not None:
        key, via = link
        path.append(via)
        link = came_from[key]
    path.reverse()
    return tuple(path)
