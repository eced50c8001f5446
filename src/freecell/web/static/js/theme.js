// The player's theme, kept in the store's options: the felt's colour, the card back, the
// four-colour deck, large corner indices, and light or dark chrome (as the system says,
// unless the player forces one). Each is an attribute of <html> that css/themes.css reads,
// so a change repaints and never lays the table out again.

import { store } from "./store.js";

/** The felts, the first the default: [name, what players call it]. */
export const FELTS = [["green", "Classic green"], ["blue", "Blue"], ["burgundy", "Burgundy"], ["grey", "Grey"]];
/** The card backs, drawn by css/themes.css, the first the default. */
export const BACKS = [["lattice-red", "Red lattice"], ["lattice-blue", "Blue lattice"], ["tartan", "Tartan"],
  ["gold", "Gold on black"]];
/** Light or dark, the first the default. */
export const SCHEMES = [["system", "As the system"], ["light", "Light"], ["dark", "Dark"]];

const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

/** `value` when it is one of `choices`' names, or else the first name. */
export function known(choices, value) {
  return choices.some(([name]) => name === value) ? value : choices[0][0];
}

/** The scheme in force: "light" or "dark". */
export function schemeInForce(options = store.options) {
  const scheme = known(SCHEMES, options.scheme);
  if (scheme !== "system") {
    return scheme;
  }
  return systemDark.matches ? "dark" : "light";
}

function apply() {
  const options = store.options;
  const root = document.documentElement.dataset;
  root.felt = known(FELTS, options.felt);
  root.back = known(BACKS, options.cardBack);
  root.deck = options.fourColour ? "four" : "two";
  root.indices = options.largeIndices ? "large" : "normal";
  root.scheme = schemeInForce(options);
  // The phone's own bar takes the colour of the page's.
  const bar = getComputedStyle(document.documentElement).getPropertyValue("--bar").trim();
  document.querySelector('meta[name="theme-color"]')?.setAttribute("content", bar);
}

/** Apply the theme now, and again whenever an option or the system's scheme changes. */
export function setupTheme() {
  apply();
  store.subscribe((change) => {
    if (change.kind === "options") {
      apply();
    }
  });
  systemDark.addEventListener("change", apply);
}

/** The colour of a suit's cards in the deck in force ("#c0182b"), as the style sheet says. */
export function suitColour(suit) {
  return getComputedStyle(document.documentElement).getPropertyValue(`--suit-${suit}`).trim();
}
