"""Game sessions: play, undo and redo within the limit, restart, score, destinations, and
the outcome, for every preset where it differs."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

import pytest

from freecell.cards import parse_card
from freecell.deals import Deal
from freecell.game import Game, NothingToUndoError, Outcome, is_lost, is_safe_home
from freecell.notation import InvalidMoveError
from freecell.position import IllegalMoveError, Place, Position
from freecell.replay import ReplayError, replay
from freecell.rules import AutoMoves, Rules, find_rules

STANDARD = find_rules("standard")


def _game(text: str, rules: Rules) -> Game:
    return Game(rules, Position.from_text(text, rules, partial=True))


# --- playing, undo, redo, restart -----------------------------------------------------


def test_play_undo_redo_and_restart() -> None:
    game = Game.new(Deal(STANDARD, 617))
    start = game.position
    actions = game.play("7a")
    assert [a.notation for a in actions] == [("7a",)]
    game.play("7b")
    assert game.moves_made == 2 and game.can_undo and not game.can_redo
    game.undo()
    assert game.position == start.apply(start.parse_move("7a", STANDARD), STANDARD)
    assert game.can_redo
    game.redo()
    assert game.moves_made == 2 and game.position.cells[:2] == (parse_card("JH"), parse_card("2C"))
    game.undo()
    game.play("7c")  # a new move drops what could have been redone
    assert not game.can_redo
    with pytest.raises(NothingToUndoError, match="nothing to redo"):
        game.redo()
    game.restart()
    assert (game.position, game.moves_made, game.score, game.can_undo, game.can_redo) == (start, 0, 0, False, False)
    with pytest.raises(NothingToUndoError, match="nothing to undo"):
        game.undo()
    assert game.code == "FC1-ST4-N00000K9Z"


def test_an_illegal_or_malformed_move_changes_nothing() -> None:
    game = Game.new(Deal(STANDARD, 617))
    game.play("7a")
    before = (game.position, game.moves_made, game.score, len(game.history))
    with pytest.raises(IllegalMoveError, match="cell a already holds J♥"):
        game.play("1a")
    with pytest.raises(InvalidMoveError, match="not a move: 'zz'"):
        game.play("zz")
    with pytest.raises(IllegalMoveError, match="cannot go on"):
        game.play("12")
    assert (game.position, game.moves_made, game.score, len(game.history)) == before
    assert game.can_undo


def test_standard_undo_has_no_limit() -> None:
    game = _game(": 5H\n", STANDARD)
    for _ in range(150):
        game.play("1a")
        game.play("a1")
    for _ in range(300):
        game.undo()
    assert game.position == game.start


def test_the_app_undoes_the_last_100_actions() -> None:
    rules = find_rules("app")
    game = _game(": 5H\n", rules)
    for i in range(101):
        game.play("1a" if i % 2 == 0 else "a1")
    for _ in range(100):
        game.undo()
    assert game.position != game.start  # the first action is beyond the limit
    assert game.position.cells[0] == parse_card("5H")
    with pytest.raises(NothingToUndoError):
        game.undo()


def test_strict_plays_a_run_as_single_card_actions_each_undone_on_its_own() -> None:
    rules = find_rules("strict")
    game = _game("Freecells: KC - - -\n: 9H 8S 7H 6S\n: TS\n: 2D\n: 2C\n: 3D\n: 3C\n: 4D\n: 4C\n", rules)
    actions = game.play("12")
    assert [a.notation for a in actions] == [("1b",), ("1c",), ("1d",), ("12",), ("d2",), ("c2",), ("b2",)]
    assert game.moves_made == 7
    game.undo()
    assert game.position.cells == (parse_card("KC"), parse_card("6S"), None, None)
    for _ in range(6):
        game.undo()
    assert game.position == game.start
    crowded = _game("Freecells: KC KD - -\n: 9H 8S 7H 6S\n: TS\n: 2D\n: 2C\n: 3D\n: 3C\n: 4D\n: 4C\n", rules)
    with pytest.raises(IllegalMoveError, match="the capacity is 3"):
        crowded.play("12")
    assert crowded.position == crowded.start and not crowded.can_undo


# --- scoring --------------------------------------------------------------------------


def test_app_scoring_home_plus_10_cell_to_tableau_plus_5_others_nothing() -> None:
    rules = find_rules("app")
    game = _game("Foundations: H-1\nFreecells: 4C\n: 6S 2H\n: 5H\n: 7D\n", rules)
    scores = []
    for move in ("1h", "a2", "2a", "a2", "13", "31", "hh4"):
        game.play(move)
        scores.append(game.score)
    # 2H home +10; 4C cell→tableau +5; tableau→cell 0; +5 again; 6S on 7D 0; back 0; take-back 0
    assert scores == [10, 15, 15, 20, 20, 20, 20]
    for expected in reversed([0, *scores[:-1]]):
        game.undo()
        assert game.score == expected


def test_app_a_card_earns_its_10_points_only_the_first_time_it_goes_home() -> None:
    rules = find_rules("app")
    game = _game("Foundations: H-1\n: 6S 2H\n: 3S\n", rules)
    game.play("1h")
    assert game.score == 10
    game.play("hh2")  # 2H back onto 3S: no points either way
    assert game.score == 10
    game.play("2h")
    assert game.score == 10  # the loophole of 001 is closed
    game.undo()
    game.undo()
    assert game.score == 10
    game.undo()
    assert game.score == 0
    game.play("1h")
    assert game.score == 10  # undone, so its first time home again


def test_app_cards_home_at_the_start_of_an_imported_game_have_had_their_points() -> None:
    rules = find_rules("app")
    game = _game("Foundations: H-2\n: 3S\n", rules)
    game.play("hh1")
    game.play("1h")
    assert game.score == 0


def test_cardems_scoring_is_clamped_at_zero_at_each_step_and_undo_restores_it_exactly() -> None:
    rules = find_rules("cardems")
    game = _game("Foundations: H-5\n: 6S\n", rules)
    scores = []
    for move in ("hh1", "1h", "hh1", "1a", "ah", "hha"):
        game.play(move)
        scores.append(game.score)
    # -15 from 0 stays 0; +10; 10 - 15 clamps to 0; cell 0; +10 from the cell; -15 clamps
    assert scores == [0, 10, 0, 0, 10, 0]
    for expected in reversed([0, *scores[:-1]]):
        game.undo()
        assert game.score == expected
    game.redo()
    game.redo()
    assert game.score == 10


def test_presets_without_scoring_keep_zero() -> None:
    game = _game("Foundations: H-1\nFreecells: 4C\n: 6S 2H\n: 5H\n", STANDARD)
    game.play("1h")
    game.play("a2")
    assert game.score == 0


# --- outcome --------------------------------------------------------------------------

# Every cell full, every column ends in a red card, no ace exposed: nothing can move.
STUCK = "Foundations: {home}\nFreecells: KC KD KH {cell}\n: 5H\n: 6D\n: 7H\n: 8D\n: 9H\n: TD\n: JH\n: QD\n"


def test_won_when_every_card_is_home() -> None:
    game = _game("Foundations: H-K C-K D-K S-Q\n: KS\n", STANDARD)
    assert game.outcome() is Outcome.PLAYING
    game.play("1h")
    assert game.outcome() is Outcome.WON


def test_lost_when_no_legal_move_is_left() -> None:
    game = _game(STUCK.format(home="C-4", cell="KS"), STANDARD)
    assert game.legal_moves() == []
    assert game.outcome() is Outcome.LOST
    assert _game(STUCK.format(home="C-4", cell="-"), STANDARD).outcome() is Outcome.PLAYING


@pytest.mark.parametrize("name", ["app", "cardems"])
def test_under_take_backs_lost_means_no_useful_move(name: str) -> None:
    rules = find_rules(name)
    # 4C may come back onto 5H (the only red five exposed), but then only 4C itself can move
    game = _game(STUCK.format(home="C-4", cell="KS"), rules)
    assert {game.position.notation(m) for m in game.legal_moves()} == {"hc1"}
    assert game.outcome() is Outcome.LOST
    # with 3H in a cell, 4C taken back makes room for it: a useful move is left
    assert _game(STUCK.format(home="C-4", cell="3H"), rules).outcome() is Outcome.PLAYING
    # nothing home and nothing to move: lost, as under the one-way rules
    assert _game(STUCK.format(home="C-0", cell="KS"), rules).outcome() is Outcome.LOST


def test_a_chain_of_take_backs_counts_when_it_frees_a_card() -> None:
    rules = find_rules("app")
    # 4C back onto 5H, then 3D back onto 4C, then the cell's 2S onto 3D
    text = STUCK.format(home="C-4 D-3", cell="2S")
    assert _game(text, rules).outcome() is Outcome.PLAYING
    assert _game(text.replace("2S", "KS"), rules).outcome() is Outcome.LOST
    assert is_lost(_game(text.replace("2S", "KS"), rules).position, rules)


# --- destinations and automatic moves --------------------------------------------------


def test_destinations_of_a_chosen_card() -> None:
    game = _game("Freecells: AH - - -\n: 9C 5H\n: 6S\n: 6D\n: 7C\n: KS\n: KD\n: KC\n: QS\n", STANDARD)
    assert game.destinations(Place.cell(0)) == [Place.foundation(2)]  # never another cell
    assert game.destinations(Place.column(0)) == [Place.cell(1), Place.cell(2), Place.cell(3), Place.column(1)]
    assert game.destinations(Place.column(0), 2) == []


def test_automatic_moves_are_a_rule_parameter() -> None:
    every = dataclasses.replace(STANDARD, auto_moves=AutoMoves.ALL)
    game = _game("Foundations: C-1 S-1\n: AH 4D\n: 2H\n: 9S\n", every)
    actions = game.play("1a")
    assert actions[0].notation == ("1a", "1h", "2h")
    assert game.position.foundations == (1, 0, 2, 1)
    game.undo()
    assert game.position == game.start

    safe = dataclasses.replace(STANDARD, auto_moves=AutoMoves.SAFE)
    game = _game("Foundations: C-1\n: AH 4D\n: 2H\n: 9S\n", safe)
    assert game.play("1a")[0].notation == ("1a", "1h")  # 2H waits: the ace of spades is not home
    position = game.position
    assert not is_safe_home(position, parse_card("2H"), safe)
    assert is_safe_home(position, parse_card("AD"), safe)  # an ace is always safe
    assert not is_safe_home(position, parse_card("2C"), safe)  # AD, which could go on it, is not home
    assert not is_safe_home(position, parse_card("3H"), safe)  # cannot go home at all


def test_with_two_decks_a_card_is_safe_home_only_once_the_other_copy_has_a_pile_too() -> None:
    """Double FreeCell, hearts piles at 4 and 2: the 5H over the 3H must take the pile at
    4, so the other 5H is not safe to send there; once both piles hold the 4H it is."""
    rules = find_rules("double")
    hearts = [(rank - 1) * 4 + 2 for rank in range(14)]
    foundations = [13] * 8
    foundations[2], foundations[6] = 4, 2
    columns = ((hearts[4], hearts[5]), (hearts[3], hearts[5])) + ((),) * 8
    position = Position(columns, (None,) * 6, tuple(foundations))
    assert not is_safe_home(position, hearts[5], rules)
    foundations[6] = 4
    assert is_safe_home(Position(columns, (None,) * 6, tuple(foundations)), hearts[5], rules)


def test_a_player_may_send_safe_cards_home_where_the_rules_move_nothing() -> None:
    board = "Foundations: C-1\n: AH 4D\n: 2H\n: 9S\n"
    game = _game(board, STANDARD)
    assert game.play("1a")[0].notation == ("1a",)  # the preset sends nothing home by itself
    game = _game(board, STANDARD)
    game.auto_home = True
    assert game.play("1a")[0].notation == ("1a", "1h")  # 2H waits for the ace of spades
    game = _game("Foundations: C-1 S-1\n: AH 4D\n: 2H\n: 9S\n", STANDARD)
    game.auto_home = True
    assert game.play("1a")[0].notation == ("1a", "1h", "2h")  # both black aces home: 2H is safe
    assert game.line == ["1a", "1h", "2h"]
    game.auto_home = False
    game.undo()
    assert game.line == [] and game.position == game.start
    assert game.redo().notation == ("1a",)  # played again as things are now: nothing goes home


def test_the_line_holds_every_move_from_the_start_beyond_the_undo_limit() -> None:
    rules = find_rules("app")  # an undo limit of 100 actions
    game = _game(": 9S\n: 8H\n: KD\n", rules)
    moves = ["2a", "a2", "21", "12"] * 30
    for text in moves:
        game.play(text)
    assert game.line == moves and len(game.history) == 100
    game.restart()
    assert game.line == []


def test_undo_at_the_limit_says_the_limit_is_reached() -> None:
    rules = find_rules("app")  # an undo limit of 100 actions
    game = _game(": 9S\n: 8H\n: KD\n", rules)
    with pytest.raises(NothingToUndoError, match=r"^there is nothing to undo$"):
        game.undo()
    for text in ["2a", "a2"] * 51:
        game.play(text)
    for _ in range(100):
        game.undo()
    assert game.moves_made == 2
    with pytest.raises(NothingToUndoError, match=(
        r"^the undo limit is reached: FreeCell with take-backs \(phone app\) takes back only the last 100 actions$"
    )):
        game.undo()


# --- replay ----------------------------------------------------------------------------


def test_replay_names_the_first_illegal_move_with_its_number() -> None:
    start = Deal(STANDARD, 617).position()
    with pytest.raises(ReplayError) as error:
        replay(start, STANDARD, ["7a", "7b", "7a"])
    assert (error.value.number, error.value.text) == (3, "7a")
    assert str(error.value) == "move 3 ('7a') is illegal: cell a already holds J♥"
    with pytest.raises(ReplayError, match="move 1 \\('x9'\\) is illegal: not a move"):
        replay(start, STANDARD, ["x9"])
    assert replay(start, STANDARD, ["7a"]).cells[0] == parse_card("JH")


def _generated(texts: list[str]) -> Iterable[str]:
    yield from texts


@pytest.mark.parametrize("kind", [list, tuple, _generated])
def test_replay_numbers_the_illegal_move_however_the_line_is_given(kind: Callable[[list[str]], Iterable[str]]) -> None:
    start = Deal(STANDARD, 617).position()
    with pytest.raises(ReplayError) as error:
        replay(start, STANDARD, kind(["7a", "7b", "6c", "7a", "6d"]))
    assert (error.value.number, error.value.text) == (4, "7a")
