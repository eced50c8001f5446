// The Share panel: what to send so that someone else plays the deal on the table. Where a
// link opens for them (the static site, a published site, a server on the network) it is
// a link, with the moves played so far if the player wants them; from a server only this
// computer reaches, it is the game code to type into any copy of the game (GET /api/sharing).

import { api } from "../api.js";
import { $ } from "../dom.js";
import { shareLink } from "../links.js";
import { store } from "../store.js";
import { toast } from "../toast.js";
import { showDialog } from "./dialog.js";

const SAME_DEAL = "Anyone who opens this link plays the same deal, under the same rules.";
const NOTES = {
  page: SAME_DEAL,
  site: SAME_DEAL,
  network: "Anyone on your network who opens this link plays the same deal, but this server lets in only "
    + "its player: they also need its token, from the address that freecell play printed.",
};

let target = null; // the server's answer, asked once: it does not change while the page is open

async function shareTarget() {
  // Unknown (an older server): the game code, which opens everywhere.
  target ??= await api.sharing().catch(() => ({ mode: "code", address: null }));
  return target;
}

function fill() {
  const game = store.game;
  const byCode = target.mode === "code";
  $("share-count").textContent = String(game.played.length);
  $("share-moves").disabled = game.played.length === 0;
  $("share-moves-choice").hidden = byCode;
  $("share-what").textContent = byCode ? "Game code" : "Link";
  $("share-copy").textContent = byCode ? "Copy code" : "Copy link";
  $("share-note").textContent = byCode
    ? "Only this computer can open this game's address, so a link would open for nobody else. "
      + `Send the game code: in any copy of FreeCell, New game → Game code deals it (${game.rules.title}, ${game.deal}).`
    : NOTES[target.mode] ?? SAME_DEAL;
  $("share-link").value = byCode ? game.code : shareLink(game, $("share-moves").checked, target.address);
}

export function setupShare() {
  $("share").addEventListener("click", async () => {
    if (!store.game?.code) {
      return;
    }
    await shareTarget();
    fill();
    showDialog("share-dialog");
    $("share-link").select();
  });
  $("share-moves").addEventListener("change", fill);
  $("share-copy").addEventListener("click", async () => {
    const text = $("share-link").value;
    const what = target.mode === "code" ? "Game code" : "Link";
    try {
      await navigator.clipboard.writeText(text);
      $("share-dialog").close();
      toast(`${what} copied: whoever opens it plays this deal.`, "info");
    } catch {
      $("share-link").focus();
      $("share-link").select();
      toast(`Press Ctrl+C (or ⌘C) to copy the selected ${what.toLowerCase()}.`, "info");
    }
  });
}
