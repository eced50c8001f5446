"""The solver's plans as data: which searches run, for how long, and when one takes over.

A :class:`Plan` is one family of rules' whole schedule, read by the scheduler
(:mod:`~freecell.solver.schedule`): the *portfolio* of quick capped searches, the *last*
search that runs to its end (its end over an exhaustive problem is a proof) taking turns
slice by slice with the *restarts*, the *hand-over* to a depth-first proof with the
*late* searches that take turns with it, the *relaxed walks* and the *helper* process
that may run them. :func:`plan_for` chooses the plan from the rules (never from a
preset's name), and ``freecell solve --plan`` prints it (:func:`describe`).

A number beside an entry says in a word why it is so; ``docs/solver.md`` holds what was
measured for each, under the entry's name, with the ``bench/`` command that measures it.
Positions are counted per deck squared: a plan's figures are for one deck, and two
decks count four times as many.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from freecell.rules import Building, Rules, cells_text
from freecell.solver.beam import Beam
from freecell.solver.tables import Weights
from freecell.solver.twins import IN_BUILT_RUN, IN_CELL, ON_CARD, can_relax


@dataclass(frozen=True, slots=True)
class Strategy:
    """One best-first search: its name, the heuristic's weights, the weight of the path's
    cost in the priority (0: greedy; more: weighted A*, shorter wins), its cap on
    positions expanded (None: to its end), whether every card goes home as soon as it
    may (``eager``) and ordered runs stay whole (``whole_runs``; see
    :class:`~freecell.solver.board.FreeCellProblem`), the noise on its priorities with
    the seed it comes from, and ``also``: a second ranking (its cell weight and path
    weight) that takes turns with the first over the same positions (only with no
    cap; see :class:`~freecell.solver.search.Alternating`)."""

    name: str
    weights: Weights
    path_weight: int
    cap: int | None
    eager: bool = False
    noise: int = 0
    seed: int = 0
    whole_runs: bool = False
    also: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class HandOver:
    """When the last search gives way to a depth-first proof over the same problem, and
    what takes turns with that proof. It gives way past half the memory limit (see
    :func:`~freecell.solver.handover.proof_reserve`), or once it has expanded ``at``
    positions (None: never for its count), and only where the budget left holds a
    proof of as many positions at ``time_share`` of the time each. Then each of
    ``late`` takes turns with the proof, ``turn`` positions at a time against twice as
    many of the proof's, until its cap; under take-back rules the last search itself
    goes first among them, with room for ``kept_room`` positions more (None: dropped)."""

    at: int | None
    time_share: float
    late: tuple[Strategy, ...]
    turn: int
    kept_room: int | None


@dataclass(frozen=True, slots=True)
class Walks:
    """The relaxed walks of a tight game (see :mod:`~freecell.solver.walks`): one after
    another, each over the twins loose as its entry of ``relaxations`` names, the next
    begun where the one before met a goal once the proof has begun. The first takes
    turns with the last search from its ``begin_at``-th position on, ``turn`` positions
    after each of its slices; once the proof runs, ``share`` times the proof's turn (or
    the late search's). A goal met is followed in the game for ``follow`` positions;
    with ``dead_ends``, what a walk finds lost is passed by by the game's searches."""

    relaxations: tuple[int, ...]
    begin_at: int
    turn: int
    share: int
    follow: int
    dead_ends: bool


@dataclass(frozen=True, slots=True)
class HelperShare:
    """How a solve with ``helper=True`` lends its relaxed walks to a process on the
    other core (see :mod:`~freecell.solver.helping`): the share of the positions and of
    the memory left that it is given, how many classes it walks between reports of its
    dead ends, whether it begins the next walk after a goal (giving back
    ``after_goal``'s complement of its positions), and whether it ends with the game's
    own proof (``last_proof``)."""

    positions: float
    memory: float
    turn: int
    next_walk: bool
    after_goal: float
    last_proof: bool


@dataclass(frozen=True, slots=True)
class Plan:
    """A family of rules' whole schedule: the ``portfolio``, run in order, each to its
    cap; the ``final`` search, in slices of ``slice`` positions while ``restarts`` are
    left (one restart after each slice); its ``hand_over``; the relaxed ``walks``, if
    any; and the ``helper``'s share, where a solve may lend them."""

    family: str
    portfolio: tuple[Strategy, ...]
    final: Strategy
    slice: int
    restarts: tuple[Strategy, ...]
    hand_over: HandOver
    walks: Walks | None
    helper: HelperShare | None


