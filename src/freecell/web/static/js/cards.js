// Cards drawn as SVG by our own code: corner indices big enough for a phone, classic pip
// layouts for 2-10, one large pip for an ace, and a clean framed letter for court cards.
// Nothing is downloaded: suit shapes are paths defined once in the page (suitSymbols()).

export const SUITS = {
  C: { name: "clubs", single: "club", red: false },
  D: { name: "diamonds", single: "diamond", red: true },
  H: { name: "hearts", single: "heart", red: true },
  S: { name: "spades", single: "spade", red: false },
};

const RANK_NAMES = {
  A: "ace", T: "10", J: "jack", Q: "queen", K: "king",
};
const RANK_SHOWN = { T: "10" };
const RANK_ORDER = "A23456789TJQK";

const W = 200;
const H = 280;

// Suit shapes in a 100×100 box, centred on (50, 50).
const SUIT_PATHS = {
  H: "M50 92 C44 84 4 58 4 30 C4 13 17 4 29 4 C40 4 47 11 50 20 C53 11 60 4 71 4 C83 4 96 13 96 30 C96 58 56 84 50 92 Z",
  D: "M50 2 C60 20 74 37 90 50 C74 63 60 80 50 98 C40 80 26 63 10 50 C26 37 40 20 50 2 Z",
  S: "M50 4 C56 18 94 38 94 62 C94 76 83 84 72 84 C63 84 57 80 53 74 C54 84 58 91 66 96 L34 96 C42 91 46 84 47 74 "
    + "C43 80 37 84 28 84 C17 84 6 76 6 62 C6 38 44 18 50 4 Z",
  C: "M50 6 C62 6 71 15 71 27 C71 33 69 38 65 42 C69 40 73 39 77 39 C89 39 97 48 97 60 C97 72 88 81 76 81 "
    + "C67 81 59 75 55 67 C55 80 59 89 67 96 L33 96 C41 89 45 80 45 67 C41 75 33 81 24 81 C12 81 3 72 3 60 "
    + "C3 48 11 39 23 39 C27 39 31 40 35 42 C31 38 29 33 29 27 C29 15 38 6 50 6 Z",
};

const SYMBOLS = Object.entries(SUIT_PATHS)
  .map(([suit, d]) => `<symbol id="suit-${suit}" viewBox="0 0 100 100"><path d="${d}"/></symbol>`)
  .join("");

/** The hidden <svg> of <symbol>s every card refers to; put it in the page once. */
export function suitSymbols() {
  return `<svg width="0" height="0" class="symbols" aria-hidden="true">${SYMBOLS}</svg>`;
}

export function rankOf(card) { return card[0]; }
export function suitOf(card) { return card[1]; }
export function rankValue(card) { return RANK_ORDER.indexOf(card[0]) + 1; }
export function isRed(card) { return SUITS[card[1]].red; }

/** "7 of hearts", "queen of spades". */
export function cardLabel(card) {
  const rank = RANK_NAMES[card[0]] ?? card[0];
  return `${rank} of ${SUITS[card[1]].name}`;
}

const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** The card as players read it on its corner: "10♠", "4♥". */
export function cardText(card) {
  return `${RANK_SHOWN[card[0]] ?? card[0]}${SUIT_SIGNS[card[1]]}`;
}

/** The card one rank lower in the same suit, or null below an ace. */
export function cardBelow(card) {
  const value = rankValue(card);
  return value > 1 ? RANK_ORDER[value - 2] + card[1] : null;
}

function pip(suit, x, y, size, flip = false) {
  const half = size / 2;
  const turn = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#suit-${suit}" x="${x - half}" y="${y - half}" width="${size}" height="${size}"${turn}/>`;
}

// Pip positions for 2-10 as (column 0|1|2, row 0..1); rows below the middle are turned.
const PIP_LAYOUTS = {
  2: [[1, 0], [1, 1]],
  3: [[1, 0], [1, 0.5], [1, 1]],
  4: [[0, 0], [2, 0], [0, 1], [2, 1]],
  5: [[0, 0], [2, 0], [1, 0.5], [0, 1], [2, 1]],
  6: [[0, 0], [2, 0], [0, 0.5], [2, 0.5], [0, 1], [2, 1]],
  7: [[0, 0], [2, 0], [1, 0.25], [0, 0.5], [2, 0.5], [0, 1], [2, 1]],
  8: [[0, 0], [2, 0], [1, 0.25], [0, 0.5], [2, 0.5], [1, 0.75], [0, 1], [2, 1]],
  9: [[0, 0], [2, 0], [0, 1 / 3], [2, 1 / 3], [1, 0.5], [0, 2 / 3], [2, 2 / 3], [0, 1], [2, 1]],
  10: [[0, 0], [2, 0], [1, 1 / 6], [0, 1 / 3], [2, 1 / 3], [0, 2 / 3], [2, 2 / 3], [1, 5 / 6], [0, 1], [2, 1]],
};
const PIP_X = [68, 100, 132];
const PIP_TOP = 100;
const PIP_BOTTOM = 236;

function pips(card) {
  const suit = suitOf(card);
  const value = rankValue(card);
  if (value === 1) {
    return pip(suit, 100, 162, 96);
  }
  const size = value >= 9 ? 34 : 38;
  return PIP_LAYOUTS[value]
    .map(([col, row]) => pip(suit, PIP_X[col], PIP_TOP + row * (PIP_BOTTOM - PIP_TOP), size, row > 0.5))
    .join("");
}

