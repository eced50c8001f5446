"""The search problem: the solver's own compact view of a table, its moves and its goal.

The public :class:`~freecell.position.Position` is made for people and for checking
rules one move at a time. The search needs something cheaper, so a state here is a
tuple ``(columns, cells, foundations)``: each column is ``bytes`` of cards (deepest
first), the cells are the ``bytes`` of the cards they hold, sorted (cells are
interchangeable), and the foundations are the ``bytes`` of the pile heights.

A step is ``(source, target, count)``: a column is its index, a cell is
:data:`CELL` + the card it holds (as a source) or just :data:`CELL` (any empty cell, as a
target), and a foundation is :data:`HOME` + the suit (as a source) or :data:`HOME` (as a
target). :mod:`freecell.solver.transcript` turns steps back into public moves.

Two problems share this module:

* the *fast* one moves a run as one step (within the capacity), into the first empty
  column only (empty columns are interchangeable), and sends every safe card home
  after each step. It also lists every legal single-card move, so where foundation
  cards never come back it reaches every position the game can reach, up to those
  symmetries and safe moves home: when its search runs out of positions, no win exists;
* the *complete* one, for take-back rules, lists every legal single-card move and
  every take-back that a win may need, and sends home only the cards that no win
  needs again, or (one deck) that could come back to where they lie (below).

An *eager* fast problem sends every card home as soon as it may go. That loses wins
now and then (a card sent home may be the only place for another), so an eager search
that runs out of positions proves nothing; but it makes searches shorter and their
solutions too, and the portfolio's quick searches use it.

A fast problem with *whole runs* leaves out the moves that break an ordered run for
little reason: a card lying on its run never goes to a cell (the run moves as one),
and a run goes into an empty column whole, or as much of it as the capacity allows, or
all of its column but the last card, never some other part. A player seldom needs
those moves and a search seldom takes them, yet they are many (about half the moves
listed go to a cell), and each is rated. Like an eager one, a search over it that runs
out of positions proves nothing.

A card is sent home safely when nothing in play could ever be placed on it: every
opposite-colour card one rank lower is home (alternate colours), or every card of its
suit one rank lower (same suit; with one deck, always true of a card that can go home).
With two decks, both cards of its suit one rank lower must be home too: while one pile
of its suit lags, only one pile is ready for the card's rank, and the win may need it
for the other copy (hearts piles at 4 and 2: the 5H that lies on the 3H must go home
to free it, and this 5H, sent first, would leave it no pile).

With alternate colours, where foundation cards never come back, a card of rank r goes
home safely also when every card that could lie on it could go home instead, and
every card that could lie on those: every opposite-colour pile holds r - 2 cards (so
each black r - 1, say, may go home whenever it moves) and every pile of its colour
r - 3 (each red r - 2 may go home; the opposite-colour r - 3s that could lie on those
are home). From any win with the card in play, send it home now, and each time the
win places a card on a card so sent home, send that card home instead (a pile of its
suit is ready for it: its piles only grow, and all of them hold the rank below it),
and leave out every other move of those cards. Every other card lies where it lay and
every other move stays legal: the cards sent home only free cells and columns, no card
outside them is ever placed on one of them, and a card the win sends home still finds
a pile ready (every card sent home early had both cards of its suit one rank lower
home, so the pile it took was not the only one of its rank). So the searches that
prove a loss use it too.

Under take-back rules, cards home can come back, so that is not enough. Call a set D of
cards home *settled* when it holds, with each card, the cards under it on its pile and
every card that could be placed on it (so nothing outside D is ever placed on a card of
D). Then no win needs a card of D back: from any win, delete every move of a card of D
(its take-backs, its moves in play, its way home again). What is left is still legal:
no other card ever lay on a card of D, so every other card lies where it lay; cards of
D took cells and columns that are now free; and the pile a card outside D goes to or
comes back from holds the same cards from its top down to it (a card of D above it on
its suit's pile would put it in D). So the complete problem never takes back a card of
the largest settled set (:meth:`FreeCellProblem._settled`), and sends a card home by
itself when it belongs to the largest settled set once it is home: the same deletion,
of its moves too, turns a win from the table with it in play into a win from the table
with it home. Deleting moves never lengthens a win, so the two reductions together keep
a win wherever there was one. The complete problem's searches may therefore prove a
loss. Under same-suit building every card home is settled: take-backs are never needed.

With one deck, the complete problem takes a card X back only for what a win may need it
for at once (*lazy take-backs*): a card that could lie on X is in a cell, in the ordered
run on top of a column, or on top of its pile and not settled (it could be placed on X
next); or the card under X is not settled once X is off (it may have to come back
after X), and only then may X go to a cell. No win is lost. Take a shortest win with a
take-back of X that is not listed. The card under X stays home while X is out (it is
settled, or X is an ace), so some card is placed on X before it goes home again (else
delete X's moves from that take-back to its way home: a shorter win). Let Z be the
first. Take X back instead just before Z's move, straight to where it lies then (a
column, since it holds Z), and delete X's moves in between (or take X off the top of a
run it moved with). The moves in between stay legal (up to the order of columns): no
card lay on X, its pile kept the same top card under it, and X home frees a cell or a
column. The same cards go home by themselves: X is not settled while Z is to come, so
no card whose settling needs X is settled, with X home or out. The win is no longer,
and now that take-back is listed: Z is in a cell, in the run on top of a column or on
top of its pile. The take-backs in between are listed as they were: X on top of its
pile, not settled, counts for the cards it could lie on as X on top of a column did; a
column without X on top keeps the rest of its run; and the card under X, settled,
counted for none. So the change leaves a shortest win with one take-back fewer that is
not listed, and the last such win is a path of the complete problem.

With one deck the complete problem goes further (*fused take-backs*, in place of the
lazy ones unless ``fused`` is False; :data:`FUSED_TAKE_BACKS`). A card that may go home and could come back to
where it lies (on a card it may lie on, alone in its column, or in a cell where the
rules take cards back to cells) goes home by itself: the table with it home and the
table with it there are a move apart each way, so each is won exactly when the other
is. A card taken back alone would then go home again at once; instead the problem
takes cards back only in *fused steps* (:meth:`FreeCellProblem._fused_take_backs`): a
card or run in play placed on a card X brought back from its pile for it, and before
that, X itself (onto a column whose top it may lie on, into an empty column, or onto a
card brought back the same way to hold it) and each card above X on its pile (the same,
or into a cell where the rules allow), never a settled card, and never onto the column
the card placed comes from. Where cards come back only to columns, a fused step may
also bring X back so, then move it into a cell, when the card under it is not settled
once X is off. No win is lost. Count a win's *moves in play* (neither home
nor back from home), and take a win with fewest, without a move of a settled card (see
above). Cut it before each move in play M: each part is cards sent home and cards taken
back, then M. Send the cards home first, as single steps (a card taken back only covers
cards and lowers a pile; one that goes home and comes back within the part may be
deleted, with whatever lay on it). Put off until after M every take-back that M does not
need: M does not place its card on that card, on one it holds, or on one under it on
its pile. Each is still legal after M, which placed nothing on it and took no cell or
column it held. M moves no card taken back in its part, unless into a cell where the
rules take cards back only to columns (the last kind of fused step: put off, too, what
that card does not need; if the card under it is settled then, no win needs it in the
cell): taking that card back straight to where M puts it would be a win with fewer
moves in play. What is left before M is a fused step that the problem lists. The cards
that go home by themselves after it come back first in the next part when the win needs
them (not moves in play), so the problem's path follows the win part by part, and the
last part sends cards home.

A proof may also walk a *relaxed* problem (``twins``: one deck, alternate colours,
single-card moves), where the two cards of a rank and colour (the 5H and the 5D, say:
*twins*) change places whenever both are *loose*. For building, twins are the same card;
they differ only on the way home. So a position is known by its *class*: the columns and
cells with each pair of loose twins written as its rank and colour only
(:meth:`FreeCellProblem.key`). Most of a lost deal's positions differ from others only in
which twin lies where, so far fewer classes are reachable than positions (standard rules,
2 cells, deal 5441: 434,813 positions; 79,313 classes with twins loose on a card they may
lie on, 34,771 with twins loose in a cell or in the run on top of a column).

Where a card is loose is the problem's choice among :data:`ON_CARD`, :data:`IN_CELL`,
:data:`IN_TOP_RUN` and :data:`IN_BUILT_RUN`, with two properties: whether a card is
loose depends on nothing that twins changing places changes (their ranks and colours are
the same), and a loose card stays loose while other cards move (a card lies on the same
card until it moves, and a card placed on a column must follow its top, so the top run
only grows or shrinks above a card in it, and every card placed on it lies on a card it
may lie on). A twin moved onto a card is loose again (with ON_CARD, IN_TOP_RUN or
IN_BUILT_RUN, one of which every relaxed problem names). A loose twin that moves where
it is loose no more (home, and a cell or an empty column unless the problem names
IN_CELL, or IN_TOP_RUN or IN_BUILT_RUN) may be either of the pair: the problem lists
that move for each (a step from column ``TWIN + i`` or from cell ``TWIN_CELL + card``
swaps the pair first), and sends neither home by itself (its safe cards home are the
others).

Every position the problem can reach (lazy take-backs included) then lies in a class the
relaxed walk reaches. Take a position p in a class the walk has reached, through a
position r of that class, and a move m the problem lists from p (from r too: a take-back
asks only whether one of the two cards that could lie on the card taken back, a pair of
twins, is in a cell or a top run, and about the foundations). The pairs that r and p
hold the other way round are loose in both and stay loose after m, unless m moves one of
their cards: so m from r (or from r with the moved card's pair swapped, when m moves a
twin where it is loose no more) leads to the class of m from p. The cards sent home
after it are the same from both: which cards are loose is told once, before any goes
home, the same from both, and loose twins never go home by themselves. The foundations
are the same in a class. A fused step asks which cards home may come back, and onto
which ranks and colours, and places a card in play that its twin, where the pair is
loose and swapped, stands in for. A card that could come back where it lies goes home by
itself alike from both (where it lies, and the rank and colour of the card under it,
are the same in a class), unless it is a loose twin. A card sent home by itself loses
no win, nor does a take-back left out (above), and a class holds a goal only if every
position in it is one. So when
the relaxed walk runs out of classes, no position that wins can be reached: the deal is
lost. A goal it reaches proves nothing (its class may hold no position the game can
reach), and no path of it is a solution. Looser twins put more positions in a class,
but make a goal that proves nothing likelier, and the classes that such false ways out
lead to may be many: with IN_TOP_RUN, a card dealt onto one it may not lie on, on top of
its column, changes places with its twin in a built run, so the walk takes it off that
card where the game cannot (IN_BUILT_RUN leaves it out, and its walks reach fewer
classes on most lost deals). Which relaxation proves a deal soonest varies from deal to
deal (see :data:`freecell.solver.solving.RELAXATIONS`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from freecell.position import Position
from freecell.rules import Building, EmptyColumns, FoundationReturn, Rules, SequenceMoves
from freecell.solver.search import WON

# Compiled by mypyc, ``if column:`` on bytes asks Python whether they are true (a call);
# ``len(column) > 0`` reads their size. The code a search runs for every position tests
# lengths.

CELL: Final = 64
HOME: Final = 128
# Added to a column's index as a step's source (relaxed problem only): the card on top
# of that column first changes places with its twin.
TWIN: Final = 32
# A step's source (relaxed problem only): the card in a cell, TWIN_CELL + card, first
# changes places with its twin.
TWIN_CELL: Final = 256
# Whether the complete problem takes a card back only when a win may need it at once
# (see the module docstring). With one deck only; the tests turn it off to compare.
# Take-backs are what make the app's proofs dear (session 41, 1 cell, no limit): deal
# 23247 is proven over 76,995 positions by the plain walk under standard rules and not
# within 5 million under the app's, and its first relaxed walk (twins loose in top runs)
# ran out after 20,491 classes against 321,547; over 11506, 27096, 21324 and 16205 the
# plain walks took 1.1 to 1.7 times the positions. Measured and not kept, two
# reductions sound by dominance (the position with the card home can do all that the
# other can, when the card under it is settled): no take-back into an empty column to
# hold a card (that card may go there itself), and a card in a cell sent home by itself
# where cards come back only to columns. The first left the first walks of the 37
# unknowns of seeds 463-509 as they were but three (13355: 269,255 -> 267,203 classes;
# 9331's goal 6,871 -> 5,963); with the second the plain walks took about as many
# positions, or more (16205: 400,014 -> 398,698; 11506: 1,602,999 -> 1,894,775).
LAZY_TAKE_BACKS = True
# Whether the complete problem (one deck) sends home every card that could come back to
# where it lies, and takes cards back only in fused steps (see the module docstring).
# The tests turn it off to compare.
FUSED_TAKE_BACKS = True
# A fused step's source: its target packs the moves it stands for, its count says how
# many there are (see :func:`fused_moves`).
FUSED: Final = 1024
# The most ways of bringing cards back that one position's fused steps are made from.
# Late in a won game a card deep in its pile, with empty columns about, can be brought
# back in thousands of ways (app, 1 cell, 13492: 17,376 fused steps from one position);
# a proof seldom meets ten (30412, 24055, and 3972 cut at 400,000 positions: 475 of
# 620,000 positions with ten to nineteen, none with more). A problem that leaves ways
# out says so (:attr:`FreeCellProblem.truncated`): a search over it that runs out of
# positions proves nothing.
FUSED_WAYS_MOST: Final = 256
# Where a card of a pair of twins may lie to be *loose* (relaxed problem only: see the
# module docstring). A relaxed problem names some of them; a pair of loose twins is
# written in its key as one rank and colour.
ON_CARD: Final = 1  # on a card it may lie on
IN_CELL: Final = 2  # in a cell
IN_TOP_RUN: Final = 4  # in the ordered run on top of its column (a top card always is)
# In that run too, but on a card it may lie on, or at the foot of its column: not the card at
# the foot of a run that lies where it was dealt, on a card it may not lie on.
IN_BUILT_RUN: Final = 8
UNLIMITED: Final = 10_000

Columns = tuple[bytes, ...]
State = tuple[Columns, bytes, bytes]
Step = tuple[int, int, int]
Steps = tuple[Step, ...]
# A step with its child's heuristic, and the child with the steps taken when rating it
# meant making it (None otherwise: the search makes it if it ever takes it).
Rated = tuple[int, Step, "tuple[State, Steps] | None"]
# A table while a fused step is made: its columns, cells, foundations (one int, a byte a
# pile: see _fused_take_backs) and the moves so far.
Fusing = tuple[list[bytes], bytes, int, Steps]

CardLists = tuple[tuple[int, ...], ...]
_NO_CARDS: Final[frozenset[int]] = frozenset()


@dataclass(frozen=True, slots=True)
class Weights:
    """What each feature of a table costs the heuristic (lower is closer to a win).

    Empty cells and columns are valued strongly: they are what makes every later move
    possible. ``disorder`` counts the cards lying on a lower card of their column (each
    must move before that card can go home); ``off_run`` the cards above the ordered run
    at the exposed end; ``depth`` how deep the lowest card of each column lies; ``next``
    how deep the next card each foundation needs lies; ``shortest`` how many cards the
    shortest column holds (0 once a column is empty): it draws a search towards emptying
    a column, even through full cells, where the others see only cost.
    """

    in_play: int = 10
    disorder: int = 12
    off_run: int = 2
    depth: int = 2
    cell: int = 14
    empty_column: int = 40
    next: int = 6
    shortest: int = 0


Features = tuple[int, int, int, int]
_FEATURES_KEPT: Final = 500_000


class ColumnFeatures(dict[bytes, Features]):
    """For each column seen: the length of the ordered run at its exposed end, how many
    of its cards lie on a lower card (each must move before that card can go home),
    the rank of its lowest card, and how many cards lie above that card.

    Each is worked out from the column without its exposed card, which has nearly
    always been seen before. Shared by every search under one building rule; it forgets
    everything when it grows past :data:`_FEATURES_KEPT` columns.
    """

    def __init__(self, follows: bytes) -> None:
        super().__init__()
        self.follows = follows

    def __missing__(self, column: bytes) -> Features:
        if len(self) >= _FEATURES_KEPT:
            self.clear()
        n = len(column)
        if n <= 1:
            features = (n, 0, column[0] >> 2, 0) if n else (0, 0, 99, 0)
        else:
            run, disorder, lowest, depth = self[column[:-1]]
            card = column[-1]
            run = run + 1 if self.follows[column[-2] * 52 + card] else 1
            if card >> 2 > lowest:
                features = (run, disorder + 1, lowest, depth + 1)
            else:
                features = (run, disorder, card >> 2, 0)
        self[column] = features
        return features


class ColumnValues(dict[bytes, int]):
    """Each column's share of the heuristic, computed once per distinct column and
    shared by every search with the same weights and building rule; it forgets
    everything when it grows past :data:`_FEATURES_KEPT` columns."""

    def __init__(self, features: ColumnFeatures, weights: Weights) -> None:
        super().__init__()
        self.features = features
        self.weights = weights

    def __missing__(self, column: bytes) -> int:
        if len(self) >= _FEATURES_KEPT:
            self.clear()
        n = len(column)
        weights = self.weights
        if not n:
            value = -weights.empty_column
        else:
            run, disorder, _, depth = self.features[column]
            value = (
                weights.in_play * n
                + weights.disorder * disorder
                + weights.off_run * (n - run)
                + weights.depth * depth
            )
        self[column] = value
        return value


class FreeCellProblem:
    """Moves, goal and heuristic over compact states under ``rules``.

    ``complete`` lists every legal single-card move (see the module docstring);
    otherwise runs move as one step and only the moves a player would consider are
    listed. Safe cards go home after each step (see the module docstring); ``eager`` (never for a
    complete problem) sends every card that may go home. ``whole_runs`` (never for a
    complete problem) keeps ordered runs whole, as the module docstring tells.
    ``runs`` also moves a run as one step in a complete problem (by default only the
    fast one does): a shortcut through positions its single-card moves reach anyway, so
    it adds no position a proof must not see. ``twins`` (where twins are loose: some of
    :data:`ON_CARD`, :data:`IN_CELL`, :data:`IN_TOP_RUN` and :data:`IN_BUILT_RUN`, with
    one of ON_CARD, IN_TOP_RUN and IN_BUILT_RUN among them) makes it the relaxed problem
    of the module docstring, where that applies (one deck, alternate colours,
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
        weights: Weights = Weights(),
        eager: bool = False,
        whole_runs: bool = False,
        runs: bool | None = None,
        twins: int = 0,
        classes: bool = True,
        fused: bool = True,
    ) -> None:
        self.rules = rules
        self.weights = weights
        self.cell_weight = weights.in_play + weights.cell
        self.complete = complete
        self.takes_back = rules.takes_back
        self.eager = eager and not complete
        self.whole_runs = whole_runs and not complete
        self.back_to_cell = rules.foundation_return is FoundationReturn.TO_TABLEAU_OR_CELL
        self.cell_count = rules.cells
        self.pile_count = rules.foundation_count
        self.lazy_take_backs = LAZY_TAKE_BACKS and self.pile_count == 4
        self.fuses = fused and FUSED_TAKE_BACKS and self.lazy_take_backs and complete and rules.takes_back
        self.truncated = False  # whether some position's fused steps were left out
        self.ways_left = 0  # while a position's fused steps are made
        self.kings_only = rules.empty_columns is EmptyColumns.KINGS_ONLY
        self.unlimited = rules.sequence_moves is SequenceMoves.UNLIMITED
        self.moves_runs = (not complete if runs is None else runs) or self.unlimited
        self.follows, self.children, self.safe_needs = _tables(rules.building, self.pile_count)
        self.parents = _parents(rules.building)
        self.features = _features(rules.building)
        self.values = _values(rules.building, weights)
        # Shared by every problem that sends the same cards home by itself.
        # Only the complete problem takes cards back: only there must a card sent home be
        # settled (the fast one's searches never claim a loss under take-back rules).
        self.settling = complete and rules.takes_back
        self.homeward = _homeward_known(rules.building, self.pile_count, self.settling, self.eager)
        self.ready_known = _ready_known(self.pile_count)
        self.settled = _settled_known(rules.building, self.pile_count)
        self.takeable_known = _takeable_known(rules.building)
        self.chained = rules.building is Building.ALTERNATE_COLOURS
        self.raised_known = _raised_known(self.pile_count)
        self.columns_in = _columns_in(rules.columns)
        if twins and not twins & (ON_CARD | IN_TOP_RUN | IN_BUILT_RUN):
            raise ValueError(
                "a twin moved onto a card must stay loose: twins needs ON_CARD, IN_TOP_RUN or IN_BUILT_RUN"
            )
        relaxable = can_relax(rules) and not (self.eager or self.whole_runs or self.moves_runs)
        self.twins = twins if relaxable else 0
        self.classes = classes
        self.pair_tables = _pair_tables()
        # The last table _loose_pairs was asked about, and its answer: a walk asks about
        # a child for its key, then again for its twin steps when it goes there next.
        self.pairs_columns: Columns = ()
        self.pairs_cells = b""
        self.pairs = 0
        # Whether child_key() can patch a parent's key: one deck, and the key is where
        # each card lies (twins, and the relaxed classes, are written otherwise).
        # Patching a class key was measured and not kept: with the parent's columns
        # written as a class once, and only the two columns a step changes written
        # again (the loose pairs were the parent's for 97% of children), a walk alone
        # (app 1 cell, 150,000 classes of 6846, 25211 and 3972) took 11.3-15.4 us a
        # class against 9.5-13.8: telling that no card goes home costs what it saves.
        # Measured again (session 39): the parent's columns as written found by the
        # identity of its key (the last two parents and the last child told), the
        # child's loose cards from the two columns changed, and the pairs' translation
        # made again where they change. The walk above took 2,520M instructions for
        # 30,000 classes of 6846 against 2,499M (callgrind): with one cell half the
        # steps send a card home or take one back and are made anyway, and a class key
        # told so still sorts and joins the columns (2,000 and 900 instructions of the
        # 7,400 it cost, against 13,300 for a child made and keyed).
        self.patches_keys = self.pile_count == 4 and not self.twins

    # --- states --------------------------------------------------------------------

    def initial(self, position: Position) -> tuple[State, list[Step]]:
        """The state of ``position``, after the safe cards have gone home, and the
        steps that sent them."""
        columns = tuple(bytes(column) for column in position.columns)
        cells = bytes(sorted(card for card in position.cells if card is not None))
        foundations = bytes(position.foundations)
        steps: list[Step] = []
        columns, cells, foundations = self._close(columns, cells, foundations, -1, steps)
        return (columns, cells, foundations), steps

    def key(self, state: State) -> bytes:
        """The canonical key: the order of columns and cells does not matter, and the
        cards in play decide the foundations.

        With one deck it tells, for each card, the card it lies on in its column (255
        for a card at the bottom, the card itself for one in a cell or home), then the
        cells: a table of 52 bytes that no order of the columns changes, made in C by
        ``bytes.maketrans`` from the columns joined, each card against the one before it.
        (Sorting the columns instead costs a third more, and a search makes a key for
        every child.) With two decks a card may lie in two places: the key is then the
        columns sorted and joined."""
        columns, cells, _ = state
        if self.twins and self.classes:
            return self._class_key(columns, cells)
        if self.pile_count != 4:
            return b"\xff".join(sorted(columns)) + b"\xfe" + cells
        return _lying_on(columns) + cells

    def child_key(self, state: State, key: bytes, step: Step) -> bytes | None:
        """The key of the child that :meth:`play` makes for ``step``, made from ``key``
        (the key of ``state``) without making the child; None where the child must be
        made to know it (a card may go home after the step, the step takes one back or
        is fused, or the key is not where each card lies).

        A search finds most children seen already (app, 1 cell, best first: three in
        five), and this spares it making them: after a step that sends no card home,
        only the lowest card moved lies on another card, and the cells may change."""
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
        held = cells + _BYTES[top] if target == CELL else cells
        if self.fuses and self._returns_home(held, foundations, target, top, uncovered):
            return None
        if uncovered >= 0:
            safe = (self.homeward.get(foundations) or self._homeward(foundations))[1]
            if uncovered in safe:
                return None
        if target < CELL:
            onto = columns[target]
            under = onto[len(onto) - 1] if len(onto) > 0 else 255
        else:
            under = lowest  # in a cell: the card itself
        if source < CELL and target < CELL:
            return key[:lowest] + _BYTES[under] + key[lowest + 1 :]
        placed = key[:lowest] + _BYTES[under] + key[lowest + 1 : 52]
        if source >= CELL:
            return placed + cells.replace(_BYTES[lowest], b"", 1)
        return placed + _in_order(cells + _BYTES[lowest])

    def _class_key(self, columns: Columns, cells: bytes) -> bytes:
        """The relaxed problem's key (see the module docstring): the columns sorted, each
        card of a pair of twins that are both loose written as its rank and colour, then
        the cells (sorted again)."""
        pairs = self._loose_pairs(columns, cells)
        if pairs:
            table = self.pair_tables.get(pairs)
            if table is None:
                table = _pair_table(pairs)
                if len(self.pair_tables) >= _PAIR_TABLES_KEPT:
                    self.pair_tables.clear()
                self.pair_tables[pairs] = table
            ordered = [column.translate(table) for column in columns]
            if len(cells) > 0:
                cells = _in_order(cells.translate(table))
        else:
            ordered = list(columns)
        ordered.sort()
        return b"\xff".join(ordered) + b"\xfe" + cells

    def _loose_pairs(self, columns: Columns, cells: bytes) -> int:
        """The cards whose twin and themselves are both loose in the ways :attr:`twins`
        names (see the module docstring), one bit each (card 0 the lowest)."""
        if columns is self.pairs_columns and cells is self.pairs_cells:
            return self.pairs
        flags = self.twins
        loose = 0
        if flags & (ON_CARD | IN_TOP_RUN):
            # Walked here, down each column as far as the flags need: cheaper than a
            # table of columns (a dict lookup costs more than a short walk).
            follows = self.follows
            on_card = flags & ON_CARD
            top_run = flags & IN_TOP_RUN
            for column in columns:
                k = len(column) - 1
                if k < 0:
                    continue
                card = column[k]
                if top_run:
                    loose = loose | 1 << card
                in_run = True
                while k:
                    under = column[k - 1]
                    if follows[under * 52 + card]:
                        if on_card:
                            loose = loose | 1 << card
                        if top_run and in_run:
                            loose = loose | 1 << under
                    elif on_card:
                        in_run = False
                    else:
                        break
                    k -= 1
                    card = under
        if flags & IN_BUILT_RUN:
            follows = self.follows
            for column in columns:
                k = len(column) - 1
                while k > 0 and follows[column[k - 1] * 52 + column[k]]:
                    loose = loose | 1 << column[k]
                    k -= 1
                if k == 0 and len(column) > 0:
                    loose = loose | 1 << column[0]  # the whole column is one built run
        if flags & IN_CELL:
            for card in cells:
                loose = loose | 1 << card
        pairs = loose & _twins_of(loose)
        self.pairs_columns, self.pairs_cells, self.pairs = columns, cells, pairs
        return pairs

    def is_goal(self, state: State) -> bool:
        """Won already: no card in any column lies on a card of lower rank, so the cards
        can go home one after another, always the lowest that is wanted next (see
        :meth:`finish`). Nothing more needs searching there."""
        features = self.features
        # Most tables are far from won, and the first column or two tell; a plain loop
        # stops there sooner than all() over a generator.
        for column in state[0]:  # noqa: SIM110
            if features[column][1]:
                return False
        return True

    def finish(self, state: State) -> list[Step]:
        """The steps that send every card home from a goal state (see :meth:`is_goal`):
        the lowest card wanted next always lies on top of its column or in a cell."""
        steps: list[Step] = []
        while state[1] or any(state[0]):
            ready = self._homeward(state[2])[0]
            step = next(
                (
                    (index, HOME, 1)
                    for index, column in enumerate(state[0])
                    if column and column[-1] in ready
                ),
                None,
            ) or next(((CELL + card, HOME, 1) for card in state[1] if card in ready), None)
            if step is None:
                raise AssertionError(f"not a goal state: {state}")
            state, taken = self.play(state, step)
            steps.extend(taken)
        return steps

    # Measured and not kept: in the searches that make each child when found (TIGHT_FINAL),
    # a child's heuristic worked out from its parent's, each column's share kept for the
    # parent and only the columns the step changed looked at. A child cost about 0.7 us so
    # (0.7 to 1.3 us here), the parent's shares 0.9 to 1.2 us more, and under take-back
    # rules half the children change the foundations, which makes every share new (app 1
    # cell, 6846). TIGHT_FINAL alone over 60,000 positions took the same time (with it
    # and without, the mean of two runs each: 6846 21.4 and 21.8 us a position, 17331
    # 13.4 and 13.9, 3972 11.6 and 11.4).
    def heuristic(self, state: State) -> int:
        """How far ``state`` looks from a win: each column's value, the cards in cells,
        and how deep the card each foundation needs next lies in its column.
        :meth:`rated_moves` works out the same figure for a child from its parent's."""
        columns, cells, foundations = state
        values = self.values
        # How many cards lie above each wanted card (each copy, with two decks): a look
        # at every card costs less than a search of the table for each wanted one, and
        # less than a table of every card's depth made by bytes.maketrans as key() makes
        # its own (measured: app 1 cell, 1320, 30,000 positions in play, 2,604M -> 2,715M
        # instructions).
        one_deck = self.pile_count == 4
        wanted = b"" if one_deck else self.ready_known.get(foundations) or self._ready_table(foundations)
        depth = 0
        for column in columns:
            height = len(column)
            for where in range(height):
                card = column[where]
                if foundations[card & 3] == card >> 2 if one_deck else wanted[card]:
                    depth += height - where - 1
        h = sum([values[column] for column in columns]) + self.cell_weight * len(cells) + self.weights.next * depth
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

    def _homeward(self, foundations: bytes) -> tuple[frozenset[int], frozenset[int]]:
        """The cards that may go home now, and those among them that may go safely."""
        known = self.homeward.get(foundations)
        if known is None:
            ready = {(height << 2) | (pile & 3) for pile, height in enumerate(foundations) if height < 13}
            safe = ready if self.eager else {card for card in ready if self._safe(card, foundations)}
            if len(self.homeward) >= _FEATURES_KEPT:
                self.homeward.clear()
            known = self.homeward[foundations] = (frozenset(ready), frozenset(safe))
        return known

    def _ready_table(self, foundations: bytes) -> bytes:
        """For each card, 1 if it may go home now: what :meth:`_homeward` tells first,
        as a table that compiled code reads without making an object per card (the
        heuristic asks of every card of two decks)."""
        ready = self._homeward(foundations)[0]
        if len(self.ready_known) >= _FEATURES_KEPT:
            self.ready_known.clear()
        table = self.ready_known[foundations] = bytes([card in ready for card in range(52)])
        return table

    def _safe(self, card: int, foundations: bytes) -> bool:
        """Whether ``card``, ready to go home, may go there for good: no win needs it in
        play afterwards (see the module docstring)."""
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
            # (see the module docstring).
            return (
                self.chained
                and all(foundations[pile] >= rank - 1 for pile in needs)
                and all(foundations[pile] >= rank - 2 for pile in piles if pile & 3 in (suit, 3 - suit))
            )
        pile = self._home_pile(card, foundations)
        return self._settled(_bump(foundations, pile, 1))[pile] > card >> 2

    def _settled(self, foundations: bytes) -> tuple[int, ...]:
        """Under take-back rules, how many cards of each pile no win ever needs to take
        back: those of the largest set of cards home that holds, with each card, the
        cards under it and every card that could be placed on it (see the module
        docstring)."""
        known = self.settled.get(foundations)
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
            if len(self.settled) >= _FEATURES_KEPT:
                self.settled.clear()
            known = self.settled[foundations] = tuple(settled)
        return known

    def _close(self, columns: Columns, cells: bytes, foundations: bytes, exposed: int, steps: list[Step]) -> State:
        """Send safe cards home until none is left. Only the column ``exposed`` can hold
        a newly safe card unless the foundations have changed (-1: look everywhere).

        A card once safe stays safe while others go home (the foundations only grow),
        so one pass may send several; passes go on while the last one sent any.

        With two decks, an eager problem may send home either of two copies of a card
        (its suit has two piles, and only one may be ready), and which one goes decides
        what goes after it. So it looks at the columns in the order of their cards, not
        of their places: a table makes the same child whatever the order of its columns,
        as a key says it does (a win cut short leans on it, see shortcut.py)."""
        listed = list(columns)
        homeward = self.homeward
        # Relaxed problem: loose twins never go home by themselves. Which cards are
        # loose is told once, when first wanted, before any card here goes home: the
        # same for every position of a class (see the module docstring).
        twins = self.twins
        pairs = -1  # not told yet
        fuses = self.fuses
        while True:
            safe = (homeward.get(foundations) or self._homeward(foundations))[1]
            if not safe and not fuses:
                break
            sent = False
            if exposed >= 0:
                scan = [exposed]
            elif self.eager and self.pile_count != 4:
                scan = sorted(range(len(listed)), key=listed.__getitem__)
            else:
                scan = list(range(len(listed)))
            for index in scan:
                column = listed[index]
                if len(column) > 0 and column[-1] in safe:
                    height = len(column)
                    while len(column) > 0 and column[-1] in safe:
                        if twins:
                            if pairs < 0:
                                pairs = self._loose_pairs(tuple(listed), cells)
                            if pairs >> column[-1] & 1:
                                break
                        foundations = self._raised(foundations, column[-1])
                        column = column[:-1]
                        steps.append((index, HOME, 1))
                        safe = (homeward.get(foundations) or self._homeward(foundations))[1]
                    if len(column) < height:
                        listed[index] = column
                        sent = True
            if exposed < 0:
                # Over the cells as they were (a card sent home makes new bytes): not
                # over ``cells`` itself, which compiled code reads again at each turn.
                held = cells
                for card in held:
                    if card in safe:
                        if twins:
                            if pairs < 0:
                                pairs = self._loose_pairs(tuple(listed), cells)
                            if pairs >> card & 1:
                                continue
                        cells = cells.replace(bytes((card,)), b"", 1)
                        foundations = self._raised(foundations, card)
                        steps.append((CELL + card, HOME, 1))
                        sent = True
                        safe = (homeward.get(foundations) or self._homeward(foundations))[1]
            if fuses:
                # Every card that could come back to where it lies: in a cell, alone in
                # its column or on a card it may lie on (see the module docstring).
                if twins and pairs < 0:
                    pairs = self._loose_pairs(tuple(listed), cells)
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
                        steps.append((index, HOME, 1))
                    if len(column) < height:
                        listed[index] = column
                        sent = True
                held = cells if self.back_to_cell else b""
                for card in held:
                    if foundations[card & 3] == card >> 2 and not (pairs > 0 and pairs >> card & 1):
                        cells = cells.replace(bytes((card,)), b"", 1)
                        foundations = self._raised(foundations, card)
                        steps.append((CELL + card, HOME, 1))
                        sent = True
            if not sent:
                break
            exposed = -1
        return tuple(listed), cells, foundations

    def _raised(self, foundations: bytes, card: int) -> bytes:
        """The foundations once ``card`` has gone home. Looked up: a search meets the
        same foundations again and again, and the bytes it gets back are shared."""
        known = self.raised_known.get(foundations)
        if known is None:
            if len(self.raised_known) >= _FEATURES_KEPT:
                self.raised_known.clear()
            known = self.raised_known[foundations] = tuple(
                [_bump(foundations, pile, 1) if height < 13 else foundations for pile, height in enumerate(foundations)]
            )
        return known[card & 3 if self.pile_count == 4 else self._home_pile(card, foundations)]

    def play(self, state: State, step: Step) -> tuple[State, Steps]:
        """The state after ``step`` (trusted to be legal), with the safe cards sent
        home after it; also the steps taken, ``step`` first."""
        if step[0] == FUSED:
            for move in fused_moves(step):
                state = self._moved(state, move)
            steps = [step]
            return self._close(state[0], state[1], state[2], -1, steps), tuple(steps)
        columns, cells, foundations = self._moved(state, step)
        source, target, _ = step
        if TWIN <= source < CELL:
            source -= TWIN  # the twin moved from that column
        # A take-back lowers the foundations, which makes no card newly safe.
        safe = (self.homeward.get(foundations) or self._homeward(foundations))[1]
        if self.fuses and target != HOME:
            top = columns[target][-1] if target < CELL else -1
            uncovered = columns[source][-1] if source < CELL and columns[source] else -1
            returns = self._returns_home(cells, foundations, target, top, uncovered)
        else:
            returns = self.fuses
        if returns:
            steps = [step]
            return self._close(columns, cells, foundations, -1, steps), tuple(steps)
        if safe:
            if target == HOME:
                exposed = -1
            elif source < CELL and columns[source] and columns[source][-1] in safe:
                exposed = source  # (a twin there stays: see _close)
            else:
                return (columns, cells, foundations), (step,)
            steps = [step]
            columns, cells, foundations = self._close(columns, cells, foundations, exposed, steps)
            return (columns, cells, foundations), tuple(steps)
        return (columns, cells, foundations), (step,)

    def _returns_home(self, cells: bytes, foundations: bytes, target: int, top: int, uncovered: int) -> bool:
        """Whether a move to ``target`` (not home) leaves a card that may go home where
        it could come back to (see :meth:`_close`): the card moved, now ``top`` of its
        column or in one of ``cells`` (those after the move), or the one it uncovered
        (-1: none). Elsewhere nothing changed since the last close."""
        if target == CELL:
            if self.back_to_cell and any([_ready(card, foundations) for card in cells]):
                return True
        elif _ready(top, foundations):
            return True
        return uncovered >= 0 and _ready(uncovered, foundations)

    def _moved(self, state: State, step: Step) -> State:
        """The state after ``step`` alone (trusted to be legal): no card sent home after."""
        columns, cells, foundations = state
        source, target, count = step
        if TWIN <= source < CELL:
            columns, cells = _swapped_with_twin(columns, cells, columns[source - TWIN][-1])
            source -= TWIN  # the twin, on top of that column now
        elif source >= TWIN_CELL:
            columns, cells = _swapped_with_twin(columns, cells, source - TWIN_CELL)
            source = CELL + ((source - TWIN_CELL) ^ 3)  # the twin, in the cell now
        listed = list(columns)
        if source < CELL:
            column = listed[source]
            moving = column[-count:]
            listed[source] = column[:-count]
        elif source < HOME:
            moving = bytes((source - CELL,))
            cells = cells.replace(moving, b"", 1)
        else:
            pile = self._top_pile(source - HOME, foundations)
            moving = bytes(((foundations[pile] - 1) * 4 + source - HOME,))
            foundations = _bump(foundations, pile, -1)
        if target < CELL:
            listed[target] = listed[target] + moving
        elif target == CELL:
            cells = _in_order(cells + moving)
        else:
            foundations = self._raised(foundations, moving[0])
        return tuple(listed), cells, foundations

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

    def _top_pile(self, suit: int, foundations: bytes) -> int:
        if self.pile_count == 4:
            return suit  # one deck: a pile per suit
        piles = range(suit, self.pile_count, 4)
        return max(piles, key=foundations.__getitem__)

    def rated_moves(self, state: State) -> list[Rated]:
        """Every step from ``state``, with the heuristic of the child it leads to
        (:data:`WON` if that child is a goal)."""
        rated = self._rated(state, self.moves(state))
        if self.weights.shortest:
            return self._with_shortest(state[0], rated)
        return rated

    def _with_shortest(self, columns: Columns, rated: list[Rated]) -> list[Rated]:
        """``rated`` with the shortest column's share added to the children that
        :meth:`_rated` did not make (those it made were rated by :meth:`heuristic`)."""
        lengths = [len(column) for column in columns] + [UNLIMITED]
        # The two shortest columns. When a step changes both, the column it takes cards
        # from is left shorter than any other, so the rest need not be looked at.
        a, b = sorted(range(len(lengths)), key=lengths.__getitem__)[:2]
        weight = self.weights.shortest
        won = WON
        result: list[Rated] = []
        for h, step, made in rated:
            if made is None and h != won:
                source, target, count = step
                if a != source and a != target:
                    low = lengths[a]
                else:
                    low = lengths[b] if b != source and b != target else UNLIMITED
                if source < CELL:
                    low = min(low, lengths[source] - count)
                if target < CELL:
                    low = min(low, lengths[target] + count)
                h += weight * low
            result.append((h, step, made))
        return result

    def moves(self, state: State) -> list[Step]:
        """Every step from ``state`` (:meth:`play` makes the child)."""
        columns, cells, foundations = state
        follows = self.follows
        children = self.children
        # onto[card]: the columns whose exposed card ``card`` may lie on, one bit each
        # (cheaper to make than a list of columns per card; columns_in lists them).
        onto = [0] * 52
        empties = 0
        first_empty = -1
        for j, column in enumerate(columns):
            if len(column) > 0:
                bit = 1 << j
                for card in children[column[-1]]:
                    onto[card] = onto[card] | bit  # (|= would not be compiled to native code)
            else:
                if not empties:
                    first_empty = j
                empties += 1
        columns_in = self.columns_in
        free = self.cell_count - len(cells)
        relays = 0 if self.kings_only else empties
        if self.unlimited:
            to_occupied = to_empty = UNLIMITED
        elif self.moves_runs:
            to_occupied = (free + 1) << relays
            to_empty = (free + 1) << max(relays - 1, 0)
        else:
            to_occupied = to_empty = 1
        # With one deck a card may go home when its suit's pile is a rank below it:
        # cheaper to ask the foundations than a set.
        one_deck = self.pile_count == 4
        ready = _NO_CARDS if one_deck else (self.homeward.get(foundations) or self._homeward(foundations))[0]
        steps: list[Step] = []
        kings_only = self.kings_only
        whole_runs = self.whole_runs
        for i, column in enumerate(columns):
            if len(column) == 0:
                continue
            top = column[-1]
            if foundations[top & 3] == top >> 2 if one_deck else top in ready:
                steps.append((i, HOME, 1))
            # The ordered run at the exposed end (worked out here: cheaper than looking
            # up the column's features).
            height = len(column)
            run = 1
            while run < height and follows[column[-run - 1] * 52 + column[-run]]:
                run += 1
            if run == 1:  # the usual case, made short
                for j in columns_in[onto[column[-1]]]:
                    steps.append((i, j, 1))
                if first_empty >= 0 and len(column) > 1 and not (kings_only and column[-1] >> 2 != 12):
                    steps.append((i, first_empty, 1))
            else:
                for count in range(1, min(run, to_occupied) + 1):
                    for j in columns_in[onto[column[-count]]]:
                        steps.append((i, j, count))
                if first_empty >= 0:
                    most = min(run, to_empty)
                    for count in range(1, most + 1):
                        if count == height:
                            break  # a whole column into an empty one changes nothing
                        if kings_only and column[-count] >> 2 != 12:
                            continue
                        if whole_runs and count < most and count < height - 1:
                            continue
                        steps.append((i, first_empty, count))
            if free and not (whole_runs and run > 1):
                steps.append((i, CELL, 1))
        for card in set(cells):
            source = CELL + card
            if foundations[card & 3] == card >> 2 if one_deck else card in ready:
                steps.append((source, HOME, 1))
            for j in columns_in[onto[card]]:
                steps.append((source, j, 1))
            if first_empty >= 0 and not (self.kings_only and card >> 2 != 12):
                steps.append((source, first_empty, 1))
        if self.fuses:
            self._fused_take_backs(columns, cells, foundations, steps)
        elif self.takes_back and self.complete:
            self._take_backs(columns, cells, foundations, onto, first_empty, free, steps)
        if self.twins and self.classes:
            self._twin_steps(columns, cells, foundations, first_empty, free, steps)
        return steps

    def _twin_steps(
        self, columns: Columns, cells: bytes, foundations: bytes, first_empty: int, free: int, steps: list[Step]
    ) -> None:
        """The relaxed problem's steps of a loose twin made in its pair's place, where
        that leads elsewhere (see the module docstring): home, and (where the twin moved
        there is loose no more) to a cell or an empty column. Onto a card, either of the
        pair leads to the same class."""
        pairs = self._loose_pairs(columns, cells)
        # (source, card): a loose twin on top of a column, or in a cell, whose pair is
        # loose too (and not in a cell: there, its own steps are listed already).
        places = [(TWIN + i, column[-1]) for i, column in enumerate(columns) if len(column) > 0]
        places += [(TWIN_CELL + card, card) for card in cells if card ^ 3 not in cells]
        for source, card in places:
            if not pairs >> card & 1:
                continue
            twin = card ^ 3
            if foundations[twin & 3] == twin >> 2:
                steps.append((source, HOME, 1))
            if not self.twins & (IN_TOP_RUN | IN_BUILT_RUN) and first_empty >= 0 and not (
                self.kings_only and card >> 2 != 12
            ):
                steps.append((source, first_empty, 1))
            if not self.twins & IN_CELL and free and source < CELL:
                steps.append((source, CELL, 1))

    def _rated(self, state: State, steps: list[Step]) -> list[Rated]:
        """Each step with its child's heuristic. A step that sends no card home changes
        one or two columns and the cells, so its child's heuristic is the parent's with
        those parts replaced, worked out without making the child. The other steps are
        played (:meth:`play`) to see where they lead."""
        columns, cells, foundations = state
        values = self.values
        safe = (self.homeward.get(foundations) or self._homeward(foundations))[1]
        features = self.features
        values_of = [values[column] for column in columns]
        disorder_of = [features[column][1] for column in columns]
        disorder = sum(disorder_of)
        # Where the cards wanted lie in each column (every copy, as heuristic()
        # counts them), and so how deep.
        one_deck = self.pile_count == 4
        wanted = b"" if one_deck else self.ready_known.get(foundations) or self._ready_table(foundations)
        places: list[list[int]] = []
        depth = 0
        for column in columns:
            height = len(column)
            found: list[int] = []
            for where in range(height):
                card = column[where]
                if foundations[card & 3] == card >> 2 if one_deck else wanted[card]:
                    depth += height - where - 1
                    found.append(where)
            places.append(found)
        hits = [len(found) for found in places]
        cell_weight = self.cell_weight
        next_weight = self.weights.next
        # The parent's heuristic, as :meth:`heuristic` works it out. When k cards move
        # from column i to column j, the cards wanted among them keep their depth, those
        # left in i ("stay") rise by k and those in j sink by k.
        base = sum(values_of) + cell_weight * len(cells) + next_weight * depth
        rated: list[Rated] = []
        home, cell, won = HOME, CELL, WON
        table = b""  # the columns joined, made once if a take-back needs it
        # With fused take-backs a card that may go home may go there by itself after a
        # move (see _close): such children are made.
        fuses = self.fuses
        for step in steps:
            source, target, count = step
            if target < home and source < cell:
                column = columns[source]
                rest = column[:-count]
                if not (
                    (rest and rest[-1] in safe)
                    or (fuses and (_ready(column[-1], foundations) or (rest and _ready(rest[-1], foundations))))
                ):
                    h = base - values_of[source] + values[rest]
                    stay = 0
                    if hits[source]:
                        height = len(rest)
                        stay = sum([1 for where in places[source] if where < height])
                    if target == cell:
                        h += cell_weight - next_weight * stay
                        if disorder == disorder_of[source] and not features[rest][1]:
                            h = won
                    else:
                        onto = columns[target] + column[-count:]
                        h += values[onto] - values_of[target] + next_weight * count * (hits[target] - stay)
                        if (
                            disorder == disorder_of[source] + disorder_of[target]
                            and not features[rest][1]
                            and not features[onto][1]
                        ):
                            h = won
                    rated.append((h, step, None))
                    continue
            elif source < home and target < cell and not (fuses and _ready(source - cell, foundations)):
                onto = columns[target] + bytes((source - cell,))
                h = base - cell_weight + values[onto] - values_of[target] + next_weight * hits[target]
                if disorder == disorder_of[target] and not features[onto][1]:
                    h = won
                rated.append((h, step, None))
                continue
            elif home <= source < TWIN_CELL and one_deck:
                # A take-back (one deck): the card comes back on top of a column or into
                # a cell, where it lies at depth 0 and is the card its pile wants now,
                # instead of the one above it. It lies on a card one rank higher, or
                # alone: it adds no disorder, and no card becomes safe.
                suit = source - home
                height = foundations[suit]
                # Where the card wanted until now lies (take-backs are rare: looked up
                # here rather than for every position).
                if not table:
                    table = b"\xff".join(columns) + b"\xff"
                at = table.find((height << 2) | suit) if height < 13 else -1
                deep, where = (table.find(255, at) - at - 1, table.count(255, 0, at)) if at >= 0 else (0, -1)
                if target == cell:
                    h = base + cell_weight - next_weight * deep
                else:
                    onto = columns[target] + bytes((((height - 1) << 2) | suit,))
                    sinking = hits[target] - (where == target)
                    h = base + values[onto] - values_of[target] + next_weight * (sinking - deep)
                rated.append((won if not disorder else h, step, None))
                continue
            made = self.play(state, step)
            rated.append((won if self.is_goal(made[0]) else self.heuristic(made[0]), step, made))
        return rated

    def _take_backs(
        self,
        columns: Columns,
        cells: bytes,
        foundations: bytes,
        onto: list[int],
        first_empty: int,
        free: int,
        steps: list[Step],
    ) -> None:
        settled = self._settled(foundations)
        within = -1  # the cards a step could place at once (see _within_reach), once wanted
        under_unsettled = -1  # the cards _under_unsettled names, one bit each, once wanted
        for suit in range(4):
            pile = self._top_pile(suit, foundations)
            if foundations[pile] <= settled[pile]:
                continue  # empty, or no win needs its top card back (see the module docstring)
            card = (foundations[pile] - 1) * 4 + suit
            to_column = to_cell = True
            if self.lazy_take_backs:
                # Only for what a win may take it back for now (see the module docstring).
                if under_unsettled < 0:  # (known for the foundations: see _takeable)
                    under_unsettled = (self.takeable_known.get(foundations) or self._takeable(foundations, settled))[2]
                to_cell = under_unsettled >> card & 1 == 1
                if not to_cell:
                    if within < 0:
                        within = self._within_reach(columns, cells)
                    to_column = self._placeable_on(card, foundations, within)
                    if not to_column:
                        continue
            source = HOME + suit
            for j in self.columns_in[onto[card]]:
                steps.append((source, j, 1))
            if first_empty >= 0 and not (self.kings_only and card >> 2 != 12):
                steps.append((source, first_empty, 1))
            if free and self.back_to_cell and to_cell:
                steps.append((source, CELL, 1))

    def _fused_take_backs(self, columns: Columns, cells: bytes, foundations: bytes, steps: list[Step]) -> None:
        """The fused steps (see the module docstring): each takes back the cards that a
        card or run in play is then placed on, with those that hold them and those
        above them on their piles, and places it."""
        settled = self._settled(foundations)
        takeable, placeable, to_cell = self.takeable_known.get(foundations) or self._takeable(foundations, settled)
        if not takeable:
            return
        self.ways_left = FUSED_WAYS_MOST
        follows = self.follows
        # The foundations as one int, a byte a pile (lowest first): taking a card back
        # is then a subtraction, not a new bytes (app 1 cell, 12633, the moves of the
        # first 60,000 positions of TIGHT_FINAL: 13.1 -> 11.3 us a position).
        # (One deck: four piles. Read byte by byte, not by int.from_bytes: a call.)
        heights = foundations[0] | foundations[1] << 8 | foundations[2] << 16 | foundations[3] << 24
        start: Fusing = (list(columns), cells, heights, ())
        # What may be placed: (source, count, its lowest card, its column or -1).
        units: list[tuple[int, int, int, int]] = [
            (CELL + card, 1, card, -1) for card in set(cells) if placeable >> card & 1
        ]
        for i, column in enumerate(columns):
            height = len(column)
            if height:
                if placeable >> column[-1] & 1:
                    units.append((i, 1, column[-1], i))
                if self.moves_runs:
                    run = 1
                    while run < height and follows[column[-run - 1] * 52 + column[-run]]:
                        run += 1
                        if placeable >> column[-run] & 1:
                            units.append((i, run, column[-run], i))
        for source, count, lowest, own in units:
            for card in self.parents[lowest]:
                if not takeable >> card & 1:
                    continue  # in play, or no win needs it back
                for listed, held, _, taken, at in self._brought_back(card, start, settled, own, False):
                    if count > 1:
                        empties = 0 if self.kings_only else sum([1 for column in listed if len(column) == 0])
                        if count > (self.cell_count - len(held) + 1) << empties:
                            continue
                    steps.append(fused((*taken, (source, at, count))))
        if to_cell and not self.back_to_cell and len(cells) < self.cell_count:
            # Cards come back only to columns: one may come back into a cell by way of a
            # column, where the card under it may come back after it.
            for card in range(52):
                if to_cell >> card & 1:
                    # Where the card lay on the way matters no more once it is off.
                    made: set[tuple[bytes, ...]] = set()
                    for listed, held, _, taken, at in self._brought_back(card, start, settled, -1, False):
                        listed[at] = listed[at][:-1]
                        table = (*listed, held)
                        if table not in made:
                            made.add(table)
                            steps.append(fused((*taken, (at, CELL, 1))))

    def _takeable(self, foundations: bytes, settled: tuple[int, ...]) -> tuple[int, int, int]:
        """The cards home that a win may need back, the cards that could lie on them,
        and those of the first with a card under them that a win may need back after
        them, one bit each."""
        takeable = placeable = to_cell = 0
        for suit in range(4):
            for rank in range(settled[suit], foundations[suit]):
                card = rank * 4 + suit
                takeable = takeable | 1 << card
                for child in self.children[card]:
                    placeable = placeable | 1 << child
                if self._under_unsettled(card, foundations):
                    to_cell = to_cell | 1 << card
        if len(self.takeable_known) >= _FEATURES_KEPT:
            self.takeable_known.clear()
        known = self.takeable_known[foundations] = (takeable, placeable, to_cell)
        return known

    def _brought_back(
        self, card: int, fusing: Fusing, settled: tuple[int, ...], spared: int, to_cell: bool
    ) -> list[tuple[list[bytes], bytes, int, Steps, int]]:
        """Every way to take ``card`` back from its pile, after the cards above it there:
        onto a column whose top it may lie on (one taken back first, too), into an empty
        column, or (``to_cell``) into a cell; never onto the column ``spared``. Each
        with where it went (a column, or CELL)."""
        if self.ways_left <= 0:
            self.truncated = True
            return []
        suit = card & 3
        ways = [fusing]
        for rank in range((fusing[2] >> 8 * suit & 255) - 1, card >> 2, -1):
            above = rank * 4 + suit
            ways = [way[:4] for before in ways for way in self._brought_back(above, before, settled, spared, True)]
        follows = self.follows
        source = HOME + suit
        found: list[tuple[list[bytes], bytes, int, Steps, int]] = []
        for listed, held, foundations, taken in ways:
            lowered = foundations - (1 << 8 * suit)
            empty = -1
            for j, column in enumerate(listed):
                if len(column) == 0:
                    if empty < 0:
                        empty = j
                elif j != spared and follows[column[-1] * 52 + card]:
                    placed = listed.copy()
                    placed[j] = column + bytes((card,))
                    found.append((placed, held, lowered, (*taken, (source, j, 1)), j))
            if empty >= 0 and not (self.kings_only and card >> 2 != 12):
                placed = listed.copy()
                placed[empty] = bytes((card,))
                found.append((placed, held, lowered, (*taken, (source, empty, 1)), empty))
            if to_cell and self.back_to_cell and len(held) < self.cell_count:
                into = _in_order(held + bytes((card,)))
                found.append((listed, into, lowered, (*taken, (source, CELL, 1)), CELL))
            for parent in self.parents[card]:
                pile = parent & 3
                if (foundations >> 8 * pile & 255) > parent >> 2 and settled[pile] <= parent >> 2:
                    for below, kept, heights, before, j in self._brought_back(
                        parent, (listed, held, foundations, taken), settled, spared, False
                    ):
                        placed = below.copy()
                        placed[j] = below[j] + bytes((card,))
                        found.append((placed, kept, heights - (1 << 8 * suit), (*before, (source, j, 1)), j))
        self.ways_left -= len(found)
        return found

    def _within_reach(self, columns: Columns, cells: bytes) -> int:
        """The cards in a cell or in the ordered run on top of a column, one bit each."""
        follows = self.follows
        reach = 0
        for card in cells:
            reach = reach | 1 << card
        for column in columns:
            height = len(column)
            if height:
                reach = reach | 1 << column[-1]
                run = 1
                while run < height and follows[column[-run - 1] * 52 + column[-run]]:
                    run += 1
                    reach = reach | 1 << column[-run]
        return reach

    def _placeable_on(self, card: int, foundations: bytes, within: int) -> bool:
        """Whether a card that could lie on ``card`` is ``within`` reach, or on top of its
        pile and not settled (free to come back)."""
        settled = self._settled(foundations)
        for child in self.children[card]:
            if within >> child & 1:
                return True
            suit = child & 3
            if foundations[suit] == (child >> 2) + 1 and settled[suit] <= child >> 2:
                return True
        return False

    def _under_unsettled(self, card: int, foundations: bytes) -> bool:
        """Whether ``card``, on its pile (one deck), has a card under it that is not
        settled once ``card`` is off (and those above it): one a win may take back after
        it."""
        suit = card & 3
        below = _bump(foundations, suit, (card >> 2) - foundations[suit])
        return below[suit] > self._settled(below)[suit]


