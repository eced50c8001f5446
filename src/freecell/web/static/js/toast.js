// The toast: a note for a few seconds at the foot of the felt, above the notices there
// (never on them: see .foot in css/table.css), put away when the table it spoke of changes.

import { $ } from "./dom.js";

let toastTimer = null;

/** Show `text` for a few seconds: "error" for a refusal, "info" for a hint or a notice. */
export function toast(text, kind = "error") {
  const el = $("toast");
  el.textContent = text;
  el.className = `toast ${kind}`;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, kind === "error" ? 4500 : 6000);
}

/** Put away the message on show: it spoke of a table that has changed since. */
export function clearToast() {
  clearTimeout(toastTimer);
  $("toast").hidden = true;
}
