"""The lessons: each is played to its goal, and each kind of mistake is explained."""

from __future__ import annotations

from pathlib import Path

import pytest

from freecell.lessons import LESSONS, LessonMistakeError, UnknownLessonError, find_lesson


def test_there_are_the_four_lessons_of_002() -> None:
    assert [lesson.id for lesson in LESSONS][:4] == ["tableau", "free-cells", "foundations", "runs"]
    for lesson in LESSONS:
        assert lesson.title and lesson.summary and lesson.done and len(lesson.steps) >= 2


@pytest.mark.parametrize("lesson_id", [lesson.id for lesson in LESSONS])
def test_every_lesson_plays_through_its_steps_to_its_goal(lesson_id: str) -> None:
    the_lesson = find_lesson(lesson_id)
    position = the_lesson.start()
    for number, step in enumerate(the_lesson.steps):
        assert the_lesson.text(number) == step.text
        move = the_lesson.check(position, position.notation(step.move(position)), number)
        position = position.apply(move, the_lesson.rules)
    assert the_lesson.step(len(the_lesson.steps)) is None
    assert the_lesson.text(len(the_lesson.steps)) == the_lesson.done


def test_an_illegal_move_is_refused_with_the_rules_reason() -> None:
    lesson = find_lesson("tableau")
    with pytest.raises(LessonMistakeError, match="J♣ cannot go on 4♣: a card goes on one rank higher in the other"):
        lesson.check(lesson.start(), "32", 0)
    with pytest.raises(LessonMistakeError, match="not a move"):
        lesson.check(lesson.start(), "xyz", 0)


def test_a_legal_move_that_the_step_does_not_ask_is_explained() -> None:
    lesson = find_lesson("tableau")
    # the TD on the JC is legal, but the step asks for the JC on the QH first
    with pytest.raises(LessonMistakeError, match=r"legal, but not what this step asks\. This step builds column 1"):
        lesson.check(lesson.start(), "53", 0)


def test_any_free_cell_or_empty_column_will_do_where_the_step_says_so() -> None:
    lesson = find_lesson("free-cells")
    position = lesson.start()
    assert lesson.check(position, "1c", 0).target.index == 2
    tableau = find_lesson("tableau")
    position = tableau.start()
    for number, text in enumerate(["31", "51"]):
        position = position.apply(tableau.check(position, text, number), tableau.rules)
    assert tableau.check(position, "27", 2).target.index == 6  # column 7 is empty too


def test_the_runs_lesson_refuses_a_run_over_capacity_with_the_capacity() -> None:
    lesson = find_lesson("runs")
    with pytest.raises(LessonMistakeError, match=r"4 cards cannot move to another column: the capacity is 3"):
        lesson.check(lesson.start(), "12", 0)
    position = lesson.start()
    for number, text in enumerate(["3h", "12", "a1"]):
        position = position.apply(lesson.check(position, text, number), lesson.rules)
    with pytest.raises(LessonMistakeError, match=r"5 cards cannot move to an empty column: the capacity is 4"):
        lesson.check(position, "23v5", 3)
    assert lesson.check(position, "23v4", 3).count == 4


def test_a_done_lesson_takes_no_more_moves() -> None:
    lesson = find_lesson("foundations")
    with pytest.raises(LessonMistakeError, match="is done"):
        lesson.check(lesson.start(), "1h", len(lesson.steps))


def test_an_unknown_lesson_names_the_choices() -> None:
    with pytest.raises(UnknownLessonError, match="tableau, free-cells, foundations, runs"):
        find_lesson("juggling")


def test_the_lesson_command_lists_and_shows_the_steps() -> None:
    from click.testing import CliRunner

    from freecell.cli import main

    runner = CliRunner()
    listing = runner.invoke(main, ["lesson"])
    assert listing.exit_code == 0 and [line.split()[0] for line in listing.output.splitlines()] == [
        lesson.id for lesson in LESSONS
    ]
    shown = runner.invoke(main, ["lesson", "runs"])
    assert shown.exit_code == 0 and "[3h]" in shown.output and "[23v4]" in shown.output
    unknown = runner.invoke(main, ["lesson", "juggling"])
    assert unknown.exit_code == 2 and "no lesson is called 'juggling'" in unknown.output


def test_the_readme_counts_the_lessons_there_are() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    words = {4: "four", 5: "five", 6: "six", 7: "seven"}
    assert f"{words[len(LESSONS)]} guided lessons" in readme
