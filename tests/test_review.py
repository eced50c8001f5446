"""The review of a game: each step's verdict, the move that lost it, the steps that went
back, and few positions judged, on games played here with the real solver."""

from __future__ import annotations

from freecell.advisor import Advisor
from freecell.deals import Deal
from freecell.game import Game
from freecell.position import Position
from freecell.replay import replay
from freecell.review import Known, Review, Verdict, played_steps, review
from freecell.rules import Rules, find_rules
from freecell.solver import SearchLimit, SolveStatus

STANDARD = find_rules("standard")
# The in-play limit's positions, without its clock: a loaded machine does not turn a
# verdict into "unknown".
LIMIT = SearchLimit(positions=300_000)


def reviewed(game: Game, log: list[tuple[str, str | None]]) -> tuple[Review, list[Position]]:
    """The complete review of ``log`` played on ``game``, judging each position the review
    asks for with the solver (in-play limit), and the positions it asked for."""
    rules, start = game.rules, game.position
    steps = played_steps(game, log)
    advisor = Advisor(limit=LIMIT)
    judged: list[Position] = []

    def known(position: Position) -> Known:
        analysis = advisor.known(position, rules)
        return None if analysis is None else (analysis.verdict, analysis.line)

    while True:
        found = review(start, steps, rules, known)
        if found.complete:
            return found, judged
        assert found.next_to_judge is not None
        assert found.next_to_judge not in judged, "a position was asked for twice"
        judged.append(found.next_to_judge)
        advisor.analyse(found.next_to_judge, rules)


def moves(*texts: str) -> list[tuple[str, str | None]]:
    return [("move", text) for text in texts]


def deal_617() -> Game:
    return Game.new(Deal(STANDARD, 617))


def test_617_played_into_a_lost_position_marks_the_move_that_lost_it() -> None:
    """Under standard rules, 1a 1b 1c from deal 617 leaves a lost position: the review
    says which of the three moves lost it, from the solver's verdicts."""
    review_, judged = reviewed(deal_617(), moves("1a", "1b", "1c"))
    verdicts = [step.verdict for step in review_.steps]
    assert verdicts[-1] is Verdict.LOST
    assert review_.start_verdict is Verdict.WINNABLE
    lost_at = review_.lost_at
    assert lost_at is not None
    assert [step.loses for step in review_.steps] == [step.number == lost_at for step in review_.steps]
    assert all(v is Verdict.WINNABLE for v in verdicts[: lost_at - 1])
    assert all(v is Verdict.LOST for v in verdicts[lost_at - 1 :])
    # The solver agrees position by position.
    advisor = Advisor(limit=LIMIT)
    for step in review_.steps:
        expected = advisor.analyse(step.step.after, STANDARD).verdict
        assert expected is {Verdict.WINNABLE: SolveStatus.SOLVED, Verdict.LOST: SolveStatus.UNSOLVABLE}[step.verdict]
    assert len(judged) <= 3  # the start, then a bisection of three positions
    assert replay(deal_617().position, STANDARD, review_.solution).is_won()
    assert review_.moves_played == 3


def test_an_undo_in_between_is_a_step_back_and_lost_stays_judged_by_moves_alone() -> None:
    """1a 1b, undo, 1b 1c: the undo returns to where step 1 left the game; nothing is
    inferred across it, and the final position is still lost."""
    review_, _ = reviewed(deal_617(), [*moves("1a", "1b"), ("undo", None), *moves("1b", "1c")])
    kinds = [step.step.kind for step in review_.steps]
    assert kinds == ["move", "move", "undo", "move", "move"]
    undo = review_.steps[2]
    assert undo.returns_to == 1
    assert undo.step.notation == ("1b",)
    assert review_.steps[3].returns_to == 2  # the same move again reaches where step 2 left it
    assert review_.steps[-1].verdict is Verdict.LOST
    assert review_.lost_at is not None and review_.lost_at >= 4  # the last loss, on the line that ended lost
    assert review_.moves_played == 3


def test_a_move_that_undoes_an_earlier_one_is_marked_as_returning() -> None:
    """J♣ onto Q♥, to a free cell, and back onto Q♥: the third move undid the second."""
    review_, _ = reviewed(deal_617(), moves("58", "8a", "a8"))
    assert [step.returns_to for step in review_.steps] == [None, None, 1]
    assert [step.verdict for step in review_.steps] == [Verdict.WINNABLE] * 3


def test_a_won_game_is_winnable_throughout_and_only_the_start_is_judged() -> None:
    """The solver's own solution played as a game: the last position is won, so every one
    before it was winnable; only the start is judged (for its solution's length)."""
    game = deal_617()
    solution = Advisor(limit=LIMIT).analyse(game.position, STANDARD).line
    review_, judged = reviewed(game, moves(*solution))
    assert review_.steps[-1].step.after.is_won()
    assert all(step.verdict is Verdict.WINNABLE for step in review_.steps)
    assert not any(step.loses for step in review_.steps)
    assert review_.lost_at is None
    assert judged == [deal_617().position]
    assert review_.moves_played == len(solution) == len(review_.solution)


def test_an_abandoned_game_is_reviewed_as_far_as_it_went() -> None:
    """A few moves off the solver's line, one undone by a move, and then nothing: all
    winnable, settled by a bisection of the five positions after the start (three
    judgements at most) besides the start's."""
    review_, judged = reviewed(deal_617(), moves("58", "8a", "a8", "5a", "2b"))
    assert [step.verdict for step in review_.steps] == [Verdict.WINNABLE] * 5
    assert judged[0] == deal_617().position
    assert len(judged) <= 4


def test_an_unknown_position_is_shown_unknown_unless_a_neighbour_settles_it() -> None:
    steps = played_steps(deal_617(), moves("1a", "1b", "1c"))
    start = steps[0].before
    unknown: Known = (SolveStatus.LIMIT_REACHED, ())

    found = review(start, steps, STANDARD, lambda position: unknown)
    assert [step.verdict for step in found.steps] == [Verdict.UNKNOWN] * 3
    assert found.complete

    def lost_in_the_middle(position: Position) -> Known:
        return (SolveStatus.UNSOLVABLE, ()) if position == steps[1].after else unknown

    found = review(start, steps, STANDARD, lost_in_the_middle)
    assert [step.verdict for step in found.steps] == [Verdict.UNKNOWN, Verdict.LOST, Verdict.LOST]
    assert not any(step.loses for step in found.steps)  # not known to have been winnable before


def test_a_line_that_does_not_replay_to_a_win_is_not_trusted() -> None:
    steps = played_steps(deal_617(), moves("1a"))
    start = steps[0].before
    found = review(start, steps, STANDARD, lambda position: (SolveStatus.SOLVED, ("1a", "ah")))
    assert found.start_verdict is Verdict.PENDING
    assert found.next_to_judge == start


def test_single_card_rules_make_one_step_of_a_run_moved_as_one() -> None:
    """Under strict rules the two-card run of deal 12's column 1 moved onto column 5 is
    played one card at a time: one step of the review, which ends where the game does."""
    rules: Rules = find_rules("strict")
    game = Game.new(Deal(rules, 12))
    assert game.position.parse_move("15", rules).count == 2
    steps = played_steps(game, moves("15"))
    assert len(steps) == 1
    assert len(steps[0].notation) >= 2
    assert steps[0].after == game.position
    assert steps[0].moves_from_start == len(game.line)
