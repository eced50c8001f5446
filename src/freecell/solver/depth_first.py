"""An exhaustive depth-first search: the cheap way to prove a deal lost.

A proof must visit every position reachable from the start (up to the problem's sound
reductions), in whatever order, so the order that costs least wins: depth first. It
remembers only the canonical key of each position seen (bytes, no parent links, no
frontier of waiting children) and the path it is on, which is also the win when it
finds one. Per position it asks for the moves, plays them one at a time as it goes
down, and checks each child's key; no heuristic is worked out.

Like :class:`~freecell.solver.search.BestFirst`, :meth:`DepthFirst.run` may stop at a
cap and go on later, so it can take turns with other searches.

A proof larger than memory need not stop there: with ``spill``, when the process nears
its memory limit the keys seen go to an SQLite file (:class:`SpilledKeys`, in a
temporary directory), and from then on each time as many have gathered again as half
of those that filled the memory. Every key is still kept exactly, on disk: a key is a
position, not a hash of one, so a loss proven that way is proven. Where there is no
sqlite3 (Pyodide may leave it out), the search stops at its limit as without ``spill``.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Sequence
from typing import Final, Generic, Protocol, TypeVar

from freecell.solver.search import CHECK_EVERY, Budget, Outcome, SearchRun

S = TypeVar("S")
M = TypeVar("M")
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Walkable(Protocol[S, M, T_co]):
    """What a depth-first search needs of a problem (a part of
    :class:`~freecell.solver.search.Problem`)."""

    def key(self, state: S) -> bytes: ...

    def is_goal(self, state: S) -> bool: ...

    def moves(self, state: S) -> Sequence[M]: ...

    def play(self, state: S, move: M) -> tuple[S, T_co]: ...


class DepthFirst(Generic[S, M, T]):
    """Visit every state reachable from ``start``, each canonical key once, depth first,
    taking each state's moves in the order the problem lists them.

    A search that ends EXHAUSTED has visited every state reachable from the start: with
    a problem whose reductions are sound, no goal is reachable at all.
    """

    def __init__(
        self, problem: Walkable[S, M, T], start: S, *, spill: bool = False, spill_at: int | None = None
    ) -> None:
        """``spill``: spill the keys to disk near the memory limit rather than stop;
        ``spill_at``: spill once that many keys are in memory, whatever the memory."""
        self.problem = problem
        self.start = start
        self.spill = spill or spill_at is not None
        self.spill_at = spill_at
        self.spilled: SpilledKeys | None = None
        self.keep: int | None = None  # once spilling: how many keys to gather in memory
        self.keys_spilled = 0
        self.seen: set[bytes] = {problem.key(start)}
        # The path: each state on it, the moves from it not yet tried, and what led to it.
        self.states: list[S] = [start]
        self.untried: list[Iterator[M]] = [iter(problem.moves(start))]
        self.vias: list[T | None] = [None]
        self.expanded = 1
        self.ended: SearchRun[S, T] | None = None

    def run(self, budget: Budget, cap: int | None = None) -> SearchRun[S, T]:
        """Go on until a goal (FOUND, with the path to it), every reachable state is
        visited (EXHAUSTED), or ``cap`` more states or ``budget`` are spent (LIMIT; it
        may go on later)."""
        if self.ended is not None:
            return self.ended
        if self.problem.is_goal(self.start):
            self.ended = SearchRun(Outcome.FOUND, (), self.start)
            return self.ended
        problem = self.problem
        key_of, is_goal, moves, play = problem.key, problem.is_goal, problem.moves, problem.play
        seen, states, untried, vias = self.seen, self.states, self.untried, self.vias
        seen_add = seen.add
        spilled = self.spilled
        expanded = backed = 0
        stop_at = budget.positions_left()
        if cap is not None:
            stop_at = cap if stop_at is None else min(stop_at, cap)
        while untried:
            child = None
            for move in untried[-1]:
                child, via = play(states[-1], move)
                key = key_of(child)
                if key not in seen and (spilled is None or key not in spilled):
                    break
                child = None
            if child is None:  # every move from here tried: back up
                untried.pop()
                states.pop()
                vias.pop()
                # Long stretches back up past positions whose children were all seen:
                # the clock is read there too.
                backed += 1
                if backed % CHECK_EVERY == 0 and budget.exhausted(len(seen)):
                    self.expanded += expanded
                    return SearchRun(Outcome.LIMIT)
                continue
            seen_add(key)
            if is_goal(child):
                path = tuple(v for v in vias[1:] if v is not None) + (via,)
                self.ended = SearchRun(Outcome.FOUND, path, child)
                break
            states.append(child)
            vias.append(via)
            untried.append(iter(moves(child)))
            expanded += 1
            budget.expanded += 1
            if expanded % CHECK_EVERY == 0 and self.spill and self._spill_now(budget, expanded):
                seen, spilled = self.seen, self.spilled
                seen_add = seen.add
            if expanded == stop_at or (expanded % CHECK_EVERY == 0 and budget.exhausted(len(seen))):
                self.expanded += expanded
                return SearchRun(Outcome.LIMIT)
        self.expanded += expanded
        if self.ended is None:
            self.ended = SearchRun(Outcome.EXHAUSTED)
        self.close()
        return self.ended

    def _spill_now(self, budget: Budget, expanded: int) -> bool:
        """Move the keys in memory to disk if it is time; whether it was."""
        if self.keep is None:
            if self.spill_at is not None:
                if len(self.seen) < self.spill_at:
                    return False
            elif (
                expanded % _SPILL_EVERY
                or len(self.seen) < _LEAST_SPILLED
                or not budget.memory_short(len(self.seen), reserve=_SPILL_RESERVE)
            ):
                return False
            try:
                self.spilled = SpilledKeys()
            except ImportError:
                self.spill = False
                return False
            self.keep = len(self.seen) // 2
        elif len(self.seen) < self.keep:
            return False
        assert self.spilled is not None
        self.spilled.add_all(self.seen)
        self.keys_spilled += len(self.seen)
        self.seen = set()
        return True

    def close(self) -> None:
        """Remove the keys spilled to disk, if any (the search cannot go on after)."""
        if self.spilled is not None:
            self.spilled.close()
            self.spilled = None


# How often (positions expanded) a search that may spill looks at its memory, the least
# number of keys worth spilling, and how far below its memory limit it spills: SQLite's
# page cache (8 MB) and room to spare.
_SPILL_EVERY: Final = 1024
_LEAST_SPILLED: Final = 10_000
_SPILL_RESERVE: Final = 24_000_000


class SpilledKeys:
    """A set of keys in an SQLite file of its own, in a temporary directory, with a Bloom
    filter in memory in front of it: a key never spilled is nearly always told apart
    without reading the file (most keys a search asks about are new)."""

    def __init__(self) -> None:
        import sqlite3  # only here: not every Python has it
        import tempfile

        self.directory = tempfile.TemporaryDirectory(prefix="freecell-proof-")
        self.db = sqlite3.connect(os.path.join(self.directory.name, "seen.db"))
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "cache_size = -8000"):
            self.db.execute(f"PRAGMA {pragma}")
        self.db.execute("CREATE TABLE seen (key BLOB PRIMARY KEY) WITHOUT ROWID")
        self.count = 0
        self.bits = 0  # the filter's size in bits, a power of two
        self.filter = bytearray()

    def add_all(self, keys: Collection[bytes]) -> None:
        # Sorted: inserted in key order, the B-tree is written page after page.
        self.db.executemany("INSERT OR IGNORE INTO seen VALUES (?)", ((key,) for key in sorted(keys)))
        self.db.commit()
        self.count += len(keys)  # none of them was here: each was looked for first
        if self.count * _BITS_PER_KEY > self.bits:
            self._refilter()  # every key, the ones just stored too
        else:
            for key in keys:
                self._mark(key)

    def _refilter(self) -> None:
        """A filter twice the size the keys stored need now, and every key marked in it."""
        self.bits = 1 << (2 * self.count * _BITS_PER_KEY).bit_length()
        self.filter = bytearray(self.bits >> 3)
        for (key,) in self.db.execute("SELECT key FROM seen"):
            self._mark(key)

    def _probes(self, key: bytes) -> list[int]:
        # Double hashing: the probes h1 + i * h2 from the two halves of the key's hash
        # (Python's hash of bytes: salted per process, which is all a filter needs).
        whole = hash(key) & 0xFFFF_FFFF_FFFF_FFFF
        first, step = whole & 0xFFFF_FFFF, (whole >> 32) | 1
        mask = self.bits - 1
        return [(first + probe * step) & mask for probe in range(_PROBES)]

    def _mark(self, key: bytes) -> None:
        bits = self.filter
        for bit in self._probes(key):
            bits[bit >> 3] |= 1 << (bit & 7)

    def __contains__(self, key: bytes) -> bool:
        bits = self.filter
        for bit in self._probes(key):
            if not bits[bit >> 3] & (1 << (bit & 7)):
                return False
        return self.db.execute("SELECT 1 FROM seen WHERE key = ?", (key,)).fetchone() is not None

    def close(self) -> None:
        self.db.close()
        self.directory.cleanup()


# The Bloom filter: 16 to 64 bits a key (it doubles when it would fall below 16) and 4
# probes. A key never stored is read from the file about 1 time in 400 at 16 bits a key,
# 1 in 5,000 at 32.
_BITS_PER_KEY: Final = 16
_PROBES: Final = 4
