// The Themes panel: felt, card back, four-colour deck, large indices, light or dark. Each
// choice is the store's option, applied at once (js/theme.js) and kept for the next visit;
// a corner of a table in the theme chosen shows what it looks like.

import { cardSvg } from "../cards.js";
import { $, escapeHtml } from "../dom.js";
import { store } from "../store.js";
import { BACKS, FELTS, SCHEMES, known } from "../theme.js";

// A club, a diamond, a heart and a spade, so the four-colour deck shows in the sample
// (card keys as the API sends them: rank then suit; drawn, never shown as text).
const SAMPLE = [["T", "C"], ["Q", "D"], ["A", "H"], ["7", "S"]].map(([rank, suit]) => rank + suit);

/** A radio button for each choice, with its sample (`sample(name)`: markup). */
function radios(container, group, choices, chosen, sample) {
  container.innerHTML = choices.map(([name, label]) => `<label><input type="radio" name="${group}" `
    + `value="${escapeHtml(name)}"${name === chosen ? " checked" : ""}>${sample(name)} ${escapeHtml(label)}</label>`)
    .join("");
}

function drawPreview() {
  const cards = SAMPLE.map((card) => `<div class="card">${cardSvg(card)}</div>`).join("");
  $("theme-preview").innerHTML = `${cards}<div class="card card-back"></div>`;
}

export function setupThemes() {
  const options = store.options;
  radios($("felt-choices"), "felt", FELTS, known(FELTS, options.felt),
    (name) => `<span class="swatch" data-felt="${name}" aria-hidden="true"></span>`);
  radios($("back-choices"), "back", BACKS, known(BACKS, options.cardBack),
    (name) => `<span class="card-back" data-back="${name}" aria-hidden="true"></span>`);
  radios($("scheme-choices"), "scheme", SCHEMES, known(SCHEMES, options.scheme), () => "");
  $("four-colour").checked = options.fourColour;
  $("large-indices").checked = options.largeIndices;
  drawPreview();

  const form = $("themes-dialog");
  const choices = { felt: "felt", back: "cardBack", scheme: "scheme" };
  form.addEventListener("change", (event) => {
    const input = event.target;
    if (input.type === "radio" && choices[input.name]) {
      store.setOption(choices[input.name], input.value);
    }
  });
  $("four-colour").addEventListener("change", (event) => store.setOption("fourColour", event.target.checked));
  $("large-indices").addEventListener("change", (event) => store.setOption("largeIndices", event.target.checked));
}
