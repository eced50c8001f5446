// The game's clock counts only the time the game is in front of the player, as desktop
// games do: it stops when the page is hidden (another tab, a minimised window, the tab
// closed, the phone locked), and starts again when the page comes back, or is opened again
// after the tab was closed, unless the player had paused. Which game the page paused is
// kept in localStorage. A browser that quits or crashes sends no pause: so while the page
// shows a running clock it asks for the game now and then (the server takes the time
// after its last request off the clock when the page comes back after a long silence).

import { accept, run } from "./actions.js";
import { api } from "./api.js";
import { store } from "./store.js";

const PAUSED_WHILE_AWAY = "freecell.pausedWhileAway";
// Well within the server's silence for a page gone (PAGE_GONE_SECONDS in web/games.py).
const HEARTBEAT_MS = 15_000;

/** The player's own pause or resume: the game stays as they left it. */
export async function togglePause() {
  localStorage.removeItem(PAUSED_WHILE_AWAY);
  await run(async () => {
    const game = store.game;
    accept(await (game.paused ? api.resume(game.id) : api.pause(game.id)));
  });
}

/** The game this page paused as it left (null if none), forgotten now: it goes on once. */
export function takePausedWhileAway() {
  const pausedId = localStorage.getItem(PAUSED_WHILE_AWAY);
  localStorage.removeItem(PAUSED_WHILE_AWAY);
  return pausedId;
}

/** `next`, or the state after resuming it when it is the paused game `pausedId`. */
export async function resumedIf(next, pausedId) {
  return next.paused && next.id === pausedId ? api.resume(next.id) : next;
}

/** Pause the game as the page is hidden; go on with it as the page comes back. */
export function pauseWhileAway() {
  const game = store.game;
  if (document.visibilityState === "hidden") {
    if (game && !game.paused && game.outcome === "playing") {
      try {
        localStorage.setItem(PAUSED_WHILE_AWAY, game.id);
      } catch {
        return; // storage refused: the page could not tell its pause from the player's
      }
      run(async () => accept(await api.pause(store.game.id, { keepalive: true })), { quiet: true });
    }
    return;
  }
  const pausedId = takePausedWhileAway();
  if (pausedId !== null) {
    // Queued after the pause, so it sees the state the pause left.
    run(async () => store.game && accept(await resumedIf(store.game, pausedId)), { quiet: true });
  }
}

/** Tell the server, every HEARTBEAT_MS, that the page still shows the game's running clock. */
export function keepSeen() {
  setInterval(() => {
    const game = store.game;
    const running = game && !game.paused && game.outcome === "playing";
    if (running && !store.offline && document.visibilityState === "visible") {
      api.state(game.id).catch(() => {}); // on its own, not queued: no move waits for it
    }
  }, HEARTBEAT_MS);
}
