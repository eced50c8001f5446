// Opening the page: the game a link or the address asks for, else the game in progress,
// else a new deal; the last state kept, so that the table stays in view when the server
// cannot be reached; and trying again once it can.

import { accept, run } from "./actions.js";
import { api } from "./api.js";
import { confirm } from "./dialogs/confirm.js";
import { $ } from "./dom.js";
import { linkRequest } from "./links.js";
import { pauseWhileAway, resumedIf, takePausedWhileAway } from "./clock.js";
import { store } from "./store.js";
import { toast } from "./toast.js";

const LAST_STATE = "freecell.lastState";

/** Keep the last state, so that the table stays in view when the server cannot be reached. */
function remember(game) {
  try {
    localStorage.setItem(LAST_STATE, JSON.stringify(game));
  } catch {
    // Storage full or refused: the page works on without it.
  }
}

/** The server cannot be reached: say so, and show the last table it sent. */
function offline() {
  store.setOffline(true);
  if (store.game) {
    return;
  }
  try {
    const last = JSON.parse(localStorage.getItem(LAST_STATE) ?? "null");
    // A state kept by an older page, without the places' letters, cannot be drawn.
    if (last?.places) {
      store.receive(last, "saved");
    }
  } catch {
    // Nothing usable was kept: the message alone shows.
  }
}

/** The game a link asks for, once the player agrees to leave a game in progress. */
async function openLink(link) {
  // A reload continues the game instead of dealing the link again.
  window.history.replaceState(null, "", window.location.pathname);
  const current = await api.current();
  const playing = current.id ? await api.state(current.id).catch(() => null) : null;
  if (playing && playing.outcome === "playing" && playing.moves > 0 && !playing.lesson && !(await confirm({
    title: "Open the shared deal?",
    text: "The game in progress will be abandoned and count as a loss in the statistics.",
    ok: "Open it",
  }))) {
    return playing;
  }
  try {
    return await api.newGame({ ...link, auto_home: store.options.autoHome });
  } catch (error) {
    if (error.status === 0) {
      throw error;
    }
    toast(`This link cannot be opened: ${error.message}`);
    return playing;
  }
}

/** The state to open: a link's deal, the address's game, the game in progress, or a new deal. */
async function firstState() {
  const params = new URLSearchParams(window.location.search);
  const link = linkRequest(window.location.search);
  let first = null;
  if (link) {
    first = await openLink(link);
  } else if (params.get("game")) {
    first = await api.state(params.get("game")).catch((error) => {
      if (error.status === 0) {
        throw error;
      }
      return null;
    });
  }
  if (!first) {
    const current = await api.current();
    if (current.id) {
      first = await api.state(current.id).catch(() => null);
    }
  }
  const autoHome = store.options.autoHome;
  if (!first) {
    first = await api.newGame({ random: true, auto_home: autoHome }); // the server's default rules
  }
  // The player's choice of sending safe cards home holds in every game they play.
  if (!first.lesson && first.outcome === "playing" && !first.abandoned && first.auto_home !== autoHome) {
    first = await api.options(first.id, { auto_home: autoHome });
  }
  return first;
}

/** Open the page's game (see firstState), or the last table kept when the server cannot be reached. */
export async function load() {
  let first;
  try {
    first = await firstState();
  } catch (error) {
    if (error.status !== 0) {
      throw error;
    }
    offline();
    return;
  }
  accept(first);
  pauseWhileAway(); // opened in a hidden tab, or again after the tab was closed
}

export function setupStart() {
  store.subscribe((change) => {
    if (change.kind === "game" && change.how !== "saved") {
      remember(store.game);
    }
    if (change.kind === "game" || change.kind === "offline") {
      $("offline").hidden = !store.offline;
    }
  });
  $("retry").addEventListener("click", () => {
    store.setOffline(false);
    // A pause sent as the page left may have reached the server after all: once it answers,
    // the game paused while away goes on, as on any return to the page; in the same queued
    // action, so that a move typed meanwhile waits for the resumed game.
    const retry = store.game?.id
      ? run(async () => {
          const next = await api.state(store.game.id);
          accept(await resumedIf(next, takePausedWhileAway()));
        })
      : load();
    retry.catch(() => offline());
  });
}
