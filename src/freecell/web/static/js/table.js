// Draws the state the server returned: free cells on the left and foundations on the right
// above the columns (000), only the cells the preset has (001), each empty foundation
// marked with its suit, and columns fanned downward that close up when they grow tall.

import { cardBelow, cardLabel, cardSvg, emptyFoundationSvg, SUITS } from "./cards.js";
import { cellChar, columnChar } from "./places.js";

// Below MIN_CARD the corner indices are hard to read: the felt scrolls sideways instead.
const MIN_CARD = 32;
const MAX_CARD = 136;
const RATIO = 1.4;
// A fan shows each covered card's corner index (the top 0.24 of the card). It closes up
// when a column grows tall: cards are sized so that a column of 12 fits with the index
// whole (LEGIBLE_FAN); a taller column closes further, to TIGHTEST_FAN, showing most of it.
const NATURAL_FAN = 0.27;
const LEGIBLE_FAN = 0.22;
const TIGHTEST_FAN = 0.16;
const SIZED_FOR = 12;

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Gap between cards, padding inside the felt and the column headings' height. */
function spacing(width, height) {
  if (width < 500 || height < 420) {
    return { gap: 4, pad: 4, heading: 22 };
  }
  if (width < 760) {
    return { gap: 6, pad: 8, heading: 22 };
  }
  return { gap: width < 1200 ? 10 : 16, pad: width < 1200 ? 12 : 20, heading: 28 };
}

/**
 * The table's geometry in a frame `width` × `height` pixels: the widest cards such that
 * the columns span the width and the top rows and a column of 13 cards (closed up) fit
 * the height. The top row lines up with the columns: cells over the first columns,
 * foundations over the last. Where cells and foundations outnumber the columns (Eight
 * Off, Double FreeCell), they take two rows when the height allows it at no cost to the
 * cards' size, or else one row of smaller slots spanning the columns' width.
 */
export function measure(state, width, height = Infinity) {
  const columns = state.columns.length;
  const cells = state.cells.length;
  const foundations = state.foundations.length;
  const slots = cells + foundations;
  const { gap, pad, heading } = spacing(width, height);
  const byWidth = Math.floor((width - 2 * pad - (columns - 1) * gap) / columns);
  const column = 1 + (SIZED_FOR - 1) * LEGIBLE_FAN;
  // Height taken apart from the cards: padding, the gap under the top rows, the headings.
  const fixed = (rows) => 2 * pad + rows * (gap + 4) + heading + 6;
  const byHeight = (rows, slotShare) => Math.floor((height - fixed(rows)) / ((rows * slotShare + column) * RATIO));
  const fit = (limit) => Math.max(MIN_CARD, Math.min(MAX_CARD, byWidth, limit));
  let rows = 1;
  let cardW = fit(byHeight(1, 1));
  let slotW = cardW;
  if (slots > columns) {
    const share = (columns * (cardW + gap) - gap - (slots - 1) * gap) / slots / cardW;
    const oneRow = fit(byHeight(1, share));
    const twoRows = fit(byHeight(2, 1));
    if (twoRows >= oneRow) {
      rows = 2;
      cardW = twoRows;
      slotW = cardW;
    } else {
      cardW = oneRow;
      slotW = Math.floor((columns * (cardW + gap) - gap - (slots - 1) * gap) / slots);
    }
  }
  const cardH = Math.round(cardW * RATIO);
  const slotH = Math.round(slotW * RATIO);
  const topHeight = rows * slotH + (rows - 1) * gap;
  return {
    cardW, cardH, slotW, slotH, gap, pad, heading, rows, columns,
    tableWidth: columns * cardW + (columns - 1) * gap,
    // Room left for the columns' fans below the top rows and the headings.
    columnHeight: height - 2 * pad - topHeight - (gap + 4) - heading - 6,
  };
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

function columnHtml(state, column, index, keys) {
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

/** Fan offsets: a comfortable spacing that closes up so a tall column fits `available`. */
function offsets(state, cardH, available) {
  const natural = cardH * NATURAL_FAN;
  const tightest = cardH * TIGHTEST_FAN;
  return state.columns.map((column) => {
    if (column.length < 2) {
      return natural;
    }
    const fit = (available - cardH) / (column.length - 1);
    return Math.max(tightest, Math.min(natural, fit));
  });
}

/**
 * Where each slot of the top rows goes in the grid: cells from the left, foundations
 * from the right, on one row or (cells, then foundations) on two.
 */
function slotPlaces(state, size) {
  const cells = state.cells.length;
  const foundations = state.foundations.length;
  if (size.rows === 2) {
    return [
      ...state.cells.map((_, i) => [1, i + 1]),
      ...state.foundations.map((_, i) => [2, size.columns - foundations + i + 1]),
    ];
  }
  const tracks = Math.max(size.columns, cells + foundations);
  return [
    ...state.cells.map((_, i) => [1, i + 1]),
    ...state.foundations.map((_, i) => [1, tracks - foundations + i + 1]),
  ];
}

/**
 * Render `state` into `root` (the table element inside the scrolling `frame`), sized to
 * the frame as it is now. Positions are set through the CSSOM, never as style attributes
 * in markup, so the page runs under a strict Content Security Policy.
 */
export function renderTable(root, state, frame) {
  const size = measure(state, frame.clientWidth, frame.clientHeight);
  const fans = offsets(state, size.cardH, size.columnHeight);
  const tracks = size.rows === 2 ? size.columns : Math.max(size.columns, state.cells.length + state.foundations.length);
  const properties = {
    "--card-w": size.cardW, "--card-h": size.cardH, "--slot-w": size.slotW, "--slot-h": size.slotH,
    "--gap": size.gap, "--pad": size.pad, "--heading": size.heading, "--table-w": size.tableWidth,
  };
  for (const [name, value] of Object.entries(properties)) {
    root.style.setProperty(name, `${value}px`);
  }
  root.style.setProperty("--columns", String(size.columns));
  root.style.setProperty("--top-tracks", String(tracks));
  root.dataset.rows = String(size.rows);
  const keys = new Keys();
  const columns = state.columns.map((column, i) => columnHtml(state, column, i, keys)).join("");
  root.innerHTML = `<div class="top-row" role="group" aria-label="free cells and foundations">`
    + `${cellsHtml(state, keys)}${foundationsHtml(state, keys)}</div><div class="tableau">${columns}</div>`;
  const places = slotPlaces(state, size);
  root.querySelectorAll(".top-row > .slot").forEach((slot, i) => {
    slot.style.gridRow = String(places[i][0]);
    slot.style.gridColumn = String(places[i][1]);
  });
  root.querySelectorAll(".tableau .column").forEach((el, index) => {
    const column = state.columns[index];
    const cards = el.querySelectorAll(".card");
    cards.forEach((card, i) => { card.style.top = `${Math.round(i * fans[index])}px`; });
    const height = column.length ? (column.length - 1) * fans[index] + size.cardH : size.cardH;
    el.style.height = `${Math.ceil(height)}px`;
  });
  return size;
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
