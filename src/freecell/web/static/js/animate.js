// Smooth moves: remember where every card was, render the new state, then play each card
// that moved from its old place to its new one. The moves of the last action (the
// state's `last`, e.g. ["38", "4h"]) play one after the other, in their order.

const DURATION = 240;
const STEP = 150;

const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Where each keyed card is now, and which place it is in. */
export function snapshot(root) {
  const places = new Map();
  for (const el of root.querySelectorAll(".card[data-key]")) {
    places.set(el.dataset.key, { rect: el.getBoundingClientRect(), source: el.dataset.source });
  }
  return places;
}

function samePlace(written, source) {
  if (written === source) {
    return true;
  }
  // "h" as a target stands for any foundation; sources of foundation cards read "hs".
  return written.startsWith("h") && source.startsWith("h") && written.length === 1;
}

function order(last, from, to) {
  const index = last.findIndex((text) => {
    const head = text.startsWith("h") ? text.slice(0, 2) : text[0];
    const rest = text.slice(head.length);
    return samePlace(head, from) && samePlace(rest[0] ?? "", to);
  });
  return index < 0 ? 0 : index;
}

/** Animate from `before` (a snapshot) to what `root` shows now. Resolves when done. */
export function play(root, before, last = [], overrides = new Map()) {
  if (reduced()) {
    return Promise.resolve();
  }
  // A long series (an auto-finish) plays faster, so it never takes more than a few seconds.
  const step = Math.min(STEP, 2400 / Math.max(1, last.length));
  const running = [];
  for (const el of root.querySelectorAll(".card[data-key]")) {
    const old = overrides.get(el.dataset.key) ?? before.get(el.dataset.key);
    if (!old) {
      continue;
    }
    const now = el.getBoundingClientRect();
    const dx = old.rect.left - now.left;
    const dy = old.rect.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) {
      continue;
    }
    const moved = old.source !== el.dataset.source;
    const delay = moved ? order(last, old.source, el.dataset.source) * step : 0;
    el.classList.add("moving");
    const animation = el.animate(
      [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: moved ? DURATION : 160, delay, easing: "cubic-bezier(.2, .7, .3, 1)", fill: "backwards" },
    );
    running.push(animation.finished.catch(() => {}).then(() => el.classList.remove("moving")));
  }
  return Promise.all(running);
}

/** A new deal: the cards fly in from the top of the table, row by row. */
export function deal(root) {
  if (reduced()) {
    return;
  }
  const table = root.getBoundingClientRect();
  const fromX = table.left + table.width / 2;
  const fromY = table.top;
  const cards = [...root.querySelectorAll(".column .card[data-key]")];
  // Deal order: across the columns, one row at a time.
  cards.sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
  const gap = Math.min(16, 900 / Math.max(1, cards.length));
  cards.forEach((el, i) => {
    const now = el.getBoundingClientRect();
    const dx = fromX - (now.left + now.width / 2);
    const dy = fromY - now.top;
    el.classList.add("moving");
    el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) rotate(-10deg)`, opacity: 0 }, { transform: "none", opacity: 1 }],
      { duration: 320, delay: i * gap, easing: "cubic-bezier(.2, .7, .3, 1)", fill: "backwards" },
    ).finished.catch(() => {}).then(() => el.classList.remove("moving"));
  });
}