class DeadEnds:
    """The classes of relaxed problems (see the module docstring) known to reach no goal:
    those a depth-first walk found so (``DepthFirst`` with ``dead_ends``: the walk's goals
    include every game's goal, and from every position of a class the game's moves lead
    to classes the walk saw from it, so no position of such a class can be won), and
    those a solve before this one left (:data:`~freecell.solver.solving._LOST`). The
    game's searches pass such positions by (:meth:`holds`) as they would a position
    already seen. The sets are kept by the kind of key they hold, so a position's key of
    each kind is made once."""

    def __init__(self) -> None:
        # Each set, with the problem it came from and a problem that makes its kind of
        # key (the first added of that kind): the sets of a kind lie side by side.
        self.sets: list[tuple[FreeCellProblem, FreeCellProblem, set[bytes]]] = []

    def add(self, relaxed: FreeCellProblem, dead: set[bytes]) -> None:
        """Pass by the positions whose key in ``relaxed`` is in ``dead`` (a set that may
        grow as its walk goes on). ``relaxed`` may be the game's own problem (no
        twins): its keys are positions, not classes."""
        for index, (maker, _, _) in enumerate(self.sets):
            if maker.twins == relaxed.twins and maker.classes == relaxed.classes:
                self.sets.insert(index, (maker, relaxed, dead))
                return
        self.sets.append((relaxed, relaxed, dead))

    def holds(self, state: State) -> bool:
        """Whether ``state`` lies in a class known to reach no goal."""
        keyed: FreeCellProblem | None = None  # the maker of ``key``
        key = b""
        for maker, relaxed, dead in self.sets:
            # A relaxed problem that left some steps out proves nothing.
            if dead and not relaxed.truncated:
                if maker is not keyed:
                    key = maker.key(state)
                    keyed = maker
                if key in dead:
                    return True
        return False


