"""The rulesets: one preset per system of the seeds, found by name or alias."""

from __future__ import annotations

import dataclasses

import pytest

from freecell.rules import (
    PRESETS,
    AutoMoves,
    Building,
    Dealer,
    EmptyColumns,
    FoundationReturn,
    SequenceMoves,
    UnknownRulesError,
    find_rules,
    find_rules_by_code,
)


def test_there_is_one_preset_for_each_system_of_the_seeds() -> None:
    assert list(PRESETS) == ["standard", "strict", "supermove", "bakers-game", "eight-off", "double", "app", "cardems"]


def test_each_preset_has_the_parameters_its_document_gives() -> None:
    layout = {name: (r.columns, r.cells, r.decks, r.foundation_count, r.column_heights) for name, r in PRESETS.items()}
    standard_layout = (8, 4, 1, 4, (7, 7, 7, 7, 6, 6, 6, 6))
    for name in ("standard", "strict", "supermove", "bakers-game", "app", "cardems"):
        assert layout[name] == standard_layout
    assert layout["eight-off"] == (8, 8, 1, 4, (6,) * 8)
    assert layout["double"] == (10, 6, 2, 8, (11, 11, 11, 11, 10, 10, 10, 10, 10, 10))

    assert PRESETS["strict"].sequence_moves is SequenceMoves.SINGLE_CARD_STEPS
    assert {PRESETS[n].building for n in ("bakers-game", "eight-off")} == {Building.SAME_SUIT}
    assert PRESETS["eight-off"].empty_columns is EmptyColumns.KINGS_ONLY
    assert PRESETS["eight-off"].dealt_to_cells == 4
    assert PRESETS["double"].dealer is Dealer.SHUFFLE
    app, cardems = PRESETS["app"], PRESETS["cardems"]
    assert app.foundation_return is FoundationReturn.TO_TABLEAU and app.undo_limit == 100
    assert app.cell_options == (4, 2, 1)
    assert app.scoring is not None and (app.scoring.to_foundation, app.scoring.cell_to_tableau) == (10, 5)
    assert app.scoring.foundation_once_per_card
    assert cardems.foundation_return is FoundationReturn.TO_TABLEAU_OR_CELL
    assert cardems.scoring is not None and (cardems.scoring.to_foundation, cardems.scoring.from_foundation) == (10, -15)
    for name, rules in PRESETS.items():
        assert rules.auto_moves is AutoMoves.NONE, name
        assert (rules.scoring is None) == (name not in ("app", "cardems")), name
        assert (rules.undo_limit is None) == (name != "app"), name
        assert rules.takes_back == (name in ("app", "cardems")), name


@pytest.mark.parametrize(
    ("name", "preset"),
    [
        ("FreeCell", "standard"),
        ("Baker's Game", "bakers-game"),
        ("eight off", "eight-off"),
        ("8-off", "eight-off"),
        ("Double FreeCell", "double"),
        ("one card", "strict"),
        ("001", "app"),
        ("003", "cardems"),
        ("SUPERMOVE", "supermove"),
    ],
)
def test_presets_are_found_by_name_and_alias(name: str, preset: str) -> None:
    assert find_rules(name) is PRESETS[preset]


def test_unknown_names_and_cells_are_refused_with_the_choices() -> None:
    with pytest.raises(UnknownRulesError, match="no ruleset is called 'spider'; choose one of standard, strict"):
        find_rules("spider")
    with pytest.raises(ValueError, match="double is played with 6 cells, not 4"):
        find_rules("double", cells=4)
    with pytest.raises(UnknownRulesError, match="no ruleset has the code 'ZZ'"):
        find_rules_by_code("ZZ")


def test_rules_are_frozen_values() -> None:
    rules = find_rules("app", cells=2)
    assert rules == find_rules("app", cells=2) and hash(rules) == hash(find_rules("app", cells=2))
    assert rules != PRESETS["app"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.cells = 4  # type: ignore[misc]
    assert find_rules_by_code("AP") is PRESETS["app"]


def test_summary_starts_with_the_name() -> None:
    for name, rules in PRESETS.items():
        assert rules.summary().split()[0] == name


def test_descriptions_state_the_capacity_in_words() -> None:
    assert "(empty cells + 1) cards, doubled for each empty column" in PRESETS["standard"].description
    for rules in PRESETS.values():
        assert "^" not in rules.description, rules.name
