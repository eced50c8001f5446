// Smooth moves: remember where every card was, render the new state, then play each card
// that moved from its old place to its new one. The moves of the last action (the
// state's `last_places`, e.g. [{source: "3", target: "8"}, {source: "4", target: "h"}])
// play one after the other, in their order.

const DURATION = 240;
const STEP = 150;

const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// The slide each card is playing: a card keeps its element from one render to the next,
// so a new move stops the slide of the move before (from where the card is) first.
const slides = new WeakMap();

function stop(el) {
  slides.get(el)?.cancel();
  slides.delete(el);
  el.classList.remove("moving");
}

function slide(el, keyframes, options) {
  el.classList.add("moving");
  const animation = el.animate(keyframes, options);
  slides.set(el, animation);
  return animation.finished.catch(() => {}).then(() => {
    if (slides.get(el) === animation) {
      stop(el);
    }
  });
}

/**
 * Where each keyed card is now, and which place it is in; `origin` is where the table
 * is, so that a card is animated only when it moved on the table, never because the
 * table as a whole did (a panel opened above it).
 */
export function snapshot(root) {
  const places = new Map();
  for (const el of root.querySelectorAll(".card[data-key]")) {
    places.set(el.dataset.key, { rect: el.getBoundingClientRect(), source: el.dataset.source });
  }
  return { origin: root.getBoundingClientRect(), places };
}

/** Which of the last moves took a card from `source` to the place `el` is in now (the first: 0). */
function order(moves, source, el) {
  const target = el.closest("[data-place]")?.dataset.place;
  const index = moves.findIndex((move) => move.source === source && move.target === target);
  return index < 0 ? 0 : index;
}

/**
 * Animate from `before` (a snapshot) to what `root` shows now; `overrides` are where cards
 * were let go at the time of the snapshot (a drag). Resolves when done.
 */
export function play(root, before, moves = [], overrides = new Map()) {
  if (reduced()) {
    return Promise.resolve();
  }
  // A long series (an auto-finish) plays faster, so it never takes more than a few seconds.
  const step = Math.min(STEP, 2400 / Math.max(1, moves.length));
  const running = [];
  const cards = [...root.querySelectorAll(".card[data-key]")];
  cards.forEach(stop);
  const origin = root.getBoundingClientRect();
  const shiftX = before.origin.left - origin.left;
  const shiftY = before.origin.top - origin.top;
  for (const el of cards) {
    const old = overrides.get(el.dataset.key) ?? before.places.get(el.dataset.key);
    if (!old) {
      continue;
    }
    const now = el.getBoundingClientRect();
    // Where it was on the table, drawn where the table is now.
    const dx = old.rect.left - shiftX - now.left;
    const dy = old.rect.top - shiftY - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) {
      continue;
    }
    const moved = old.source !== el.dataset.source;
    const delay = moved ? order(moves, old.source, el) * step : 0;
    running.push(slide(
      el,
      [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: moved ? DURATION : 160, delay, easing: "cubic-bezier(.2, .7, .3, 1)", fill: "backwards" },
    ));
  }
  return Promise.all(running);
}

/** Show `el`'s back (the theme's, css/themes.css) for the first part of its flight, then its face. */
function turnOver(el, options) {
  el.classList.add("face-down");
  const turning = el.animate([{ opacity: 1 }, { opacity: 1, offset: 0.55 }, { opacity: 0 }],
    { ...options, pseudoElement: "::after", fill: "both" });
  turning.finished.catch(() => {}).then(() => {
    el.classList.remove("face-down");
    turning.cancel();
  });
}

/** A new deal: the cards fly in face down from the top of the table, row by row, and turn over. */
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
  cards.forEach(stop);
  cards.forEach((el, i) => {
    const now = el.getBoundingClientRect();
    const dx = fromX - (now.left + now.width / 2);
    const dy = fromY - now.top;
    const timing = { duration: 320, delay: i * gap };
    slide(
      el,
      [{ transform: `translate(${dx}px, ${dy}px) rotate(-10deg)`, opacity: 0 }, { transform: "none", opacity: 1 }],
      { ...timing, easing: "cubic-bezier(.2, .7, .3, 1)", fill: "backwards" },
    );
    turnOver(el, timing);
  });
}
