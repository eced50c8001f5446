// Draws the state the server returned: free cells on the left and foundations on the right
// above the columns (000), only the cells the preset has (001), each empty foundation
// marked with its suit, and columns fanned downward that close up when they grow tall.
// Each place carries its letters as the server gives them (`data-place`: where cards go;
// a foundation's `data-source`: where a card is taken back from), and each card the
// letters of its place (`data-source`).

import { cardBelow, cardLabel, cardSvg, emptyFoundationSvg, suitOf } from "./cards.js";
import { escapeHtml } from "./dom.js";

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
// Where the height allows (a phone held upright, whose cards the width keeps small), the
// fan opens up to SPREAD_FAN so that a column of SIZED_FOR cards fills the height: more of
// each card shows and is easier to tap. A covered card always keeps MIN_TAP px to tap (a
// finger's width), the felt scrolling down for a column too long for that.
const SPREAD_FAN = 0.5;
const MIN_TAP = 20;

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

/** Keys that follow a card from one render to the next (double decks repeat names). */
class Keys {
  constructor() { this.seen = new Map(); }
  next(card) {
    const n = this.seen.get(card) ?? 0;
    this.seen.set(card, n + 1);
    return `${card}#${n}`;
  }
}

/** The places' markup, with no card: made again only when the table's places change. */
function placesHtml(state) {
  const { cells, foundations, columns } = state.places;
  const cellsHtml = cells.map((place) => `<div class="slot cell" role="button" tabindex="0" `
    + `aria-label="${escapeHtml(place.name)}" data-place="${escapeHtml(place.target)}">`
    + `<span class="slot-label" aria-hidden="true">${escapeHtml(place.target)}</span></div>`).join("");
  const foundationsHtml = foundations.map((place, i) => {
    const suit = state.foundations[i].suit;
    return `<div class="slot foundation" role="button" tabindex="0" aria-label="${escapeHtml(place.name)}" `
      + `data-place="${escapeHtml(place.target)}" data-source="${escapeHtml(place.source)}" data-suit="${suit}">`
      + `${emptyFoundationSvg(suit)}</div>`;
  }).join("");
  const piles = columns.map((place) => {
    const name = escapeHtml(place.name);
    const letter = escapeHtml(place.target);
    return `<div class="pile">`
      + `<button type="button" class="heading" data-place="${letter}" aria-label="${name}">${letter}</button>`
      + `<div class="column" role="group" aria-label="${name}" data-place="${letter}"></div></div>`;
  }).join("");
  return `<div class="top-row" role="group" aria-label="free cells and foundations">${cellsHtml}${foundationsHtml}</div>`
    + `<div class="tableau">${piles}</div>`;
}

/**
 * The cards of one render: each card's element from the render before when it had one
 * (the same key), so that only what changed is touched, or a new one.
 */
class Cards {
  constructor(root) {
    this.keys = new Keys();
    this.unused = new Map([...root.querySelectorAll(".card[data-key]")].map((el) => [el.dataset.key, el]));
  }

  /** The element for `card`, its attributes set: its place's `source`, `count`, `index` in a column. */
  take(card, { source, count, index = null, foundation = false, tabindex }) {
    const key = this.keys.next(card);
    let el = this.unused.get(key);
    this.unused.delete(key);
    if (el === undefined) {
      el = document.createElement("div");
      el.className = "card";
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", cardLabel(card));
      el.dataset.card = card;
      el.dataset.key = key;
      el.innerHTML = cardSvg(card);
    }
    el.dataset.source = source;
    if (index === null) {
      delete el.dataset.index;
      el.style.top = "";
    } else {
      el.dataset.index = String(index);
    }
    el.dataset.count = String(count);
    if (foundation) {
      el.dataset.foundation = "1";
    } else {
      delete el.dataset.foundation;
    }
    el.setAttribute("tabindex", String(tabindex));
    return el;
  }

  /** Remove the cards of the render before that this one has not taken. */
  dropUnused() {
    for (const el of this.unused.values()) {
      el.remove();
    }
  }
}

/** Make `container`'s children, after its first `fixed` ones, exactly `wanted`, in order. */
function fill(container, wanted, fixed = 0) {
  wanted.forEach((el, i) => {
    const at = container.children[fixed + i] ?? null;
    if (at !== el) {
      container.insertBefore(el, at);
    }
  });
  while (container.children.length > fixed + wanted.length) {
    container.lastElementChild.remove();
  }
}

const undersShown = new WeakMap(); // the card each foundation's "under" element shows
const layouts = new WeakMap(); // the game and places each table element was made for

