"""The daily deal at the page, on the server, at a phone's size and a desktop's: the
toolbar's Daily entry, its dialog, the day's deal dealt and won, and the entry ticked."""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from player import Player
from playwright.sync_api import Page, expect

import serving
from freecell.daily import daily_deal
from freecell.rules import find_rules

# Screenshots for a person to look at, when asked for: FREECELL_SCREENSHOTS=FOLDER.
SHOTS = os.environ.get("FREECELL_SCREENSHOTS")
GRADES = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}
# The player's day, as the page reads it.
TODAY = """() => { const d = new Date(); const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`; }"""


def shoot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)])
def test_the_daily_entry_deals_the_days_deal_and_is_ticked_once_won(
    open_page: Callable[..., Page], served: serving.Served, width: int, height: int
) -> None:
    page = open_page(viewport={"width": width, "height": height})
    page.emulate_media(reduced_motion="reduce")
    player = Player(page, served.base)
    today = page.evaluate(TODAY)
    rules = "app" if width < 600 else "standard"  # each size its own preset, so neither finds the other's win
    chosen = daily_deal(datetime.date.fromisoformat(today), find_rules(rules))
    grade = GRADES[chosen.difficulty.value]

    # The first screen's entry, for the rules on the table: the date and the grade.
    player.open(rules=rules, deal=617)
    entry = page.locator("#daily")
    expect(entry).to_contain_text(grade, timeout=30_000)
    expect(entry).to_have_attribute("aria-label", re.compile(rf"^Daily deal, \w+.*: .*{grade}$"))
    expect(page.locator("#daily-won")).to_be_hidden()
    box = entry.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width and box["height"] >= 30
    shoot(page, f"daily-entry-{width}x{height}")

    # Its dialog: the day, the preset, the deal and its grade, today not played yet.
    entry.click()
    dialog = page.locator("#daily-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#daily-rules")).to_have_value(rules)
    expect(page.locator("#daily-deal")).to_have_text(re.compile(rf"deal {chosen.deal.number} · {grade}$"))
    expect(page.locator("#daily-today")).to_have_text("Not played yet today.")
    expect(page.locator("#daily-stats")).to_contain_text("Streak0 days")
    shoot(page, f"daily-dialog-{width}x{height}")

    # Dealt: the day's deal, recorded as daily.
    page.locator("#daily-play").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#deal-label")).to_contain_text("daily deal of ")
    expect(page.locator("#deal-label")).to_contain_text(str(chosen.deal.number))
    state = player.state()
    assert (state["daily"], state["code"]) == (today, chosen.deal.code())
    assert player.position() == chosen.deal.position()
    shoot(page, f"daily-game-{width}x{height}")

    # Won with the solver's line, typed: the entry is ticked and the streak counts the day.
    player.play(list(chosen.line))
    expect(page.locator("#banner")).to_contain_text("You won")
    expect(page.locator("#daily-won")).to_be_visible()
    expect(entry).to_have_attribute("aria-label", re.compile(r", won$"))
    page.locator("#banner").evaluate("banner => banner.hidden = true")  # out of the way of the entry
    entry.click()
    expect(page.locator("#daily-today")).to_contain_text("Won today")
    expect(page.locator("#daily-stats")).to_contain_text("Streak1 day")
    expect(page.locator("#daily-play")).to_have_text("Play it again")
    shoot(page, f"daily-won-{width}x{height}")
    # Not in the ordinary statistics.
    stats = page.request.get(f"{served.base}/api/stats").json()
    assert next(row for row in stats if row["rules"] == rules)["won"] == 0


def test_the_new_game_dialog_offers_todays_daily_deal(page: Page, served: serving.Served) -> None:
    player = Player(page, served.base)
    player.open(rules="standard", deal=617)
    today = page.evaluate(TODAY)
    chosen = daily_deal(datetime.date.fromisoformat(today), find_rules("bakers-game"))
    page.locator("#new-game").click()
    page.locator("#new-rules").select_option("bakers-game")
    expect(page.locator("#new-daily-info")).to_contain_text(GRADES[chosen.difficulty.value], timeout=30_000)
    page.get_by_label("Today's daily deal").check()
    page.locator("#new-deal").click()
    expect(page.locator("#deal-label")).to_contain_text(str(chosen.deal.number))
    assert player.state()["daily"] == today


@pytest.mark.parametrize(("width", "height"), [(844, 390), (360, 740)])
def test_the_daily_entry_keeps_to_one_line_on_a_small_screen(
    open_page: Callable[..., Page], served: serving.Served, width: int, height: int
) -> None:
    page = open_page(viewport={"width": width, "height": height})
    entry = page.locator("#daily")
    expect(page.locator("#daily-grade")).not_to_be_empty(timeout=30_000)
    page.locator("#daily-won").evaluate("tick => { tick.hidden = false; }")  # as wide as it gets: won
    box = entry.bounding_box()
    assert box is not None
    assert box["height"] <= 44 and box["x"] + box["width"] <= width  # one line (a wrapped entry was 92 px tall)
