"""The search problem: the solver's own compact view of a table, its moves and its goal.

:class:`FreeCellProblem` is what every search asks (see the ``Problem`` protocol of
:mod:`~freecell.solver.search`): a state's moves, the child a move leads to with the
cards sent home after it, a state's canonical key (and a child's, from its parent's),
its heuristic, and whether it is won. States and steps are written as
:mod:`~freecell.solver.steps` says. Two problems share this class: the *fast* one moves
runs as one step and sends every safe card home; the *complete* one, for take-back
rules, lists every single-card move and the take-backs a win may need
(:mod:`~freecell.solver.take_backs`). A problem may be *eager* (every card home as soon
as it may: no proofs), keep ordered runs *whole* (no proofs either), or be *relaxed*
(twins changing places: :mod:`~freecell.solver.twins`). Why each reduction loses no win
is argued in ``docs/solver.md`` ("Why the reductions lose no win").
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Final

from freecell.position import Position
from freecell.rules import Building, EmptyColumns, FoundationReturn, Rules, SequenceMoves
from freecell.solver.rating import LastTable, rate, with_shortest
from freecell.solver.search import WON
from freecell.solver.steps import (
    BYTES,
    CELL,
    FUSED,
    HOME,
    KEY_IN_CELL,
    TWIN,
    TWIN_CELL,
    UNLIMITED,
    Columns,
    Rated,
    State,
    Step,
    Steps,
    bump,
    common_steps,
    fused_moves,
    is_twin_step,
    lying_on,
    may_go_home,
    with_card,
)
from freecell.solver.tables import (
    DISORDER_MASK,
    FEATURES_KEPT,
    NO_CARDS,
    SHARE_SHIFT,
    Homeward,
    Weights,
    building_tables,
    column_values,
    columns_alone,
    held_cache,
    homeward_cache,
    parents_table,
    raised_cache,
    ready_table,
    settled_cache,
    stacking_slots,
    takeable_cache,
)
from freecell.solver.take_backs import fused_take_backs, lazy_take_backs
from freecell.solver.twins import (
    IN_BUILT_RUN,
    IN_TOP_RUN,
    ON_CARD,
    can_relax,
    class_key,
    loose_pairs,
    pair_tables,
    swapped_with_twin,
    twin_steps,
)

if TYPE_CHECKING:
    from mypy_extensions import i64  # (compiled, a machine int; just an int otherwise)

# Compiled by mypyc, ``if column:`` on bytes asks Python whether they are true (a call);
# ``len(column) > 0`` reads their size. The code a search runs for every position tests
# lengths.

# Whether the complete problem takes a card back only when a win may need it at once,
# and whether (one deck) it sends home every card that could come back to where it lies
# and takes cards back only in fused steps (see take_backs.py). The tests turn them off
# to compare.
LAZY_TAKE_BACKS = True
FUSED_TAKE_BACKS = True

_PLAIN_WEIGHTS: Final = Weights()
# The rules' choices a problem asks about, read once (an enum member is slow to look up).
_TO_TABLEAU_OR_CELL: Final = FoundationReturn.TO_TABLEAU_OR_CELL
_KINGS_ONLY: Final = EmptyColumns.KINGS_ONLY
_UNLIMITED_RUNS: Final = SequenceMoves.UNLIMITED
_ALTERNATE_COLOURS: Final = Building.ALTERNATE_COLOURS
# Called as a module's name: compiled, key.replace(...) looks the method up by name.
_REPLACE: Final = bytes.replace


def _marked(cards: list[int]) -> bytes:
    """A table of 52 bytes, 1 for each of ``cards``: :data:`NO_CARDS` itself for none."""
    if not cards:
        return NO_CARDS
    table = bytearray(52)
    for card in cards:
        table[card] = 1
    return bytes(table)


class SharedTables:
    """The tables and caches that every problem of one building rule, number of piles
    and of columns shares (each made by its own function in :mod:`~freecell.solver.tables`,
    :mod:`~freecell.solver.steps` and :mod:`~freecell.solver.twins`), gathered so that a
    problem finds them all with one look-up (:func:`shared_tables`; a look-up for each cost a
    solve some 5k instructions more). Its attributes never change; the caches among them
    fill as the problems sharing them ask."""

    def __init__(self, building: Building, pile_count: int, column_count: int) -> None:
        self.follows, self.children, self.safe_needs = building_tables(building, pile_count)
        self.parents = parents_table(building)
        self.slots = stacking_slots(building)
        self.settled_known = settled_cache(building, pile_count)
        self.takeable_known = takeable_cache(building)
        self.raised_known = raised_cache(pile_count)
        self.held_known = held_cache()
        self.columns_alone = columns_alone(column_count)
        self.common_steps = common_steps(column_count)
        self.pair_tables = pair_tables()


@functools.cache
def shared_tables(building: Building, pile_count: int, column_count: int) -> SharedTables:
    return SharedTables(building, pile_count, column_count)


class FreeCellProblem:
    """Moves, goal and heuristic over compact states under ``rules``.

    ``complete`` lists every legal single-card move and the take-backs a win may need;
    otherwise runs move as one step and only the moves a player would consider are
    listed. Safe cards go home after each step; ``eager`` (never for a complete problem)
    sends every card that may go home. ``whole_runs`` (never for a complete problem)
    keeps ordered runs whole: no card of a run to a cell, no odd part of a run into an
    empty column. ``runs`` also moves a run as one step in a complete problem (by default
    only the fast one does): a shortcut through positions its single-card moves reach
    anyway, so it adds no position a proof must not see. ``twins`` (where twins are
    loose: some of ``ON_CARD``, ``IN_CELL``, ``IN_TOP_RUN`` and ``IN_BUILT_RUN``, with one
    of ON_CARD, IN_TOP_RUN and IN_BUILT_RUN among them) makes it the relaxed problem of
    :mod:`~freecell.solver.twins`, where that applies (one deck, alternate colours,
    single-card moves only, not eager); :attr:`twins` is what applies, 0 for none.
    With ``classes`` False, its loose twins still never go home by themselves, but its
    keys tell positions apart and its moves are the game's
    own (no twin step): the game itself, where a relaxed walk's path up to its first twin
    step can be followed, and gone on from. ``fused`` (the default) makes a complete
    problem with one deck take cards back in fused steps, else one at a time (lazily).
    """

    def __init__(
        self,
        rules: Rules,
        *,
        complete: bool,
        weights: Weights = _PLAIN_WEIGHTS,
        eager: bool = False,
        whole_runs: bool = False,
        runs: bool | None = None,
        twins: int = 0,
        classes: bool = True,
        fused: bool = True,
    ) -> None:
        # Each of the rules' attributes read once: compiled, reading one costs a lookup.
        building = rules.building
        takes_back = rules.takes_back
        column_count = rules.columns
        self.rules = rules
        self.weights = weights
        self.cell_weight = weights.in_play + weights.cell
        self.complete = complete
        self.takes_back = takes_back
        self.eager = eager and not complete
        self.whole_runs = whole_runs and not complete
        self.back_to_cell = rules.foundation_return is _TO_TABLEAU_OR_CELL
        self.cell_count = rules.cells
        self.pile_count = pile_count = rules.foundation_count
        self.lazy_take_backs = LAZY_TAKE_BACKS and pile_count == 4
        self.fuses = fused and FUSED_TAKE_BACKS and self.lazy_take_backs and complete and takes_back
        self.truncated = False  # whether some position's fused steps were left out
        self.ways_left = 0  # while a position's fused steps are made
        self.kings_only = rules.empty_columns is _KINGS_ONLY
        self.unlimited = rules.sequence_moves is _UNLIMITED_RUNS
        self.moves_runs = (not complete if runs is None else runs) or self.unlimited
        shared = shared_tables(building, pile_count, column_count)
        self.follows, self.children, self.safe_needs = shared.follows, shared.children, shared.safe_needs
        self.parents = shared.parents
        self.slots = shared.slots
        self.offers, self.seeks, _ = shared.slots  # (moves() reads them: no int boxed to unpack)
        # (moves() copies it: cheaper than making it)
        self.no_slots: list[tuple[int, ...]] = [()] * (shared.slots[2] + 1)
        self.values = column_values(building, weights)
        # Shared by every problem that sends the same cards home by itself.
        # Only the complete problem takes cards back: only there must a card sent home be
        # settled (the fast one's searches never claim a loss under take-back rules).
        self.settling = complete and takes_back
        self.homeward_known = homeward_cache(building, pile_count, self.settling, self.eager)
        self.settled_known = shared.settled_known
        self.takeable_known = shared.takeable_known
        self.chained = building is _ALTERNATE_COLOURS
        self.raised_known = shared.raised_known
        self.held_known = shared.held_known
        self.columns_alone = shared.columns_alone
        self.column_indexes = list(range(column_count))  # (only read: _close scans it)
        # Eager, one deck: the cards safe to send home are those that may go home, told
        # from the foundations by each card's suit and rank, with no table looked up.
        self.safe_when_ready = self.eager and pile_count == 4
        self.column_order = tuple(range(column_count))  # (only read: _close_ready scans it)
        # The commonest steps, made once (compiled, a tuple built per step boxes its ints).
        self.common_steps = shared.common_steps
        if twins and not twins & (ON_CARD | IN_TOP_RUN | IN_BUILT_RUN):
            raise ValueError(
                "a twin moved onto a card must stay loose: twins needs ON_CARD, IN_TOP_RUN or IN_BUILT_RUN"
            )
        relaxable = not (self.eager or self.whole_runs or self.moves_runs) and can_relax(rules)
        self.twins = twins if relaxable else 0
        self.classes = classes
        self.pair_tables = shared.pair_tables
        # The last table loose_pairs() was asked about, and its answer: a walk asks about
        # a child for its key, then again for its twin steps when it goes there next.
        self.pairs_columns: Columns = ()
        self.pairs_cells = b""
        self.pairs = 0
        # Whether child_key() can patch a parent's key: one deck, and the key is where
        # each card lies (twins, and the relaxed classes, are written otherwise).
        # (Patching a class key too was measured and not kept: see docs/solver.md.)
        self.patches_keys = pile_count == 4 and not self.twins
        # The foundations that play() and child_key() last asked about, and the cards
        # safe to send home there: the children of a table share its foundations, found
        # again by identity (no lookup).
        self.last_foundations = b""
        self.last_safe = NO_CARDS
        self.last_table = LastTable()  # what rate() found of the table it rated last
        # The cells that moves() last listed the steps from, and their cards in a set's
        # order: a position expanded often has its parent's cells, found again by identity.
        self.last_cells = b""
        self.last_held: tuple[int, ...] = ()

    # --- states --------------------------------------------------------------------

    def initial(self, position: Position) -> tuple[State, list[Step]]:
        """The state of ``position``, after the safe cards have gone home, and the
        steps that sent them."""
        listed = [bytes(column) for column in position.columns]
        cells = bytes(sorted(card for card in position.cells if card is not None))
        foundations = bytes(position.foundations)
        steps: list[Step] = []
        columns, cells, foundations = self._close(listed, cells, foundations, -1, steps)
        return (columns, cells, foundations), steps

    def key(self, state: State) -> bytes:
        """The canonical key: the order of columns and cells does not matter, and the
        cards in play decide the foundations.

        With one deck it tells, for each card, the card it lies on in its column (255
        for a card at the bottom, :data:`~freecell.solver.steps.KEY_IN_CELL` for one in a
        cell, the card itself for one home): a table of 52 bytes that no order of the
        columns or cells changes, made in C by ``bytes.maketrans`` from the columns
        joined, each card against the one before it (see :func:`~freecell.solver.steps.lying_on`).
        (Sorting the columns instead costs a third more, and a search makes a key for
        every child.) With two decks a card may lie in two places: the key is then the
        columns sorted and joined."""
        columns, cells, _ = state
        if self.twins and self.classes:
            return class_key(self, columns, cells)
        if self.pile_count != 4:
            return b"\xff".join(sorted(columns)) + b"\xfe" + cells
        return lying_on(columns, cells)

    def child_key(self, state: State, key: bytes, step: Step) -> bytes | None:
        """The key of the child that :meth:`play` makes for ``step``, made from ``key``
        (the key of ``state``) without making the child; None where the child must be
        made to know it (a card may go home after the step, the step takes one back or
        is fused, or the key is not where each card lies).

        A search finds most children seen already (app, 1 cell, best first: three in
        five), and this spares it making them: after a step that sends no card home,
        only the lowest card moved lies elsewhere (on another card, or in a cell): one
        byte of the key changes."""
        if not self.patches_keys:
            return None
        source, target, count = step
        if source >= HOME or target >= HOME or TWIN <= source < CELL:
            return None  # a take-back, a fused step, a card sent home, a twin step
        columns, cells, foundations = state
        if source < CELL:
            column = columns[source]
            height = len(column)
            top = column[height - 1]
            lowest = column[height - count]
            uncovered = column[height - count - 1] if height > count else -1
        else:
            top = lowest = source - CELL
            uncovered = -1
        # As play() decides whether the step sends cards home.
        if self.fuses:
            held = cells + BYTES[top] if target == CELL else cells
            if self._returns_home(held, foundations, target, top, uncovered):
                return None
        if uncovered >= 0:
            if self.safe_when_ready:
                if foundations[uncovered & 3] == uncovered >> 2:
                    return None
            else:
                if foundations is not self.last_foundations:
                    self.last_safe = (self.homeward_known.get(foundations) or self.homeward_cards(foundations))[1]
                    self.last_foundations = foundations
                if self.last_safe[uncovered]:
                    return None
        if target < CELL:
            onto = columns[target]
            under = onto[len(onto) - 1] if len(onto) > 0 else 255
        else:
            under = KEY_IN_CELL
        if uncovered >= 0:
            # The lowest card moved is the only card that lies on ``uncovered`` (a card
            # in a column, not home): its byte is the one byte of the key that holds
            # ``uncovered``, replaced in one call (one new bytes, no slices).
            return _REPLACE(key, BYTES[uncovered], BYTES[under], 1)
        # One formatting of the parts: compiled, one new bytes (``+`` made one a part).
        return b"%b%b%b" % (key[:lowest], BYTES[under], key[lowest + 1 :])

    def unseen_child(
        self, came_from: dict[bytes, tuple[bytes, Steps] | None], state: State, key: bytes, step: Step
    ) -> tuple[bytes, State, Steps] | None:
        """The key of the child ``step`` leads to from ``state`` (whose key is ``key``),
        the child and the steps taken; None if that key is in ``came_from``. The child
        is made only where :meth:`child_key` cannot tell its key, or the key is new.

        The searches call this once for each child they take: compiled, the calls here
        are direct, where theirs go through Python's protocol (the arguments parsed,
        ``play()``'s result boxed into two tuples and unpacked again)."""
        child_key = self.child_key(state, key, step)
        if child_key is None:
            child, via = self.play(state, step)
            child_key = self.key(child)
            return None if child_key in came_from else (child_key, child, via)
        if child_key in came_from:
            return None
        # Where child_key() tells the key, no card goes home after the step: the child is
        # the step's alone, as play() would make it (without its tests).
        listed, cells, foundations = self._moved(state, step)
        return child_key, (tuple(listed), cells, foundations), (step,)

    def is_goal(self, state: State) -> bool:
        """Won already: no card in any column lies on a card of lower rank, so the cards
        can go home one after another, always the lowest that is wanted next (see
        :meth:`finish`). Nothing more needs searching there."""
        values = self.values
        known = values.known
        # Most tables are far from won, and the first column or two tell; a plain loop
        # stops there sooner than all() over a generator.
        for column in state[0]:
            found = known.get(column)
            if (values.worked_out(column) if found is None else found) & DISORDER_MASK:
                return False
        return True

    def finish(self, state: State) -> list[Step]:
        """The steps that send every card home from a goal state (see :meth:`is_goal`):
        the lowest card wanted next always lies on top of its column or in a cell."""
        steps: list[Step] = []
        while state[1] or any(state[0]):
            ready = self.homeward_cards(state[2])[0]
            step = next(
                ((index, HOME, 1) for index, column in enumerate(state[0]) if column and ready[column[-1]]),
                None,
            ) or next(((CELL + card, HOME, 1) for card in state[1] if ready[card]), None)
            if step is None:
                raise AssertionError(f"not a goal state: {state}")
            state, taken = self.play(state, step)
            steps.extend(taken)
        return steps

    def heuristic(self, state: State) -> int:
        """How far ``state`` looks from a win: each column's value, the cards in cells,
        and how deep the card each foundation needs next lies in its column.
        :meth:`rated_moves` works out the same figure for a child from its parent's."""
        values = self.values
        known = values.known
        packed: i64 = 0  # the columns' values summed (see ColumnValues)
        for column in state[0]:
            found = known.get(column)
            packed += values.worked_out(column) if found is None else found
        return self._heuristic(state, packed)

    def heuristic_after(self, state: State, columns: Columns, packed_of: list[int], packed: i64) -> int:
        """:meth:`heuristic` of ``state``, or :data:`~freecell.solver.search.WON` if it is
        a goal (see :meth:`is_goal`), told from a table whose columns were ``columns``,
        with ``packed_of`` their values and ``packed`` the sum: only the columns that
        ``state`` does not share with that table are looked up."""
        child_columns = state[0]
        values = self.values
        known = values.known  # (read directly: see ColumnValues)
        index: i64
        for index in range(len(columns)):
            column = child_columns[index]
            if column is not columns[index]:
                found = known.get(column)
                packed += values.worked_out(column) if found is None else found
                packed -= packed_of[index]
        if not packed & DISORDER_MASK:
            return WON  # no card lies on a lower one
        return self._heuristic(state, packed)

    def _heuristic(self, state: State, packed: i64) -> int:
        """:meth:`heuristic` of ``state``, whose columns' values sum to ``packed``."""
        columns, cells, foundations = state
        # How many cards lie above each wanted card (each copy, with two decks): a look
        # at every card is the cheapest way measured (see docs/solver.md), in machine
        # ints compiled.
        wanted = (self.homeward_known.get(foundations) or self.homeward_cards(foundations))[0]
        depth: i64 = 0
        height: i64
        where: i64
        for column in columns:
            height = len(column)
            for where in range(height):
                if wanted[column[where]]:
                    depth += height - where - 1
        h = (packed >> SHARE_SHIFT) + self.cell_weight * len(cells) + self.weights.next * depth
        if self.weights.shortest:
            h += self.weights.shortest * min(map(len, columns))
        return h

    # --- moves ---------------------------------------------------------------------

    def _home_pile(self, card: int, foundations: bytes) -> int:
        rank = card >> 2
        for pile in range(card & 3, self.pile_count, 4):
            if foundations[pile] == rank:
                return pile
        return -1

    def homeward_cards(self, foundations: bytes) -> Homeward:
        """The cards that may go home now, and those among them that may go safely, each
        as a table of 52 bytes (1 for such a card; :data:`~freecell.solver.tables.NO_CARDS`
        itself where there is none)."""
        known = self.homeward_known.get(foundations)
        if known is None:
            one_deck = self.pile_count == 4
            if one_deck and self.eager:
                listed = []  # (not needed)
            else:
                listed = [(height << 2) | (pile & 3) for pile, height in enumerate(foundations) if height < 13]
            ready = ready_table(foundations) if one_deck else _marked(listed)
            safe = ready if self.eager else _marked([card for card in listed if self._safe(card, foundations)])
            if len(self.homeward_known) >= FEATURES_KEPT:
                self.homeward_known.clear()
            known = self.homeward_known[foundations] = (ready, safe)
        return known

    def _safe(self, card: int, foundations: bytes) -> bool:
        """Whether ``card``, ready to go home, may go there for good: no win needs it in
        play afterwards (see docs/solver.md)."""
        if not self.settling:
            rank = card >> 2  # the card's rank - 1
            suit = card & 3
            piles = range(self.pile_count)
            if any(foundations[pile] < rank for pile in piles[suit::4]):
                return False  # two decks: the other copy may need the pile it would take
            needs = self.safe_needs[card]
            if all(foundations[pile] >= rank for pile in needs):
                return True
            # Alternate colours: the cards that could lie on it may all go home instead
            # (see docs/solver.md).
            return (
                self.chained
                and all(foundations[pile] >= rank - 1 for pile in needs)
                and all(foundations[pile] >= rank - 2 for pile in piles if pile & 3 in (suit, 3 - suit))
            )
        pile = self._home_pile(card, foundations)
        return self.settled_heights(bump(foundations, pile, 1))[pile] > card >> 2

    def settled_heights(self, foundations: bytes) -> tuple[int, ...]:
        """Under take-back rules, how many cards of each pile no win ever needs to take
        back: those of the largest set of cards home that holds, with each card, the
        cards under it and every card that could be placed on it (see the module
        docstring)."""
        known = self.settled_known.get(foundations)
        if known is None:
            settled = list(foundations)
            needs = self.safe_needs
            changed = True
            while changed:  # only ever lower: it ends at the largest such set
                changed = False
                for pile, height in enumerate(settled):
                    lower = min(height, 1 + min(settled[q] for q in needs[pile & 3]))
                    if lower != height:
                        settled[pile] = lower
                        changed = True
            if len(self.settled_known) >= FEATURES_KEPT:
                self.settled_known.clear()
            known = self.settled_known[foundations] = tuple(settled)
        return known

    def _close(
        self, listed: list[bytes], cells: bytes, foundations: bytes, exposed: int, steps: list[Step], safe: bytes = b""
    ) -> State:
        """Send safe cards home until none is left. Only the column ``exposed`` can hold
        a newly safe card unless the foundations have changed (-1: look everywhere).
        ``listed`` holds the columns, a list of the caller's that this changes.
        ``safe`` is the table of the cards safe to send home at ``foundations``, where
        the caller has it (``b""``: looked up here).

        A card once safe stays safe while others go home (the foundations only grow),
        so one pass may send several; passes go on while the last one sent any.

        With two decks, an eager problem may send home either of two copies of a card
        (its suit has two piles, and only one may be ready), and which one goes decides
        what goes after it. So it looks at the columns in the order of their cards, not
        of their places: a table makes the same child whatever the order of its columns,
        as a key says it does (a win cut short leans on it, see shortcut.py).

        A hot loop (every position a search expands or makes passes through it; see
        ``bench/position_cost.py``): kept whole, as calls would cost each position."""
        if self.safe_when_ready:
            return self._close_ready(listed, cells, foundations, exposed, steps)
        homeward = self.homeward_known
        # Relaxed problem: loose twins never go home by themselves. Which cards are
        # loose is told once, when first wanted, before any card here goes home: the
        # same for every position of a class (see docs/solver.md).
        twins = self.twins
        pairs = -1  # not told yet
        fuses = self.fuses
        to_home, from_cell_home = self.common_steps.home, self.common_steps.from_cell_home
        if len(safe) == 0:
            safe = (homeward.get(foundations) or self.homeward_cards(foundations))[1]
        while True:
            # (``safe`` is always that of ``foundations`` here: each card sent home
            # below looks it up again, but those of the fused take-backs.)
            if safe is NO_CARDS and not fuses:
                break
            sent = False
            if exposed >= 0:
                scan = [exposed]
            elif self.eager and self.pile_count != 4:
                scan = sorted(range(len(listed)), key=listed.__getitem__)
            else:
                scan = self.column_indexes
            for index in scan:
                column = listed[index]
                if len(column) > 0 and safe[column[-1]]:
                    height = len(column)
                    while len(column) > 0 and safe[column[-1]]:
                        if twins:
                            if pairs < 0:
                                pairs = loose_pairs(self, tuple(listed), cells)
                            if pairs >> column[-1] & 1:
                                break
                        foundations = self._raised(foundations, column[-1])
                        column = column[:-1]
                        steps.append(to_home[index])
                        safe = (homeward.get(foundations) or self.homeward_cards(foundations))[1]
                    if len(column) < height:
                        listed[index] = column
                        sent = True
            if exposed < 0:
                # Over the cells as they were (a card sent home makes new bytes): not
                # over ``cells`` itself, which compiled code reads again at each turn.
                held = cells
                for card in held:
                    if safe[card]:
                        if twins:
                            if pairs < 0:
                                pairs = loose_pairs(self, tuple(listed), cells)
                            if pairs >> card & 1:
                                continue
                        cells = cells.replace(BYTES[card], b"", 1)
                        foundations = self._raised(foundations, card)
                        steps.append(from_cell_home[card])
                        sent = True
                        safe = (homeward.get(foundations) or self.homeward_cards(foundations))[1]
            if fuses:
                # Every card that could come back to where it lies: in a cell, alone in
                # its column or on a card it may lie on (see docs/solver.md).
                if twins and pairs < 0:
                    pairs = loose_pairs(self, tuple(listed), cells)
                follows = self.follows
                for index in range(len(listed)):
                    column = listed[index]
                    height = len(column)
                    while len(column) > 0:
                        card = column[-1]
                        if foundations[card & 3] != card >> 2 or (pairs > 0 and pairs >> card & 1):
                            break
                        if len(column) > 1 and not follows[column[-2] * 52 + card]:
                            break
                        foundations = self._raised(foundations, card)
                        column = column[:-1]
                        steps.append(to_home[index])
                    if len(column) < height:
                        listed[index] = column
                        sent = True
                held = cells if self.back_to_cell else b""
                for card in held:
                    if foundations[card & 3] == card >> 2 and not (pairs > 0 and pairs >> card & 1):
                        cells = cells.replace(BYTES[card], b"", 1)
                        foundations = self._raised(foundations, card)
                        steps.append(from_cell_home[card])
                        sent = True
            if not sent:
                break
            exposed = -1
            if fuses:
                safe = (homeward.get(foundations) or self.homeward_cards(foundations))[1]
        return tuple(listed), cells, foundations

    def _close_ready(
        self, listed: list[bytes], cells: bytes, foundations: bytes, exposed: int, steps: list[Step]
    ) -> State:
        """:meth:`_close` where the cards safe to send home are those that may go home
        (an eager problem with one deck): each card is told from the foundations by its
        suit and rank, not from a table looked up again after each card sent home. The
        same cards go home, in the same order. Its indexes and cards are machine ints
        compiled (``i64``): no call for each ``&`` and shift."""
        to_home, from_cell_home = self.common_steps.home, self.common_steps.from_cell_home
        index: i64
        card: i64
        while True:
            sent = False
            for index in self.columns_alone[exposed] if exposed >= 0 else self.column_order:
                column = listed[index]
                if len(column) > 0:
                    card = column[-1]
                    if foundations[card & 3] == card >> 2:
                        while True:
                            foundations = self._raised(foundations, card)
                            column = column[:-1]
                            steps.append(to_home[index])
                            if len(column) == 0:
                                break
                            card = column[-1]
                            if foundations[card & 3] != card >> 2:
                                break
                        listed[index] = column
                        sent = True
            if exposed < 0:
                # Over the cells as they were (see _close).
                held = cells
                for card in held:
                    if foundations[card & 3] == card >> 2:
                        cells = _REPLACE(cells, BYTES[card], b"", 1)
                        foundations = self._raised(foundations, card)
                        steps.append(from_cell_home[card])
                        sent = True
            if not sent:
                break
            exposed = -1
        return tuple(listed), cells, foundations

    def _raised(self, foundations: bytes, card: i64) -> bytes:
        """The foundations once ``card`` has gone home. Looked up: a search meets the
        same foundations again and again, and the bytes it gets back are shared. Each
        pile's is made when first asked for (a search asks for few of them)."""
        known = self.raised_known.get(foundations)
        if known is None:
            if len(self.raised_known) >= FEATURES_KEPT:
                self.raised_known.clear()
            # (One deck's four piles listed as such: no list multiplied.)
            known = self.raised_known[foundations] = (
                [None, None, None, None] if len(foundations) == 4 else [None] * len(foundations)
            )
        pile: i64 = card & 3 if self.pile_count == 4 else self._home_pile(card, foundations)
        raised = known[pile]
        if raised is None:
            raised = known[pile] = bump(foundations, pile, 1)
        return raised

    def play(self, state: State, step: Step) -> tuple[State, Steps]:
        """The state after ``step`` (trusted to be legal), with the safe cards sent
        home after it; also the steps taken, ``step`` first."""
        if step[0] == FUSED:
            for move in fused_moves(step):
                listed, cells, foundations = self._moved(state, move)
                state = (tuple(listed), cells, foundations)
            steps = [step]
            return self._close(list(state[0]), state[1], state[2], -1, steps), tuple(steps)
        listed, cells, foundations = self._moved(state, step)
        source, target, _ = step
        if TWIN <= source < CELL:
            source -= TWIN  # the twin moved from that column
        if self.safe_when_ready:
            # (As below, the safe cards told from the foundations: see _close_ready.)
            if target == HOME:
                exposed = -1
            elif source < CELL and len(listed[source]) > 0:
                uncovered = listed[source][-1]
                if foundations[uncovered & 3] != uncovered >> 2:
                    return (tuple(listed), cells, foundations), (step,)
                exposed = source
            else:
                return (tuple(listed), cells, foundations), (step,)
            steps = [step]
            return self._close_ready(listed, cells, foundations, exposed, steps), tuple(steps)
        # A take-back lowers the foundations, which makes no card newly safe.
        if foundations is not self.last_foundations:
            self.last_safe = (self.homeward_known.get(foundations) or self.homeward_cards(foundations))[1]
            self.last_foundations = foundations
        safe = self.last_safe
        if self.fuses and target != HOME:
            top = listed[target][-1] if target < CELL else -1
            uncovered = listed[source][-1] if source < CELL and listed[source] else -1
            returns = self._returns_home(cells, foundations, target, top, uncovered)
        else:
            returns = self.fuses
        if returns:
            steps = [step]
            return self._close(listed, cells, foundations, -1, steps, safe), tuple(steps)
        if safe is not NO_CARDS:
            if target == HOME:
                exposed = -1
            elif source < CELL and len(listed[source]) > 0 and safe[listed[source][-1]]:
                exposed = source  # (a twin there stays: see _close)
            else:
                return (tuple(listed), cells, foundations), (step,)
            steps = [step]
            return self._close(listed, cells, foundations, exposed, steps, safe), tuple(steps)
        return (tuple(listed), cells, foundations), (step,)

    def _returns_home(self, cells: bytes, foundations: bytes, target: int, top: int, uncovered: int) -> bool:
        """Whether a move to ``target`` (not home) leaves a card that may go home where
        it could come back to (see :meth:`_close`): the card moved, now ``top`` of its
        column or in one of ``cells`` (those after the move), or the one it uncovered
        (-1: none). Elsewhere nothing changed since the last close."""
        if target == CELL:
            if self.back_to_cell and any([may_go_home(card, foundations) for card in cells]):
                return True
        elif may_go_home(top, foundations):
            return True
        return uncovered >= 0 and may_go_home(uncovered, foundations)

    def _moved(self, state: State, step: Step) -> tuple[list[bytes], bytes, bytes]:
        """The state after ``step`` alone (trusted to be legal; no card sent home after),
        its columns as a new list (for :meth:`_close` to change, or the caller to make a
        tuple of)."""
        columns, cells, foundations = state
        source, target, count = step
        if TWIN <= source < CELL:
            columns, cells = swapped_with_twin(columns, cells, columns[source - TWIN][-1])
            source -= TWIN  # the twin, on top of that column now
        elif source >= TWIN_CELL:
            columns, cells = swapped_with_twin(columns, cells, source - TWIN_CELL)
            source = CELL + ((source - TWIN_CELL) ^ 3)  # the twin, in the cell now
        listed = list(columns)
        if source < CELL:
            column = listed[source]
            # (One card, the commonest, taken as the bytes made once: no slice.)
            moving = BYTES[column[-1]] if count == 1 else column[-count:]
            listed[source] = column[:-count]
        elif source < HOME:
            moving = BYTES[source - CELL]
            cells = cells.replace(moving, b"", 1)
        else:
            pile = self.top_pile(source - HOME, foundations)
            moving = BYTES[(foundations[pile] - 1) * 4 + source - HOME]
            foundations = bump(foundations, pile, -1)
        if target < CELL:
            listed[target] = listed[target] + moving
        elif target == CELL:
            cells = with_card(cells, moving[0])
        else:
            foundations = self._raised(foundations, moving[0])
        return listed, cells, foundations

    def reverse(self, state: State, step: Step, child: State, via: Steps) -> Step | None:
        """The step from ``child`` that puts back what ``step`` from ``state`` moved,
        leading to ``state`` again (up to the order of columns and cells) whenever
        :meth:`moves` lists it for ``child``; None when there is no such step (``via``
        sent cards home too, or two decks take a card back from another pile).

        A search that has seen ``state`` may pass that step by without playing it: it
        would only find ``state`` seen. (The step is built from the move alone, so it
        may be one that ``moves(child)`` does not list: then there is nothing to pass.)
        """
        if len(via) != 1 or is_twin_step(step) or step[0] == FUSED:
            return None
        source, target, count = step
        columns = child[0]
        if (source >= HOME or target == HOME) and self.pile_count != 4:
            return None  # a take-back takes from the highest pile of its suit
        if source < CELL:
            card = state[0][source][-1]
            if columns[source]:
                back = source
            else:
                back = next(index for index, column in enumerate(columns) if not column)
        elif source < HOME:
            card = source - CELL
            back = CELL
        else:
            card = (state[2][source - HOME] - 1) * 4 + source - HOME
            back = HOME
        if target < CELL:
            return (target, back, count)
        if target == CELL:
            return (CELL + card, back, 1)
        return (HOME + (card & 3), back, 1)

    def top_pile(self, suit: int, foundations: bytes) -> int:
        if self.pile_count == 4:
            return suit  # one deck: a pile per suit
        piles = range(suit, self.pile_count, 4)
        return max(piles, key=foundations.__getitem__)

    def rated_moves(self, state: State) -> list[Rated]:
        """Every step from ``state``, with the heuristic of the child it leads to
        (:data:`WON` if that child is a goal) and its cost (see :data:`~freecell.solver.steps.Rated`)."""
        rated = rate(self, state, self.moves(state))
        if self.weights.shortest:
            return with_shortest(self, state[0], rated)
        return rated

    def moves(self, state: State) -> list[Step]:
        """Every step from ``state`` (:meth:`play` makes the child).

        A hot loop (every position a search expands or makes passes through it; see
        ``bench/position_cost.py``): kept whole, as calls would cost each position."""
        columns, cells, foundations = state
        follows = self.follows
        # at_slot[slot]: the columns whose exposed card has that slot; a card may go onto
        # those of the slot it seeks (see stacking_slots). One entry written a column, not
        # one for each card its exposed card takes.
        # The table holds those columns themselves, in order (a slot seldom has two): no
        # mask to make, box and look up again each time a card seeks the slot.
        offers = self.offers
        seeks = self.seeks
        at_slot = self.no_slots.copy()
        alone = self.columns_alone
        empties: i64 = 0
        first_empty = -1
        for j, column in enumerate(columns):
            if len(column) > 0:
                slot = offers[column[-1]]
                there = at_slot[slot]
                at_slot[slot] = there + alone[j] if there else alone[j]
            else:
                if not empties:
                    first_empty = j
                empties += 1
        free: i64 = self.cell_count - len(cells)
        relays: i64 = 0 if self.kings_only else empties
        to_occupied: i64
        to_empty: i64
        if self.unlimited:
            to_occupied = to_empty = UNLIMITED
        elif self.moves_runs:
            to_occupied = (free + 1) << relays
            to_empty = (free + 1) << max(relays - 1, 0)
        else:
            to_occupied = to_empty = 1
        # With one deck a card may go home when its suit's pile is a rank below it:
        # cheaper to ask the foundations than to look the ready table up.
        one_deck = self.pile_count == 4
        ready = NO_CARDS if one_deck else (self.homeward_known.get(foundations) or self.homeward_cards(foundations))[0]
        steps: list[Step] = []
        kings_only = self.kings_only
        whole_runs = self.whole_runs
        common = self.common_steps
        to_cell = common.to_cell
        to_home = common.home
        onto_table = common.onto
        runs = common.runs
        for i, column in enumerate(columns):
            if len(column) == 0:
                continue
            top: i64 = column[-1]
            if foundations[top & 3] == top >> 2 if one_deck else ready[top]:
                steps.append(to_home[i])
            # The ordered run at the exposed end (worked out here: cheaper than looking
            # up the column's features).
            # Its cards are machine ints compiled: no call for each sum and product.
            height: i64 = len(column)
            lowest: i64 = height - 1  # where the run's lowest card lies (positive indexes cost less)
            above: i64 = top
            while lowest > 0:
                below: i64 = column[lowest - 1]
                if not follows[below * 52 + above]:
                    break
                above = below
                lowest -= 1
            run: i64 = height - lowest
            if run == 1:  # the usual case, made short
                from_here = onto_table[i]
                for j in at_slot[seeks[top]]:
                    steps.append(from_here[j])
                if first_empty >= 0 and height > 1 and not (kings_only and top >> 2 != 12):
                    steps.append(from_here[first_empty])
            else:
                from_here = onto_table[i]
                for j in at_slot[seeks[top]]:
                    steps.append(from_here[j])
                runs_from = runs[i]
                count: i64
                for count in range(2, min(run, to_occupied) + 1):
                    for j in at_slot[seeks[column[-count]]]:
                        steps.append(runs_from[j][count])
                if first_empty >= 0:
                    to_first_empty = runs_from[first_empty]
                    most = min(run, to_empty)
                    for count in range(1, most + 1):
                        if count == height:
                            break  # a whole column into an empty one changes nothing
                        if kings_only and column[-count] >> 2 != 12:
                            continue
                        if whole_runs and count < most and count < height - 1:
                            continue
                        steps.append(to_first_empty[count])
            if free and not (whole_runs and run > 1):
                steps.append(to_cell[i])
        # The searches break ties in the order of the steps: the cells' are listed in a
        # set's order, looked up (making a set each time costs more).
        held: tuple[int, ...]
        if cells is self.last_cells:
            held = self.last_held
        else:
            known = self.held_known.get(cells)
            if known is None:
                if len(self.held_known) >= FEATURES_KEPT:
                    self.held_known.clear()
                known = self.held_known[cells] = tuple(set(cells))
            # (Compiled, a tuple that may be None is read through Python's protocols; a
            # card read from bytes would be boxed, then unboxed.)
            held = known
            self.last_cells = cells
            self.last_held = held
        from_cell_home = common.from_cell_home
        from_cell = common.from_cell
        for card in held:
            if foundations[card & 3] == card >> 2 if one_deck else ready[card]:
                steps.append(from_cell_home[card])
            from_here = from_cell[card]
            for j in at_slot[seeks[card]]:
                steps.append(from_here[j])
            if first_empty >= 0 and not (kings_only and card >> 2 != 12):
                steps.append(from_here[first_empty])
        if self.fuses:
            fused_take_backs(self, columns, cells, foundations, steps)
        elif self.takes_back and self.complete:
            lazy_take_backs(self, columns, cells, foundations, at_slot, first_empty, free, steps)
        if self.twins and self.classes:
            twin_steps(self, columns, cells, foundations, first_empty, free, steps)
        return steps
