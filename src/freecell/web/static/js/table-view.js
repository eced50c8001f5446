// The table on the felt, kept in step with the store: drawn again for each new state and
// whenever the felt changes size, with the selection, the places it may go and the hint
// lit on it. Keyboard users keep their place: the card or place they were on keeps the
// focus when the table is drawn again.

import { $ } from "./dom.js";
import { placeElements, renderTable, sourceCards } from "./table.js";
import { store } from "./store.js";

const LIT = ["selected", "target", "hint-source", "hint-target", "source-preview"];

/** Light the cards picked up, the places they may go, and the hint. */
function decorate(root) {
  for (const el of root.querySelectorAll(LIT.map((name) => `.${name}`).join(", "))) {
    el.classList.remove(...LIT);
  }
  const { selection, targets, hint } = store;
  if (selection) {
    sourceCards(root, selection.source, selection.count).forEach((el) => el.classList.add("selected"));
    for (const place of targets) {
      placeElements(root, place, selection.card).forEach((el) => el.classList.add("target"));
    }
  }
  if (hint) {
    sourceCards(root, hint.source, hint.count).forEach((el) => el.classList.add("hint-source"));
    placeElements(root, hint.source).forEach((el) => el.classList.add("hint-source"));
    placeElements(root, hint.target, hint.card).forEach((el) => el.classList.add("hint-target"));
  }
}

/** A selector that finds again, after a render, the table element that had the focus. */
function focusSelector(root, el) {
  if (!el || !root.contains(el)) {
    return null;
  }
  if (el.dataset.key) {
    return `.card[data-key="${el.dataset.key}"]`;
  }
  const kind = el.classList.contains("heading") ? ".heading" : ".slot";
  const suit = el.dataset.suit ? `[data-suit="${el.dataset.suit}"]` : "";
  return el.dataset.place ? `${kind}[data-place="${el.dataset.place}"]${suit}` : null;
}

export function setupTableView() {
  const root = $("table");
  const frame = $("frame");
  let drawn = ""; // the felt's size the table was last laid out for

  function draw() {
    const focused = focusSelector(root, document.activeElement);
    drawn = `${frame.clientWidth}x${frame.clientHeight}`;
    renderTable(root, store.game, frame);
    decorate(root);
    if (focused) {
      root.querySelector(focused)?.focus({ preventScroll: true });
    }
  }

  store.subscribe((change) => {
    if (change.kind === "game" && change.how !== "refreshed") {
      draw();
    } else if (change.kind === "selection" || change.kind === "hint") {
      decorate(root);
    }
  });

  // The table is laid out again whenever the felt changes size: a resize, a rotation, or
  // a panel above it opening or closing.
  let queued = false;
  new ResizeObserver(() => {
    if (queued) {
      return;
    }
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      if (store.game && `${frame.clientWidth}x${frame.clientHeight}` !== drawn) {
        draw();
      }
    });
  }).observe(frame);

  // The notices over the foot of the felt leave the table where it is; the table's padding
  // grows by their height instead, so that the felt scrolls a long column out from under
  // them. The note above them is not counted: it comes and goes without a change.
  const notices = $("notices");
  new ResizeObserver(() => {
    frame.style.setProperty("--notices", `${notices.offsetHeight ? notices.offsetHeight + 10 : 0}px`);
  }).observe(notices);
  // A lost game's banner stands at the foot of the felt: the note and the notices rise above it.
  const banner = $("banner");
  const foot = document.querySelector(".foot");
  new ResizeObserver(() => {
    const lost = !banner.hidden && banner.classList.contains("lost");
    foot.style.setProperty("--foot-lift", `${lost ? banner.offsetHeight + 16 : 0}px`);
  }).observe(banner);
}
