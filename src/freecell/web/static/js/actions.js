// What the player asks of the server, one request after another: moves, undo and redo,
// restart, finish, and the options of the game. Each answer is a new state, which the
// store takes (and the views draw) and the table animates.

import { api } from "./api.js";
import { deal, play, snapshot } from "./animate.js";
import { confirm } from "./dialogs/confirm.js";
import { $, plural } from "./dom.js";
import { store } from "./store.js";
import { toast } from "./toast.js";

const refusedListeners = [];

/** `listener(message)` hears each refusal of the server (in a lesson, its explanation). */
export function onRefused(listener) {
  refusedListeners.push(listener);
}

/**
 * Take a new state from the server, and animate what moved. `overrides` holds where
 * dragged cards were let go; `how` is "viewer" when the solution viewer asked for it.
 */
export function accept(next, { overrides = new Map(), how = "played" } = {}) {
  const table = $("table");
  const before = snapshot(table);
  const sameGame = store.game?.id === next.id;
  store.receive(next, how);
  if (sameGame) {
    // Not awaited: the next move may start while this one is still sliding.
    play(table, before, next.last_places ?? [], overrides);
  } else if (next.moves === 0) {
    deal(table);
  }
}

// Server actions run one after another, so fast typing never loses a move.
let queue = Promise.resolve(true);
let waiting = 0;

/** Whether actions are still on their way (the table may yet change). */
export const busy = () => waiting > 0;

/**
 * Run `action` after those before it; resolves true when it went through (not when the
 * action returned false: it let it pass). A refusal is shown (unless `quiet`, or in a
 * lesson, whose panel explains it); an unreachable server puts the page offline, the last
 * table still in view.
 */
export function run(action, { quiet = false } = {}) {
  waiting += 1;
  queue = queue.then(async () => {
    try {
      return (await action()) !== false;
    } catch (error) {
      if (error.status === 0) {
        store.setOffline(true);
      } else if (!quiet && !store.game?.lesson) {
        toast(error.message);
      }
      for (const listener of refusedListeners) {
        listener(error.message);
      }
      return false;
    } finally {
      waiting -= 1;
    }
  });
  return queue;
}

/**
 * Run, as `run` does, an action that shows or changes the cards: while the game is paused
 * (its cards hidden, its clock stopped) it is let pass, and resolves false. Resume plays on.
 */
export function runInPlay(action, options) {
  return run(async () => (store.game?.paused ? false : action()), options);
}

/** Send a move in standard notation; `overrides` as for `accept`. */
export function sendMove(text, overrides) {
  store.select(null);
  return run(async () => accept(await api.move(store.game.id, text), { overrides }));
}

export const undo = () => runInPlay(async () => accept(await api.undo(store.game.id)));
export const redo = () => runInPlay(async () => accept(await api.redo(store.game.id)));
export const finish = () => runInPlay(async () => accept(await api.finish(store.game.id)));

/** Back to the start of the deal, once the player has confirmed it when moves were made. */
export async function restart() {
  const game = store.game;
  if (game?.paused) {
    return;
  }
  const playing = game && game.outcome === "playing" && game.moves > 0;
  if (playing && !(await confirm({
    title: "Restart this deal?",
    text: `The ${plural(game.moves, "move")} played will be taken back and the clock starts again.`,
    ok: "Restart",
  }))) {
    return;
  }
  await runInPlay(async () => accept(await api.restart(store.game.id)));
}

/** The player's choice of sending safe cards home, for the game in play. */
export function applyAutoHome(on) {
  const game = store.game;
  if (game && !game.lesson && game.outcome === "playing" && !game.abandoned) {
    run(async () => accept(await api.options(game.id, { auto_home: on })));
  }
}