def can_relax(rules: Rules) -> bool:
    """Whether a proof under ``rules`` may walk a relaxed problem (``twins``: see the
    module docstring): one deck, alternate colours, no run moved as one."""
    return (
        rules.foundation_count == 4
        and rules.building is Building.ALTERNATE_COLOURS
        and rules.sequence_moves is not SequenceMoves.UNLIMITED
    )


def is_twin_step(step: Step) -> bool:
    """Whether ``step`` moves a twin in its pair's place (relaxed problem only)."""
    source = step[0]
    return TWIN <= source < CELL or TWIN_CELL <= source < FUSED


def fused(moves: Steps) -> Step:
    """The fused step that stands for ``moves`` (one deck, none home), played in order."""
    packed = 0
    for shift, (source, target, count) in enumerate(moves):
        packed = packed | (source | target << 8 | count << 16) << 20 * shift
    return (FUSED, packed, len(moves))


def fused_moves(step: Step) -> Steps:
    """The moves a fused step stands for, in order."""
    packed = step[1]
    shifts = range(0, 20 * step[2], 20)
    return tuple([(packed >> shift & 255, packed >> shift + 8 & 255, packed >> shift + 16 & 15) for shift in shifts])


def step_cost(step: Step) -> int:
    """What a step adds to the length of a solution: 1, or 0 for a card sent home, or
    the moves a fused step stands for.
    (Here, not in :mod:`~freecell.solver.solving`: the searches call it for every
    child, and this module may run compiled.)"""
    if step[0] == FUSED:
        return step[2]
    return 1 if step[1] != HOME else 0


