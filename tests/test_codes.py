"""Game codes: every preset and cell count round-trips, and a bad code says what is wrong."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell.codes import ALPHABET, InvalidGameCodeError, _check_char, decode_game_code, encode_game_code
from freecell.deals import MAX_DEAL, MAX_SEED, Deal, DealKind
from freecell.rules import PRESETS, Rules

EVERY_VARIANT = [rules.with_cells(cells) for rules in PRESETS.values() for cells in rules.cell_options]


@pytest.mark.parametrize("rules", EVERY_VARIANT, ids=lambda r: f"{r.name}-{r.cells}")
@pytest.mark.parametrize("number", [1, 617, 11982, 2**31, 2**32 + 5, MAX_DEAL])
def test_every_preset_and_cell_count_round_trips(rules: Rules, number: int) -> None:
    deal = Deal(rules, number)
    code = deal.code()
    assert code.startswith(f"FC1-{rules.code}{rules.cells}-N")
    assert Deal.from_code(code) == deal
    assert decode_game_code(code).position() == deal.position()


def test_the_tags_are_distinct() -> None:
    assert len({rules.code for rules in PRESETS.values()}) == len(PRESETS)


@settings(deadline=None)  # speed is never asserted
@given(st.sampled_from(EVERY_VARIANT), st.integers(0, MAX_SEED))
def test_random_deals_round_trip(rules: Rules, seed: int) -> None:
    deal = Deal(rules, seed, DealKind.SEED)
    code = encode_game_code(deal)
    assert code[8] == "R"
    assert decode_game_code(code) == deal


def test_deal_617_and_a_known_code() -> None:
    from freecell.rules import find_rules

    assert Deal(find_rules("standard"), 617).code() == "FC1-ST4-N00000K9Z"
    assert Deal(find_rules("app", cells=2), 1).code() == "FC1-AP2-N0000001E"


def test_reading_forgives_case_spaces_and_look_alike_letters() -> None:
    assert decode_game_code(" fc1-st4-n0ooooK9z ").number == 617
    assert decode_game_code("FC1-ST4-NOOOOOOIV").number == 1
    assert decode_game_code("FC1-ST4-N000000L V").number == 1


@settings(deadline=None)
@given(st.integers(1, MAX_DEAL), st.data())
def test_any_single_mistyped_character_is_refused(number: int, data: st.DataObject) -> None:
    code = Deal(PRESETS["standard"], number).code()
    place = data.draw(st.integers(9, len(code) - 1))
    other = data.draw(st.sampled_from([ch for ch in ALPHABET if ch != code[place]]))
    typo = code[:place] + other + code[place + 1 :]
    with pytest.raises(InvalidGameCodeError, match="does not check out"):
        decode_game_code(typo)


@settings(deadline=None)
@given(st.integers(1, MAX_DEAL), st.integers(9, 14))
def test_two_swapped_neighbours_are_refused(number: int, place: int) -> None:
    code = Deal(PRESETS["standard"], number).code()
    swapped = code[:place] + code[place + 1] + code[place] + code[place + 2 :]
    if swapped != code:
        with pytest.raises(InvalidGameCodeError, match="does not check out"):
            decode_game_code(swapped)


def _signed(body: str) -> str:
    """A code with a correct check character, whatever its body says."""
    return body + _check_char(body)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("", "the game code is empty"),
        ("XC1-ST4-N00000K9Z", "a game code starts with FC1-, not XC1-"),
        ("FC2-ST4-N00000K9Z", "a game code starts with FC1-, not FC2-"),
        ("FC1ST4N00000K9Z", "a code has three parts joined by '-'"),
        ("FC1-S4-N00000K9Z", "its second part 'S4' should be a ruleset tag and the number of cells"),
        (_signed("FC1-QQ4-N00000K9"), "names an unknown ruleset 'QQ' (known: ST, SX, SM, BG, EO, DF, AP, CD)"),
        (_signed("FC1-AP3-N00000K9"), "app is played with 4, 2 or 1 cells, not 3"),
        (_signed("FC1-EO4-N00000K9"), "eight-off is played with 8 cells, not 4"),
        ("FC1-ST4-X00000K9Z", "starts with N for a deal number or R for a random deal"),
        ("FC1-ST4-N0000UK9Z", "it cannot contain 'U'"),
        ("FC1-ST4-N0000*K9Z", "it cannot contain '*'"),
        ("FC1-ST4-N0000K9Z", "N is followed by 7 characters and a check character, 8 in all, not 7"),
        ("FC1-ST4-N00000K9R", "does not check out: is a character mistyped?"),
        ("FC1-ST4-N000000PV", "does not check out"),  # 1 typed as P
        (_signed("FC1-ST4-N0000000"), "names deal 0, which is out of range (1 to 8,589,934,591)"),
        (_signed("FC1-ST4-NZZZZZZZ"), "names deal 34359738367, which is out of range"),
    ],
)
def test_a_bad_code_says_what_is_wrong(code: str, message: str) -> None:
    with pytest.raises(InvalidGameCodeError) as error:
        decode_game_code(code)
    assert message in str(error.value)
