"""Themes, the win's cascade and the sounds, through the page on a phone and a desktop:
each theme choice applies, keeps the table still and survives a reload; the four-colour
deck recolours the suits; light and dark follow the system unless forced; a win sets the
cards bouncing (not under reduced motion); sounds are off until chosen."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from boards import CAN_FINISH
from player import Player
from playwright.sync_api import Page, expect

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}
# One move from a win: every foundation full but hearts, whose king is alone in column 1.
ONE_FROM_WON = "Foundations: H-Q C-K D-K S-K\nFreecells: - - - -\n: KH\n" + ": \n" * 7
TWO_COLOURS = {"H": "rgb(192, 24, 43)", "D": "rgb(192, 24, 43)", "C": "rgb(27, 29, 36)", "S": "rgb(27, 29, 36)"}
FOUR_COLOURS = {"H": "rgb(192, 24, 43)", "D": "rgb(20, 80, 184)", "C": "rgb(18, 115, 47)", "S": "rgb(27, 29, 36)"}
CARD_FACE = "rgb(255, 253, 247)"

# Where the table's parts are: a theme changes colours only, so these never move.
TABLE_PLACES = """() => [...document.querySelectorAll(
    '#table .top-row, #table .slot, #table .column, #table .card[data-key]')].map((el) => {
  const box = el.getBoundingClientRect();
  return [box.left, box.top, box.width, box.height];
})"""
SUIT_COLOURS = """() => Object.fromEntries(['H', 'D', 'C', 'S'].map((suit) => {
  const faces = [...document.querySelectorAll(`#table svg.face.suit-${suit}`)];
  return [suit, [...new Set(faces.map((face) => getComputedStyle(face).color))]];
}))"""
THEME = "() => ({ ...document.documentElement.dataset })"


def opened(open_page: Callable[..., Page], server: str, size: str, **options: object) -> Player:
    """Deal 617 open at ``size``, the solver's verdict in (the status row has its final size)."""
    player = Player(open_page(viewport=SIZES[size], **options), server)
    player.open(rules="standard", deal=617)
    expect(player.page.locator("#verdict")).to_have_text("Can be won", timeout=30_000)
    player.settle()  # the deal's cards are in place
    return player


def settled_places(page: Page) -> list[list[float]]:
    """The table's places once the page has finished laying it out (the same twice running)."""
    places: list[list[float]] = page.evaluate(TABLE_PLACES)
    for _ in range(20):
        page.wait_for_timeout(300)
        again: list[list[float]] = page.evaluate(TABLE_PLACES)
        if again == places:
            return places
        places = again
    raise AssertionError("the table kept moving before any theme was chosen")


def open_themes(page: Page) -> None:
    """Open the Themes panel as a player does: from the header, or from ☰ on a phone."""
    if page.locator("#menu-button").is_visible():
        page.locator("#menu-button").click()
    page.get_by_role("button", name="Themes", exact=True).click()
    expect(page.locator("#themes-dialog")).to_be_visible()


def rgb(text: str) -> tuple[float, ...]:
    """The channels of a computed colour, "rgb(1, 2, 3)" or "rgba(1, 2, 3, 0.5)" or "#0a0b0c"."""
    if text.startswith("#"):
        return tuple(int(text[i : i + 2], 16) for i in (1, 3, 5))
    return tuple(float(part) for part in re.findall(r"[\d.]+", text))


