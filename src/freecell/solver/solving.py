"""``solve()``: a portfolio of quick searches, then one that runs to the end, taking
turns with a few restarts.

Each search is best-first over :class:`~freecell.solver.board.FreeCellProblem`,
ranking positions by the heuristic plus a small weight times the moves made (weighted
A*; weight 0 is greedy best-first). The first searches are capped (a hundred to a few
thousand positions each) and use different :class:`~freecell.solver.board.Weights` and
path weights: when one leads into a dead end, another often walks straight to a win.
Most send every card home as soon as it may go (*eager*): fewer positions, shorter
solutions, but no proof when they run out of positions (one that is not eager and runs
out proves the loss, as below).

The last search has no cap of its own and runs until it wins, proves the loss or
spends the budget. It runs in slices, each followed by one of a few *restarts*
(capped eager searches, most with noise on their priorities from a seed of their own,
some weighing the shortest column, which win most deals where the heuristic leads
every capped search into the same long dead end); a small proof ends within a slice
or two. Once the restarts are spent, it runs on to its end:

* Where foundation cards never come back, the fast problem is already exhaustive: it
  lists every legal single-card move besides the runs, and its reductions (canonical
  keys, safe cards sent home) are sound. So any of its searches that runs out of
  positions proves the deal unsolvable.
* Under take-back rules the last search is over the complete problem instead: every
  legal single-card move, runs as one step, and the take-backs a win may need, only
  settled cards sent home by themselves (see :mod:`~freecell.solver.board`). It finds
  wins as the fast problem's search does, and its end is a proof.

Under every ruleset, past half the memory limit (or short of what a proof over the
positions left needs, where that is less: see :func:`_proof_reserve`) the last search
gives way to a proof over the same problem that goes depth first
(:mod:`~freecell.solver.depth_first`), keeping only keys, and near the limit with its
keys on disk. In a tight game it gives way also after :data:`TIGHT_HANDOVER`
positions, and a few capped searches for the rare wins the last search wanders past
take turns with the proof (see :data:`LATE_PLAN`); under take-back rules the last
search itself goes on first among them (see :data:`KEPT_ROOM`).

With one or two cells, and in Baker's Game, the last search weighs cells more and its
path more, and runs alone: there the restarts won nothing it did not (see
:data:`TIGHT_FINAL`). With two cells, a second ranking takes turns with it over the
same positions, each winning deals where the other wanders (see :data:`TWO_CELL_FINAL`).
With one cell or none, and in a tight game where foundation cards never come back, only
the portfolio's first search runs before the last search (see :func:`_first_only`).
The positions a proof saw are all lost: they are kept (see :data:`_LOST`), and a later
solve that starts from one of them ends at once.

A win longer than :data:`SHORTCUT_FROM` steps (with one deck nearly always one the
depth-first proof found) is cut short by :func:`~freecell.solver.shortcut.shortcut`.
With ``short``, beam searches (see :mod:`~freecell.solver.beam`) run after the first
win, each bounded by the best length so far, and
:func:`~freecell.solver.shorten.shorten` then drops the moves the win does not need.
Every solution is written out as public moves and replayed by the rules engine before
it is returned.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from enum import Enum
from typing import Final

from freecell.deals import Deal
from freecell.position import Position
from freecell.rules import Building, Rules
from freecell.solver.beam import Beam, beam_search
from freecell.solver.board import (
    IN_BUILT_RUN,
    IN_CELL,
    ON_CARD,
    DeadEnds,
    FreeCellProblem,
    State,
    Step,
    Steps,
    Weights,
    can_relax,
    cards_in_cells,
    is_twin_step,
    step_cost,
)
from freecell.solver.depth_first import DepthFirst
from freecell.solver.helper import Helper, Message, Reporter
from freecell.solver.helper import start as start_helper
from freecell.solver.search import (
    BYTES_PER_POSITION,
    Alternating,
    BestFirst,
    Budget,
    InstrumentedProblem,
    Outcome,
    SearchLimit,
    SearchRun,
    resident_bytes,
)
from freecell.solver.shortcut import shortcut
from freecell.solver.shorten import shorten
from freecell.solver.transcript import SolverError, verify, write_moves

DEFAULT_LIMIT: Final = SearchLimit(seconds=60.0, memory_mb=1000)


@dataclass(frozen=True, slots=True)
class Strategy:
    """One search of the portfolio: the heuristic's weights, the weight of the path's
    cost in the priority (0: greedy best-first; more: weighted A*, shorter solutions),
    a cap on positions expanded (None: run to the end), whether every card goes home
    as soon as it may and whether ordered runs are kept whole (see
    :class:`~freecell.solver.board.FreeCellProblem`), and the noise on its priorities
    with the seed it comes from. ``also`` (only with no cap) is a second ranking that takes
    turns with the first over the same positions (see
    :class:`~freecell.solver.search.Alternating`): its cell weight and path weight."""

    weights: Weights
    path_weight: int
    cap: int | None
    eager: bool = False
    noise: int = 0
    seed: int = 0
    whole_runs: bool = False
    also: tuple[int, int] | None = None


AnySearch = BestFirst[State, Step, Steps] | Alternating[State, Step, Steps] | DepthFirst[State, Step, Steps]


@dataclass(frozen=True, slots=True)
class _Search:
    """A search under way, with its problem and the steps taken before it began: those
    that sent cards home from the position (``first``), then, when it goes on from a way
    another search took (``origin``), that way's start and path over the same problem."""

    problem: FreeCellProblem
    first: list[Step]
    search: AnySearch
    origin: tuple[State, tuple[Steps, ...]] | None = None


