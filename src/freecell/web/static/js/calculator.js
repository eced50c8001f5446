// The move calculator: how many cards may move at once with the free cells and empty
// columns on the table, and with as many as the player wants to try. The server counts.

import { api } from "./api.js";
import { $, plural } from "./dom.js";
import { store } from "./store.js";

// Answers can arrive out of order when the table or the inputs change quickly: only the
// answer to the latest question is shown.
let nowToken = 0;
let tryToken = 0;

async function show(game) {
  const always = Boolean(game.rules.show_capacity);
  const shown = always || store.options.calculator;
  $("calculator").hidden = !shown;
  $("toggle-calculator").hidden = always;
  $("toggle-calculator").setAttribute("aria-pressed", String(shown));
  if (!shown) {
    return;
  }
  $("calc-cells").max = game.rules.cells;
  $("calc-columns").max = game.rules.columns;
  const mine = ++nowToken;
  try {
    const now = await api.capacity(game.id);
    if (mine !== nowToken) {
      return;
    }
    $("calc-empty").textContent = `Now: ${plural(now.empty_cells, "empty free cell")}, `
      + `${plural(now.empty_columns, "empty column")}. `
      + "Capacity: empty free cells + 1, doubled for each empty column.";
    $("calc-occupied").textContent = now.formula_occupied;
    $("calc-empty-target").textContent = now.formula_empty;
    if (!$("calc-form").dataset.touched) {
      $("calc-cells").value = now.empty_cells;
      $("calc-columns").value = now.empty_columns;
      await tryOut();
    }
  } catch (error) {
    $("calc-occupied").textContent = error.message;
  }
}

async function tryOut() {
  const cells = Number($("calc-cells").value);
  const columns = Number($("calc-columns").value);
  const mine = ++tryToken;
  let text;
  try {
    const answer = await api.capacity(store.game.id, cells, columns);
    text = `to an occupied column ${answer.formula_occupied} · to an empty one ${answer.formula_empty}`;
  } catch (error) {
    text = error.message;
  }
  if (mine === tryToken) {
    $("calc-try-out").textContent = text;
  }
}

export function setupCalculator() {
  store.subscribe((change) => {
    const shows = change.kind === "game" ? change.how !== "refreshed" : change.kind === "options" && change.name === "calculator";
    if (shows && store.game) {
      show(store.game);
    }
  });
  $("calc-form").addEventListener("input", () => {
    $("calc-form").dataset.touched = "1";
    tryOut();
  });
  $("calc-form").addEventListener("submit", (event) => event.preventDefault());
  $("toggle-calculator").addEventListener("click", () => store.setOption("calculator", !store.options.calculator));
}