def luminance(colour: tuple[float, ...]) -> float:
    channels = [c / 255 for c in colour[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: tuple[float, ...], other: tuple[float, ...]) -> float:
    """WCAG's contrast ratio of two opaque colours."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def over(top: tuple[float, ...], under: tuple[float, ...]) -> tuple[float, ...]:
    """A translucent colour laid over an opaque one."""
    alpha = top[3] if len(top) > 3 else 1.0
    return tuple(alpha * t + (1 - alpha) * u for t, u in zip(top[:3], under[:3], strict=True))


@pytest.mark.parametrize("size", SIZES)
def test_theme_choices_apply_keep_the_table_still_and_persist(
    open_page: Callable[..., Page], server: str, size: str
) -> None:
    player = opened(open_page, server, size, color_scheme="light")
    page = player.page
    assert page.evaluate(THEME) == {
        "felt": "green",
        "back": "lattice-red",
        "deck": "two",
        "indices": "normal",
        "scheme": "light",
    }
    places = settled_places(page)
    open_themes(page)
    dialog = page.locator("#themes-dialog")
    dialog.get_by_label("Blue", exact=True).check()
    dialog.get_by_label("Tartan").check()
    dialog.get_by_label("Four-colour deck").check()
    dialog.get_by_label("Large corner indices").check()
    dialog.get_by_label("Dark", exact=True).check()
    chosen = {"felt": "blue", "back": "tartan", "deck": "four", "indices": "large", "scheme": "dark"}
    assert page.evaluate(THEME) == chosen
    assert page.evaluate(TABLE_PLACES) == places

    felt = page.locator("#frame").evaluate("(el) => getComputedStyle(el).backgroundImage")
    assert "rgb(29, 79, 134)" in felt  # the blue felt
    shown = page.locator("#table .card[data-key] svg.face").first
    assert shown.locator(".index-large").evaluate("(el) => getComputedStyle(el).display") != "none"
    assert shown.locator(".index").evaluate("(el) => getComputedStyle(el).display") == "none"
    dialog.get_by_role("button", name="Done").click()

    page.reload()
    player.wait_for_table()
    assert page.evaluate(THEME) == chosen
    open_themes(page)
    for label in ("Blue", "Tartan", "Four-colour deck", "Large corner indices", "Dark"):
        expect(dialog.get_by_label(label, exact=label in ("Blue", "Dark"))).to_be_checked()


@pytest.mark.parametrize("size", SIZES)
def test_the_four_colour_deck_colours_clubs_green_and_diamonds_blue(
    open_page: Callable[..., Page], server: str, size: str
) -> None:
    player = opened(open_page, server, size)
    page = player.page
    # Every card on the table is drawn with its suit named, so the deck reaches each one.
    assert page.locator("#table svg.face").count() == 52
    assert page.locator("#table svg.face:not(.suit-H):not(.suit-D):not(.suit-C):not(.suit-S)").count() == 0
    assert page.evaluate(SUIT_COLOURS) == {suit: [colour] for suit, colour in TWO_COLOURS.items()}

    open_themes(page)
    page.get_by_label("Four-colour deck").check()
    assert page.evaluate(SUIT_COLOURS) == {suit: [colour] for suit, colour in FOUR_COLOURS.items()}
    # The sample in the panel, too.
    sample = page.locator("#theme-preview svg.face.suit-D")
    expect(sample).to_have_css("color", FOUR_COLOURS["D"])
    for colour in FOUR_COLOURS.values():
        assert contrast(rgb(colour), rgb(CARD_FACE)) >= 4.5, colour


@pytest.mark.parametrize("size", SIZES)
def test_light_and_dark_follow_the_system_unless_one_is_chosen(
    open_page: Callable[..., Page], server: str, size: str
) -> None:
    player = opened(open_page, server, size, color_scheme="dark")
    page = player.page
    background = "(el) => getComputedStyle(el).backgroundColor"
    assert page.evaluate(THEME)["scheme"] == "dark"
    expect(page.locator("body")).to_have_css("background-color", "rgb(12, 33, 25)")
    page.emulate_media(color_scheme="light")  # the system turns light while the page is open
    expect(page.locator("html")).to_have_attribute("data-scheme", "light")
    expect(page.locator("body")).to_have_css("background-color", "rgb(238, 241, 236)")
    expect(page.locator('meta[name="theme-color"]')).to_have_attribute("content", "#ffffff")  # the phone's bar

    open_themes(page)
    page.locator("#themes-dialog").get_by_label("Dark", exact=True).check()
    page.emulate_media(color_scheme="light")
    expect(page.locator("html")).to_have_attribute("data-scheme", "dark")
    assert page.locator("#themes-dialog").evaluate(background) == "rgb(19, 42, 30)"
    page.locator("#themes-dialog").get_by_label("Light", exact=True).check()
    page.emulate_media(color_scheme="dark")
    expect(page.locator("html")).to_have_attribute("data-scheme", "light")
    assert page.locator("#themes-dialog").evaluate(background) == "rgb(251, 252, 250)"


def test_text_and_suits_stay_readable_on_every_felt_and_in_both_schemes(
    open_page: Callable[..., Page], server: str
) -> None:
    player = opened(open_page, server, "desktop")
    page = player.page
    open_themes(page)
    dialog = page.locator("#themes-dialog")
    for felt in ("Classic green", "Blue", "Burgundy", "Grey"):
        dialog.get_by_label(felt, exact=True).check()
        colours = page.evaluate("""() => {
          const style = getComputedStyle(document.documentElement);
          const heading = getComputedStyle(document.querySelector('#table .heading'));
          const felt = (name) => style.getPropertyValue(name).trim();
          return { light: felt('--felt-light'), dark: felt('--felt-dark'), text: heading.color,
                   under: heading.backgroundColor };
        }""")
        # The columns' letters against the felt at its lightest and its darkest.
        for felt_colour in (colours["light"], colours["dark"]):
            behind = over(rgb(colours["under"]), rgb(felt_colour))
            assert contrast(over(rgb(colours["text"]), behind), behind) >= 4.5, (felt, felt_colour)
    for scheme in ("Light", "Dark"):
        dialog.get_by_label(scheme, exact=True).check()
        ink = page.evaluate("""() => {
          const style = getComputedStyle(document.documentElement);
          return ['--ink', '--ink-soft', '--page', '--bar'].map((name) => style.getPropertyValue(name).trim());
        }""")
        for text in ink[:2]:
            for ground in ink[2:]:
                assert contrast(rgb(text), rgb(ground)) >= 4.5, (scheme, text, ground)


def test_the_notices_and_the_dialogs_buttons_are_readable_in_both_schemes(
    open_page: Callable[..., Page], server: str
) -> None:
    """Every notice over the felt (the first visit's tip, the lost game's, the server's
    absence, the finish) and a dialog's bar of buttons keep readable text in light and
    dark: their grounds follow the scheme with the text."""
    player = opened(open_page, server, "desktop")
    page = player.page
    for scheme in ("Light", "Dark"):
        open_themes(page)
        page.locator("#themes-dialog").get_by_label(scheme, exact=True).check()
        page.get_by_role("button", name="Done").click()
        page.evaluate("() => document.querySelectorAll('.notice').forEach((n) => { n.hidden = false; })")
        notices = page.evaluate("""() => [...document.querySelectorAll('.notice')].map((notice) => {
          const text = getComputedStyle(notice.querySelector('p'));
          return { id: notice.id, text: text.color, ground: getComputedStyle(notice).backgroundColor };
        })""")
        assert len(notices) >= 4
        for notice in notices:
            assert contrast(rgb(notice["text"]), rgb(notice["ground"])) >= 4.5, (scheme, notice)
        page.evaluate("() => document.querySelectorAll('.notice').forEach((n) => { n.hidden = true; })")
        page.locator("#daily").click()
        expect(page.locator("#daily-dialog")).to_be_visible()
        bar = page.evaluate("""() => {
          const dialog = document.querySelector('#daily-dialog');
          const actions = dialog.querySelector('.dialog-actions');
          const button = actions.querySelector('button:not(.primary)');
          return { dialog: getComputedStyle(dialog).backgroundColor, bar: getComputedStyle(actions).backgroundColor,
                   text: getComputedStyle(button).color };
        }""")
        assert bar["bar"] == bar["dialog"], (scheme, bar)
        assert contrast(rgb(bar["text"]), rgb(bar["bar"])) >= 4.5, (scheme, bar)  # "Close"
        page.keyboard.press("Escape")
        expect(page.locator("#daily-dialog")).to_be_hidden()


def test_a_paused_game_shows_the_card_backs(open_page: Callable[..., Page], server: str) -> None:
    player = opened(open_page, server, "phone")
    page = player.page
    after = "(el) => getComputedStyle(el, '::after').content"
    card = page.locator("#table .card[data-key]").first
    assert card.evaluate(after) == "none"
    page.locator("#pause").click()
    expect(page.locator("#paused-cover")).to_be_visible()
    assert card.evaluate(after) == '""'
    back = card.evaluate("(el) => getComputedStyle(el, '::after').backgroundImage")
    assert "repeating-linear-gradient" in back
    page.locator("#resume").click()
    expect(page.locator("#paused-cover")).to_be_hidden()
    assert card.evaluate(after) == "none"


def test_a_new_deal_flies_in_face_down_and_turns_over(open_page: Callable[..., Page], server: str) -> None:
    player = opened(open_page, server, "desktop")
    page = player.page
    open_themes(page)
    page.get_by_label("Blue lattice").check()
    page.get_by_role("button", name="Done").click()
    page.locator("#new-game").click()
    page.locator("#new-number").fill("1")
    page.get_by_role("button", name="Deal", exact=True).click()
    # All 52 leave face down, showing the theme's back (read in the same moment).
    back = page.wait_for_function("""() => {
      const down = document.querySelectorAll('#table .card.face-down');
      return down.length === 52 && getComputedStyle(down[0], '::after').backgroundImage;
    }""").json_value()
    assert "rgb(59, 111, 196)" in back  # the blue lattice
    player.settle()
    page.wait_for_function("() => !document.querySelector('#table .card.face-down')")
    assert (
        page.locator("#table .card[data-key]").first.evaluate("(el) => getComputedStyle(el, '::after').content")
        == "none"
    )


def win(player: Player) -> None:
    player.open(rules="standard", board=ONE_FROM_WON)
    player.type_move("1h")
    expect(player.page.locator("#banner")).to_contain_text("You won! 1 move in")  # one move, in words


@pytest.mark.parametrize("size", SIZES)
def test_a_win_sets_the_cards_bouncing_until_a_tap(open_page: Callable[..., Page], server: str, size: str) -> None:
    player = Player(open_page(viewport=SIZES[size]), server)
    page = player.page
    win(player)
    cascade = page.locator("canvas.cascade")
    expect(cascade).to_have_count(1)
    # Kings first, one after another; the foundations' cards are on the canvas meanwhile.
    expect(cascade).to_have_attribute("data-launched", re.compile(r"^([5-9]|\d\d)$"))
    assert page.locator("#frame").evaluate("(el) => el.classList.contains('cascading')")
    hidden = page.locator("#table .foundation > .card[data-key]").first.evaluate(
        "(el) => getComputedStyle(el).visibility"
    )
    assert hidden == "hidden"
    page.mouse.click(SIZES[size]["width"] / 2, SIZES[size]["height"] - 40)
    expect(cascade).to_have_count(0)
    assert not page.locator("#frame").evaluate("(el) => el.classList.contains('cascading')")
    expect(page.locator("#table .foundation > .card[data-key]").first).to_be_visible()
    expect(page.locator("#banner")).to_contain_text("You won")


def test_the_cascade_ends_by_itself_after_every_card(open_page: Callable[..., Page], server: str) -> None:
    player = Player(open_page(viewport=SIZES["desktop"]), server)
    page = player.page
    # The page's clock, faked from the game's page on, is run on by the test: the cascade
    # (8 s of launches, then the last cards' flight) plays in a moment, frame by frame.
    page.clock.install()
    win(player)
    expect(page.locator("canvas.cascade")).to_have_count(1)
    # How many cards had left when the canvas went: untouched, it goes after the last.
    page.evaluate("""() => {
      window.cascadeEnded = null;
      new MutationObserver((changes, watch) => {
        for (const change of changes) {
          for (const el of change.removedNodes) {
            if (el.classList?.contains('cascade')) {
              watch.disconnect();
              window.cascadeEnded = Number(el.dataset.launched);
            }
          }
        }
      }).observe(document.querySelector('.frame-wrap'), { childList: true });
    }""")
    page.clock.run_for(20_000)  # more than the cascade takes, its canvas's fade-out too
    page.wait_for_function("() => window.cascadeEnded !== null", timeout=40_000)
    assert page.evaluate("() => window.cascadeEnded") == 52
    assert not page.locator("#frame").evaluate("(el) => el.classList.contains('cascading')")


def test_after_an_auto_finish_the_cascade_waits_for_the_last_card_home(
    open_page: Callable[..., Page], server: str
) -> None:
    player = Player(open_page(viewport=SIZES["desktop"]), server)
    page = player.page
    player.open(rules="standard", board=CAN_FINISH)
    # Whether any card was still sliding home when the cascade began.
    page.evaluate("""() => {
      window.slidingAtStart = null;
      new MutationObserver((changes, watch) => {
        if (document.querySelector('canvas.cascade')) {
          watch.disconnect();
          window.slidingAtStart = document.querySelectorAll('#table .card.moving').length;
        }
      }).observe(document.querySelector('.frame-wrap'), { childList: true });
    }""")
    page.get_by_role("button", name="Auto-finish").click()
    page.wait_for_function("() => window.slidingAtStart !== null", timeout=30_000)
    assert page.evaluate("() => window.slidingAtStart") == 0
    expect(page.locator("canvas.cascade")).to_have_attribute("data-launched", re.compile(r"^([5-9]|\d\d)$"))


@pytest.mark.parametrize("size", SIZES)
def test_no_cascade_under_reduced_motion_but_a_still_word(
    open_page: Callable[..., Page], server: str, size: str
) -> None:
    player = Player(open_page(viewport=SIZES[size], reduced_motion="reduce"), server)
    page = player.page
    win(player)
    calm = page.locator(".calm-win")
    expect(calm).to_have_text("All 52 cards are home. Well played!")
    page.wait_for_timeout(500)  # a cascade would have started by now
    expect(page.locator("canvas.cascade")).to_have_count(0)
    page.locator("#banner").get_by_role("button", name="Play this deal again").click()
    expect(calm).to_have_count(0)


# Counts what the page asks of Web Audio: contexts made, and sounds started.
COUNT_AUDIO = """(() => {
  window.audioCalls = { contexts: 0, noises: 0, tones: 0 };
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.audioCalls.contexts += 1; }
    createBufferSource() {
      const source = super.createBufferSource();
      const start = source.start.bind(source);
      source.start = (...args) => { window.audioCalls.noises += 1; return start(...args); };
      return source;
    }
    createOscillator() {
      const tone = super.createOscillator();
      const start = tone.start.bind(tone);
      tone.start = (...args) => { window.audioCalls.tones += 1; return start(...args); };
      return tone;
    }
  };
})();"""
AUDIO = "() => window.audioCalls"


@pytest.mark.parametrize("size", SIZES)
def test_sounds_are_off_until_chosen_then_moves_deals_and_wins_sound(
    open_page: Callable[..., Page], server: str, size: str
) -> None:
    page = open_page(viewport=SIZES[size])
    page.context.add_init_script(COUNT_AUDIO)
    player = Player(page, server)
    player.open(rules="standard", deal=617)
    player.type_move("58")
    player.expect_moves(1)
    assert page.evaluate(AUDIO) == {"contexts": 0, "noises": 0, "tones": 0}

    if page.locator("#menu-button").is_visible():
        page.locator("#menu-button").click()
    page.get_by_role("button", name="Options", exact=True).click()
    page.get_by_label("Quiet sounds").check()
    assert page.evaluate(AUDIO) == {"contexts": 1, "noises": 1, "tones": 0}  # a tap, to hear them
    page.get_by_role("button", name="Done").click()
    page.keyboard.press("u")
    player.expect_moves(0)
    page.wait_for_function("() => window.audioCalls.noises === 2")
    page.locator("#new-game").click()
    page.locator("#new-number").fill("1")
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(page.locator("#deal-label")).to_contain_text("deal 1 ")
    page.wait_for_function("() => window.audioCalls.noises === 14")  # a riffle of 12 taps

    page.reload()
    player.wait_for_table()
    assert page.evaluate(AUDIO) == {"contexts": 0, "noises": 0, "tones": 0}  # opening the page is silent
    win(player)
    page.wait_for_function("() => window.audioCalls.tones === 4")
    assert page.evaluate(AUDIO)["contexts"] == 1
