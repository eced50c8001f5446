// Around the table: the toast, the counters, the game code, the buttons' states and the
// banner that announces a win or a loss.

import { triviallyWon } from "./runs.js";

const $ = (id) => document.getElementById(id);

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

export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/**
 * Show `state` in the toolbar and the banner. `options` says whether the score and the
 * timer are shown; `actions` holds newGame, restart and undo for the banner's buttons.
 */
export function showStatus(state, elapsed, options, actions) {
  $("moves").textContent = String(state.moves);
  $("score").textContent = state.score === null ? "" : String(state.score);
  $("score-box").hidden = state.score === null || !options.showScore;
  $("timer-box").hidden = !options.showTimer;
  $("timer").textContent = formatTime(elapsed);
  $("pause").textContent = state.paused ? "▶" : "❚❚";
  $("pause").setAttribute("aria-label", state.paused ? "Resume the timer" : "Pause the timer");
  $("paused-cover").hidden = !state.paused;
  $("game-code").textContent = state.code ?? (state.lesson ? "lesson — no game code" : "imported position — no game code");
  $("copy-code").hidden = !state.code;
  $("share").hidden = !state.code;
  $("hints-box").hidden = !state.hints;
  $("hints").textContent = String(state.hints ?? 0);
  $("assisted-box").hidden = !state.assisted;
  const replaced = state.abandoned ? " (replaced by a newer game)" : "";
  const grade = state.difficulty ? ` · ${state.difficulty}` : "";
  $("deal-label").textContent = `${state.rules.title} · ${state.deal}${grade}${replaced}`;
  const over = state.outcome === "won";
  $("undo").disabled = over || !state.can_undo;
  $("redo").disabled = over || !state.can_redo;
  $("hint").disabled = state.outcome !== "playing";
  $("solution").disabled = state.outcome !== "playing" || Boolean(state.lesson);
  $("auto-finish").hidden = !triviallyWon(state);
  showOutcome(state, actions);
}

function showOutcome(state, actions) {
  const banner = $("banner");
  const buttons = banner.querySelector(".banner-actions");
  $("frame").classList.toggle("won", state.outcome === "won");
  if (state.outcome === "playing" || state.lesson) {
    banner.hidden = true;
    return;
  }
  buttons.innerHTML = "";
  const button = (label, handler, primary = false) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (primary) {
      b.className = "primary";
    }
    b.addEventListener("click", handler);
    buttons.append(b);
    return b;
  };
  if (state.outcome === "won") {
    const hints = state.hints ? `, with ${state.hints} hint${state.hints === 1 ? "" : "s"}` : "";
    const assisted = state.assisted ? " The solution was shown, so this win does not count in the statistics." : "";
    $("banner-text").textContent = `You won! ${state.moves} moves in ${formatTime(state.elapsed_seconds)}${hints}.${assisted}`;
    banner.className = "banner won";
    button("New game", actions.newGame, true);
    button("Play this deal again", actions.restart);
  } else {
    $("banner-text").textContent = "No useful move is left: this game is lost.";
    banner.className = "banner lost";
    button("Undo", actions.undo, true).disabled = !state.can_undo;
    button("Restart", actions.restart);
    button("New deal", actions.newGame);
  }
  banner.hidden = false;
}
