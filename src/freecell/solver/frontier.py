"""The frontier of a best-first search: entries taken by priority, the newest first."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Final, Generic, TypeVar

if TYPE_CHECKING:
    from mypy_extensions import i64  # (compiled, a machine int; just an int otherwise)

E = TypeVar("E")

# Priorities from 0 up to this have a place each, in lists indexed by the priority and
# grown as higher ones come, to _GROWN_BY past the highest. Any other priority (a goal's,
# far below 0) waits in a heap.
_MOST_LISTED: Final = 1 << 20
_GROWN_BY: Final = 256


class Frontier(Generic[E]):
    """Entries waiting, each with an int priority: :meth:`take` gives the one of lowest
    priority, and among equal priorities the one pushed last (a search dives).

    That is the order of a heap of ``(priority, -n)`` for the n-th entry pushed, and an
    entry taken and pushed back at once with its priority comes next again (a search
    stopped at its limit goes on as if it had not stopped). Each priority from 0 up to
    ``_MOST_LISTED`` has a stack of its own, the lowest that may hold an entry kept, so
    that a push or a take compares no entries; the rare other priorities wait in a heap.
    An entry must not be None. Priorities and sizes are machine ints compiled (``i64``):
    no call for each comparison, index and count.
    """

    def __init__(self) -> None:
        self.size: i64 = 0
        self.priority: i64 = 0  # that of the entry last taken
        # A priority's stack is its newest entry in _tops (None when it has none) over the
        # older ones in _belows (a list made only when a second entry comes, then kept):
        # most priorities never hold two entries at once, and a list each cost more than
        # the rest of a push.
        self._tops: list[E | None] = []
        self._belows: list[list[E] | None] = []
        self._lowest: i64 = _MOST_LISTED  # no stack below it holds an entry
        self._others: list[tuple[int, int, E]] = []  # (priority, -n, entry), a heap
        self._others_pushed: i64 = 0

    def push(self, priority: i64, entry: E) -> None:
        tops = self._tops
        if 0 <= priority < len(tops):
            self.size += 1
            top = tops[priority]
            tops[priority] = entry
            if top is not None:
                below = self._belows[priority]
                if below is None:
                    self._belows[priority] = [top]
                else:
                    below.append(top)
            if priority < self._lowest:
                self._lowest = priority
        elif 0 <= priority < _MOST_LISTED:
            wanted: i64 = min(priority + _GROWN_BY, _MOST_LISTED)
            if self.size == len(self._others):
                # No stack holds an entry (as when a search's first children come, its
                # start taken): the lists made anew cost less than extended.
                self._tops = [None] * wanted
                self._belows = [None] * wanted
            else:
                grown: i64 = wanted - len(tops)
                tops.extend([None] * grown)
                self._belows.extend([None] * grown)
            self.push(priority, entry)
        else:
            self.size += 1
            self._others_pushed += 1
            heapq.heappush(self._others, (priority, -self._others_pushed, entry))

    def take(self) -> E:
        """The entry of lowest priority, the newest among equals (the frontier must not
        be empty); :attr:`priority` tells its priority."""
        others = self._others
        if others and (others[0][0] < 0 or self.size == len(others)):
            self.size -= 1
            self.priority, _, entry = heapq.heappop(others)
            return entry
        self.size -= 1
        tops = self._tops
        lowest: i64 = self._lowest
        top = tops[lowest]
        while top is None:
            lowest += 1
            top = tops[lowest]
        self.priority = lowest
        below = self._belows[lowest]
        if below:
            tops[lowest] = below.pop()
        else:
            tops[lowest] = None
            if self.size == len(others):
                lowest = _MOST_LISTED  # none left in the stacks: the next push tells the lowest
        self._lowest = lowest
        return top
