// Around the table: the counters, the clock, the game code, the buttons' states, and the
// banner that announces a win or a loss. Drawn from the store whenever it changes.

import { dayText } from "./dialogs/daily.js";
import { $, plural } from "./dom.js";
import { store } from "./store.js";

export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** The toolbar: counters, clock, code and which buttons may be pressed. */
function showToolbar(game, options) {
  $("moves").textContent = String(game.moves);
  $("score").textContent = game.score === null ? "" : String(game.score);
  $("score-box").hidden = game.score === null || !options.showScore;
  $("timer-box").hidden = !options.showTimer;
  $("timer").textContent = formatTime(store.elapsed());
  $("pause").textContent = game.paused ? "▶" : "❚❚";
  $("pause").setAttribute("aria-label", game.paused ? "Resume the timer" : "Pause the timer");
  $("paused-cover").hidden = !game.paused;
  $("notices").classList.toggle("paused", Boolean(game.paused));
  $("game-code").textContent = game.code ?? (game.lesson ? "lesson — no game code" : "imported position — no game code");
  $("copy-code").hidden = !game.code;
  $("share").hidden = !game.code;
  $("hints-box").hidden = !game.hints;
  $("hints").textContent = String(game.hints ?? 0);
  $("assisted-box").hidden = !game.assisted;
  const replaced = game.abandoned ? " (replaced by a newer game)" : "";
  const grade = game.difficulty ? ` · ${game.difficulty}` : "";
  const daily = game.daily ? ` · daily deal of ${dayText(game.daily)}` : "";
  $("deal-label").textContent = `${game.rules.title}${daily} · ${game.deal}${grade}${replaced}`;
  // While paused the cards are hidden and the clock stands: nothing shows or changes them
  // until the player resumes (New game and the panels stay at hand).
  const paused = Boolean(game.paused);
  const over = game.outcome === "won";
  $("undo").disabled = paused || over || !game.can_undo;
  $("redo").disabled = paused || over || !game.can_redo;
  $("hint").disabled = paused || game.outcome !== "playing";
  $("solution").disabled = paused || game.outcome !== "playing" || Boolean(game.lesson);
  $("restart").disabled = paused;
  $("review-open").disabled = paused;
  $("finishing").hidden = !game.can_finish;
}

/** The banner over the felt once the game is won or lost; `actions` press its buttons. */
function showOutcome(game, actions) {
  const banner = $("banner");
  const buttons = banner.querySelector(".banner-actions");
  $("frame").classList.toggle("won", game.outcome === "won");
  if (game.outcome === "playing" || game.lesson) {
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
  if (game.outcome === "won") {
    const hints = game.hints ? `, with ${plural(game.hints, "hint")}` : "";
    const assisted = game.assisted ? " The solution was shown, so this win does not count in the statistics." : "";
    $("banner-text").textContent = `You won! ${plural(game.moves, "move")} in ${formatTime(game.elapsed_seconds)}${hints}.${assisted}`;
    banner.className = "banner won";
    button("New game", actions.newGame, true);
    button("Play this deal again", actions.restart);
    button("Review the game", actions.review);
  } else {
    $("banner-text").textContent = "No useful move is left: this game is lost.";
    banner.className = "banner lost";
    // Paused, the cards are hidden: only a new deal is offered until the player resumes.
    button("Undo", actions.undo, true).disabled = game.paused || !game.can_undo;
    button("Restart", actions.restart).disabled = game.paused;
    button("New deal", actions.newGame);
    button("Review the game", actions.review).disabled = game.paused;
  }
  banner.hidden = false;
}

/** Keep the toolbar and the banner in step with the store; `actions` holds newGame, restart and undo. */
export function setupStatus(actions) {
  store.subscribe((change) => {
    const game = store.game;
    if (!game || !["game", "options"].includes(change.kind)) {
      return;
    }
    showToolbar(game, store.options);
    showOutcome(game, actions);
  });
  setInterval(() => {
    if (store.game) {
      $("timer").textContent = formatTime(store.elapsed());
    }
  }, 500);
}