MAIN_WEIGHTS: Final = Weights(in_play=16, disorder=5, off_run=14, depth=2, cell=28, empty_column=23, next=3)
# The first search: MAIN_WEIGHTS, with the cards above the exposed run and the depth of
# the cards wanted next weighing more. Alone it solves 84% of deals 1-1000 within its cap,
# after a median of 58 positions, in 38.4 moves on average.
FIRST_WEIGHTS: Final = replace(MAIN_WEIGHTS, off_run=18, next=5)
_OPEN_RUNS: Final = replace(MAIN_WEIGHTS, off_run=40, empty_column=40)
_FEW_CELLS: Final = replace(MAIN_WEIGHTS, cell=5)
# Chosen by measuring each search alone on Microsoft deals 1-2000, every 31st deal of
# 2001-32000, and 8436, 12795, 21554; then the order and caps that keep the slowest 1% of
# each of those sets cheapest without making solutions longer. After the first search,
# small caps on searches that differ (weights, path weights, eager or not) beat a few
# large ones: a deal where one gets lost is usually easy for another, and the few where
# all get lost are left to FINAL soon. Two come back with more room.
# Deals 1-1000: median 58 positions, mean length 39.1, CPU p99 89 ms, max 0.40 s
# (before: median 63 and mean length 41.4, and on deals 1-500 p99 ~155 ms, max 0.54 s).
# The sample of 2001-32000: median 58, length 39.2, p99 97 ms, max 0.42 s (before: 61,
# 40.7, 117 ms, 0.49 s). 12795 and 21554: 0.16 s instead of FINAL's 2.5 s. Every search
# here gets lost on 8436 within 5,000 positions (a restart wins it now, in 0.5 s in all).
# 11982 (unsolvable) spends 4,650 positions here before FINAL proves it (7,500 before).
# The eager searches then came to keep runs whole (see board.py), as cheap as these
# figures get: on held-out deals 20001-21000, CPU median 3.42 -> 2.89 ms, p99 97 -> 76
# ms, total 9.8 -> 7.6 s, mean length 39.27 -> 39.51. The restarts do not: with whole
# runs too, 55 slow deals took 23.7 s rather than 22.4, and 8436 3.6 s rather than 0.5.
PORTFOLIO: Final = (
    Strategy(FIRST_WEIGHTS, 8, 500, eager=True, whole_runs=True),
    Strategy(_OPEN_RUNS, 8, 100, eager=True, whole_runs=True),
    Strategy(replace(MAIN_WEIGHTS, cell=60), 8, 600, eager=True, whole_runs=True),
    Strategy(replace(MAIN_WEIGHTS, next=6), 8, 300),
    Strategy(_FEW_CELLS, 8, 150, eager=True, whole_runs=True),
    Strategy(Weights(cell=40), 4, 1_500),
    Strategy(_OPEN_RUNS, 8, 600, eager=True, whole_runs=True),  # it wins 21554
    Strategy(_FEW_CELLS, 8, 900, eager=True, whole_runs=True),  # it wins 12795
)
FINAL: Final = Strategy(MAIN_WEIGHTS, 12, None)
# With two decks FINAL keeps ordered runs whole (the fast problem's whole_runs, as the
# eager searches do). That makes it no proof: where it runs out of positions it begins
# again over every move, and the proof it gives way to past half the memory limit walks
# every move too (see _decide). Double FreeCell is nearly always won, and the moves that
# break a run lead the search astray: of the 19 deals left unknown in play in the
# samples drawn before (seeds 67 to 227), FINAL alone won 8 within 3 s, and with whole
# runs 14. In play it now decides 14 of them. Held out, the samples of seeds 229-277
# (3,000 deals, side by side): unknown 5 -> 3, CPU p90 140 -> 130 ms, p99 1,063 -> 899
# ms, sum 228 -> 214 s. Measured last on seeds 281-347 (3,000 deals): 1 unknown, CPU
# p90 124 ms, p99 779 ms.
TWO_DECK_FINAL: Final = replace(FINAL, whole_runs=True)
# In a tight game (one or two cells, or Baker's Game: see _tight()), FINAL weighs a card
# in a cell more and the path more (closer to A*), and no restart takes turns with it.
# Cells are scarcer there, many deals are lost, and the restarts (eager, over the fast
# problem) won none of the 21 slow deals of the app with 2 cells that were won (seed-7
# sample): FINAL won them all. On the slow deals (over 0.25 s) of the seed-7 and seed-13
# samples of 200, in-play limit: app 1 cell (72 deals, the two run side by side),
# unknown 19 -> 15, CPU sum 101.8 -> 84.3 s, median 0.96 -> 0.55 s; app 2 cells (77),
# unknown 7 -> 5, sum 62.7 -> 49.0 s; standard 2 cells (36, seed 7, these weights with
# the restarts still on), unknown 3 -> 2, sum 32.0 -> 22.2 s. Path weights 16 and 24 and
# cell weights 50 and 60 did no better. Held out (seed 41, side by side), see
# bench/fewcells.py: app 2 cells decided 95.5 -> 97.5%, CPU p90 1141 -> 797 ms.
# Baker's Game, seed-7 sample of 200 (same verdicts): CPU p90 608 -> 323 ms, p99 1179 ->
# 658 ms, sum 39.0 -> 23.3 s. Not Double FreeCell (100 deals: 3 left unknown, none
# before) nor Eight Off (no change).
TIGHT_FINAL: Final = Strategy(replace(MAIN_WEIGHTS, cell=40), 20, None)
# In a tight game TIGHT_FINAL gives way to a depth-first proof (see _decide()) once it
# has expanded this many positions (times decks squared), memory or not: so many
# positions in, the deal is nearly always lost, and depth first proves it at about
# half the cost a position, from the start. On Microsoft deals 1001-2000 (standard, 2
# cells, 10 s a deal) every one of the 799 wins took under 85,000 positions; in the
# seed-41 samples of 300 (app, 30 s a deal) the longest took 176,274 (2 cells, 29773).
# In play (3 s) best first seldom gets this far, and then near the end: with one cell
# it may (app, 30412, cards taken back one at a time: alone, 209,162 positions to its
# end in 2.81 s CPU; fused, 81,862 in 1.16 s).
# The proof begins here and not sooner, though alone it is the cheapest search a
# position (app 1 cell, CPU: 4 to 6 us) and decides many deals sooner than this whole
# plan does (8451: lost in 144,237 positions, 0.64 s, against 2.46 s and 236,829 in
# play; 9608: won in 91,873, 0.64 s, left unknown in play). Begun at once, taking turns
# of 2,000, 1,000 or 500 positions after each of TIGHT_FINAL's, it left 5, 4 and 4 of
# the 53 slow 1-cell deals unknown, against 3 (in play, alone): it spends the in-play
# limit's 300,000 positions, which count its cheap positions as they count best
# first's. Of 17 deals held out and left unknown, 16 stayed unknown with turns of 500
# as without. Taking its moves best first (by the heuristic of the child) wins some
# deals far sooner (22902: 4,993 positions, against 327,012) and others far later
# (1706: 908,387, against 43,613), at about 2.2 times the time a position, which a lost
# deal's proof pays in full; it won neither app 2 cells, deal 140, nor deal 9 within
# 60 s. Measured again (session 36) on the 23 deals that seed 463's sample of 3,000 left
# unknown in play (app 1 cell). Without a limit 12 were won, 4 of them by the proof soon
# after the handover (2545 within 8,954 of its positions, 16257 13,902, 9971 35,311,
# 28126 52,086). In play, a handover at 100,000, 50,000, 20,000 and 10,000 positions
# decided 1, 2, 2 and 3 of the 23 (2545, 16257, 28126), against none: not kept.
# Alone from the start for 3 s CPU (no dead ends to pass by), the proof won 4 of the 23
# (2545 in 64,490 positions, 0.44 s; 16257 in 64,537; 16438 and 25888 after 418,170 and
# 353,034, 2.6 s) and proved none: most need more than 3 s of any one search alone.
# A handover as soon as the first relaxed walk meets a goal (where FINAL would otherwise
# run on alone) decided the same 3 of the 23 in play, but of the 66 deals of that
# sample decided in over 0.5 s it left 4 unknown: 7887 (proven at 2.69 s), and the wins
# of 12513, 14362 and 17334 (1.11 to 1.93 s), which FINAL, sharing the time, finds late.
TIGHT_HANDOVER: Final = 200_000
# A search gives way to the proof only where the budget left holds one from the start
# over as many positions as the search has expanded (see _proof_fits), each at this
# share of the time spent so far a position (depth first costs about half as much).
# Otherwise it goes on, and may yet end: app 1 cell, 30412, in play, is now proven
# (held out, seed 191, app 1 cell, 300 deals, side by side: the same 3 unknown).
PROOF_TIME_SHARE: Final = 0.5
# With two cells, TIGHT_FINAL takes turns, a position at a time, with a second ranking
# over the same positions (see search.Alternating): cells weigh 34 there, not 40, and
# the path 12, not 20. Each one wins deals where the other wanders long (standard 2
# cells: 15035 takes TIGHT_FINAL 6,205 positions, the other more than 126,000; 3070 the
# other way round), and a proof still expands each position once. Chosen on the seed-7
# and seed-13 samples (standard 2 cells, seed 13: unknown 3 -> 3, CPU p90 318 -> 253 ms).
# Held out, seed 41, in-play limit, CPU, the two run one after the other: standard 2
# cells unknown 4 -> 3 (the 3 need 1.5 million positions or more), p90 406 -> 365 ms,
# positions p90 17,397 -> 12,550; app 2 cells unknown 8 -> 5, p90 569 -> 479 ms. A proof
# costs more a position (the second frontier): median 1.05x CPU (standard), 1.30x (app,
# whose complete problem has more moves). Not with one cell, where most deals are lost:
# app 1 cell, seed 13, unknown 12 -> 15, proofs 1.43x. The two rankings as two searches
# taking turns (each its own positions) did worse held out: proofs cost twice.
TWO_CELL_FINAL: Final = replace(TIGHT_FINAL, also=(34, 12))
# In a tight game, once TIGHT_FINAL has given way to the depth-first proof, this search
# takes turns with the proof, LATE_SLICE positions at a time against twice as many of
# the proof's (a position costs it about twice as much), until its cap. Not eager, it
# keeps in play a card that every eager search sends home, and a few wins need that
# card there as a place for another; cells weigh more than in any other search, and
# ordered runs stay whole (in the fast problem, as the eager searches keep them). Chosen
# on the deals that the alternating search did not decide in 60 s (standard 2 cells,
# 19671, 21595, 29987) or 30 s (16322, standard and app): each won within 60,000
# positions, at most 0.7 s (without whole runs within 200,000; with the portfolio's
# weights, cells 40, within 255,000). None of these won any of 19678, 20792, 21779,
# 25264, 25360, 26124, 27738 or 29577 within 200,000. It runs only once the proof has
# begun (past TIGHT_HANDOVER positions or half the memory), which the deals decided in
# play seldom reach, and costs a longer proof its 100,000 positions (app 2 cells, seed 53,
# 30 s: the longest proof, 19151, 18.45 -> 19.00 s CPU).
LATE: Final = Strategy(Weights(cell=60), 4, 100_000, whole_runs=True)
# After LATE, the restarts of the four-cell game, each with room for 5,000 positions:
# they win 23487 (the third, in 3,849 positions) and 209 (the sixth, in 4,681), which
# the census left at 60 s and fc-solve's tea-for-two solves. 45,000 positions more for
# a proof past the handover.
LATE_ROOM: Final = 5_000
LATE_SLICE: Final = 20_000
# After the portfolio (see _decide()): FINAL in slices, each followed by a restart.
# The noisy ones take turns among three weightings. On 52 deals of 1-32000 that were slow
# before: no restarts 21.7 s CPU in all and 4 deals over 1 s; six restarts of 2,000
# positions 22.0 s and 3; nine of 1,000 19.4 s and 2. Taking turns rather than all
# restarts at once costs a loss proven in a few slices only as many restarts: Baker's
# Game deals 1-150 took 29.2 s, then 19.2 s.
SLICE: Final = 2_000
# In a tight game a relaxed proof (twins: see board.py) takes turns with FINAL once
# FINAL has expanded EARLY_FROM positions (most deals decided there are decided sooner),
# EARLY_SLICE positions after each of FINAL's SLICE (a position costs it about half as
# much). The walk's dead ends help FINAL's wins too: alone, without them, TIGHT_FINAL
# had not won app 1 cell 12633 after 400,000 positions; beside the walk (a 10 s limit)
# it wins at its 61,375th.
# Measured again (session 35) on the 26 deals that the samples of 3,000 of seed 457
# left unknown (app 1 cell 13, app 2 cells 8, standard 2 cells 5), in play: turns of
# 2,000, 3,000, 6,000 and 8,000 decided 3, 1, 3 and 4 of them. With 8,000, over the
# samples' deals that took 0.5 s or more (88, 93 and 76, those 26 among them), 11, 8
# and 4 were left unknown against 13, 8 and 5, but 11759 (1 cell) and 7302 (2 cells)
# newly so: no more than the noise of a set chosen on the turns of 4,000. Not kept.
EARLY_SLICE: Final = 4_000
EARLY_FROM: Final = 10_000
# The relaxed proofs, one after another: the next begins where the one before met a goal
# (which proves nothing), but not before FINAL gives way to the proof (past
# TIGHT_HANDOVER), so that the slow wins in play do not pay for it. First, twins loose
# in cells and built runs (see "Built runs" below: in cells and top runs before, and
# the figures up to there were measured with that one); second, twins loose on a card
# or in a cell (see "Second" below). The second was twins loose on a card only
# (ON_CARD) before, and the figures up to "Second" were measured with that one. Of the
# lost deals of samples (seed 7) of
# standard 2 cells, app 2 cells and app 1 cell, the first proved 56/62, 56/62 and
# 237/241 over 163k, 203k and 528k classes in all; twins loose on a card (ON_CARD)
# proved 62, 62 and 240 over 291k, 426k and 798k. Classes, the first / on a card:
# standard 2 cells 19678 140,109 / 465,294; the census's 3129 622,107 / not within 4
# million; app 1 cell 6846 299,200 / not within 3 million. Begun at once after a goal
# (rather than at the handover), ON_CARD cost the slow wins of those samples more than
# it saved the losses (CPU in all over their slow deals: standard 10.5 s against 8.3 s
# without it, app 2 cells 15.4 against 14.7, app 1 cell 26.6 against 25.6); measured
# again in play, alone, on app 1 cell's 53 slow deals: 5 and 6 left unknown, against 3
# and 3. Begun after a goal once TIGHT_FINAL has expanded 50,000 or 100,000 positions: 5
# left unknown there (8451 and 11912, near the limit, besides the 3), for one more
# decided of 17 held-out unknowns (12682, which ON_CARD proves alone in 94,087 classes,
# 0.78 s, after the first walk met a goal in 29,292). The first walk met a goal soon on
# 6 of the 7 deals that seeds 313 and 317 left unknown with one cell (after 6,325 to
# 118,019 classes), and in play no handover came, so only TIGHT_FINAL's end could still
# prove a loss (seed 317's 5 unknowns with one cell are all lost: 3.9 to 16.5 s each
# without the limit). After the handover ON_CARD proves the census's 15804, where the
# first meets a goal after 126,510 classes. (These counts were taken when a walk kept
# 256 levels a block whole, and count the levels it made again too: app 1 cell, 17977,
# 301,909 then for 231,765 classes.)
# Second, twins loose on a card or in a cell, not on a card only: it proves many losses
# in far fewer classes (the census's 17184: 867,688 against 1,817,651; 11766: 174,282
# against 303,296; app 1 cell, 31485: 342,776 against 432,884). Whole solves without a
# limit (CPU, one at a time, before -> after): standard 2 cells 15804 34.1 -> 27.5 s,
# 17184 30.1 -> 18.3 s, 26124 19.0 -> 13.9 s, 11766 7.9 -> 5.7 s, 23783 13.4 -> 8.7 s;
# app 2 cells 18031 undecided at 30 s -> proven in 25.3 s, 25972 8.6 -> 5.8 s, 29577
# 25.0 -> 21.8 s; app 1 cell, 11 losses of 4 to 17 s, the same positions or fewer (31485
# 0.85x) but 1091 (1.10x: the second walk meets a goal there). ON_CARD third, where the
# second meets a goal, changed none of these proofs but 1091's (1.15x), and cost the
# wins found past the handover the turns it took: app 2 cells, 27769, 2,022,482
# positions before, 2,236,656 with it third, 2,058,811 without; deal 140 at 100 MB won
# in 287 s before, still searching at 300 s with it third, won in 258 s without. The
# census's wins 6407, 9691, 11864 and 27738 walk the same positions, and so do the 101
# slow deals of the app's tuning samples in play, where no handover comes (the three
# left unknown stop where the clock stops them). This second walk too, begun at once
# after the first's goal rather than at the handover, did as ON_CARD had: on the 53
# slow 1-cell deals, 5 left unknown against 3 (8451 and 11912 reach the in-play limit's
# 300,000 positions); of the 17 held-out unknowns, 3 decided (16187 won, 10494 and
# 12682 proven). With turns of 2,000 positions rather than 4,000, the same; of 1,000,
# 4 unknown, and none of the 17 decided. Standard rules, 2 cells, the same (samples of
# 300, seeds 281, 283, 313, 401, 433, 439 and 443, in play, side by side): 25972
# proven (2.5 s), the only verdict changed of 2,100 deals, but 48 deals took other
# ways, most of them wins that came later (10495 0.79 -> 1.67 s, 17403 0.48 -> 1.02 s,
# 30531 1.61 -> 2.30 s): 42.4 -> 48.2 s CPU over those 48. App 2 cells, in play
# (session 37): on the 17 deals that seeds 463, 467 and 491 left unknown and the 81
# others of seed 463 decided in over 0.5 s, unknown 17 -> 15 (10245, 24208 and 30836
# proven; 24400 newly unknown, and slow wins later: 10495 0.77 -> 1.63 s, 18747 1.13 ->
# 2.27 s); held out (seed 499, 3,000 deals), 7 -> 7 (31324 proven, 16462 newly unknown).
# Measured and not kept (session 37): with one cell, twins loose in all three ways
# (ON_CARD | IN_CELL | IN_TOP_RUN) first. Alone for 3 s on seed 463's 23 app 1-cell
# unknowns it walked as the first does (the same classes on most), proved the same
# losses but one (15630: a goal after 33,927 classes, where the first proves it in
# 242,035), and met its goal far sooner on two wins only (12916 5,103 classes against
# 18,980; 28126 13,021 against 50,576).
# Measured and not kept (session 39): with two cells, the second walk begun at once
# after the first's goal, before the handover (in play, one run at a time against this
# plan). Of the 26 deals that seeds 463-503 left unknown, 10245, 24208, 30836 and 31324
# were proven (0.95 to 2.62 s) and 29027 was left unknown (won at 2.99 s before); of
# seed 463's 37 deals decided in over 0.8 s, 24400 and 30907 were left unknown (won at
# 1.87 and 2.71 s). The unknowns come from five samples of 3,000 and the slow deals from
# one: about 0.6 more deals decided a sample among the unknowns, 2 fewer among the rest.
# Built runs (session 41): the first walk's twins are loose in cells and in built runs
# (IN_BUILT_RUN) rather than in every top run (IN_TOP_RUN): the card at the foot of a
# top run that lies where it was dealt, on a card it may not lie on, is loose no more.
# There it changed places with its twin, and the walk took it off that card where the
# game cannot (app 1 cell, 11506: the 3H dealt onto the KS went home in the place of the
# 3D lying on a 4S), meeting goals that prove nothing, most of all under take-back rules.
# Tighter, it also reaches fewer classes on most lost deals. The walk alone without a
# limit on the 37 deals that seeds 463-509 left unknown in play with one cell (the app),
# top runs -> built runs: 11506 a goal after 19,552 classes -> proven in 32,425, 19717
# 4,117 -> 39,555, 21324 49,116 -> 87,767, 27232 1,707 -> 72,131, 30163 not within
# 600,000 -> 595,916; the 7 proven both ways took 0.91x the classes at the median
# (18032 247,292 -> 185,960); of the 20 goals met both ways, 14 sooner (27096 and 7199
# still false), 5 later (22222 973 -> 58,777, 9331 6,871 -> 97,587, 1706 3,509 ->
# 43,856). Standard rules, 2 cells, deal 1: 13,961 -> 12,038 classes. In play on the 46
# deals those seeds left unknown: 37 -> 32 unknown (11506, 18032, 19717, 21324 and
# 27232 proven), none newly so. Seed 547 (3,000 deals each, one run at a time, before ->
# after): app 1 cell unknown 16 -> 12 (11506, 19717, 21324, 27232 of the 46, and 12952,
# proven; 17331, won before, at the limit, though won either way when run again), app 2
# cells 2 -> 2, standard 2 cells 4 -> 4 (3686 proven, 25624 won before, at the limit);
# over the deals decided both ways that took over 0.5 s, the median ratio of wall time
# 1.01, 0.93 and 0.89 (41, 58 and 48 deals), and of total wall time 0.94, 0.92, 0.94.
# The 22 other deals that seeds 521-541 left unknown with one cell: none more decided
# (24016 was, both ways).
# No lost deal proven with built runs was won by the game: on seed 523's 605 app 1-cell
# wins, the walk met a goal on 594 and ran to the cap (200,000) on 11.
RELAXATIONS: Final = (IN_CELL | IN_BUILT_RUN, ON_CARD | IN_CELL)
# Once FINAL has given way to the proof, a relaxed walk's turn is RELAXED_SHARE times
# the proof's slice (the late search's while there is one, half the proof's then): of
# 12 of the census's slowest losses (standard, 2 cells), the walk over ON_CARD's
# classes proved 10 (15804, 17184, 18105, ...) and the proof 2 (11017, 13433). With 2
# rather than 1 (60 s, CPU, side by side): 15804 46.6 -> 40.8 s, 17184 34.1 -> 28.7 s,
# 26124 21.4 -> 17.8 s, 11766 11.8 -> 7.4 s, 11017 11.3 -> 10.9 s, 13433 9.1 -> 7.6 s.
# The slow deals of the seed-7 and seed-13 samples (app, 1 and 2 cells, in play) were
# decided the same, in the same CPU in all.
RELAXED_SHARE: Final = 2
# The relaxed walks find dead ends as they go (Tarjan's components, until their first
# goal: see DepthFirst), and the game's searches pass by the positions of those classes
# (see DeadEnds). App 1 cell, 1590: 38,813 dead classes when the first walk meets its
# goal; a plain depth-first proof they prune runs out after 67,143 positions, against
# 592,363 (an experiment in pure Python). Whole solves without a limit (30 s, 1 GB, CPU,
# main -> with them): 31485 13.6 -> 2.6 s, 12682 3.9 -> 0.7 s, 1590 6.5 -> 1.6 s, 16187
# 4.9 -> 2.1 s, 22557 4.6 -> 3.7 s; 8983 23.1 -> 23.4 s, 22222 6.4 -> 7.0 s, 13632 15.2
# -> 16.0 s, 3711 2.8 -> 3.1 s. A position passed by counts toward its search's turn:
# counted as nothing, the proof's turns took more time and the walk that proves 8983
# got less (undecided at 30 s). Measured and not kept: once the first walk met a goal,
# a pruned proof in its turns before the handover (8983 as above, 22222 10.1 s, 13632
# 21.4 s). In play: of the held-out unknowns (seeds 281-317), 4 of 17 with 1 cell
# decided (16187, 10494, 12682, 31485) against 1, and 1 of 13 with 2 cells (7301
# proven; 14753, won at 2.8 s without, now stops at the clock) against 1; the slow
# tuning deals (53 and 48) and a fresh sample (seed 389, 300 deals with 1 and with 2
# cells) the same verdicts, CPU p90 141 ms against 134 and 104 against 107. Dead
# ends outlive their solve (see _LOST): the next solves of the game pass them by, and
# its walks take them as classes seen. Played along from the held-out unknowns, the
# move offered (bench/fewcells.py --along 6) while the verdict is unknown, one game a
# process: with 1 cell, of the 13 games, 19 of the 32 positions met after the start
# answered unknown again, against 36 of 47 when only proofs were kept, and none was
# still unknown after 6 moves, against 2; with 2 cells, 14 of 26 against 32 of 41, and
# none against 4. Measured and not kept: a walk that goes on past its first goal, for
# dead ends only (a component is dead where no state of it reaches a goal or a class
# known to: Tarjan's components with a flag each). It decided none of the 26 unknowns
# of the seed-457 samples (see EARLY_SLICE) in play, and without a limit (CPU, one at
# a time, app 1 cell) it made every solve slower: the losses 1296 5.3 -> 14.9 s, 16115
# 11.6 -> 26.9 s, 16330 11.5 -> 15.0 s, 9737 4.9 -> 5.8 s, 25211 5.8 -> 6.4 s, and the
# wins 12633 3.3 -> 3.7 s and 19367 3.4 -> 4.5 s. What it finds past the goal costs
# more classes than its dead ends save the searches that pass them by.
DEAD_ENDS: Final = True
# With ``solve(..., helper=True)``, in a tight game, the relaxed walks run in a process
# of their own on the other core (see helper.py), forked when FINAL has expanded
# EARLY_FROM positions, rather than taking turns with FINAL here: each search gets a
# core. The in-play limit holds for the two together: the helper gets HELPER_SHARE of
# the positions left (as its turns got: EARLY_SLICE against SLICE) and
# HELPER_MEMORY_SHARE of the memory left, both given back here when it ends sooner,
# and the seconds left. It reports the dead ends it finds every HELPER_TURN classes;
# FINAL passes them by as it would its own walk's (so a verdict near the limit may
# differ from run to run: app 2 cells, 13219, FINAL ran out with the walk's dead ends
# in 2 of 4 runs). Where a walk meets a goal, the helper follows it (FOLLOW), keeps
# HELPER_AFTER_GOAL of the positions it has left for the next walk, begun at once, and
# gives the rest back to FINAL. In play (one run at a time, CPU clock), the positions now stop nearly every
# search left unknown, not the clock. The unknowns that seeds 463-509 left (26 with
# two cells, 46 with one): 11 and 9 decided; with no next walk 9 and 7; with shares
# of 3/4 and 1/2, 13 and 8, 14 and 7 (the noise of such a set: the share of the turns
# was kept). Seed 521, 3,000 deals, all of the rest of its share to the next walk: app
# 2 cells 11 -> 6 unknown, app 1 cell 9 -> 10 (21507 and 24016, which FINAL alone
# decides after the first walk's goal, ran out of positions); half of it given back,
# on that sample's slow deals (66 and 99): 9 with one cell (as without the helper),
# 6 with two. Held out, seed 523 (3,000 deals, each way one run at a time), without
# the helper -> with it: unknown app 2 cells 7 -> 3, standard 2 cells 5 -> 3, app 1
# cell 18 -> 17 (its unknowns need more positions than the limit's, see TIGHT_HANDOVER);
# deals over 1 s of wall clock 26 -> 18, 17 -> 15, 50 -> 34; hint p90 115 -> 112 ms,
# 89 -> 110 ms (60 of those deals side by side: p50 90 and 80 ms either way), 105 ->
# 102 ms; peak of the two together, at most, 268 -> 336 MB, 274 -> 320, 244 -> 394.
# Measured and not kept (session 43): one pool of the positions left for the two, each
# spending it as fast as it goes (the counts told through shared memory), rather than
# a share held for the helper. The helper is the faster and took about two thirds all
# the same. App 1 cell, the 101 slow deals of HELPER_LAST_PROOF: unknown 15 -> 15, wall
# p90 2.35 -> 1.95 s; seed 577 (3,000): unknown 4 -> 5 (7887, proven at 275,402
# positions, now past the limit), over the 34 deals that took over 0.5 s median wall
# 0.99x and positions 1.03x, the slowest 3.1 -> 2.3 s.
HELPER_SHARE: Final = EARLY_SLICE / (EARLY_SLICE + SLICE)
HELPER_MEMORY_SHARE: Final = 1 / 3
HELPER_TURN: Final = 4_000
HELPER_NEXT_WALK: Final = True
HELPER_AFTER_GOAL: Final = 0.5
# Where the last relaxed walk met a goal too (on a won deal nearly always), the helper
# goes on with the game's own depth-first proof, passing by the dead ends, and keeps
# what it has left for it rather than give half back. Before, it ended there, and FINAL
# had those positions; but the proof, pruned, is what wins such deals soonest once
# best first has wandered (without a limit, past the handover: app 1 cell 28766 in
# 19,217 of its positions, 16257 in 13,459, 18258 in 41,728). Standard rules, 2 cells,
# 25624: the walks' goals after 4,768 and 8,670 classes, then the proof's win after
# 53,541 positions (in play 1.08 s of wall clock, left unknown before). In play, on
# the 101 deals that seeds 547 and 557 left unknown or decided in over 0.5 s (app 1
# cell), with the follow below pruned too: unknown 18 -> 17 (16257 and 28766 won;
# 17331, won at 2.86 s before, at the limit, as it was in some runs before). Fresh,
# seed 569 (3,000 deals each, one run at a time, before -> after): app 1 cell 10 -> 9
# unknown (28766, one of those 101; 9 -> 9 on the rest), app 2 cells 2 -> 2, standard
# 2 cells 6 -> 5; median wall ratio over the deals decided both ways in over 0.5 s
# 0.99, 0.86 and 1.08 (56, 68 and 41 deals: noise, the deals that took the same
# positions took 1.01x the CPU), total wall 1.00, 0.93 and 1.04. Held out, seed 571,
# with _proof_reserve too (before -> after): app 1 cell 8 -> 6 unknown (6613 won, and
# 16257, one of the 101), app 2 cells 2 -> 1 (29027 won), standard 2 cells 1 -> 1; the
# slow deals decided both ways (54, 65 and 34) took 1.00x the positions at the median.
# Seed 569, app 1 cell, with both: 8 unknown (9499 won as well).
HELPER_LAST_PROOF: Final = True
HELPER_LEAST_SECONDS: Final = 0.05  # with less time left, no helper is worth its fork
HELPER_WAIT: Final = 0.25  # seconds: how long to wait at a time for the helper's word
HELPER_GRACE: Final = 5.0  # seconds past the limit after which a silent helper is ended
# Where a relaxed walk meets a goal, a depth-first search of the game from the last
# position on its way there before its first twin step (see _decide), with room for
# FOLLOW positions. Standard rules, 2 cells, 1216 (no other search had won within 1.1
# million positions): the walk's goal after 128,675 classes, its first twin step after
# 2,920 moves, and from there a win within 7 positions. App 2 cells, 18315: 35,718
# classes, then 2,138 positions. It passes by the dead ends as FINAL does: app 1 cell,
# 16257, the first walk's goal after 20,347 classes, then a win after 16,544 positions
# (none within 20,000 before, and the deal was left unknown in play).
FOLLOW: Final = 20_000
_NOISY: Final = tuple(
    Strategy(weights, path_weight, 1_000, eager=True, noise=100, seed=seed)
    for seed, (weights, path_weight) in enumerate(((MAIN_WEIGHTS, 4), (_FEW_CELLS, 8), (_OPEN_RUNS, 8)) * 3)
    # Seeds 6 and 7 won nothing on Microsoft deals 1-40000 that the second restart below
    # does not win first: dropped, to pay for it.
    if seed not in (6, 7)
)
# Every search above gets lost in the same long dead ends on a few deals, most often
# where the way out fills every cell to empty a column; weighing the shortest column
# (Weights.shortest) draws a search down that way. After the first noisy restart (the
# one that wins most), one such search with room (it wins 28920, 17227, 23599 and 30984
# within 3,000 positions, where FINAL needed 20,000-65,000), then the other noisy ones
# (with their seeds, so they win what they won before), then another with other weights,
# for the rare deal that nothing wins before.
# Microsoft deals 1-32000, positions expanded (before -> now): over 20,000 8 -> 4, over
# 12,000 35 -> 33, worst 65,669 -> 29,391 (11854); CPU on the 55 slowest: over 1 s
# 4 -> 1 (9718, 1.05 s), over 0.5 s 19 -> 28 (a deal won by a later noisy restart
# now pays 2,000-5,000 more). On 32001-40000 (not used to choose): over 20,000 8 -> 8,
# 33285 254,016 -> 34,266, worst now 35254 (80,493, from 77,493). Deals 1-1000 and
# their figures are unchanged. A loss proven after all the restarts pays 12,000
# positions of them (9,000 before): 11982 is proven after 88,425 (85,425), 2.27 s CPU
# (2.25); Baker's Game deals 1-1000 (same verdicts) take 4.80 million positions, 131 s
# CPU (4.44 million, 114 s).
RESTARTS: Final = (
    _NOISY[0],
    Strategy(replace(Weights(cell=40), shortest=25), 4, 3_000, eager=True),
    *_NOISY[1:],
    Strategy(replace(_OPEN_RUNS, shortest=25), 8, 2_000, eager=True),
)
# Last of the late searches: the portfolio's weights with cells at 40, eager, whole
# runs, and a path weight (12) between TIGHT_FINAL's and the restarts'. It wins 6407
# (114,000 positions), 9691 (108,000), 11864 (131,000) and 27738 (36,000), which the
# census left at 60 s (standard rules, 2 cells) and fc-solve's tea-for-two solves.
# Path weights 8, 20 and 30, cells 50 or 60, or the first search's weights each won
# fewer of them within 300,000 (with path 20, not eager, 267 too: 269,000). None won
# any other deal the census left at the limit within 200,000. It costs a proof past the
# handover up to LATE_EAGER_ROOM positions more.
LATE_EAGER_ROOM: Final = 140_000
LATE_EAGER: Final = Strategy(replace(MAIN_WEIGHTS, cell=40), 12, LATE_EAGER_ROOM, eager=True, whole_runs=True)
# What takes turns with the depth-first proof in a tight game (see _decide()): LATE, then
# the restarts with LATE_ROOM each, then LATE_EAGER. Alone from the start, some of them
# win deals that the in-play limit leaves unknown (seed 457's samples, see EARLY_SLICE):
# LATE_EAGER app 2 cells 9582 in 12,766 positions, LATE app 1 cell 12633 in 10,090.
# Measured and not kept: LATE_EAGER with room for 15,000 positions, then LATE with
# 12,000, once each, after TIGHT_FINAL's first 40,000 (so long before the handover). It
# decided 3 of those 26 unknowns (with room for 50,000 and 62,000, 4; from 20,000, 2),
# but over the samples' deals that took 0.5 s or more it left 12, 8 and 6 unknown
# against 13, 8 and 5: 7302 (app 2 cells) and 23600 (standard 2 cells) newly so.
LATE_PLAN: Final = (LATE, *(replace(strategy, cap=LATE_ROOM) for strategy in RESTARTS), LATE_EAGER)
# Under take-back rules the late searches above search the fast problem, where no card
# comes back from home: they cannot find a win that takes one back. There, FINAL (over
# the complete problem) does not end where it gives way to the proof for its count: it
# takes turns with the proof first, as the late searches do, with room for this many
# positions more, and they follow. Without a limit (30 s, 1 GB, CPU, one at a time),
# app 2 cells, the 13 held-out deals left unknown in play (seeds 281-317), before ->
# after: 27769 won in 16.7 -> 6.6 s, 23447 9.3 -> 6.4 s, 23544 undecided -> won in
# 12.8 s; the proofs 0.97-1.08x, and 7562 (28.4 s before) undecided at 30 s; peak
# memory up to 724 MB, from 501. App 1 cell, the 17 such deals: 22222 won in 15.5 ->
# 6.3 s, 26030 29.7 -> 15.3 s; proofs at most 1.06x but 1091 1.28x and 26587 1.39x
# (17.3 -> 22.2 s and 16.5 -> 22.9 s: the whole room spent), median 0.99x; peak up to
# 580 MB, from 492. With room for 100,000, 23544 stayed undecided: FINAL wins it at
# 442,896 positions, 27769 at 269,355, 23447 at 233,061 and 22222 at 247,350 (the
# handover at 200,000). In play nothing changed: the 101 slow deals of the tuning
# samples were decided as before, over the same positions.
KEPT_ROOM: Final = 400_000
# A win whose path is longer than this many steps is cut short (see shortcut.py), a
# stretch at a time where the memory left does not hold a key for each step (about
# SHORTCUT_BYTES_PER_STEP), of at least SHORTCUT_WINDOW_LEAST steps (2 MB of keys: a
# path left long would cost far more, as moves written out). Best first
# seldom finds one so long; the depth-first proof nearly always does (standard rules, 2
# cells: 5060 122,982 moves, 23544 21,704). Not shorter ones: looking three moves ahead
# of each costs about 0.2 ms a move with 4 cells, as much as a whole solve at the median.
SHORTCUT_FROM: Final = 100
# How many moves ahead the shortcut looks, with one deck and with two. With two decks
# best-first wins pass 100 steps too (104 cards), so nearly every win is cut short, and
# looking three moves ahead cost far more than it saved: on ten slow wins of Double
# FreeCell (samples of seeds 7, 13 and 97, in play), 3.77 s of their 13.07 s CPU went to
# it (20362: 0.89 s to cut 173 steps to 168). Two moves ahead took 0.44 s in all, for
# wins 0.9% longer in all.
SHORTCUT_DEPTH: Final = 3
SHORTCUT_DEPTH_TWO_DECKS: Final = 2
SHORTCUT_BYTES_PER_STEP: Final = 200
SHORTCUT_WINDOW_LEAST: Final = 10_000
# The searches for a shorter solution, each bounded by the best length so far: beams
# over the eager problem. On Microsoft deals 1-100 the first found 28.3 moves on average
# and the second, with other weights, brought it to 27.6 (weighted A* with path weights
# 13 to 40 and caps of 3,000 to 5,000 positions found 31.9, at about the same cost).
SHORT_PLAN: Final = (
    Beam(replace(MAIN_WEIGHTS, next=6), width=100),
    Beam(Weights(cell=40), width=100),
)