# --- the heuristic's weights (in_play, disorder, off_run, depth, cell, empty_column, next) ---
MAIN_WEIGHTS: Final = Weights(in_play=16, disorder=5, off_run=14, depth=2, cell=28, empty_column=23, next=3)
FIRST_WEIGHTS: Final = replace(MAIN_WEIGHTS, off_run=18, next=5)  # alone it wins 84% of deals 1-1000
OPEN_RUNS: Final = replace(MAIN_WEIGHTS, off_run=40, empty_column=40)
FEW_CELLS: Final = replace(MAIN_WEIGHTS, cell=5)

# --- the portfolio: small caps on searches that differ beat a few large ones ---
PORTFOLIO: Final = (
    Strategy("first", FIRST_WEIGHTS, 8, 500, eager=True, whole_runs=True),  # median win: 58 positions
    Strategy("open runs", OPEN_RUNS, 8, 100, eager=True, whole_runs=True),
    Strategy("cells dear", replace(MAIN_WEIGHTS, cell=60), 8, 600, eager=True, whole_runs=True),
    Strategy("next card deep", replace(MAIN_WEIGHTS, next=6), 8, 300),  # not eager: keeps every card in play
    Strategy("cells cheap", FEW_CELLS, 8, 150, eager=True, whole_runs=True),
    Strategy("cells only", Weights(cell=40), 4, 1_500),
    Strategy("open runs, more room", OPEN_RUNS, 8, 600, eager=True, whole_runs=True),  # wins 21554
    Strategy("cells cheap, more room", FEW_CELLS, 8, 900, eager=True, whole_runs=True),  # wins 12795
)

# --- the last search: no cap; over every move, its end proves the loss ---
FINAL: Final = Strategy("final", MAIN_WEIGHTS, 12, None)
TWO_DECK_FINAL: Final = replace(FINAL, name="final, whole runs", whole_runs=True)  # breaking runs leads astray
TIGHT_FINAL: Final = Strategy("tight final", replace(MAIN_WEIGHTS, cell=40), 20, None)  # cells scarce: closer to A*
# Two rankings over one table of positions: each wins where the other wanders.
TWO_CELL_FINAL: Final = replace(TIGHT_FINAL, name="tight final, two rankings", also=(34, 12))

# --- the restarts, one after each of the last search's slices (four cells, two decks) ---
SLICE: Final = 2_000  # a loss proven in a few slices pays as many restarts only
RESTARTS: Final = (
    Strategy("noisy 0", MAIN_WEIGHTS, 4, 1_000, eager=True, noise=100, seed=0),  # wins the most
    Strategy("shortest column", replace(Weights(cell=40), shortest=25), 4, 3_000, eager=True),  # empties a column
    Strategy("noisy 1", FEW_CELLS, 8, 1_000, eager=True, noise=100, seed=1),
    Strategy("noisy 2", OPEN_RUNS, 8, 1_000, eager=True, noise=100, seed=2),
    Strategy("noisy 3", MAIN_WEIGHTS, 4, 1_000, eager=True, noise=100, seed=3),
    Strategy("noisy 4", FEW_CELLS, 8, 1_000, eager=True, noise=100, seed=4),
    Strategy("noisy 5", OPEN_RUNS, 8, 1_000, eager=True, noise=100, seed=5),
    Strategy("noisy 8", OPEN_RUNS, 8, 1_000, eager=True, noise=100, seed=8),  # seeds 6 and 7 won nothing more
    Strategy("shortest column, open runs", replace(OPEN_RUNS, shortest=25), 8, 2_000, eager=True),  # the rare rest
)

# --- the hand-over to the depth-first proof, and the late searches (tight games) ---
TIGHT_HANDOVER: Final = 200_000  # far more than a win has needed there
PROOF_TIME_SHARE: Final = 0.5  # depth first costs about half as much a position
LATE_ROOM: Final = 5_000  # each restart's room behind the proof (wins 23487, 209)
LATE_SLICE: Final = 20_000  # against twice as many of the proof's: it costs twice as much a position
LATE: Final = Strategy("late", Weights(cell=60), 4, 100_000, whole_runs=True)  # keeps in play what eager ones send home
LATE_EAGER: Final = Strategy("late eager", replace(MAIN_WEIGHTS, cell=40), 12, 140_000, eager=True, whole_runs=True)
LATE_PLAN: Final = (
    LATE,
    *(replace(restart, name=f"{restart.name}, late", cap=LATE_ROOM) for restart in RESTARTS),
    LATE_EAGER,  # wins 6407, 9691, 11864, 27738
)
KEPT_ROOM: Final = 400_000  # take-back rules: the late searches cannot take a card back