// Court cards: a tinted frame, a simple crown or cap drawn with a few strokes, the letter
// in a serif face and the suit beneath it.
const CROWNS = {
  K: "M70 118 L70 94 L85 106 L100 88 L115 106 L130 94 L130 118 Z",
  Q: "M72 118 L76 98 L88 108 L100 94 L112 108 L124 98 L128 118 Z",
  J: "M74 118 C74 102 88 94 104 94 C116 94 124 100 128 108 L112 110 L112 118 Z",
};

function court(card) {
  const suit = suitOf(card);
  const rank = rankOf(card);
  const tint = isRed(card) ? "#fbe7e4" : "#e6eaf2";
  const jewel = isRed(card) ? "#d4a017" : "#c0392b";
  // The frame starts below the strip a fanned column shows, so only the index peeks out.
  return `<rect x="42" y="86" width="116" height="168" rx="10" fill="${tint}" stroke="currentColor" stroke-width="3"/>`
    + `<rect x="49" y="93" width="102" height="154" rx="6" fill="none" stroke="currentColor" stroke-width="1" opacity=".45"/>`
    + `<g transform="translate(0 8)"><path d="${CROWNS[rank]}" fill="${jewel}" stroke="currentColor" stroke-width="3" `
    + `stroke-linejoin="round"/><circle cx="100" cy="${rank === "J" ? 103 : 91}" r="4" fill="currentColor"/></g>`
    + `<text x="100" y="200" text-anchor="middle" font-family="Georgia, 'Liberation Serif', 'DejaVu Serif', serif" `
    + `font-weight="700" font-size="76" fill="currentColor">${rank}</text>`
    + pip(suit, 100, 229, 32);
}

// The corner index: the rank, and the suit beside it, within the strip a fanned column
// shows. The large one (themes: "large indices") is taller, wider and heavier, so a
// phone's small cards read at a glance.
const INDEX = { x: 14, y: 66, size: 68, length: 66, weight: 700, pipX: 166, pipSize: 48 };
const LARGE_INDEX = { x: 8, y: 70, size: 86, length: 92, weight: 900, pipX: 160, pipSize: 62 };

function corner(card, { x, y, size, length, weight, pipX, pipSize }) {
  const rank = RANK_SHOWN[rankOf(card)] ?? rankOf(card);
  const wide = rank.length > 1 ? ` textLength="${length}" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text x="${x}" y="${y}" font-family="Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif" `
    + `font-weight="${weight}" font-size="${size}"${wide} fill="currentColor">${rank}</text>`
    + pip(suitOf(card), pipX, 38, pipSize);
}

function smallCorner(card) {
  const rank = RANK_SHOWN[rankOf(card)] ?? rankOf(card);
  const wide = rank.length > 1 ? ` textLength="34" lengthAdjust="spacingAndGlyphs"` : "";
  return `<g transform="rotate(180 100 140)">`
    + `<text x="12" y="40" font-family="Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif" font-weight="700" `
    + `font-size="34"${wide} fill="currentColor">${rank}</text>${pip(suitOf(card), 25, 56, 22)}</g>`;
}

/** A card's drawing inside its 200×280 box: the face, and both sizes of corner index. */
function faceMarkup(card, indices = "both") {
  const value = rankValue(card);
  const face = value > 10 ? court(card) : pips(card);
  const normal = indices === "large" ? "" : `<g class="index">${corner(card, INDEX)}</g>`;
  const large = indices === "normal" ? "" : `<g class="index-large">${corner(card, LARGE_INDEX)}</g>`;
  return `<rect x="2" y="2" width="${W - 4}" height="${H - 4}" rx="16" fill="#fffdf7" stroke="#b9b2a2" stroke-width="2"/>`
    + `<g fill="currentColor">${normal}${large}${face}${smallCorner(card)}</g>`;
}

// The colours of the classic two-colour deck. The page's style sheet (themes.css) colours
// each face by its suit class, which is how the four-colour deck reaches every card.
const INK = { red: "#c0182b", black: "#1b1d24" };

const cache = new Map();

/**
 * The SVG markup of one card face, e.g. cardSvg("7H"). Its class names its suit
 * (`suit-H`), so the theme sets its colour; both corner indices are drawn and the theme
 * shows one.
 */
export function cardSvg(card) {
  let svg = cache.get(card);
  if (svg === undefined) {
    const colour = isRed(card) ? INK.red : INK.black;
    svg = `<svg viewBox="0 0 ${W} ${H}" class="face suit-${suitOf(card)}" aria-hidden="true" focusable="false" `
      + `color="${colour}">${faceMarkup(card)}</svg>`;
    cache.set(card, svg);
  }
  return svg;
}

/**
 * A card face as a standalone SVG document (its suit shapes inside it), to draw on a
 * canvas: in `colour`, with the `large` index or the normal one.
 */
export function cardDocument(card, colour, large = false) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" `
    + `color="${colour}"><defs>${SYMBOLS}</defs>${faceMarkup(card, large ? "large" : "normal")}</svg>`;
}

/** The faint mark of an empty foundation: its suit symbol. */
export function emptyFoundationSvg(suit) {
  // Opaque tints: a translucent red over green felt turns brown.
  const colour = SUITS[suit].red ? "#d9827f" : "#5fa57a";
  return `<svg viewBox="0 0 ${W} ${H}" class="mark suit-${suit}" aria-hidden="true" focusable="false" color="${colour}">`
    + `<g fill="currentColor" opacity=".8">${pip(suit, 100, 140, 104)}</g></svg>`;
}
