// The Options panel: what is shown around the table, whether safe cards go home by
// themselves, and whether moves, deals and wins make a quiet sound. Each choice is the store's, kept for the next visit.

import { applyAutoHome } from "../actions.js";
import { $ } from "../dom.js";
import { store } from "../store.js";

const SHOW_BOXES = [["show-score", "showScore"], ["show-timer", "showTimer"], ["show-verdict", "showVerdict"]];

export function setupOptions() {
  const options = store.options;
  for (const [box, option] of SHOW_BOXES) {
    $(box).checked = options[option];
    $(box).addEventListener("change", (event) => store.setOption(option, event.target.checked));
  }
  $("auto-home").checked = options.autoHome;
  $("auto-home").addEventListener("change", (event) => {
    store.setOption("autoHome", event.target.checked);
    applyAutoHome(event.target.checked);
  });
  $("sounds").checked = options.sounds;
  $("sounds").addEventListener("change", (event) => store.setOption("sounds", event.target.checked));
}
