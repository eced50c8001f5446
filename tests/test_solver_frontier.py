"""The best-first frontier takes its entries in the order of a heap of ``(priority, -n)``
for the n-th entry pushed: the lowest priority first, and among equals the newest,
whatever the priorities."""

from __future__ import annotations

import heapq

from hypothesis import given
from hypothesis import strategies as st

from freecell.solver.frontier import _MOST_LISTED, Frontier
from freecell.solver.search import WON

PRIORITIES = st.one_of(
    st.integers(0, 12),  # many equal
    st.integers(0, 3000),  # the list of stacks grown as they come
    st.integers(-8, -1),  # below the stacks
    st.integers(WON, WON + 6),  # a goal's
    st.integers(_MOST_LISTED - 3, _MOST_LISTED + 3),  # around the stacks' end
)
# ("push", priority), ("take", 0), or ("stop", 0): an entry taken and put back, as a
# search stopped at its limit does before it runs again.
OPERATIONS = st.lists(
    st.one_of(st.tuples(st.just("push"), PRIORITIES), st.tuples(st.sampled_from(("take", "stop")), st.just(0))),
    max_size=200,
)


@given(OPERATIONS)
def test_a_frontier_takes_the_lowest_priority_first_then_the_newest(operations: list[tuple[str, int]]) -> None:
    frontier: Frontier[int] = Frontier()
    heap: list[tuple[int, int]] = []
    pushed = 0
    for operation, priority in operations:
        if operation == "push":
            frontier.push(priority, pushed)
            heapq.heappush(heap, (priority, -pushed))
            pushed += 1
        elif heap:
            expected_priority, number = heapq.heappop(heap)
            taken = frontier.take()
            assert (frontier.priority, taken) == (expected_priority, -number)
            if operation == "stop":
                frontier.push(frontier.priority, taken)
                heapq.heappush(heap, (expected_priority, number))
        assert frontier.size == len(heap)
    taken_all = []
    while frontier.size:
        entry = frontier.take()
        taken_all.append((frontier.priority, entry))
    assert taken_all == [(priority, -number) for priority, number in sorted(heap)]


def test_a_frontier_grown_when_empty_and_when_not_keeps_every_entry() -> None:
    # As a search does: its start at 0, taken, then its children far above (the stacks
    # made anew, being empty), then one beyond them (the stacks extended, holding some).
    frontier: Frontier[str] = Frontier()
    frontier.push(0, "start")
    assert frontier.take() == "start"
    for priority, entry in ((2000, "a"), (1990, "b"), (2000, "c"), (5000, "d"), (2000, "e")):
        frontier.push(priority, entry)
    taken = []
    while frontier.size:
        taken.append((frontier.take(), frontier.priority))
    assert taken == [("b", 1990), ("e", 2000), ("c", 2000), ("a", 2000), ("d", 5000)]
