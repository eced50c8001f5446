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
of those that filled the memory, or the process nears its limit again. Every key is
still kept exactly, on disk: a key is a position, not a hash of one, so a loss proven
that way is proven. Where there is no sqlite3 (Pyodide may leave it out), the search
stops at its limit as without ``spill``.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Collection, Sequence
from typing import Final, Generic, Protocol, TypeVar

from freecell.solver.search import (
    CHECK_EVERY,
    Budget,
    InstrumentedProblem,
    SearchEnd,
    SearchRun,
    give_back_freed_memory,
)

S = TypeVar("S")
M = TypeVar("M")
T = TypeVar("T")


class Walkable(Protocol[S, M, T]):
    """What a depth-first search needs of a problem (a part of
    :class:`~freecell.solver.search.Problem`)."""

    def key(self, state: S) -> bytes: ...

    def is_goal(self, state: S) -> bool: ...

    def moves(self, state: S) -> Sequence[M]: ...

    def play(self, state: S, move: M) -> tuple[S, T]: ...

    def reverse(self, state: S, move: M, child: S, via: T) -> M | None:
        """The move from ``child`` (what ``move`` from ``state`` led to, through
        ``via``) that leads back to ``state``, if any (a move ``child`` does not list
        will do too): the search passes it by without playing it."""
        ...

    def child_key(self, state: S, key: bytes, move: M) -> bytes | None:
        """The key of the child ``move`` leads to, from ``key`` (the key of ``state``)
        without making the child, where the problem can tell it so; else None: the
        search then makes the child only if its key is new."""
        ...


# How many levels of the path make a block (see DepthFirst), at most. A search that
# backs up below the levels kept makes each level there again (play, key and moves), so
# small blocks cost time where the path runs deep (see docs/solver.md).
_BLOCK: Final = 8_192
_BLOCK_LEAST: Final = 256
# What a level kept whole holds (its state, key, moves and move back), about. Under a
# memory limit the levels kept whole (2 * block at most) take a 32nd of it at most.
_LEVEL_BYTES: Final = 1_000
_LEVELS_SHARE: Final = 32

# What moving a key to disk is taken to cost: sorting it, storing it and marking it in
# the filter; twice what was measured, for a slower machine or a busy disk.
SPILL_SECONDS_PER_KEY: Final = 6.6e-6