def cards_in_cells(state: State) -> int:
    """How many cards the cells hold (a search may rank by it: see
    :class:`~freecell.solver.search.Alternating`)."""
    return len(state[1])


@functools.cache
def _tables(building: Building, pile_count: int) -> tuple[bytes, CardLists, CardLists]:
    """What depends only on the building rule and the piles: ``follows[onto * 52 + card]``
    says whether ``card`` may lie on ``onto``; ``children[onto]`` lists those cards; and
    ``safe_needs[card]`` lists the piles that must reach the card's rank - 1 before it
    may go home safely (those that hold every card that could be placed on it)."""
    same_suit = building is Building.SAME_SUIT
    follows = bytearray(52 * 52)
    children: list[tuple[int, ...]] = []
    for onto in range(52):
        fitting = []
        for card in range(52):
            if (onto >> 2) != (card >> 2) + 1:
                continue
            if (same_suit and card & 3 == onto & 3) or (
                not same_suit and (card & 3 in (1, 2)) != (onto & 3 in (1, 2))
            ):
                follows[onto * 52 + card] = 1
                fitting.append(card)
        children.append(tuple(fitting))
    safe_needs: list[tuple[int, ...]] = []
    for card in range(52):
        suit = card & 3
        if same_suit:
            needs = tuple(range(suit, pile_count, 4))
        else:
            red = suit in (1, 2)
            needs = tuple(p for p in range(pile_count) if ((p & 3) in (1, 2)) != red)
        safe_needs.append(needs)
    return bytes(follows), tuple(children), tuple(safe_needs)


