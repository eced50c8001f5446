// The keyboard's side of play: a move typed in standard notation is followed as it is
// typed (its source lit on the table) and sent once complete; the other keys call the
// page's actions. input.js reads the keys; this answers it.

import { busy, redo, sendMove, undo } from "./actions.js";
import { showHint } from "./advice.js";
import { askNewGame } from "./dialogs/new-game.js";
import { $ } from "./dom.js";
import { readTyped } from "./places.js";
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
      // While earlier moves are still on their way, the table may yet change (a column may
      // empty and take a "v" count), so a move onto a column waits for Enter or a pause.
      const settled = !busy() || !read.toColumn;
      if (read.complete && settled) {
        sendMove(buffer);
        return "sent";
      }
      if (read.complete) {
        return "wait";
      }
      return read.waits ? "wait" : "more";
    },
    submit(text) {
      if (store.game && text) {
        sendMove(text);
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