class DepthFirst(Generic[S, M, T]):
    """Visit every state reachable from ``start``, each canonical key once, depth first,
    taking each state's moves in the order the problem lists them.

    A search that ends EXHAUSTED has visited every state reachable from the start: with
    a problem whose reductions are sound, no goal is reachable at all.

    The path can grow very deep (app 2 cells, deal 140: 900,000 positions on it after
    2.7 million seen), so it is kept compact: for each level, only which of its parent's
    moves led there. The states and their lists of moves are kept only near the top
    (the last ``block`` to ``2 * block`` levels) and every ``block`` levels
    (anchors); when the search backs up below what is kept, the block beneath is made
    again from its anchor (the problem's moves and plays are deterministic).

    From each state but the start it passes by the move that leads straight back to
    its parent (the problem's ``reverse``) without playing it: the parent is on the
    path, seen. The search is the same, the positions and their order, with fewer
    moves played.

    With ``dead_ends`` it finds, as it goes, states from which no goal can be reached
    (:attr:`dead`): by Tarjan's algorithm, a state closes a component where it reaches
    no state still on the path or pending from it, and until the first goal no state of
    a closed component reaches one. A proof that stops at a limit, or a walk that meets
    a goal, leaves those behind for other searches (see ``DeadEnds`` in
    :mod:`freecell.solver.board`). The move straight back to the parent, passed by,
    still counts as reaching it.
    """

    def __init__(
        self,
        problem: Walkable[S, M, T],
        start: S,
        *,
        spill: bool = False,
        spill_at: int | None = None,
        block: int | None = None,
        spill_seconds_per_key: float = SPILL_SECONDS_PER_KEY,
        dead_ends: bool = False,
    ) -> None:
        """``dead_ends``: keep in :attr:`dead` the keys of the states found to reach
        no goal (see the class docstring);
        ``spill``: spill the keys to disk near the memory limit rather than stop;
        ``spill_at``: spill once that many keys are in memory, whatever the memory;
        ``block``: how many levels of the path make a block (the tests make it small;
        by default, as many as the first run's memory limit leaves room for);
        ``spill_seconds_per_key``: what moving a key to disk is taken to cost, so that a
        spill moves only as many keys as the time left pays for (the tests make it large)."""
        self.problem = problem
        self.block = block or 0  # 0: chosen by the first run
        self.blocks_remade = 0
        self.start = start
        self.spill = spill or spill_at is not None
        self.spill_at = spill_at
        self.spilled: SpilledKeys | None = None
        self.keep: int | None = None  # once spilling: how many keys to gather in memory
        self.keys_spilled = 0
        self.spill_seconds_per_key = spill_seconds_per_key
        start_key = problem.key(start)
        self.seen: set[bytes] = {start_key}
        # The path, levels 0 (the start) to depth - 1: chosen[level] is the index, in
        # its parent's moves, of the move that led to it (chosen[0] is unused);
        # anchors[n] is the state at level n * block, and anchor_reverses[n] its move
        # back to its parent. The top levels are kept whole: their states, their moves,
        # the move back to the parent (passed by) and the index of the next move to try.
        self.chosen = array("I", [0])
        self.anchors: list[S] = [start]
        self.anchor_reverses: list[M | None] = [None]
        self.states: list[S] = [start]
        self.keys: list[bytes] = [start_key]  # the key of each state kept
        self.listed: list[Sequence[M]] = [problem.moves(start)]
        self.reverses: list[M | None] = [None]
        self.next: list[int] = [0]
        self.expanded = 1
        self.ended: SearchRun[S, T] | None = None
        self.prune: Callable[[S], bool] | None = None
        # Tarjan's bookkeeping (with dead_ends): for each level of the path, its state's
        # number (in the order first seen) and the least number it is known to reach
        # among the states not yet put in a component; those states, by key
        # (``pending``, their numbers) and in the order seen (``members``).
        self.tracks = dead_ends
        self.dead: set[bytes] = set()
        # Where a list is put here, each key added to ``dead`` is appended to it too, so
        # that whoever mirrors the dead ends elsewhere can take the new ones alone.
        self.dead_log: list[bytes] | None = None
        self.numbers = array("Q", [0])
        self.lows = array("Q", [0])
        self.pending: dict[bytes, int] = {start_key: 0} if dead_ends else {}
        self.members: list[bytes] = [start_key] if dead_ends else []
        self.numbered = 1

    @property
    def depth(self) -> int:
        """How many states the path holds (the start included)."""
        return len(self.chosen)

    def run(self, budget: Budget, cap: int | None = None) -> SearchRun[S, T]:
        """Go on until a goal (FOUND, with the path to it), every reachable state is
        visited (EXHAUSTED), or ``cap`` more states or ``budget`` are spent (LIMIT; it
        may go on later).

        A hot loop (every position a search expands or makes passes through it; see
        ``bench/position_cost.py``): kept whole, as calls would cost each position."""
        if self.ended is not None:
            return self.ended
        if self.problem.is_goal(self.start):
            self.ended = SearchRun(SearchEnd.FOUND, (), self.start)
            return self.ended
        if not self.block:
            self.block = _block_for(budget)
        problem = self.problem
        key_of, is_goal, moves, play = problem.key, problem.is_goal, problem.moves, problem.play
        reverse, child_key_of = problem.reverse, problem.child_key
        keys = self.keys
        seen, chosen, anchors, anchor_reverses = self.seen, self.chosen, self.anchors, self.anchor_reverses
        states, listed, reverses, nexts = self.states, self.listed, self.reverses, self.next
        block = self.block
        seen_add = seen.add
        spilled = self.spilled
        prune = self.prune
        tracks = self.tracks
        numbers, lows, pending = self.numbers, self.lows, self.pending
        expanded = backed = 0
        stop_at = budget.positions_allowed(cap)
        while chosen:
            state, moves_here, back, index = states[-1], listed[-1], reverses[-1], nexts[-1]
            state_key = keys[-1]
            child = None
            while index < len(moves_here):
                move = moves_here[index]
                if move == back:
                    if tracks:  # it reaches its parent, which is pending (on the path)
                        lows[-1] = min(lows[-1], numbers[-2])
                    index += 1
                    continue
                known_key = child_key_of(state, state_key, move)
                if known_key is None:
                    child, via = play(state, move)
                    key = key_of(child)
                    if key not in seen and (spilled is None or key not in spilled):
                        break
                elif known_key not in seen and (spilled is None or known_key not in spilled):
                    key = known_key
                    child, via = play(state, move)
                    break
                else:
                    key = known_key
                if tracks:
                    number = pending.get(key)
                    if number is not None:
                        lows[-1] = min(lows[-1], number)
                child = None
                index += 1
            if child is None:  # every move from here tried: back up
                level = len(chosen) - 1
                if tracks:
                    self._close_level()
                returned_by = chosen.pop()
                states.pop()
                keys.pop()
                listed.pop()
                reverses.pop()
                nexts.pop()
                if level % block == 0:
                    anchors.pop()
                    anchor_reverses.pop()
                if nexts:
                    nexts[-1] = returned_by + 1
                elif chosen:
                    self._remake_block(returned_by + 1)
                # Long stretches back up past positions whose children were all seen:
                # the clock is read there too.
                backed += 1
                if backed % CHECK_EVERY == 0 and budget.exhausted(len(seen)):
                    if not self._spill_instead(budget):
                        self.expanded += expanded
                        return SearchRun(SearchEnd.LIMIT)
                    spilled = self.spilled
                    tracks = self.tracks  # no more once it spills
                continue
            nexts[-1] = index + 1
            seen_add(key)
            if is_goal(child):
                self.release(budget)  # ended: the memory of its keys goes to the path
                self.ended = SearchRun(SearchEnd.FOUND, self._path(via), child)
                break
            if prune is not None and prune(child):
                # Seen, and known to reach no goal: it counts toward the turn (it cost
                # about what an expansion does), not toward the budget.
                expanded += 1
                if expanded == stop_at:
                    self.expanded += expanded
                    return SearchRun(SearchEnd.LIMIT)
                continue
            back = reverse(state, move, child, via)
            if len(chosen) % block == 0:
                anchors.append(child)
                anchor_reverses.append(back)
            chosen.append(index)
            if tracks:
                number = self.numbered
                self.numbered = number + 1
                numbers.append(number)
                lows.append(number)
                pending[key] = number
                self.members.append(key)
            states.append(child)
            keys.append(key)
            listed.append(moves(child))
            reverses.append(back)
            nexts.append(0)
            if len(states) >= 2 * block:  # keep the lower block by its anchor only
                del states[:block], keys[:block], listed[:block], reverses[:block], nexts[:block]
            expanded += 1
            budget.expanded += 1
            if expanded % CHECK_EVERY == 0:
                if self.spill and self._spill_now(budget, expanded):
                    spilled = self.spilled
                    tracks = self.tracks  # no more once it spills
                if budget.exhausted(len(seen)):
                    if not self._spill_instead(budget):
                        self.expanded += expanded
                        return SearchRun(SearchEnd.LIMIT)
                    spilled = self.spilled
                    tracks = self.tracks  # no more once it spills
            if expanded == stop_at:
                self.expanded += expanded
                return SearchRun(SearchEnd.LIMIT)
        self.expanded += expanded
        if self.ended is None:
            self.ended = SearchRun(SearchEnd.EXHAUSTED)
        self.close()
        return self.ended

    def _close_level(self) -> None:
        """Tarjan's step as the search backs up from the top level: where that state
        reaches no state pending below it, it closes a component (it and the pending
        states seen after it), every state of which reaches no goal (none was met yet,
        and every state they reach has been seen); else what it reaches passes to its
        parent (which is then in its component)."""
        numbers, lows = self.numbers, self.lows
        number, low = numbers.pop(), lows.pop()
        if low == number:
            pending, members, dead, log = self.pending, self.members, self.dead, self.dead_log
            while members and pending[members[-1]] >= number:
                member = members.pop()
                del pending[member]
                dead.add(member)
                if log is not None:
                    log.append(member)
        elif lows:
            lows[-1] = min(lows[-1], low)

    def _remake_block(self, resume: int) -> None:
        """Make the block that holds the top level whole again, from its anchor,
        replaying the moves chosen; the top one goes on from its move ``resume``. (The
        levels below learn theirs when the search backs up to them.)"""
        problem, chosen = self.problem, self.chosen
        self.blocks_remade += 1
        moves = _uncounted_moves(problem)
        top = len(chosen) - 1
        low = top - top % self.block
        state = self.anchors[low // self.block]
        back = self.anchor_reverses[low // self.block]
        for level in range(low, top + 1):
            if level > low:
                move = self.listed[-1][chosen[level]]
                child, via = problem.play(state, move)
                back = problem.reverse(state, move, child, via)
                state = child
            self.states.append(state)
            self.keys.append(problem.key(state))
            self.listed.append(moves(state))
            self.reverses.append(back)
            self.next.append(0)
        self.next[-1] = resume

    def _path(self, last: T) -> list[T]:
        """What each move of the path from the start to the top did, played again, then
        ``last``. Equal items are one object: a path can be millions of moves long (app,
        1 cell, deal 90: 2.2 million), and what the moves did is one of a few thousand
        things, so the path costs about a pointer a move."""
        problem, chosen = self.problem, self.chosen
        state = self.start
        path: list[T] = [last] * len(chosen)  # its full length at once: no copy as it grows
        known: dict[T, T] = {}
        moves = _uncounted_moves(problem)
        for level in range(1, len(chosen)):
            state, via = problem.play(state, moves(state)[chosen[level]])
            path[level - 1] = known.setdefault(via, via)
        return path

    def _spill_now(self, budget: Budget, expanded: int) -> bool:
        """Move the keys in memory to disk if it is time; whether it was. The first time
        is at ``spill_at`` keys or when the memory runs short; after that, once ``keep``
        keys have gathered again, or when the memory runs short again (what a spill frees
        is not always given back to the OS, nor reused)."""
        gathered = len(self.seen)
        if self.keep is None and self.spill_at is not None:
            due = gathered >= self.spill_at
        else:
            due = (self.keep is not None and gathered >= self.keep) or (
                expanded % _SPILL_EVERY == 0
                and gathered >= _LEAST_SPILLED
                and budget.memory_short(gathered, reserve=_SPILL_RESERVE)
            )
        return due and self._move_keys_to_disk(budget)

    def _spill_instead(self, budget: Budget) -> bool:
        """The budget is spent: if only for memory, and this search may spill keys worth
        spilling, spill them and give the memory back; whether it did."""
        if not (self.spill and budget.for_memory and len(self.seen) >= _LEAST_SPILLED):
            return False
        if not self._move_keys_to_disk(budget):
            return False
        budget.relieve()
        return True

    def _move_keys_to_disk(self, budget: Budget) -> bool:
        """Move the keys in memory to the file (made at the first spill), or as many of
        them as the time left pays for (a spill is one long call, with no look at the
        clock: four million keys take about 13 s here, and more when the filter is made
        again), so that the search stops at its time limit rather than well past it;
        whether any moved. None move where there is no sqlite3, nor when the time left
        pays for fewer than are worth a spill."""
        count = len(self.seen)
        seconds = budget.seconds_left()
        if seconds is not None:
            affordable = int(seconds / self.spill_seconds_per_key)  # keys stored, or read back
            count = min(count, affordable)
            spilled = self.spilled
            if spilled is None or spilled.remakes_filter(count):  # the first spill makes it
                stored = 0 if spilled is None else spilled.count
                count = min(count, (affordable - stored) // 2)  # these and those stored, read back
            if count < len(self.seen) and count < _LEAST_SPILLED:
                return False
        if self.tracks:
            # The memory is short: the dead ends go, and the walk goes on as a proof only.
            self.tracks = False
            self.dead.clear()
            self.pending.clear()
            self.members.clear()
        if self.spilled is None:
            try:
                memory = budget.memory
                self.spilled = (
                    SpilledKeys() if memory is None else SpilledKeys(memory // FILTER_SHARE, memory // CACHE_SHARE)
                )
            except ImportError:
                self.spill = False
                return False
            self.keep = len(self.seen) // 2
        if count == len(self.seen):
            self.spilled.add_all(self.seen)
            self.seen.clear()  # the same set: the search holds it
        else:  # any of them: each key is kept exactly, in memory or on disk
            self.spilled.add_all([self.seen.pop() for _ in range(count)])
        self.keys_spilled += count
        give_back_freed_memory()
        return True

    def close(self) -> None:
        """Remove the keys spilled to disk, if any (the search cannot go on after)."""
        if self.spilled is not None:
            self.spilled.close()
            self.spilled = None

    def release(self, budget: Budget) -> None:
        """Let go of every key, in memory and on disk (the search cannot go on after).
        Near the memory limit what they took is given back to the OS, for what comes
        next to find (up to 40 ms on a large heap: not where memory is plenty, as in
        play)."""
        self.seen.clear()
        self.pending.clear()
        self.members.clear()
        self.close()
        if budget.memory_short(0, reserve=(budget.memory or 0) // 4):
            give_back_freed_memory()


# How often (positions expanded) a search that may spill looks at its memory, the least
# number of keys worth spilling, and how far below its memory limit it spills: SQLite's
# page cache (8 MB) and room to spare.
_SPILL_EVERY: Final = 1024
_LEAST_SPILLED: Final = 10_000
_SPILL_RESERVE: Final = 24_000_000

# SQLite's page cache for a file of spilled keys: this share of the memory limit, from
# 1 to 8 MB (two proofs may spill at once, each with its own).
CACHE_SHARE: Final = 16
_MOST_CACHE_BYTES: Final = 8_000_000
_LEAST_CACHE_BYTES: Final = 1_000_000


class SpilledKeys:
    """A set of keys in an SQLite file of its own, in a temporary directory, with a Bloom
    filter in memory in front of it: a key never spilled is nearly always told apart
    without reading the file (most keys a search asks about are new). One filter for
    every key, so a look costs the same after a hundred spills as after one; it is made
    again, from the file, when the keys outgrow it (see :meth:`remakes_filter`), up to
    ``filter_bytes``: past that it stays as it is and lets more keys through to the file
    (a filter growing with the keys took a process far past its limit)."""

    def __init__(self, filter_bytes: int | None = None, cache_bytes: int = _MOST_CACHE_BYTES) -> None:
        import sqlite3  # only here: not every Python has it
        import tempfile

        self.directory = tempfile.TemporaryDirectory(prefix="freecell-proof-")
        self.db = sqlite3.connect(os.path.join(self.directory.name, "seen.db"))
        cache_kib = max(min(cache_bytes, _MOST_CACHE_BYTES), _LEAST_CACHE_BYTES) // 1024
        for pragma in ("journal_mode = OFF", "synchronous = OFF", f"cache_size = -{cache_kib}"):
            self.db.execute(f"PRAGMA {pragma}")
        self.db.execute("CREATE TABLE seen (key BLOB PRIMARY KEY) WITHOUT ROWID")
        self.count = 0
        self.bits = 0  # the filter's size in bits, a power of two
        self.filter = bytearray()
        # The most bits the filter may have: a power of two, at least _LEAST_FILTER_BITS.
        self.most_bits = (
            None if filter_bytes is None else 1 << (max(filter_bytes * 8, _LEAST_FILTER_BITS).bit_length() - 1)
        )

    def remakes_filter(self, adding: int) -> bool:
        """Whether adding ``adding`` keys makes the filter again: then every key stored
        is read back from the file, as long again as storing them."""
        if self.most_bits is not None and self.bits >= self.most_bits:
            return False  # as large as it may be
        return (self.count + adding) * _BITS_PER_KEY > self.bits

    def add_all(self, keys: Collection[bytes]) -> None:
        """Store ``keys``, none of which is stored yet (each was looked for first)."""
        # Sorted: inserted in key order, the B-tree is written page after page.
        self.db.executemany("INSERT OR IGNORE INTO seen VALUES (?)", zip(sorted(keys)))
        self.db.commit()
        remake = self.remakes_filter(len(keys))
        self.count += len(keys)
        if remake:
            self._refilter()  # every key, the ones just stored too
        else:
            for key in keys:
                self._mark(key)

    def _refilter(self) -> None:
        """A filter twice the size the keys stored need now, and every key marked in it."""
        self.bits = 1 << (2 * self.count * _BITS_PER_KEY).bit_length()
        if self.most_bits is not None:
            self.bits = min(self.bits, self.most_bits)
        self.filter = bytearray()  # the old one goes first
        self.filter = bytearray(self.bits >> 3)
        for (key,) in self.db.execute("SELECT key FROM seen"):
            self._mark(key)

    def _mark(self, key: bytes) -> None:
        first, step = _hash_halves(key)
        bits, mask = self.filter, self.bits - 1
        for probe in range(_PROBES):
            bit = (first + probe * step) & mask
            bits[bit >> 3] |= 1 << (bit & 7)

    def __contains__(self, key: bytes) -> bool:
        first, step = _hash_halves(key)
        bits, mask = self.filter, self.bits - 1
        for probe in range(_PROBES):
            bit = (first + probe * step) & mask
            if not bits[bit >> 3] & (1 << (bit & 7)):
                return False
        return self.db.execute("SELECT 1 FROM seen WHERE key = ?", (key,)).fetchone() is not None

    def close(self) -> None:
        self.db.close()
        self.directory.cleanup()


# The Bloom filter: 16 to 64 bits a key (it doubles when it would fall below 16) and 4
# probes: a key never stored is read from the file about 1 time in 400 at 16 bits a key,
# 1 in 5,000 at 32. One filter for every key, not one a spill (see docs/solver.md).
_BITS_PER_KEY: Final = 16
_PROBES: Final = 4
_LEAST_FILTER_BITS: Final = 1 << 16
# The most a proof's filter may take: this share of the memory limit (SQLite's page cache
# and the keys gathered between spills need the rest).
FILTER_SHARE: Final = 8


def _hash_halves(key: bytes) -> tuple[int, int]:
    """The two halves of ``key``'s hash, for double hashing: a filter's probes are
    first + i * step (Python's hash of bytes: salted per process, which is all a filter
    needs)."""
    whole = hash(key) & 0xFFFF_FFFF_FFFF_FFFF
    return whole & 0xFFFF_FFFF, (whole >> 32) | 1


def _uncounted_moves(problem: Walkable[S, M, T]) -> Callable[[S], Sequence[M]]:
    """The problem's moves, for a level made again or a path played again: no position
    expanded, so an instrumented problem's counts (the solver's statistics) leave them
    out."""
    return problem.problem.moves if isinstance(problem, InstrumentedProblem) else problem.moves


def _block_for(budget: Budget) -> int:
    """The levels of a block: :data:`_BLOCK`, or fewer where the levels kept whole would
    take more than their share of the memory limit."""
    if budget.memory is None:
        return _BLOCK
    fits = budget.memory // (2 * _LEVEL_BYTES * _LEVELS_SHARE)
    return max(_BLOCK_LEAST, min(_BLOCK, fits))