@functools.cache
def _parents(building: Building) -> CardLists:
    """For each card (one deck), the cards it may lie on."""
    follows = _tables(building, 4)[0]
    return tuple(tuple(onto for onto in range(52) if follows[onto * 52 + card]) for card in range(52))


@functools.cache
def _columns_in(column_count: int) -> tuple[tuple[int, ...], ...]:
    """For each set of columns (a bit per column, lowest first), its columns in order."""
    return tuple(
        tuple(j for j in range(column_count) if mask >> j & 1) for mask in range(1 << column_count)
    )


@functools.cache
def _homeward_known(
    building: Building, pile_count: int, settling: bool, eager: bool
) -> dict[bytes, tuple[frozenset[int], frozenset[int]]]:
    return {}


@functools.cache
def _raised_known(pile_count: int) -> dict[bytes, tuple[bytes, ...]]:
    return {}


@functools.cache
def _ready_known(pile_count: int) -> dict[bytes, bytes]:
    return {}


@functools.cache
def _settled_known(building: Building, pile_count: int) -> dict[bytes, tuple[int, ...]]:
    return {}


@functools.cache
def _takeable_known(building: Building) -> dict[bytes, tuple[int, int, int]]:
    return {}


@functools.cache
def _features(building: Building) -> ColumnFeatures:
    return ColumnFeatures(_tables(building, 4)[0])


