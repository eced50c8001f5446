// The keyboard's side of play: a move typed in standard notation is followed as it is
// typed (its source lit on the table) and sent once complete; the other keys call the
// page's actions. input.js reads the keys; this answers it.

import { accept, busy, redo, run, undo } from "./actions.js";
import { showHint } from "./advice.js";
import { api } from "./api.js";
import { askNewGame } from "./dialogs/new-game.js";
import { $ } from "./dom.js";
import { moveText, placeAt, readTyped } from "./places.js";
import { ordered } from "./runs.js";
import { tap, widen } from "./selection.js";
import { placeElements } from "./table.js";
import { store } from "./store.js";
import { toast } from "./toast.js";

/** Show the move typed so far under the table, and light its source. */
function showTyped(buffer) {
  const el = $("typed");
  const table = $("table");
  el.hidden = buffer === "";
  el.textContent = buffer ? `Move: ${buffer}` : "";
  for (const node of table.querySelectorAll(".source-preview")) {
    node.classList.remove("source-preview");
  }
  const read = buffer && store.game ? readTyped(buffer, store.game) : null;
  if (read?.source) {
    placeElements(table, read.source).forEach((node) => node.classList.add("source-preview"));
  }
}

/**
 * The move to send for `text` typed on `game`'s table: as typed, but from a column into an
 * empty column with no count, the cards a click on the run's top card would carry: the
 * longest ordered run the server lets go there.
 */
async function withRun(game, text) {
  const read = readTyped(text, game);
  const source = read.complete ? placeAt(game, read.source) : null;
  const target = read.complete ? placeAt(game, read.target) : null;
  if (text.includes("v") || source?.kind !== "column" || target?.kind !== "column"
      || game.columns[target.index].length > 0) {
    return text;
  }
  const column = game.columns[source.index];
  let count = column.length;
  while (count > 1 && !ordered(column.slice(column.length - count), game.rules)) {
    count -= 1;
  }
  for (; count > 1; count -= 1) {
    const { targets } = await api.destinations(game.id, read.source, count);
    if (targets.includes(read.target)) {
      return moveText(game, read.source, read.target, count);
    }
  }
  return text;
}

/** Send a typed move, read on the table as it stands once the moves before it are played. */
function sendTyped(text) {
  store.select(null);
  return run(async () => {
    const game = store.game;
    accept(await api.move(game.id, await withRun(game, text)));
  });
}

/** What each key does, for input.js's wireKeyboard; `solution` steps the solution viewer. */
export function keyActions(solution) {
  return {
    typed(buffer) {
      const game = store.game;
      if (!game || game.paused) {
        return "bad";
      }
      const read = readTyped(buffer, game);
      if (!read.valid) {
        toast(`“${buffer}” is not a move on this table.`);
        return "bad";
      }
      // While earlier moves are still on their way, a move onto a column waits for Enter,
      // a pause or a "v" count: the column may yet empty.
      const settled = !busy() || !read.toColumn;
      if (read.complete && settled) {
        sendTyped(buffer);
        return "sent";
      }
      if (read.complete) {
        return "wait";
      }
      return read.waits ? "wait" : "more";
    },
    submit(text) {
      if (store.game && text) {
        sendTyped(text);
      }
    },
    undo,
    redo,
    hint: showHint,
    newGame: askNewGame,
    stepForward: () => solution.forward(),
    stepBack: () => solution.back(),
    escape: () => {
      store.select(null);
      store.showHint(null);
    },
    activate: (el) => tap(el),
    show: showTyped,
    widen,
  };
}