/** The card beneath a foundation's top, which shows when the top one is lifted or moved away. */
function underElement(slot, card) {
  let el = slot.querySelector(":scope > .card.under");
  if (el === null) {
    el = document.createElement("div");
    el.className = "card under";
    el.setAttribute("aria-hidden", "true");
  }
  if (undersShown.get(el) !== card) {
    el.innerHTML = cardSvg(card);
    undersShown.set(el, card);
  }
  return el;
}

/** Put the state's cards in their places, each in the element it had if it had one. */
function placeCards(root, state, fans) {
  const cards = new Cards(root);
  const { places } = state;
  root.querySelectorAll(".top-row > .slot.cell").forEach((slot, i) => {
    const card = state.cells[i];
    slot.classList.toggle("empty", card === null);
    const wanted = card === null ? [] : [cards.take(card, { source: places.cells[i].source, count: 1, tabindex: 0 })];
    fill(slot, wanted, 1);
  });
  root.querySelectorAll(".top-row > .slot.foundation").forEach((slot, i) => {
    const top = state.foundations[i].top;
    slot.classList.toggle("empty", !top);
    const wanted = [];
    if (top) {
      const under = cardBelow(top);
      if (under) {
        wanted.push(underElement(slot, under));
      }
      wanted.push(cards.take(top, {
        source: places.foundations[i].source, count: 1, foundation: true, tabindex: state.rules.takes_back ? 0 : -1,
      }));
    }
    fill(slot, wanted, 1);
  });
  root.querySelectorAll(".tableau .column").forEach((el, index) => {
    const column = state.columns[index];
    el.classList.toggle("empty", column.length === 0);
    fill(el, column.map((card, i) => {
      const taken = cards.take(card, {
        source: places.columns[index].source, index: i, count: column.length - i,
        tabindex: i === column.length - 1 ? 0 : -1,
      });
      taken.style.top = `${Math.round(i * fans[index])}px`;
      return taken;
    }));
  });
  cards.dropUnused();
}

/**
 * Fan offsets: a comfortable spacing, opened on a tall felt, that closes up so a tall
 * column fits `available`, down to what leaves a covered card room to be tapped.
 */
function offsets(state, cardH, available) {
  const filling = (available - cardH) / (SIZED_FOR - 1);
  const natural = Math.max(MIN_TAP, Math.min(cardH * SPREAD_FAN, Math.max(cardH * NATURAL_FAN, filling)));
  const tightest = Math.max(MIN_TAP, cardH * TIGHTEST_FAN);
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
 * the frame as it is now: only what changed since the last render is touched, and each
 * card keeps its element, so that only the cards that move are animated. Positions are
 * set through the CSSOM, never as style attributes in markup, so the page runs under a
 * strict Content Security Policy.
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
  // The places and cards are made anew for another game; within a game, each card keeps
  // its element.
  const layout = JSON.stringify([state.id, state.places]);
  if (layouts.get(root) !== layout) {
    root.innerHTML = placesHtml(state);
    layouts.set(root, layout);
  }
  const places = slotPlaces(state, size);
  root.querySelectorAll(".top-row > .slot").forEach((slot, i) => {
    slot.style.gridRow = String(places[i][0]);
    slot.style.gridColumn = String(places[i][1]);
  });
  placeCards(root, state, fans);
  root.querySelectorAll(".tableau .column").forEach((el, index) => {
    const column = state.columns[index];
    const height = column.length ? (column.length - 1) * fans[index] + size.cardH : size.cardH;
    el.style.height = `${Math.ceil(height)}px`;
  });
  return size;
}

/**
 * The elements standing for the place with these letters (as a source or a target): a
 * column with its heading, a cell, a foundation taken back from, or, as a target, the
 * foundations: only the pile of `card`'s suit when a card is given.
 */
export function placeElements(root, letters, card = null) {
  const quoted = CSS.escape(letters);
  const els = [...root.querySelectorAll(`.slot[data-place="${quoted}"], .slot[data-source="${quoted}"], `
    + `.column[data-place="${quoted}"], .heading[data-place="${quoted}"]`)];
  return card ? els.filter((el) => !el.dataset.suit || el.dataset.suit === suitOf(card)) : els;
}

/** The card elements a selection of `count` cards from `source` covers. */
export function sourceCards(root, source, count) {
  const cards = [...root.querySelectorAll(`.card[data-source="${CSS.escape(source)}"]`)];
  return cards.slice(Math.max(0, cards.length - count));
}