class SolveStatus(Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    LIMIT_REACHED = "limit-reached"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What a solve found. ``moves`` (standard notation, foundation moves included)
    replays from the position to a win under the rules with nothing automatic; it is
    empty unless the status is SOLVED."""

    status: SolveStatus
    moves: tuple[str, ...]
    expanded: int
    generated: int
    seconds: float
    non_foundation_moves: int

    @property
    def solved(self) -> bool:
        return self.status is SolveStatus.SOLVED


def solve(
    position: Position, rules: Rules, *, limit: SearchLimit | None = None, short: bool = False,
    helper: bool = False,
) -> SolveResult:
    """Solve ``position`` under ``rules`` within ``limit`` (default :data:`DEFAULT_LIMIT`).

    SOLVED comes with moves checked by replay; UNSOLVABLE only after an exhaustive search
    with sound reductions; LIMIT_REACHED when the budget ran out first. With ``helper``,
    a tight game's relaxed walks may run in a forked process on another core, within
    the same limit (see :data:`HELPER_SHARE`): only where forking is safe, in a process
    with no other thread that could hold a lock when it forks. Raises
    ``ValueError`` when the table does not have the layout of ``rules``, and
    :class:`~freecell.solver.transcript.SolverError` if a solution fails its replay (a bug).
    """
    _check_table(position, rules)
    with _cyclic_gc_paused():
        return _solve(position, rules, limit or DEFAULT_LIMIT, short, helper)


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: a search makes tuples by the million, none of
    them in a cycle, and the collector would walk them again and again (about 3% of a
    short solve and 6% of a long one)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _solve(position: Position, rules: Rules, limit: SearchLimit, short: bool, helper: bool = False) -> SolveResult:
    budget = Budget(limit)
    searches: list[InstrumentedProblem[State, Step, Steps]] = []
    scale = rules.decks**2  # two decks: longer searches

    def begin(
        strategy: Strategy, *, complete: bool = False, depth_first: bool = False, twins: int = 0, fused: bool = True,
        dead_ends: bool = False,
    ) -> _Search:
        problem = FreeCellProblem(
            rules, complete=complete, weights=strategy.weights, eager=strategy.eager, whole_runs=strategy.whole_runs,
            runs=not depth_first, twins=twins, fused=fused,
        )
        start, first = problem.initial(position)
        counted = InstrumentedProblem(problem)
        searches.append(counted)
        if depth_first:
            # Near the memory limit, a proof goes on with its keys on disk.
            return _Search(problem, first, DepthFirst(counted, start, spill=True, dead_ends=dead_ends))
        if strategy.also is not None:
            cell_weight, path_weight = strategy.also
            rankings = ((strategy.path_weight, 0), (path_weight, cell_weight - strategy.weights.cell))
            alternating = Alternating(counted, start, rankings=rankings, measure=cards_in_cells, cost=step_cost)
            return _Search(problem, first, alternating)
        search = BestFirst(
            counted, start, path_weight=strategy.path_weight, cost=step_cost, lazy=strategy.cap is not None,
            noise=strategy.noise, seed=strategy.seed,
        )
        return _Search(problem, first, search)

    def follow(relaxed: _Search, path: Sequence[Steps]) -> _Search:
        """A depth-first search of the game from the last position on ``path`` (a
        relaxed walk's way to a goal) before its first twin step: every position up to
        there is one the game reaches. Its loose twins go home as the relaxed walk's
        did, so that the path leads there in its terms too."""
        problem = FreeCellProblem(
            rules, complete=rules.takes_back, runs=False, twins=relaxed.problem.twins, classes=False,
            fused=relaxed.problem.fuses,
        )
        state = relaxed.search.start
        before: list[Steps] = []
        for via in path:
            if is_twin_step(via[0]):
                break
            state, _ = problem.play(state, via[0])
            before.append(via)
        counted = InstrumentedProblem(problem)
        searches.append(counted)
        return _Search(problem, relaxed.first, DepthFirst(counted, state), (relaxed.search.start, tuple(before)))

    # Under take-back rules only the complete problem is exhaustive: its keys are the
    # ones a proof remembers (see _remember_lost).
    # The relaxed problem's proofs remember classes, under keys of their own.
    exhaustive = FreeCellProblem(rules, complete=rules.takes_back)
    relaxable = can_relax(rules)
    missing = _missing(position, rules)
    lost = {twins: _LOST.setdefault((rules, missing, twins), set()) for twins in (0, *RELAXATIONS)}
    if exhaustive.key(exhaustive.initial(position)[0]) in lost[0] or any(
        _relaxed_key(position, rules, twins) in lost[twins] for twins in RELAXATIONS if relaxable and lost[twins]
    ):
        return SolveResult(SolveStatus.UNSOLVABLE, (), 0, 0, budget.elapsed(), 0)

    steps: list[Step] | None = None
    status = SolveStatus.LIMIT_REACHED
    helped: list[int] = []  # the positions a helper expanded (see HELPER_SHARE)
    for strategy in PORTFOLIO[:1] if _first_only(rules) else PORTFOLIO:
        if budget.exhausted(0):
            break
        quick = begin(strategy)
        run = quick.search.run(budget, None if strategy.cap is None else strategy.cap * scale)
        if run.outcome is Outcome.FOUND:
            steps = _winning_steps(quick, run, budget)
            break
        proves = not (quick.problem.eager or quick.problem.whole_runs or rules.takes_back)
        if run.outcome is Outcome.EXHAUSTED and proves:
            # Every position searched, and only sound reductions: as FINAL would prove.
            status = SolveStatus.UNSOLVABLE
            _remember_lost(lost[0], quick.search)
            break
    if steps is None and status is not SolveStatus.UNSOLVABLE:
        tight = _tight(rules)
        early_proof = tight and relaxable
        # What the solves before this one found lost (see _decide), and what this one's
        # walks find.
        dead_ends = DeadEnds()
        if early_proof and DEAD_ENDS:
            for twins, keys in lost.items():
                if keys:
                    dead_ends.add(_key_maker(rules, twins) if twins else exhaustive, keys)
        walked: list[tuple[int, set[bytes]]] = []
        steps, status = _decide(
            begin, follow, budget, scale, lost, dead_ends, walked, takes_back=rules.takes_back,
            final=(TWO_CELL_FINAL if rules.cells == 2 else TIGHT_FINAL) if tight else (
                FINAL if rules.decks == 1 else TWO_DECK_FINAL
            ),
            restarts=() if tight else RESTARTS,
            hand_over_at=TIGHT_HANDOVER * scale if tight else None,
            late=LATE_PLAN if tight else (),
            early_proof=early_proof,
            helping=helper and early_proof,
            counted=helped,
        )
        for twins, dead in walked:
            _keep_lost(lost[twins], dead)

    moves: list[str] = []
    if steps is not None:
        status = SolveStatus.SOLVED
        moves = _shorter(position, rules, steps, budget, searches) if short else write_moves(position, rules, steps)
        verify(position, rules, moves)
    return SolveResult(
        status=status,
        moves=tuple(moves),
        expanded=sum(s.expanded for s in searches) + sum(helped),
        generated=sum(s.generated for s in searches),
        seconds=budget.elapsed(),
        non_foundation_moves=count_non_foundation(moves),
    )


def _shorter(
    position: Position,
    rules: Rules,
    steps: list[Step],
    budget: Budget,
    searches: list[InstrumentedProblem[State, Step, Steps]],
) -> list[str]:
    """A solution no longer than ``steps``: the beams of :data:`SHORT_PLAN`, each bounded
    by the best length so far, then :func:`~freecell.solver.shorten.shorten` on the
    shortest (counted in public moves, so that under single-card rules a run counts as
    the moves it stands for)."""
    best = write_moves(position, rules, steps)
    bound = sum(map(step_cost, steps))
    for beam in SHORT_PLAN:
        if budget.exhausted(0):
            break
        problem = FreeCellProblem(rules, complete=False, weights=beam.weights, eager=True)
        start, first = problem.initial(position)
        counted = InstrumentedProblem(problem)
        searches.append(counted)
        run = beam_search(counted, start, budget, width=beam.width, cost=step_cost, bound=bound)
        if run.outcome is Outcome.FOUND:
            moves = write_moves(position, rules, _steps(problem, first, run.path, run.goal))
            bound = min(bound, sum(step_cost(via[0]) for via in run.path))
            if count_non_foundation(moves) < count_non_foundation(best):
                best = moves
    return shorten(position, rules, best)


def _tight(rules: Rules) -> bool:
    """Whether ``rules`` make a tight game, where many deals are lost and FINAL runs
    alone (see :data:`TIGHT_FINAL`): one or two cells, or same-suit building with four
    cells or fewer (Baker's Game)."""
    return rules.cells <= 2 or (rules.building is Building.SAME_SUIT and rules.cells <= 4)


def _first_only(rules: Rules) -> bool:
    """Whether only the portfolio's first search runs before the last search: with one
    cell or none, and in a tight game where cards never come back from the foundations.

    There the last search wins most deals that the later searches of the portfolio
    would win, in fewer positions than those searches spend on the deals they do not
    win (about 4,000 a deal). App 1 cell, the 73 slow deals of the seed-13 sample:
    unknown 18 -> 16, CPU p50 675 -> 502 ms. Standard 2 cells (with TWO_CELL_FINAL),
    samples of 300, in-play limit, CPU, the two run side by side: seed 7 p90 300 -> 252
    ms, sum 39.2 -> 33.7 s, unknown 2 -> 2; seed 13 p90 251 -> 180 ms, unknown 3 -> 2;
    held out, seed 41, p90 239 -> 186 ms, positions p90 12,437 -> 8,400, unknown
    3 -> 3. Baker's Game, seed 7: p90 185 -> 137 ms, p99 440 -> 357 ms, sum 19.6 ->
    15.7 s; seed 13: p90 190 -> 124 ms, p99 486 -> 298 ms. Not under take-back rules
    with two cells (the app): there the last search is over the complete problem,
    dearer a position, and the portfolio pays for itself (seed 13: p90 252 -> 300 ms).
    """
    return rules.cells < 2 or (_tight(rules) and not rules.takes_back)


def _decide(
    begin: Callable[..., _Search],
    follow: Callable[[_Search, Sequence[Steps]], _Search],
    budget: Budget,
    scale: int,
    lost: dict[int, set[bytes]],
    dead_ends: DeadEnds,
    walked: list[tuple[int, set[bytes]]],
    *,
    takes_back: bool,
    final: Strategy,
    restarts: tuple[Strategy, ...],
    hand_over_at: int | None,
    late: tuple[Strategy, ...] = (),
    early_proof: bool = False,
    helping: bool = False,
    counted: list[int] | None = None,
) -> tuple[list[Step] | None, SolveStatus]:
    """After the portfolio: ``final`` (:data:`FINAL`, :data:`TIGHT_FINAL` or
    :data:`TWO_DECK_FINAL`), the search that runs to its end (which alone can prove a
    loss, over every move), taking turns slice by slice with the ``restarts``
    (:data:`RESTARTS`: capped searches that never claim a loss; none in a tight game)
    until those are spent. A deal lost in a small proof is decided within a slice or
    two; a deal where the heuristic leads into a long dead end is most often won by a
    restart. With two decks FINAL keeps runs whole, and where it runs out of positions
    it begins again over every move.

    Under take-back rules FINAL searches the complete problem, runs moving as one step:
    it finds wins as the fast problem's does, and its end is a proof. Past half the
    memory limit (see :func:`_proof_reserve`) FINAL gives way to a proof over the same
    problem that goes depth first, keeping only keys, and near the limit spills them to
    disk (app 2 cells, deal 140, took 2.38 GB best first): a proof goes on where best
    first would stop for memory.
    It gives way too once it has expanded ``hand_over_at`` positions (a tight game: see
    :data:`TIGHT_HANDOVER`), but never where the budget left could not hold the proof
    (see :func:`_proof_fits`): then FINAL goes on to its end or the budget's. Once it
    has given way, the searches of ``late`` (:data:`LATE_PLAN`) take turns with the
    proof, one after the other, slice by slice, each until its cap: searches for the
    rare wins that the last search wanders past. Under take-back rules, where ``final``
    gave way for its count, it goes first among them itself, with room for
    :data:`KEPT_ROOM` positions more (the late searches cannot take a card back).

    With ``early_proof`` (a tight game) a second proof takes turns with FINAL from
    :data:`EARLY_FROM` positions on, and then with the proof FINAL gives way to
    (turns :data:`RELAXED_SHARE` times as long as the late search's or, without one,
    the proof's), until
    one of them ends: a depth-first walk of a relaxed problem (twins: see board.py).
    It is most often far smaller than the problem's own (standard rules, 2 cells, deal
    5441: 34,771 classes against 434,813 positions), but its classes hold positions the
    game cannot reach, so now and then it meets a goal though the deal is lost (app, 2
    cells, 13233, after 47,718 classes), and it cannot win: a goal it meets proves
    nothing, and the next of :data:`RELAXATIONS`, if any, begins once FINAL has given
    way to the proof. Near the memory limit the walk spills its keys to disk as the
    proof does, and goes on: it is what proves the lost deals that the plain proof
    would take tens of millions of positions over (app, 1 cell, 6123 at 300 MB:
    proven in 23 s; when the walk was dropped there, undecided after 600 s). Until its
    goal the walk finds dead ends too (see :data:`DEAD_ENDS`): FINAL, the proof and the
    late searches pass by the positions whose class is one of them, and so by those
    that ``dead_ends`` holds from the solves before this one (see :data:`_LOST`). Each
    walk's dead ends are added to ``walked`` with its twins, for the solves after it.
    """
    # The classes the relaxed walks found to reach no goal: the game's searches pass
    # their positions by.
    prune = dead_ends.holds if early_proof and DEAD_ENDS else None

    def pruned(search: _Search) -> _Search:
        search.search.prune = prune
        return search

    ending = pruned(begin(final, complete=takes_back))
    # The proofs walk every move: never only whole runs (see TWO_DECK_FINAL).
    proving = replace(final, whole_runs=False)
    relaxations = list(RELAXATIONS if early_proof else ())  # those not begun yet

    def begin_relaxed() -> _Search | None:
        """The next relaxed proof, if any is left."""
        if not relaxations:
            return None
        # Cards come back one at a time there, not fused (see board.py): a fused walk
        # proves some losses over far fewer classes (app 1 cell, 6123: 157,287 against
        # 672,038), but meets its goals later, at a dearer class (31589: 70,177 classes
        # and 2 s, against 5,441), and the wins that follow them come too late. On the
        # slow deals of the tuning samples (59 with 1 cell, 52 with 2), unknown 11 -> 8
        # and 3 -> 1. Measured and not kept: with one cell, a walk that had seen 40,000
        # classes without a goal giving way to a fused walk over the same relaxation
        # (taking the first's dead classes as seen). Without a limit some losses came
        # far sooner (app 1 cell: 3972 4.0 -> 1.4 s, 9618 5.8 -> 2.6 s, 30163 14.4 ->
        # 6.8 s; median 0.96x over 17 held-out unknowns), but 8983 took 29.5 s against
        # 25.1. In play it proved 2 more of those 17 and 1 fewer of the 53 slow tuning
        # deals (8451: the unfused walk's dead ends let the last search run out), and on
        # fresh samples (seeds 409, 419, 421, 431: 1,200 deals) it decided none more and
        # one fewer: 31965, where a fused class cost 70 us against 9 (its fused steps
        # are many). With two cells, without a limit, median 1.12x (7301 2.9 -> 10.9 s).
        walk = begin(
            proving, complete=takes_back, depth_first=True, twins=relaxations.pop(0), fused=False,
            dead_ends=prune is not None,
        )
        keep_dead_ends(walk)
        return walk

    def keep_dead_ends(walk: _Search) -> None:
        """Where dead ends are kept, ``walk``'s (as it finds them) are passed by from now
        on, and kept for the solves after this one."""
        if prune is not None:
            assert isinstance(walk.search, DepthFirst)
            dead_ends.add(walk.problem, walk.search.dead)
            walked.append((walk.problem.twins, walk.search.dead))

    early = begin_relaxed()
    waiting = list(restarts)
    later = list(late)  # the late searches not begun yet
    behind: _Search | None = None  # a late search, while it takes turns with the proof
    behind_cap = 0  # its cap on positions

    def begin_late() -> tuple[_Search | None, int]:
        """The next late search and its cap, if any is left and the memory left holds
        it (what it frees may stay with the process, and the proof would find its own
        memory short ever after: app 2 cells, deal 140, at 60 MB)."""
        if not later:
            return None, 0
        strategy = later.pop(0)
        cap = (strategy.cap or 0) * scale
        if budget.memory_short(0, reserve=max((budget.memory or 0) // 4, cap * BYTES_PER_POSITION)):
            later.clear()  # the proof has the memory left
            return None, 0
        return pruned(begin(strategy)), cap

    def won(found: _Search, run: SearchRun[State, Steps]) -> list[Step]:
        """The win ``found`` found, cut short once the proofs let go of their memory."""
        for other in (ending, early, behind):
            if other is not None and other is not found:
                _drop(other, budget)
        return _winning_steps(found, run, budget)

    def take_known_lost(walk: _Search) -> None:
        """Before a walk's first turn (a walk counts its start as expanded from the
        outset; should a turn end before it expands another, this is done again, to the
        same effect): the classes known lost already (as many as LOST_KEPT, which takes
        tens of ms to copy: most solves end before this turn) are passed by as classes
        seen, whose components are closed (they reach no goal), so Tarjan's bookkeeping
        holds."""
        if prune is not None and walk.search.expanded == 1:
            assert isinstance(walk.search, DepthFirst)
            walk.search.seen.update(lost[walk.problem.twins])

    def follow_goal(
        walk: _Search, path: Sequence[Steps], spend: Budget
    ) -> tuple[_Search, SearchRun[State, Steps]] | None:
        """A goal of the relaxed problem proves nothing, but its way there, up to its
        first twin step, is the game's own, and often leads near a win: the search from
        there (see follow()) and its win, if it found one within FOLLOW positions."""
        following = pruned(follow(walk, path))
        followed = following.search.run(spend, FOLLOW * scale)
        return (following, followed) if followed.outcome is Outcome.FOUND else None

    # With ``helping``, the relaxed walks go to a helper on the other core (HELPER_SHARE)
    # once FINAL has expanded EARLY_FROM positions, instead of taking turns with it here.
    apart: Helper | None = None
    mirror: _Search | None = None  # the walk the helper runs: its copy here holds the dead ends
    held = 0  # the positions held for the helper (counted as spent here)
    helped = 0  # how many of them it has spent
    memory_held = 0  # the bytes of the memory limit set aside for it
    apart_ends = 0.0  # when (time.monotonic) to stop waiting for it

    proof_left = helping and HELPER_LAST_PROOF  # the helper's last walk, not begun yet

    def begin_walk() -> _Search | None:
        """The helper's next walk: the next relaxed one, if any is left, else (once) the
        game's own proof, passing by the dead ends (see HELPER_LAST_PROOF)."""
        nonlocal proof_left
        walk = begin_relaxed()
        if walk is None and proof_left:
            proof_left = False
            walk = pruned(begin(proving, complete=takes_back, depth_first=True, dead_ends=prune is not None))
            keep_dead_ends(walk)
        return walk

    def walk_apart(own: Budget, reporter: Reporter) -> None:
        """In the helper: the relaxed walks, each begun where the one before met a goal
        (see HELPER_NEXT_WALK) and followed from its goal, then the game's own proof
        (HELPER_LAST_PROOF), telling the dead ends as it finds them and, at its end, a
        proof, a win or nothing."""
        walk = mirror
        while walk is not None:
            search = walk.search
            assert isinstance(search, DepthFirst)
            twins = walk.problem.twins
            found: list[bytes] = []
            search.dead_log = found
            take_known_lost(walk)
            while True:
                proof = search.run(own, HELPER_TURN * scale)
                reporter.send(("dead", twins, found.copy(), own.expanded, walk.problem.truncated))
                found.clear()
                if proof.outcome is not Outcome.LIMIT or own.exhausted(0):
                    break
            void = proof.outcome is Outcome.EXHAUSTED and walk.problem.truncated
            if proof.outcome is Outcome.EXHAUSTED and not void:
                reporter.send(("lost", twins, list(search.seen), own.expanded))
                return
            if proof.outcome is Outcome.FOUND and not twins:  # the game's own goal: a win
                reporter.send(("won", _winning_steps(walk, proof, own), own.expanded))
                return
            if proof.outcome is Outcome.FOUND and not own.for_memory:
                win = follow_goal(walk, proof.path, own)
                if win is not None:
                    reporter.send(("won", _winning_steps(*win, own), own.expanded))
                    return
            if proof.outcome is Outcome.LIMIT or own.for_memory or not HELPER_NEXT_WALK:
                break
            positions = own.limit.positions
            # Before the game's own proof, nothing is given back: it needs all there is.
            if positions is not None and HELPER_AFTER_GOAL < 1 and (relaxations or not proof_left):
                # FINAL gets back part of the positions left, as it had them all when
                # the walks took turns with it.
                released = int(max(positions - own.expanded, 0) * (1 - HELPER_AFTER_GOAL))
                if released:
                    own.limit = replace(own.limit, positions=positions - released)
                    reporter.send(("release", released))
            _drop(walk, own)
            walk = begin_walk()
            if walk is not None:
                reporter.send(("walk", walk.problem.twins))
        reporter.send(("end", own.expanded))

    def start_apart() -> Helper | None:
        """Fork the helper, holding for it its share of the positions and memory left."""
        nonlocal held, memory_held, apart_ends
        seconds = budget.seconds_left()
        positions = budget.positions_left()
        held = 0 if positions is None else int(positions * HELPER_SHARE)
        if (seconds is not None and seconds < HELPER_LEAST_SECONDS) or (positions is not None and not held):
            return None
        memory_mb = None
        if budget.memory is not None:
            memory_held = int((budget.memory_left() or 0) * HELPER_MEMORY_SHARE)
            # Its resident size starts with this process's pages, shared until written.
            memory_mb = max((resident_bytes() or 0) + memory_held, 1_000_000) // 1_000_000
        helper = start_helper(walk_apart, SearchLimit(seconds=seconds, positions=held or None, memory_mb=memory_mb))
        if helper is None:
            held = memory_held = 0
            return None
        budget.expanded += held
        if budget.memory is not None:
            budget.memory -= memory_held
        apart_ends = math.inf if seconds is None else time.monotonic() + seconds + HELPER_GRACE
        return helper

    def end_apart() -> None:
        """The helper has ended: what it left of its share is given back."""
        nonlocal apart, held, memory_held
        if apart is None:
            return
        apart.stop()
        apart = None
        if budget.memory is not None:
            budget.memory += memory_held
        budget.give_back(max(held - helped, 0))
        held = memory_held = 0

    def hear(messages: list[Message]) -> tuple[list[Step] | None, SolveStatus] | None:
        """Take the helper's messages in: its dead ends, which walk it began, and its
        verdict (returned, if any)."""
        nonlocal mirror, helped, held
        for message in messages:
            kind = message[0]
            if kind == "dead" and mirror is not None:
                _, twins, keys, spent, truncated = message
                if not isinstance(mirror.search, DepthFirst) or twins != mirror.problem.twins:
                    end_apart()  # not the walk copied here: a bug, and this search goes on alone
                    break
                mirror.search.dead.update(keys)  # type: ignore[arg-type]
                if truncated:
                    mirror.problem.truncated = True
                helped = spent  # type: ignore[assignment]
            elif kind == "release":
                released: int = message[1]  # type: ignore[assignment]
                held -= released
                budget.give_back(released)
            elif kind == "walk":
                mirror = begin_walk()
                if mirror is None or mirror.problem.twins != message[1]:
                    end_apart()  # no copy of its walk here to hold its dead ends: a bug
                    break
            elif kind == "lost":
                _, twins, keys, helped = message  # type: ignore[assignment]
                end_apart()
                _keep_lost(lost[twins], keys)  # type: ignore[index, arg-type]
                return None, SolveStatus.UNSOLVABLE
            elif kind == "won":
                _, steps, helped = message  # type: ignore[assignment]
                end_apart()
                for other in (ending, behind):
                    if other is not None:
                        _drop(other, budget)
                return steps, SolveStatus.SOLVED  # type: ignore[return-value]
            else:  # "end", or it failed or died: this search goes on alone
                if kind == "end":
                    helped = message[1]  # type: ignore[assignment]
                end_apart()
                break
        return None

    try:
        while True:
            if apart is not None:
                heard = hear(apart.messages())
                if heard is not None:
                    return heard
            if budget.exhausted(0):
                if apart is None:
                    break
                # Its own positions spent, this search waits for the helper's verdict
                # or end; the positions the helper leaves are given back.
                heard = hear(apart.wait(HELPER_WAIT))
                if heard is not None:
                    return heard
                if apart is not None and time.monotonic() > apart_ends:
                    end_apart()  # it should have stopped by now
                continue
            if (
                helping and apart is None and early is not None and not isinstance(ending.search, DepthFirst)
                and ending.search.expanded >= EARLY_FROM * scale
            ):
                mirror = early
                apart = start_apart()
                if apart is not None:
                    early = None  # the helper walks it
            # A slice at a time while restarts are left, each followed by one restart: a
            # loss proven in a few slices pays for as many restarts only. Under a memory
            # limit or a handover count, best first runs in slices to the end too, to give
            # way in time.
            depth_first = isinstance(ending.search, DepthFirst)
            if behind is not None:
                # About the time of the late search's next slice.
                cap: int | None = 2 * min(LATE_SLICE * scale, behind_cap)
            else:
                sliced = waiting or early is not None or (
                    not depth_first and (budget.memory is not None or hand_over_at is not None)
                )
                cap = SLICE * scale if sliced else None
            run = ending.search.run(budget, cap)
            if run.outcome is Outcome.FOUND:
                return won(ending, run), SolveStatus.SOLVED
            if run.outcome is Outcome.EXHAUSTED and ending.problem.whole_runs:
                # Only whole runs: no proof. FINAL goes on over every move, from the start.
                del ending, run
                ending = pruned(begin(proving, complete=takes_back))
                continue
            if run.outcome is Outcome.EXHAUSTED and ending.problem.truncated:
                return None, SolveStatus.LIMIT_REACHED  # some fused steps left out: no proof
            if run.outcome is Outcome.EXHAUSTED:  # over an exhaustive problem: a proof
                _remember_lost(lost[0], ending.search)
                return None, SolveStatus.UNSOLVABLE
            if early is not None and (depth_first or ending.search.expanded >= EARLY_FROM * scale):
                # EARLY_SLICE positions after each of FINAL's slices; once the proof has
                # begun, as many as the proof's slice, or the late search's when there is one.
                if not depth_first:
                    cap = EARLY_SLICE * scale
                elif behind is not None:
                    cap = RELAXED_SHARE * min(LATE_SLICE * scale, behind_cap)
                elif cap is not None:
                    cap = RELAXED_SHARE * cap
                take_known_lost(early)
                proof = early.search.run(budget, cap)
                void = proof.outcome is Outcome.EXHAUSTED and early.problem.truncated  # proves nothing
                if proof.outcome is Outcome.EXHAUSTED and not void:
                    _remember_lost(lost[early.problem.twins], early.search)
                    return None, SolveStatus.UNSOLVABLE
                if proof.outcome is Outcome.FOUND and not budget.for_memory:
                    win = follow_goal(early, proof.path, budget)
                    if win is not None:
                        return won(*win), SolveStatus.SOLVED
                if proof.outcome is Outcome.FOUND or void or budget.for_memory:
                    # A tighter relaxed problem begins, if any. Where the walk could not
                    # spill (too few keys in memory to be worth it), the others keep what
                    # memory is left (its dead ends too). Else its dead ends stay.
                    if budget.for_memory and isinstance(early.search, DepthFirst):
                        early.search.dead.clear()
                    _drop(early, budget)
                    early = None
                    if budget.for_memory:
                        budget.relieve()
                        relaxations.clear()
                    elif depth_first:
                        early = begin_relaxed()
            short = not depth_first and budget.memory_short(0, reserve=_proof_reserve(budget))
            if (
                not depth_first
                and (short or (hand_over_at is not None and ending.search.expanded >= hand_over_at))
                and _proof_fits(budget, ending.search.expanded)
            ):
                # Given way for its count under take-back rules, FINAL goes on behind the
                # proof, first of the late searches (see KEPT_ROOM); else its memory goes to
                # the proof. Spent, it is dropped as they are (an end it reaches there
                # proves nothing more than the proof will).
                kept = ending if takes_back and not short else None
                del ending, run
                ending = pruned(begin(proving, complete=takes_back, depth_first=True))
                waiting.clear()
                if kept is not None:
                    behind, behind_cap = kept, kept.search.expanded + KEPT_ROOM * scale
                else:
                    behind, behind_cap = begin_late()
                del kept
                # The next one, where the one before met a goal; none while a helper runs
                # (the walks are its own).
                if early is None and apart is None and not budget.memory_short(0, reserve=(budget.memory or 0) // 4):
                    early = begin_relaxed()
            elif behind is not None:
                run = behind.search.run(budget, min(LATE_SLICE * scale, behind_cap - behind.search.expanded))
                if run.outcome is Outcome.FOUND:
                    return won(behind, run), SolveStatus.SOLVED
                if budget.for_memory:
                    behind = None  # the proof gets its memory back, and goes on (it may spill)
                    budget.relieve()
                elif budget.memory_short(0, reserve=(budget.memory or 0) // 4):
                    behind = None  # its memory is wanted by the proof
                elif run.outcome is Outcome.EXHAUSTED or behind.search.expanded >= behind_cap:
                    # Spent (eager, or whole runs: no proof): the next one, if any.
                    del behind, run
                    behind, behind_cap = begin_late()
            elif waiting:
                strategy = waiting.pop(0)
                restart = begin(strategy)
                run = restart.search.run(budget, (strategy.cap or 0) * scale)
                if run.outcome is Outcome.FOUND:
                    return won(restart, run), SolveStatus.SOLVED
        return None, SolveStatus.LIMIT_REACHED
    finally:
        end_apart()
        if helped and counted is not None:
            counted.append(helped)


def _proof_fits(budget: Budget, expanded: int) -> bool:
    """Whether what is left of ``budget`` could hold a depth-first proof from the start
    of what a best-first search that has expanded ``expanded`` positions has walked: as
    many positions again, at about half the time each (see :data:`PROOF_TIME_SHARE`).
    Where it could not, the best-first search goes on instead of giving way: the proof
    would begin again from nothing and be cut off, where the search itself may still end."""
    positions = budget.positions_left()
    seconds = budget.seconds_left()
    return (positions is None or positions >= expanded) and (
        seconds is None or seconds >= PROOF_TIME_SHARE * budget.elapsed()
    )


def _proof_reserve(budget: Budget) -> int:
    """The memory that best first leaves for the depth-first proof it would give way
    to: half the memory limit, or less where fewer positions are left than that holds
    (at :data:`BYTES_PER_POSITION` each, an eighth of the limit at least). While the
    helper runs, the positions left here are a third of the limit's or fewer, and best
    first under take-back rules makes about 5.5 KB of positions for each it expands (app 1
    cell, with runs as one step): with half, it gave way for memory after 26,000 to
    32,000 positions, and the wins of 23449 and 9499, at 30,526 and 57,181, were left
    unknown. On the 81 deals of seeds 547, 557 and 569 (app 1 cell) whose solve peaked
    over 150 MB in play: unknown 24 -> 21 (23449, 9499 won, and 17331, near the limit
    either way), none newly unknown, median wall 0.89x over the 57 decided both ways."""
    memory = budget.memory or 0
    left = budget.positions_left()
    return memory // 2 if left is None else min(memory // 2, max(left * BYTES_PER_POSITION, memory // 8))


def _drop(search: _Search, budget: Budget) -> None:
    """Let ``search`` go: its keys, on disk and in memory, if any (a search still held
    elsewhere cannot go on after)."""
    if isinstance(search.search, DepthFirst):
        search.search.release(budget)


# The keys of every position seen by a proof that ended in a loss (each is lost too:
# the proof saw every position it leads to), for each ruleset, in the exhaustive
# problem's terms. A later solve in this process (the next position of the same game,
# in the in-play worker, or an earlier one, when the advisor looks back for the losing
# move) ends at once when its start, its safe cards sent home, is one of them. A key
# names the cards in play, which tell the foundations only when no card is missing from
# the table (a prepared position may leave some out): so the keys are kept apart by the
# cards missing too, and by their kind: a proof over a relaxed problem (twins: see
# board.py; 0 for none) keeps the keys of the classes it saw, every position of which
# is lost, and so does a walk that found dead ends (see DEAD_ENDS), however its solve
# ended. The next solves pass those positions by too (see _decide). At most LOST_KEPT
# keys are kept in all (about 150 bytes each), the older forgotten past it. A game whose
# positions stay unknown keeps 100,000 or more dead classes a solve: with 300,000, app 1
# cell, 30163 forgot them after its third and was still unknown six moves on (played
# along as at DEAD_ENDS); with 600,000 it was proven at the fourth (peak 225 MB against
# 187).
_LOST: Final[dict[tuple[Rules, bytes, int], set[bytes]]] = {}
LOST_KEPT: Final = 600_000


def _key_maker(rules: Rules, twins: int) -> FreeCellProblem:
    """A relaxed problem ``twins`` whose keys are the classes its walks see."""
    return FreeCellProblem(rules, complete=rules.takes_back, runs=False, twins=twins)


def _relaxed_key(position: Position, rules: Rules, twins: int) -> bytes:
    """The class of ``position``, its safe cards sent home, in the relaxed problem
    ``twins``."""
    relaxed = _key_maker(rules, twins)
    return relaxed.key(relaxed.initial(position)[0])


def _missing(position: Position, rules: Rules) -> bytes:
    """The cards neither in play nor home (none, in a whole deal)."""
    count = [rules.decks] * 52
    for card in [*(card for column in position.columns for card in column), *position.cells]:
        if card is not None:
            count[card] -= 1
    for pile, height in enumerate(position.foundations):
        for rank in range(height):
            count[rank * 4 + (pile & 3)] -= 1
    return bytes(card for card in range(52) for _ in range(count[card]))


def _remember_lost(lost: set[bytes], search: AnySearch) -> None:
    """Keep the keys of the positions an exhausted search over the exhaustive problem
    saw (all lost), forgetting the older ones rather than growing past LOST_KEPT."""
    _keep_lost(lost, search.seen if isinstance(search, DepthFirst) else search.came_from.keys())


def _keep_lost(lost: set[bytes], keys: Collection[bytes]) -> None:
    """Add ``keys`` (all lost) to ``lost``, one of :data:`_LOST`'s sets, forgetting
    the older ones rather than growing past LOST_KEPT."""
    if not keys or len(keys) > LOST_KEPT:
        return
    # Only the keys not kept yet count (a walk's dead ends are among the classes it saw).
    added = sum(1 for key in keys if key not in lost) if lost else len(keys)
    if sum(map(len, _LOST.values())) + added > LOST_KEPT:
        for kept in _LOST.values():
            kept.clear()
    lost.update(keys)


def _winning_steps(found: _Search, run: SearchRun[State, Steps], budget: Budget) -> list[Step]:
    """Every step of a search's win: those before it began, its path (cut short when
    long, see :data:`SHORTCUT_FROM`), and the cards sent home from the goal it stopped
    at."""
    path: Sequence[Steps] = run.path
    goal = run.goal
    start = found.search.start
    if found.origin is not None:
        start, before = found.origin
        path = [*before, *path]
    if len(path) > SHORTCUT_FROM:
        assert goal is not None
        problem = found.problem
        # Runs as one step only shorten more, where they leave the cards sent home as
        # they were (not in a game that keeps loose twins in play: see follow()).
        walker = problem if problem.twins else FreeCellProblem(
            problem.rules, complete=problem.complete, eager=problem.eager, runs=True
        )
        # A stretch at a time where the memory left holds the keys of part of it only.
        left = budget.memory_left()
        window = None if left is None else max(left // SHORTCUT_BYTES_PER_STEP, SHORTCUT_WINDOW_LEAST)
        depth = SHORTCUT_DEPTH if problem.pile_count == 4 else SHORTCUT_DEPTH_TWO_DECKS
        # The shortcut leans on tables with one key making children with one key
        # (tests/test_solver_board.py); were that ever broken, the win found still
        # stands, only longer, rather than be lost (Double FreeCell 12305 was, once).
        with suppress(SolverError):
            path, goal = shortcut(walker, start, path, depth=depth, window=window)
    return _steps(found.problem, found.first, path, goal)


def _steps(problem: FreeCellProblem, first: list[Step], path: Sequence[Steps], goal: State | None) -> list[Step]:
    """The steps before a search began, those of its path, and the cards sent home from
    the goal it stopped at."""
    assert goal is not None
    return first + [step for via in path for step in via] + problem.finish(goal)


def _check_table(position: Position, rules: Rules) -> None:
    if (len(position.columns), len(position.cells), len(position.foundations)) != (
        rules.columns,
        rules.cells,
        rules.foundation_count,
    ):
        raise ValueError(
            f"the position has {len(position.columns)} columns, {len(position.cells)} cells and "
            f"{len(position.foundations)} foundations, but {rules.name} with {rules.cells} cells has "
            f"{rules.columns}, {rules.cells} and {rules.foundation_count}"
        )


def count_non_foundation(moves: list[str] | tuple[str, ...]) -> int:
    """How many moves do not send a card home (``3h``, ``ah``)."""
    return sum(1 for move in moves if not (len(move) == 2 and move[1] == "h"))


def solve_deal(deal: Deal, *, limit: SearchLimit | None = None, short: bool = False) -> SolveResult:
    """:func:`solve` from the layout of ``deal`` under its own rules."""
    return solve(deal.position(), deal.rules, limit=limit, short=short)