@functools.cache
def _values(building: Building, weights: Weights) -> ColumnValues:
    return ColumnValues(_features(building), weights)


@functools.cache
def _pair_tables() -> dict[int, bytes]:
    """The relaxed key's translation for each set of loose pairs met (see
    :func:`_pair_table`), shared by every relaxed problem; it forgets everything past
    :data:`_PAIR_TABLES_KEPT` sets."""
    return {}


# 256 bytes a table. A long walk meets few sets of loose pairs (app, 1 cell, 6123: 69 in
# 300,000 classes; app, 2 cells, 9344: 628 in 193,555).
_PAIR_TABLES_KEPT: Final = 4_096


# Each byte value as a bytes of its own, made once.
_BYTES: Final = tuple(bytes((value,)) for value in range(256))


def _lying_on(columns: Columns) -> bytes:
    """For each card (one deck), the card it lies on in its column: 255 for a card at the
    bottom, the card itself for one not in a column."""
    joined = b"\xff".join(columns)
    return bytes.maketrans(joined, b"\xff" + joined[:-1])[:52]


def _swapped_with_twin(columns: Columns, cells: bytes, card: int) -> tuple[Columns, bytes]:
    """The columns and cells with ``card`` and its twin changed places."""
    pair = bytes((card, card ^ 3))
    swap = bytes.maketrans(pair, pair[::-1])
    return tuple([column.translate(swap) for column in columns]), _in_order(cells.translate(swap))