# --- the relaxed walks (tight games, one deck in alternate colours) ---
RELAXATIONS: Final = (
    IN_CELL | IN_BUILT_RUN,  # first: fewest classes on most lost deals
    ON_CARD | IN_CELL,  # after a goal of the first, once the proof runs
)
EARLY_FROM: Final = 10_000  # most deals decided at all are decided sooner
EARLY_SLICE: Final = 4_000  # a class costs about half a position
RELAXED_SHARE: Final = 2  # beside the proof: the walks prove most of the slowest losses
FOLLOW: Final = 20_000  # a goal's way is the game's up to its first twin step
DEAD_ENDS: Final = True  # the game's searches pass the walks' dead ends by

# --- the helper (in play: the walks on the other core) ---
HELPER_SHARE: Final = EARLY_SLICE / (EARLY_SLICE + SLICE)  # as its turns had
HELPER_MEMORY_SHARE: Final = 1 / 3  # the last search and its proof need the rest
HELPER_TURN: Final = 4_000  # classes between reports of dead ends
HELPER_AFTER_GOAL: Final = 0.5  # kept for the next walk; the rest given back

# --- short solutions (--short): beams, each bounded by the best length so far ---
SHORT_PLAN: Final = (
    Beam(replace(MAIN_WEIGHTS, next=6), width=100),
    Beam(Weights(cell=40), width=100),
)

# --- the families ---
ONE_DECK: Final = Plan(
    family="three cells or more, one deck",
    portfolio=PORTFOLIO,
    final=FINAL,
    slice=SLICE,
    restarts=RESTARTS,
    hand_over=HandOver(at=None, time_share=PROOF_TIME_SHARE, late=(), turn=LATE_SLICE, kept_room=None),
    walks=None,
    helper=None,
)
TWO_DECKS: Final = replace(ONE_DECK, family="two decks", final=TWO_DECK_FINAL)
TIGHT: Final = Plan(
    family="tight, one deck in alternate colours",
    portfolio=PORTFOLIO[:1],  # the last search wins the rest sooner
    final=TIGHT_FINAL,
    slice=SLICE,
    restarts=(),  # they won nothing there that the last search did not
    hand_over=HandOver(at=TIGHT_HANDOVER, time_share=PROOF_TIME_SHARE, late=LATE_PLAN, turn=LATE_SLICE, kept_room=None),
    walks=Walks(RELAXATIONS, EARLY_FROM, EARLY_SLICE, RELAXED_SHARE, FOLLOW, DEAD_ENDS),
    helper=HelperShare(HELPER_SHARE, HELPER_MEMORY_SHARE, HELPER_TURN, True, HELPER_AFTER_GOAL, last_proof=True),
)
TIGHT_WITHOUT_WALKS: Final = replace(TIGHT, family="tight, no relaxed walks", walks=None, helper=None)


def is_tight(rules: Rules) -> bool:
    """Whether ``rules`` make a tight game, where many deals are lost: one or two cells
    (or none), or same-suit building with four cells or fewer (Baker's Game)."""
    return rules.cells <= 2 or (rules.building is Building.SAME_SUIT and rules.cells <= 4)


def plan_for(rules: Rules) -> Plan:
    """The plan of the family ``rules`` belong to. In a tight game, with two cells the
    last search takes two rankings (:data:`TWO_CELL_FINAL`); under take-back rules it
    goes on behind the proof (:data:`KEPT_ROOM`), and with two cells the whole
    portfolio runs first (the last search is dearer a position there)."""
    if not is_tight(rules):
        return ONE_DECK if rules.decks == 1 else TWO_DECKS
    plan = TIGHT if can_relax(rules) else TIGHT_WITHOUT_WALKS
    if rules.takes_back:
        plan = replace(
            plan,
            family=f"{plan.family}, take-backs",
            portfolio=PORTFOLIO if rules.cells >= 2 else plan.portfolio,
            hand_over=replace(plan.hand_over, kept_room=KEPT_ROOM),
        )
    if rules.cells == 2:
        plan = replace(plan, family=f"{plan.family}, two cells", final=TWO_CELL_FINAL)
    return plan


