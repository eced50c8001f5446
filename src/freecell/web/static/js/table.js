// Draws the state the server returned: free cells on the left and foundations on the right
// above the columns (000), only the cells the preset has (001), each empty foundation
// marked with its suit, and columns fanned downward that close up when they grow tall.

import { cardBelow, cardLabel, cardSvg, emptyFoundationSvg, SUITS } from "./cards.js";
import { cellChar, columnChar } from "./places.js";

const MIN_CARD = 54;
const MAX_CARD = 136;

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Card width, gap and padding for a frame `width` pixels wide with `height` pixels below
 * its top edge: the widest cards such that the top row and a column of thirteen cards,
 * fanned at ease, fit in that height.
 */
export function measure(state, width, height = Infinity) {
  const columns = state.columns.length;
  const top = state.cells.length + state.foundations.length + (state.cells.length ? 0.5 : 0);
  const units = Math.max(columns, top);
  const gap = width < 760 ? 6 : width < 1200 ? 10 : 16;
  const pad = width < 760 ? 8 : 20;
  const byWidth = Math.floor((width - 2 * pad - (units - 1) * gap) / units);
  const byHeight = Math.floor((height - 2 * pad - 60) / (2 + 12 * 0.27) / 1.4);
  const cardW = Math.max(MIN_CARD, Math.min(MAX_CARD, byWidth, byHeight));
  return { cardW, cardH: Math.round(cardW * 1.4), gap, pad };
}

function cardHtml(card, attrs) {
  const extra = Object.entries(attrs)
    .map(([name, value]) => ` ${name}="${escape(value)}"`)
    .join("");
  return `<div class="card" role="button" aria-label="${escape(cardLabel(card))}" data-card="${card}"${extra}>`
    + `${cardSvg(card)}</div>`;
}

/** Keys that follow a card from one render to the next (double decks repeat names). */
class Keys {
  constructor() { this.seen = new Map(); }
  next(card) {
    const n = this.seen.get(card) ?? 0;
    this.seen.set(card, n + 1);
    return `${card}#${n}`;
  }
}

function cellsHtml(state, keys) {
  return state.cells.map((card, i) => {
    const place = cellChar(i);
    const inside = card === null ? "" : cardHtml(card, {
      "data-key": keys.next(card), "data-source": place, "data-count": 1, tabindex: 0,
    });
    return `<div class="slot cell${card === null ? " empty" : ""}" role="button" tabindex="0" `
      + `aria-label="free cell ${place}" data-place="${place}">`
      + `<span class="slot-label" aria-hidden="true">${place}</span>${inside}</div>`;
  }).join("");
}

function foundationsHtml(state, keys) {
  const seen = new Map();
  return state.foundations.map((pile) => {
    const suit = pile.suit;
    const n = (seen.get(suit) ?? 0) + 1;
    seen.set(suit, n);
    const name = `${SUITS[suit].name} foundation${n > 1 ? ` ${n}` : ""}`;
    let inside = emptyFoundationSvg(suit);
    if (pile.top) {
      const under = cardBelow(pile.top);
      // The card beneath shows when the top one is lifted or moved away.
      const below = under ? `<div class="card under" aria-hidden="true">${cardSvg(under)}</div>` : "";
      inside += below + cardHtml(pile.top, {
        "data-key": keys.next(pile.top), "data-source": `h${suit.toLowerCase()}`, "data-count": 1,
        "data-foundation": "1", tabindex: state.rules.takes_back ? 0 : -1,
      });
    }
    return `<div class="slot foundation${pile.top ? "" : " empty"}" role="button" tabindex="0" `
      + `aria-label="${name}" data-place="h" data-suit="${suit}">${inside}</div>`;
  }).join("");
}

function columnHtml(state, column, index, size, keys) {
  const place = columnChar(index);
  const cards = column.map((card, i) => cardHtml(card, {
    "data-key": keys.next(card), "data-source": place, "data-index": i, "data-count": column.length - i,
    tabindex: i === column.length - 1 ? 0 : -1,
  })).join("");
  return `<div class="pile">`
    + `<button type="button" class="heading" data-place="${place}" aria-label="column ${place}">${place}</button>`
    + `<div class="column${column.length ? "" : " empty"}" role="group" aria-label="column ${place}" `
    + `data-place="${place}">${cards}</div></div>`;
}

/**
 * Fan the columns' cards and size the columns. Set through the DOM, not as style="…" in the
 * markup, which the page's Content-Security-Policy (style-src 'self') refuses.
 */
function fan(root, state, size) {
  root.querySelectorAll(".tableau .column").forEach((columnEl, index) => {
    const length = state.columns[index].length;
    const height = length ? (length - 1) * size.offsets[index] + size.cardH : size.cardH;
    columnEl.style.height = `${Math.ceil(height)}px`;
    columnEl.querySelectorAll(":scope > .card").forEach((cardEl, i) => {
      cardEl.style.top = `${Math.round(i * size.offsets[index])}px`;
    });
  });
}

/** Fan offsets: a comfortable spacing that closes up so a tall column fits `available`. */
function offsets(state, cardH, available) {
  const natural = cardH * 0.27;
  const tightest = cardH * 0.15;
  return state.columns.map((column) => {
    if (column.length < 2) {
      return natural;
    }
    const fit = (available - cardH) / (column.length - 1);
    return Math.max(tightest, Math.min(natural, fit));
  });
}

/** Render `state` into `root` (the table element inside the scrolling frame). */
export function renderTable(root, state, frame) {
  const frameTop = frame.getBoundingClientRect().top + window.scrollY;
  const size = measure(state, frame.clientWidth, window.innerHeight - frameTop);
  const chrome = size.cardH + 2 * size.pad + 40;
  const available = Math.max(size.cardH * 3, window.innerHeight - frameTop - chrome - 16);
  size.offsets = offsets(state, size.cardH, available);
  root.style.setProperty("--card-w", `${size.cardW}px`);
  root.style.setProperty("--card-h", `${size.cardH}px`);
  root.style.setProperty("--gap", `${size.gap}px`);
  root.style.setProperty("--pad", `${size.pad}px`);
  const keys = new Keys();
  const columns = state.columns.map((column, i) => columnHtml(state, column, i, size, keys)).join("");
  root.innerHTML = `<div class="top-row">`
    + `<div class="cells" role="group" aria-label="free cells">${cellsHtml(state, keys)}</div>`
    + `<div class="foundations" role="group" aria-label="foundations">${foundationsHtml(state, keys)}</div>`
    + `</div><div class="tableau">${columns}</div>`;
  fan(root, state, size);
}

/** The elements standing for a place: a column with its heading, a cell, or the foundations. */
export function placeElements(root, place) {
  if (place.startsWith("h")) {
    const suit = place.length > 1 ? place[1].toUpperCase() : null;
    const piles = [...root.querySelectorAll(".slot.foundation")];
    return suit ? piles.filter((el) => el.dataset.suit === suit) : piles;
  }
  return [...root.querySelectorAll(`[data-place="${place}"]`)];
}

/** The card elements a selection of `count` cards from `source` covers. */
export function sourceCards(root, source, count) {
  const cards = [...root.querySelectorAll(`.card[data-source="${source}"]`)];
  return cards.slice(Math.max(0, cards.length - count));
}
