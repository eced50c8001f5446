// The first visit's tip: how a card is moved, and where help is. It stands over the foot
// of the felt (the table does not move for it) until the player puts it away or moves a
// card, and is never shown again after that (the store keeps it among the options).

import { $ } from "./dom.js";
import { store } from "./store.js";

function dismiss() {
  $("welcome").hidden = true;
  if (!store.options.welcomed) {
    store.setOption("welcomed", true);
  }
}

export function setupWelcome() {
  $("welcome-ok").addEventListener("click", dismiss);
  store.subscribe((change) => {
    const { game } = store;
    if (change.kind !== "game" || store.options.welcomed) {
      return;
    }
    const before = change.previous;
    const moved = change.how === "played" && before?.id === game.id && game.moves > before.moves;
    if (moved) {
      dismiss(); // a card moved: the player knows how
    } else {
      $("welcome").hidden = Boolean(game.lesson); // a lesson says it all
    }
  });
}