def describe(plan: Plan, rules: Rules) -> list[str]:
    """``plan`` as lines of text for ``rules``: each part of the schedule in the order
    it takes over, when it does, and a table of its searches, one a line (kind, problem,
    weights, path weight and cap)."""
    import textwrap  # only a printed plan needs it: not imported by every solve

    scale = rules.decks**2
    counted = f"; positions counted x{scale} for {rules.decks} decks" if scale != 1 else ""
    lines = [
        f"Plan for {rules.name}, {cells_text(rules.cells)}: {plan.family}{counted}",
        "Weights: in play/disorder/off run/depth/cell/empty column/next[/shortest].",
    ]
    parts = _parts(plan)
    rows = [_HEADER, *(row for _, part in parts for row in part)]
    widths = [max(len(row[column]) for row in rows) for column in range(len(_HEADER))]
    for title, part in parts:
        lines += ["", *textwrap.wrap(title, _WIDTH)]
        for row in (_HEADER, *part) if part else ():
            cells = [
                cell.rjust(width) if column >= 4 else cell.ljust(width)
                for column, (cell, width) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append("  " + "  ".join(cells).rstrip())
    return lines


Row = tuple[str, str, str, str, str, str]
_HEADER: Final[Row] = ("search", "kind", "problem", "weights", "path", "cap")
_WIDTH: Final = 100  # where the titles wrap


def _parts(plan: Plan) -> list[tuple[str, list[Row]]]:
    """Each part of ``plan``: what it is and when it runs, and its searches."""
    parts = [
        ("Portfolio: each in turn to its cap; the first to win ends the solve.", [_row(s) for s in plan.portfolio]),
        _last(plan),
    ]
    if plan.walks is not None:
        parts.append(_walks(plan, plan.walks))
    parts.append(_hand_over(plan, plan.hand_over))
    if plan.helper is not None:
        share = plan.helper
        proof = ", then the game's own proof" if share.last_proof else ""
        parts.append(
            (
                f"In play (helper=True): the walks go to a helper process instead, with {share.positions:.0%} of the "
                f"positions and {share.memory:.0%} of the memory left{proof}.",
                [],
            )
        )
    beams = [
        (f"short {number}", f"beam of {beam.width}", "eager", "/".join(map(str, _figures(beam.weights))), "-", "-")
        for number, beam in enumerate(SHORT_PLAN, 1)
    ]
    parts.append(("With --short, after a win: each beam in turn, bounded by the best length so far.", beams))
    return parts


def _last(plan: Plan) -> tuple[str, list[Row]]:
    ends = "its end proves the loss" if not plan.final.whole_runs else "at its end it begins again over every move"
    if not plan.restarts:
        return f"Last search: to its end ({ends}).", [_row(plan.final)]
    title = (
        f"Last search: in slices of {plan.slice:,}, a restart after each while any is left, then to its end "
        f"({ends}). Restarts: each to its cap."
    )
    return title, [_row(plan.final), *(_row(s) for s in plan.restarts)]


def _walks(plan: Plan, walks: Walks) -> tuple[str, list[Row]]:
    title = (
        f"Relaxed walks: the first from the last search's {walks.begin_at:,}th position, {walks.turn:,} positions "
        f"after each of its slices (x{walks.share} the proof's turn once it runs), the next after a goal once the "
        "proof runs; one that runs out proves the loss; a goal is followed in the game"
        + ("; their dead ends are passed by." if walks.dead_ends else ".")
    )
    names = {ON_CARD: "on a card", IN_CELL: "in a cell", IN_BUILT_RUN: "in a built run"}
    rows: list[Row] = []
    for twins in walks.relaxations:
        loose = " or ".join(name for flag, name in names.items() if twins & flag)
        rows.append((f"twins loose {loose}", "depth first", "classes", "-", "-", "-"))
    rows.append(("follow a goal", "depth first", "game", "-", "-", f"{walks.follow:,}"))
    return title, rows


def _hand_over(plan: Plan, hand_over: HandOver) -> tuple[str, list[Row]]:
    when = "past half the memory limit" + ("" if hand_over.at is None else f" or {hand_over.at:,} positions")
    title = f"Proof: depth first over every move, in the last search's place {when}, where the budget left holds it"
    if not hand_over.late and hand_over.kept_room is None:
        return title + ".", []
    title += f"; then in turns of {hand_over.turn:,} against {2 * hand_over.turn:,} of the proof's, each to its cap:"
    rows: list[Row] = []
    if hand_over.kept_room is not None:
        rows.append((f"{plan.final.name}, kept", "best first", "as before", "", "", f"+{hand_over.kept_room:,}"))
    return title, rows + [_row(s) for s in hand_over.late]


def _row(strategy: Strategy) -> Row:
    problem = [word for word, on in (("eager", strategy.eager), ("whole runs", strategy.whole_runs)) if on]
    if strategy.noise:
        problem.append(f"noise {strategy.noise}, seed {strategy.seed}")
    kind, path = "best first", str(strategy.path_weight)
    weights = [str(figure) for figure in _figures(strategy.weights)]
    if strategy.also is not None:
        kind, path = "two rankings", f"{path}|{strategy.also[1]}"
        weights[4] = f"{weights[4]}|{strategy.also[0]}"
    cap = "-" if strategy.cap is None else f"{strategy.cap:,}"
    return strategy.name, kind, ", ".join(problem) or "-", "/".join(weights), path, cap


def _figures(weights: Weights) -> list[int]:
    figures = [weights.in_play, weights.disorder, weights.off_run, weights.depth, weights.cell]
    figures += [weights.empty_column, weights.next]
    return figures + ([weights.shortest] if weights.shortest else [])