# The relaxed key's translation: every card as itself, and each card of one deck as
# its rank and colour (52 and up: no card, nor the key's separators).
_TWINLESS: Final = bytes(range(256))
_TWIN_MARKS: Final = bytes(
    [52 + (card >> 2) * 2 + (1 if card & 3 in (1, 2) else 0) for card in range(52)] + list(range(52, 256))
)


# The cards of each suit, one bit each (card = rank * 4 + suit): a card's twin is card ^ 3.
_SUIT_BITS: Final = tuple(sum(1 << (rank * 4 + suit) for rank in range(13)) for suit in range(4))


def _twins_of(cards: int) -> int:
    """The twins of ``cards`` (one bit each), as a set of the same kind."""
    return (
        (cards & _SUIT_BITS[0]) << 3
        | (cards & _SUIT_BITS[3]) >> 3
        | (cards & _SUIT_BITS[1]) << 1
        | (cards & _SUIT_BITS[2]) >> 1
    )


def _pair_table(pairs: int) -> bytes:
    """The translation that writes each card of ``pairs`` (one bit each) as its rank
    and colour, and every other byte as itself."""
    table = bytearray(_TWINLESS)
    for card in range(52):
        if pairs >> card & 1:
            table[card] = _TWIN_MARKS[card]
    return bytes(table)


def _ready(card: int, foundations: bytes) -> bool:
    """Whether ``card`` may go home (one deck)."""
    return foundations[card & 3] == card >> 2


def _in_order(cards: bytes) -> bytes:
    """``cards`` sorted (as the cells are kept): with one or two, without a list."""
    if len(cards) <= 1:
        return cards
    if len(cards) == 2:
        return cards if cards[0] <= cards[1] else cards[::-1]
    return bytes(sorted(cards))


def _bump(foundations: bytes, pile: int, by: int) -> bytes:
    return foundations[:pile] + bytes((foundations[pile] + by,)) + foundations[pile + 1 :]
