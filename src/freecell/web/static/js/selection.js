// Choosing cards with the pointer or the keyboard's Enter: a tap picks cards up (an
// ordered run under the card tapped) and a tap on a place puts them there; a double tap
// sends a card where it is most useful; a drag picks up and drops. The server says where
// cards may go and decides every move; the page only lights what it says.

import { sendMove } from "./actions.js";
import { api } from "./api.js";
import { cardLabel, cardText } from "./cards.js";
import { $, plural } from "./dom.js";
import { foundationTarget, moveText, placeAt, targetName } from "./places.js";
import { ordered } from "./runs.js";
import { sourceCards } from "./table.js";
import { store } from "./store.js";
import { toast } from "./toast.js";

const DOUBLE_TAP_MS = 450;
let lastTap = null; // {key, time} of the last card tapped, to tell a double tap

/** The cards of column `source`, deepest first. */
function columnOf(game, source) {
  return game.columns[placeAt(game, source).index];
}

/** Check a card can be picked up; returns {source, count, card}, or null with a message. */
function pickable(cardEl) {
  const game = store.game;
  const source = cardEl.dataset.source;
  const count = Number(cardEl.dataset.count);
  if (cardEl.dataset.foundation && !game.rules.takes_back) {
    toast("Cards on the foundations stay there in these rules.");
    return null;
  }
  if (count > 1 && !ordered(columnOf(game, source).slice(Number(cardEl.dataset.index)), game.rules)) {
    toast("Only an ordered run can be picked up: the cards below this one are not in sequence.");
    return null;
  }
  return { source, count, card: cardEl.dataset.card };
}

/** Pick up `chosen`, and light where the server says it may go (`known`: already asked). */
async function select(chosen, known = null) {
  const hint = store.hint;
  if (hint && hint.source !== chosen.source) {
    store.showHint(null); // picking up the hinted cards keeps the hint's target lit
  }
  store.select(chosen);
  try {
    const answer = known ?? await api.destinations(store.game.id, chosen.source, chosen.count);
    if (store.selection === chosen) {
      store.showTargets(answer.targets);
    }
  } catch (error) {
    toast(error.message);
  }
}

/** Tell a screen reader what is held: "Selected 7 of hearts and the 2 cards on it". */
function announceSelection() {
  const el = $("announce-selection");
  const { selection, targets, game } = store;
  if (!selection) {
    el.textContent = "";
    return;
  }
  const more = selection.count - 1;
  const on = more ? ` and the ${more === 1 ? "card" : plural(more, "card")} on it` : "";
  const where = targets.length ? ` It may go to ${targets.map((t) => targetName(game, t)).join(", ")}.` : "";
  el.textContent = `Selected ${cardLabel(selection.card)}${on}.${where}`;
}

/**
 * The arrow keys: one card more (`step` 1) or fewer (-1) of the ordered run under the
 * selected card of a column. Answers whether the selection changed.
 */
export function widen(step) {
  const { selection, game } = store;
  if (!selection || placeAt(game, selection.source)?.kind !== "column") {
    return false;
  }
  const column = columnOf(game, selection.source);
  const count = selection.count + step;
  if (count < 1 || count > column.length || !ordered(column.slice(column.length - count), game.rules)) {
    return false;
  }
  select({ source: selection.source, count, card: column[column.length - count] });
  return true;
}

/**
 * A double tap's move: home when the card may go there; else to a free cell (as most
 * FreeCell programs do); else onto a column where it fits, an occupied one first.
 */
async function sendUseful(card) {
  const chosen = pickable(card);
  if (!chosen) {
    return;
  }
  store.select(null);
  const game = store.game;
  let answer;
  try {
    answer = await api.destinations(game.id, chosen.source, chosen.count);
  } catch (error) {
    toast(error.message);
    return;
  }
  const single = chosen.count === 1;
  const home = foundationTarget(game);
  const kind = (target) => placeAt(game, target)?.kind;
  const columns = answer.targets.filter((t) => kind(t) === "column");
  const occupied = columns.filter((t) => columnOf(game, t).length > 0);
  const fromCell = kind(chosen.source) === "cell";
  const choice = (single && answer.targets.includes(home) ? home : null)
    ?? (single && !fromCell ? answer.targets.find((t) => kind(t) === "cell") : null)
    ?? occupied[0] ?? columns[0] ?? null;
  if (choice === null) {
    toast(`${cardText(chosen.card)} has nowhere to go: no free cell, and no column where it fits.`, "info");
    return;
  }
  await sendMove(moveText(game, chosen.source, choice, chosen.count));
}

/** A tap or a click on the table (or Enter on a card or a place). */
export async function tap(el) {
  const game = store.game;
  if (!game || game.paused) {
    return;
  }
  const card = el.closest(".card[data-source]");
  const now = performance.now();
  if (card) {
    const double = lastTap && lastTap.key === card.dataset.key && now - lastTap.time < DOUBLE_TAP_MS;
    lastTap = double ? null : { key: card.dataset.key, time: now };
    if (double && !card.dataset.foundation) {
      await sendUseful(card);
      return;
    }
  }
  const selection = store.selection;
  if (selection) {
    if (card && card.dataset.source === selection.source) {
      if (card.dataset.card === selection.card) {
        store.select(null);
      } else {
        const chosen = pickable(card);
        if (chosen) {
          await select(chosen);
        }
      }
      return;
    }
    const target = el.closest("[data-place]")?.dataset.place ?? null;
    if (target === null) {
      store.select(null);
      return;
    }
    await sendMove(moveText(game, selection.source, target, selection.count));
    return;
  }
  const chosen = card ? pickable(card) : null;
  if (!chosen) {
    return;
  }
  if (game.rules.tap_to_foundation && chosen.count === 1 && !card.dataset.foundation) {
    const answer = await api.destinations(game.id, chosen.source, 1).catch(() => ({ targets: [] }));
    const home = foundationTarget(game);
    if (answer.targets.includes(home)) {
      await sendMove(moveText(game, chosen.source, home, 1));
      return;
    }
    await select(chosen, answer);
    return;
  }
  await select(chosen);
}

/** The start of a drag: the cards picked up, or null when they cannot be. */
export function pickUp(cardEl) {
  if (!store.game || store.game.paused) {
    return null;
  }
  const chosen = pickable(cardEl);
  if (!chosen) {
    return null;
  }
  select(chosen);
  return { els: sourceCards($("table"), chosen.source, chosen.count) };
}

/** The end of a drag on the place `target`; `rects` are where the cards were let go. */
export async function drop(target, rects) {
  const { selection, game } = store;
  if (!selection) {
    return false;
  }
  const back = target === selection.source
    || (placeAt(game, target)?.kind === "foundation" && placeAt(game, selection.source)?.kind === "foundation");
  if (back) {
    store.select(null);
    return false;
  }
  return sendMove(moveText(game, selection.source, target, selection.count), rects);
}

export function setupSelection() {
  store.subscribe((change) => {
    if (change.kind === "selection" || (change.kind === "game" && change.how !== "refreshed")) {
      announceSelection();
    }
  });
}
