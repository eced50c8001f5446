// The page, put together: the store holds the state (the game as the server sent it, and
// what only the page knows); views draw it whenever it changes; taps, drags and keys
// become moves in standard notation, which the server plays and answers with a new state.
// The server decides every rule.

import { finish, redo, restart, undo } from "./actions.js";
import { setupAdvice, showHint } from "./advice.js";
import { setupCalculator } from "./calculator.js";
import { suitSymbols } from "./cards.js";
import { setupCelebration } from "./celebrate.js";
import { keepSeen, togglePause, pauseWhileAway } from "./clock.js";
import { setupDaily } from "./dialogs/daily.js";
import { setupDialogs } from "./dialogs/dialog.js";
import { setupLessons, startLesson } from "./dialogs/lessons.js";
import { askNewGame, openNewGame, setupNewGame } from "./dialogs/new-game.js";
import { setupOptions } from "./dialogs/options.js";
import { openReview, setupReview } from "./dialogs/review.js";
import { setupRules } from "./dialogs/rules.js";
import { setupShare } from "./dialogs/share.js";
import { setupStats } from "./dialogs/stats.js";
import { setupThemes } from "./dialogs/themes.js";
import { $, plural } from "./dom.js";
import { wireKeyboard, wirePointer } from "./input.js";
import { keyActions } from "./keys.js";
import { setupLesson } from "./lesson.js";
import { setupMenu } from "./menu.js";
import { drop, pickUp, setupSelection, tap } from "./selection.js";
import { setupSitePage } from "./site-page.js";
import { setupSolution } from "./solution.js";
import { setupSound } from "./sound.js";
import { load, setupStart } from "./start.js";
import { setupStatus } from "./status.js";
import { store } from "./store.js";
import { setupTableView } from "./table-view.js";
import { setupTheme } from "./theme.js";
import { clearToast, toast } from "./toast.js";
import { setupWelcome } from "./welcome.js";

/** Tell a screen reader what was played: "Played 38, 4h. 12 moves so far." */
function announce(game) {
  const moves = game.last ?? [];
  if (moves.length) {
    $("announce").textContent = `Played ${moves.join(", ")}. ${plural(game.moves, "move")} so far.`;
  }
}

// A message about the table before is stale once a move is made, a deal dealt, a game won
// or the cards hidden by a pause. Heard first, so that what the views say of the new state
// stays.
store.subscribe((change) => {
  const { game } = store;
  const fresh = change.kind === "game" && (change.how === "played" || change.how === "viewer");
  if (!fresh) {
    return;
  }
  const before = change.previous;
  if (before?.id !== game.id || before.moves !== game.moves || before.outcome !== game.outcome
      || (game.paused && !before.paused)) {
    clearToast();
  }
  announce(game);
});

setupTheme();
setupSitePage();
document.body.insertAdjacentHTML("afterbegin", suitSymbols());
// The views, in the order they draw: what shows above the felt first (whether the server
// answers, the lesson, the calculator), since the table is sized to the room they leave;
// the menu copies the toolbar's buttons, so it comes after them.
setupStart();
setupLesson();
setupCalculator();
setupStatus({ newGame: askNewGame, restart, undo, review: () => openReview() });
setupTableView();
setupMenu();
setupSelection();
setupAdvice();
const solution = setupSolution();
setupDialogs();
setupNewGame();
setupDaily();
setupRules();
setupStats();
setupLessons();
setupOptions();
setupShare();
setupReview();
setupThemes();
setupCelebration();
setupSound();
setupWelcome();

$("new-game").addEventListener("click", askNewGame);
$("restart").addEventListener("click", () => (store.game?.lesson ? startLesson(store.game.lesson.id) : restart()));
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("hint").addEventListener("click", showHint);
$("auto-finish").addEventListener("click", finish);
$("pause").addEventListener("click", togglePause);
$("resume").addEventListener("click", togglePause);
$("losing-new").addEventListener("click", openNewGame);
$("copy-code").addEventListener("click", async () => {
  const code = store.game.code;
  try {
    await navigator.clipboard.writeText(code);
    toast(`Game code ${code} copied.`, "info");
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("game-code"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    toast("Select and copy the game code shown.", "info");
  }
});
document.addEventListener("visibilitychange", pauseWhileAway);
keepSeen();
wirePointer($("table"), { tap, pickUp, drop, cancelDrag: () => store.select(null) });
wireKeyboard(keyActions(solution));
load().catch((error) => toast(error.message));
// Installed on a phone's home screen, the page opens from the service worker's cache. The
// script sits beside the page: the server's /sw.js, or the static site's own.
navigator.serviceWorker?.register("sw.js").catch(() => {});
