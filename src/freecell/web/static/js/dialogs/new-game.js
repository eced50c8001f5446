// The New game dialog: the rules and the number of free cells, and the deal: a random
// one (winnable only, if asked), today's daily deal, a numbered one, a game code, or a
// position of one's own.

import { accept } from "../actions.js";
import { api } from "../api.js";
import { $, escapeHtml } from "../dom.js";
import { store } from "../store.js";
import { toast } from "../toast.js";
import { confirm } from "./confirm.js";
import { dailyLine, today } from "./daily.js";
import { showDialog } from "./dialog.js";
import { rulesList } from "./rules-list.js";

let shown = []; // the presets the dialog lists

function fillCells(rules, wanted) {
  const select = $("new-cells");
  select.innerHTML = rules.cell_options
    .map((n) => `<option value="${n}"${n === wanted ? " selected" : ""}>${n}</option>`)
    .join("");
  select.disabled = rules.cell_options.length < 2;
  $("new-rules-description").textContent = rules.description;
  $("new-daily-info").textContent = "";
  dailyLine(rules.name).then((line) => {
    if ($("new-rules").value === rules.name) {
      $("new-daily-info").textContent = line;
    }
  }).catch(() => {});
}

// The board's box opens only when a position of one's own is chosen.
function showBoard() {
  $("new-board-box").hidden = !document.querySelector('input[name="deal"][value="board"]').checked;
}

/** Open the dialog on the rules of the game on the table. */
export async function openNewGame() {
  const list = await rulesList().catch((error) => { toast(error.message); return null; });
  if (!list) {
    return;
  }
  shown = list;
  const game = store.game;
  const select = $("new-rules");
  select.innerHTML = list.map((r) => `<option value="${escapeHtml(r.name)}">${escapeHtml(r.title)}</option>`).join("");
  // The rules on the table, or the first the server lists (its default).
  select.value = game?.rules.name ?? list[0].name;
  const chosen = list.find((r) => r.name === select.value) ?? list[0];
  fillCells(chosen, game?.rules.cells ?? chosen.cells);
  $("new-error").textContent = "";
  showBoard();
  showDialog("new-dialog");
}

/** New game, as the button asks it: a game in progress is left only once the player agrees. */
export async function askNewGame() {
  const game = store.game;
  const inProgress = game && game.outcome === "playing" && game.moves > 0 && !game.lesson;
  if (inProgress && !(await confirm())) {
    return;
  }
  await openNewGame();
}

/** The request the form asks for, or {error} naming what is missing. */
function request() {
  const kind = document.querySelector('input[name="deal"]:checked').value;
  const rules = $("new-rules").value;
  const cells = Number($("new-cells").value);
  if (kind === "number") {
    const number = Number($("new-number").value);
    if (!Number.isInteger(number) || number < 1) {
      return { kind, error: "Give a deal number of 1 or more." };
    }
    return { kind, body: { rules, cells, deal: number } };
  }
  if (kind === "code") {
    const code = $("new-code").value.trim();
    return code ? { kind, body: { code } } : { kind, error: "Paste a game code, like FC1-…" };
  }
  if (kind === "daily") {
    // The daily deal is dealt with the preset's own cells, the same for every player.
    return { kind, body: { rules, date: today() } };
  }
  if (kind === "board") {
    const board = $("new-board").value;
    if (!board.trim()) {
      return { kind, error: "Paste a position: one line for each column, deepest card first." };
    }
    // The server checks the board and names any card missing or there twice.
    return { kind, body: { rules, cells, board } };
  }
  const body = { rules, cells, random: true };
  if ($("new-winnable").checked) {
    body.winnable = true;
  }
  return { kind, body };
}

export function setupNewGame() {
  $("new-rules").addEventListener("change", () => {
    const chosen = shown.find((r) => r.name === $("new-rules").value);
    fillCells(chosen, chosen.cells);
  });
  for (const [field, value] of [["new-number", "number"], ["new-code", "code"], ["new-board", "board"]]) {
    $(field).addEventListener("input", () => {
      document.querySelector(`input[name="deal"][value="${value}"]`).checked = true;
    });
  }
  // A refusal speaks of what was asked: once the player changes it, it no longer holds.
  $("new-form").addEventListener("input", () => {
    $("new-error").textContent = "";
  });
  $("new-form").addEventListener("change", (event) => {
    $("new-error").textContent = "";
    showBoard();
    if (event.target.name === "deal" && event.target.value === "board") {
      $("new-board").focus();
    }
  });
  $("new-form").addEventListener("submit", async (event) => {
    if (event.submitter?.value !== "deal") {
      return;
    }
    event.preventDefault();
    const { kind, body, error } = request();
    if (error) {
      $("new-error").textContent = error;
      return;
    }
    body.auto_home = store.options.autoHome;
    try {
      const game = await (kind === "daily" ? api.startDaily(body) : api.newGame(body));
      $("new-dialog").close("deal");
      accept(game);
    } catch (failure) {
      $("new-error").textContent = kind === "board" ? `This position cannot be played: ${failure.message}` : failure.message;
    }
  });
}
