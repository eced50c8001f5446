// The solution viewer: a winning line from the position on the table, stepped through
// move by move (each one played by the server and animated like any other move), or
// played by itself at a chosen speed. It only ever takes back the moves it played itself.
// Any move of the player's own closes it: the player has taken over.

import { accept, run } from "./actions.js";
import { settled } from "./advice.js";
import { api } from "./api.js";
import { $ } from "./dom.js";
import { store } from "./store.js";
import { toast } from "./toast.js";

const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

const NO_LINE = {
  "not-winnable": "This position cannot be won, so there is no solution to show. Undo some moves, or go back to the last winnable position.",
  unknown: "The solver could not settle this position within its limit, so there is no solution to show. Try again after a move.",
};

/**
 * Run `request(gameId)` (an API call that returns a state) through the page's queue as the
 * viewer's own action; resolves true when the state was taken.
 */
function act(request) {
  return run(async () => accept(await request(store.game.id), { how: "viewer" }));
}

/** The viewer, wired to its bar; answers forward() and back() for the keys "." and ",". */
export function setupSolution() {
  let open = false;
  let gameId = null;
  let line = [];
  let index = 0; // how many moves of the line the viewer has played
  let steps = []; // for each of them, how many actions the server counted (several under strict rules)
  let seenMoves = 0; // the move counter after the viewer's last action
  let playing = false;
  let generation = 0; // one more each time the viewer starts afresh or closes
  // Steps run one after another, each reading the line where the last one left it, so
  // quick presses of "." are all played and never play the same move twice.
  let chain = Promise.resolve(false);

  function enqueue(step) {
    const mine = generation;
    const next = chain.then(() => (open && mine === generation ? step() : false));
    chain = next.catch(() => false);
    return next;
  }

  function update() {
    $("solution-bar").hidden = !open;
    $("solution").setAttribute("aria-pressed", String(open));
    if (!open) {
      return;
    }
    const hasLine = line.length > 0;
    $("solution-controls").hidden = !hasLine;
    if (!hasLine) {
      return;
    }
    const state = store.game;
    const done = index >= line.length;
    const won = state?.outcome === "won";
    $("solution-position").textContent = `${index} / ${line.length}`;
    $("solution-message").textContent = done
      ? `Solution played to the end${won ? ": the game is won." : "."}`
      : `Solution from here. Next move: ${line[index]}`;
    $("solution-back").disabled = index === 0 || !state?.can_undo || won;
    $("solution-forward").disabled = done;
    $("solution-play").disabled = done;
    const [icon, word] = playing ? ["❚❚", "Pause"] : ["▶", "Play"];
    $("solution-play").firstElementChild.textContent = icon;
    $("solution-play").lastElementChild.textContent = ` ${word}`;
    $("solution-play").setAttribute("aria-label", word);
    $("solution-copy").disabled = done;
  }

  function reset() {
    generation += 1;
    line = [];
    index = 0;
    steps = [];
    playing = false;
    $("solution-text").hidden = true;
    $("solution-copy").textContent = "Copy";
  }

  function close() {
    open = false;
    reset();
    update();
  }

  async function show() {
    const state = store.game;
    if (!state || state.outcome !== "playing" || state.lesson) {
      return;
    }
    reset();
    open = true;
    gameId = state.id;
    seenMoves = state.moves;
    const mine = generation;
    $("solution-message").textContent = "Looking for a winning line…";
    update();
    let answer = null;
    try {
      // A longer search after an "unknown" is waited for too: it answers within 30 s.
      answer = await settled(
        () => api.analysis(state.id, { line: true }),
        (a) => a.verdict === "pending" || a.searching,
        () => mine === generation,
        { polls: 75 },
      );
    } catch (error) {
      answer = { verdict: "error", message: error.message };
    }
    if (mine !== generation || !open) {
      return;
    }
    if (answer?.verdict === "winnable" && answer.line?.length) {
      line = answer.line;
      // The server has marked the game assisted: show it so.
      act((id) => api.state(id));
    } else if (answer === null) {
      $("solution-message").textContent = "The solver is still thinking. Try Solution again in a moment.";
    } else {
      $("solution-message").textContent = NO_LINE[answer.verdict] ?? answer.message ?? "No solution is known here.";
    }
    update();
  }

  async function forward() {
    if (index >= line.length) {
      return false;
    }
    const mine = generation;
    const before = store.game.moves;
    const move = line[index];
    const ok = await act((id) => api.move(id, move));
    if (!ok || mine !== generation) {
      playing = false;
      update();
      return false;
    }
    steps.push(store.game.moves - before);
    index += 1;
    update();
    return true;
  }

  async function back() {
    if (index === 0) {
      return false;
    }
    const mine = generation;
    const count = steps[steps.length - 1];
    let undone = 0;
    while (undone < count && (await act((id) => api.undo(id)))) {
      undone += 1;
    }
    if (mine !== generation) {
      return false;
    }
    if (undone === count) {
      steps.pop();
      index -= 1;
    } else {
      steps[steps.length - 1] -= undone; // the undo limit stopped it part way
    }
    update();
    return undone === count;
  }

  /** A step asked for by the player (a button or a key): it pauses the playing first. */
  function stepBy(step) {
    if (!open || !line.length) {
      return;
    }
    if (playing) {
      playing = false;
      update();
    }
    enqueue(step);
  }

  function delay() {
    return Number($("solution-speed").value);
  }

  async function togglePlay() {
    if (playing) {
      playing = false;
      update();
      return;
    }
    playing = true;
    update();
    const mine = generation;
    while (playing && mine === generation && index < line.length) {
      if (!(await enqueue(forward))) {
        break;
      }
      await wait(delay());
    }
    if (mine === generation) {
      playing = false;
      update();
    }
  }

  async function copy() {
    const text = line.slice(index).join(" ");
    const field = $("solution-text");
    try {
      if (!navigator.clipboard?.writeText) {
        throw new Error("no clipboard");
      }
      await navigator.clipboard.writeText(text);
      field.hidden = true;
      // On a phone the button shows only the tick; the toast says the rest.
      $("solution-copy").innerHTML = '<span class="wide-only">Copied </span>✓';
      toast(`Copied the remaining ${line.length - index} moves.`, "info");
      setTimeout(() => { $("solution-copy").textContent = "Copy"; }, 2500);
    } catch {
      // No clipboard here (an insecure page, or permission refused): the player copies by hand.
      field.value = text;
      field.hidden = false;
      field.focus();
      field.select();
      toast("Press Ctrl+C (or ⌘C) to copy the selected moves.", "info");
    }
  }

  /** Every state the page takes passes here; a move that is not the viewer's closes it. */
  function seen(state, byViewer) {
    if (!open) {
      return;
    }
    if (state.id !== gameId) {
      close();
      return;
    }
    if (byViewer) {
      seenMoves = state.moves;
    } else if (state.moves !== seenMoves) {
      close();
      toast("You took over: the solution is closed. Ask for it again to see a line from here.", "info");
      return;
    }
    update();
  }

  $("solution").addEventListener("click", () => (open ? close() : show()));
  $("solution-close").addEventListener("click", close);
  $("solution-forward").addEventListener("click", () => stepBy(forward));
  $("solution-back").addEventListener("click", () => stepBy(back));
  $("solution-play").addEventListener("click", togglePlay);
  $("solution-copy").addEventListener("click", copy);
  $("solution-speed").addEventListener("change", () => store.setOption("solutionSpeed", $("solution-speed").value));
  const speed = store.options.solutionSpeed;
  if (speed && [...$("solution-speed").options].some((o) => o.value === speed)) {
    $("solution-speed").value = speed;
  }
  store.subscribe((change) => {
    if (change.kind === "game" && (change.how === "played" || change.how === "viewer")) {
      seen(store.game, change.how === "viewer");
    }
  });

  return {
    forward: () => stepBy(forward),
    back: () => stepBy(back),
  };
}
