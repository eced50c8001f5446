"""A steady table: no move, status change ("Thinking…"), banner or toast moves the cells,
foundations or columns, and only the cards that move are animated.

The page samples the table's position every 30 ms (the top row, column 1's heading and its
deepest card) while deal 617 is played to a lost position by typed and clicked moves
(``1a 1b 1c``: the game could still be won before ``1c``), the "Go back" notice comes, a
move in the lost position hides it and it comes back, and a move is undone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from player import Player
from playwright.sync_api import Page, expect

TOLERANCE = 2.0  # px

# Every 30 ms: where the table's landmarks are, and which cards are sliding; a card that
# changes place (its data-source) is listed as moved.
SAMPLE = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.width]; };
  const table = document.getElementById('table');
  const samples = [];
  const animated = new Set();
  const moved = new Set();
  const places = new Map();
  const read = () => {
    for (const el of table.querySelectorAll('.card[data-key]')) {
      if (places.has(el.dataset.key) && places.get(el.dataset.key) !== el.dataset.source) {
        moved.add(el.dataset.key);
      }
      places.set(el.dataset.key, el.dataset.source);
    }
    samples.push({
      row: box(table.querySelector('.top-row')),
      heading: box(table.querySelector('.heading[data-place="1"]')),
      deepest: box(table.querySelector('.column[data-place="1"] .card[data-index="0"]')),
    });
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.target.classList?.contains('moving')) { animated.add(record.target.dataset.key); }
    }
  }).observe(table, {subtree: true, attributes: true, attributeFilter: ['class']});
  read();
  const timer = setInterval(read, 30);
  window.steadySamples = () => { clearInterval(timer); read();
    return {samples, animated: [...animated], moved: [...moved]}; };
}"""


def movement(samples: list[dict[str, list[float]]]) -> dict[str, float]:
    """How far each landmark went, in px: the largest spread of its left, top and width."""
    spread = {}
    for landmark in ("row", "heading", "deepest"):
        spread[landmark] = max(
            max(sample[landmark][i] for sample in samples) - min(sample[landmark][i] for sample in samples)
            for i in range(3)
        )
    return spread


def wait_for_verdict(page: Page) -> None:
    """A player pauses after a move until the status has its verdict."""
    expect(page.locator("#verdict")).not_to_have_text("Thinking…", timeout=60_000)


@pytest.mark.parametrize("size", [(768, 1024), (390, 844)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_table_stays_put_through_moves_a_loss_its_notice_and_an_undo(
    size: tuple[int, int], open_page: Callable[..., Page], server: str
) -> None:
    width, height = size
    phone = width < 600
    page = open_page(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    player = Player(page, server)
    player.open(rules="standard", deal=617)
    player.settle()
    page.evaluate(SAMPLE)

    player.play(["1a"])  # typed
    wait_for_verdict(page)
    player.play(["1b"])
    wait_for_verdict(page)
    player.settle()
    four = player.card("4 of clubs")
    cell = player.place("free cell c")
    if phone:  # clicked, or tapped on a phone
        four.tap(position={"x": 8, "y": 6})
        cell.tap()
    else:
        four.click(position={"x": 10, "y": 8})
        cell.click()
    player.expect_moves(3)
    losing = page.locator("#losing")
    expect(losing).to_contain_text("could still be won before", timeout=60_000)
    expect(page.locator("#rewind")).to_have_text("Go back 1 move")
    # A move in the lost position: the notice goes, and comes back once the solver has
    # looked at the new position; then the move is undone.
    player.play(["2d"])
    expect(losing).to_be_visible(timeout=60_000)
    page.locator("#undo").click()
    player.expect_moves(3)
    expect(losing).to_be_visible(timeout=60_000)
    player.type_move("12")  # refused: a toast
    expect(player.toast()).to_be_visible()
    page.wait_for_timeout(600)
    result: dict[str, Any] = page.evaluate("window.steadySamples()")

    spread = movement(result["samples"])
    print(f"{width}x{height}: {len(result['samples'])} samples, movement {spread}")
    assert max(spread.values()) <= TOLERANCE, spread
    # Only the cards that changed place slid: never the whole table.
    assert set(result["animated"]) <= set(result["moved"]), result
    assert result["moved"], result
