// The table's places as the server names them: the state's `places` gives each column,
// cell and foundation its letters in standard notation (`source`, `target`) and its name.
// With them the page writes the move it sends for cards it moved, and follows a move
// typed on the keyboard far enough to know when it is complete; the server reads every
// move (notation.py owns the grammar). Nothing here knows which letter is which place.

const KINDS = [["columns", "column"], ["cells", "cell"], ["foundations", "foundation"]];
const lookups = new WeakMap();

/** The places of `game` by letter: {kind, index, name} for each source and target. */
function lookup(game) {
  let found = lookups.get(game.places);
  if (found === undefined) {
    found = new Map();
    for (const [list, kind] of KINDS) {
      game.places[list].forEach((place, index) => {
        found.set(place.source, { kind, index, name: place.name });
        if (!found.has(place.target)) {
          found.set(place.target, { kind, index, name: place.name });
        }
      });
    }
    lookups.set(game.places, found);
  }
  return found;
}

/** What a place's letter stands for: {kind: "column" | "cell" | "foundation", index, name}, or null. */
export function placeAt(game, letter) {
  return lookup(game).get(letter) ?? null;
}

/** Whether `letter` names a column of `game`'s table. */
export function isColumn(game, letter) {
  return placeAt(game, letter)?.kind === "column";
}

/** The letter of the foundations as a move's target. */
export function foundationTarget(game) {
  return game.places.foundations[0]?.target ?? null;
}

/**
 * The move the page sends for `count` cards from `source` to `target`. The count is
 * written whenever cards leave a column or cell for a column, so the server plays exactly
 * what was chosen (a card taken back from a foundation goes alone and takes no count).
 */
export function moveText(game, source, target, count) {
  if (isColumn(game, target) && placeAt(game, source)?.kind !== "foundation") {
    return `${source}${target}v${count.toString(16)}`;
  }
  return `${source}${target}`;
}

function letters(game, side) {
  const { columns, cells, foundations } = game.places;
  return [...columns, ...cells, ...foundations].map((place) => place[side]);
}

/**
 * How far `text`, typed on the keyboard, has got as a move on `game`'s table:
 * `valid` while it may still become a move, `complete` when it can be sent, `waits` when
 * a count typed after "v" may go on; `source` and `target` once they are typed, `toColumn`
 * when the target is a column. A move into an empty column is complete without a count:
 * it carries the run, as a click does (keys.js).
 */
export function readTyped(text, game) {
  if (text === "") {
    return { valid: true, complete: false };
  }
  const source = letters(game, "source").find((start) => text.startsWith(start));
  if (source === undefined) {
    // Half of a foundation's letters: a card comes back from there only in some rules.
    const half = game.places.foundations.some((place) => place.source.startsWith(text));
    return half ? { valid: game.rules.takes_back, complete: false, source: null } : { valid: false, complete: false };
  }
  const rest = text.slice(source.length);
  if (rest === "") {
    return { valid: true, complete: false, source };
  }
  const target = letters(game, "target").find((start) => rest.startsWith(start));
  if (target === undefined) {
    return { valid: false, complete: false };
  }
  const toColumn = isColumn(game, target);
  const tail = rest.slice(target.length);
  if (tail === "") {
    return { valid: true, complete: true, waits: false, source, target, toColumn, text };
  }
  if (!/^v[0-9a-f]*$/.test(tail) || !toColumn) {
    return { valid: false, complete: false };
  }
  return { valid: true, complete: false, waits: tail.length > 1, source, target, toColumn, text };
}

/** How the page names `target` when it says where cards may go: the foundation is the card's own. */
export function targetName(game, target) {
  const place = placeAt(game, target);
  return place?.kind === "foundation" ? "its foundation" : place?.name ?? target;
}
