// The Share panel: a link that opens the deal on the table, with the moves played so far
// if the player wants them.

import { $ } from "../dom.js";
import { shareLink } from "../links.js";
import { store } from "../store.js";
import { toast } from "../toast.js";
import { showDialog } from "./dialog.js";

function fill() {
  const game = store.game;
  $("share-count").textContent = String(game.played.length);
  $("share-moves").disabled = game.played.length === 0;
  $("share-link").value = shareLink(game, $("share-moves").checked);
}

export function setupShare() {
  $("share").addEventListener("click", () => {
    if (!store.game?.code) {
      return;
    }
    fill();
    showDialog("share-dialog");
    $("share-link").select();
  });
  $("share-moves").addEventListener("change", fill);
  $("share-copy").addEventListener("click", async () => {
    const link = $("share-link").value;
    try {
      await navigator.clipboard.writeText(link);
      $("share-dialog").close();
      toast("Link copied: whoever opens it plays this deal.", "info");
    } catch {
      $("share-link").focus();
      $("share-link").select();
      toast("Press Ctrl+C (or ⌘C) to copy the selected link.", "info");
    }
  });
}
