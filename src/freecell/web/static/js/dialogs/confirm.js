// The confirmation asked before something that cannot be taken back.

import { $ } from "../dom.js";
import { closing, showDialog } from "./dialog.js";

/** Leaving a game in progress, the question asked unless another is given. */
export const LEAVE = {
  title: "Leave this game?",
  text: "The game in progress will be abandoned and count as a loss in the statistics.",
  ok: "Leave it",
};

/** Ask `question` ({title, text, ok}); resolves true when the player agrees. */
export async function confirm(question = LEAVE) {
  const dialog = $("confirm-dialog");
  $("confirm-title").textContent = question.title;
  $("confirm-text").textContent = question.text;
  $("confirm-ok").textContent = question.ok;
  dialog.returnValue = "";
  const answer = closing(dialog);
  showDialog("confirm-dialog");
  // The safe answer holds the focus: a stray Enter keeps the game, never abandons it.
  dialog.querySelector("button[value='cancel']").focus();
  return (await answer) === "ok";
}
