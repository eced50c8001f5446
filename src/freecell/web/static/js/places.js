// Places and moves in standard notation, as the server reads them (docs/api.md):
// columns "1".."9", "0"; cells "a".."g", "k" (h, i and j are skipped, as fc-solve does); "h" as a target; "hs"
// (h + suit letter) for the top card of a foundation taken back.

export const COLUMN_CHARS = "1234567890";
export const CELL_CHARS = "abcdefgklmnop";

export function columnChar(index) { return COLUMN_CHARS[index]; }
export function cellChar(index) { return CELL_CHARS[index]; }

/** What a place character is: {kind: "column"|"cell"|"foundation", index}. */
export function placeKind(place) {
  if (place.startsWith("h")) {
    return { kind: "foundation", suit: place.length > 1 ? place[1].toUpperCase() : null };
  }
  const column = COLUMN_CHARS.indexOf(place);
  if (column >= 0) {
    return { kind: "column", index: column };
  }
  return { kind: "cell", index: CELL_CHARS.indexOf(place) };
}

/**
 * The notation the page sends for `count` cards from `source` to `target`. The count is
 * written whenever cards leave a column or cell for a column, so the server plays exactly
 * what was chosen (a take-back, "hs3", is always one card and takes no count).
 */
export function moveText(source, target, count) {
  if (placeKind(target).kind === "column" && !source.startsWith("h")) {
    return `${source}${target}v${count.toString(16)}`;
  }
  return `${source}${target}`;
}

/** A move from the keyboard: `complete` when it can be sent, `valid` while it may still become one. */
export function readTyped(text, state) {
  const cells = state.cells.length;
  const columns = state.columns.length;
  const isColumn = (c) => COLUMN_CHARS.indexOf(c) >= 0 && COLUMN_CHARS.indexOf(c) < columns;
  const isCell = (c) => CELL_CHARS.indexOf(c) >= 0 && CELL_CHARS.indexOf(c) < cells;
  const isTarget = (c) => isColumn(c) || isCell(c) || c === "h";
  const match = /^(h[cdhs]|h|[0-9a-gk-p])?([0-9a-gk-p]|h)?(v[0-9a-f]*)?$/.exec(text);
  if (text === "" || match === null) {
    return { valid: text === "", complete: false };
  }
  let source = text[0];
  let rest = text.slice(1);
  if (source === "h") {
    if (rest === "") {
      return { valid: state.rules.takes_back, complete: false, source: null };
    }
    if (!"cdhs".includes(rest[0])) {
      return { valid: false, complete: false };
    }
    source = text.slice(0, 2);
    rest = text.slice(2);
  } else if (!isColumn(source) && !isCell(source)) {
    return { valid: false, complete: false };
  }
  if (rest === "") {
    return { valid: true, complete: false, source };
  }
  const target = rest[0];
  if (!isTarget(target)) {
    return { valid: false, complete: false };
  }
  const tail = rest.slice(1);
  if (tail === "") {
    // Only a move into an empty column may still take a "v" count.
    const waits = isColumn(target) && state.columns[COLUMN_CHARS.indexOf(target)].length === 0;
    return { valid: true, complete: !waits, waits, source, target, text };
  }
  if (!/^v[0-9a-f]*$/.test(tail) || !isColumn(target)) {
    return { valid: false, complete: false };
  }
  return { valid: true, complete: false, waits: tail.length > 1, source, target, text };
}
