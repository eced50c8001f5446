// The solution viewer: a winning line from the position on the table, stepped through
// move by move (each one played by the server and animated like any other move), or
// played by itself at a chosen speed. It only ever takes back the moves it played itself.
// Any move of the player's own closes it: the player has taken over.

import { accept, runInPlay } from "./actions.js";
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
 * viewer's own action; resolves true when the state was taken (never while paused).
 */
function act(request) {
  return runInPlay(async () => accept(await request(store.game.id), { how: "viewer" }));
}

/** The viewer: its line, how far it has played it, and whether it plays by itself. */
class Viewer {
  open = false;
  gameId = null;
  line = [];
  index = 0; // how many moves of the line the viewer has played
  steps = []; // for each of them, how many actions the server counted (several under strict rules)
  seenMoves = 0; // the move counter after the viewer's last action
  playing = false;
  generation = 0; // one more each time the viewer starts afresh or closes
  // Steps run one after another, each reading the line where the last one left it, so
  // quick presses of "." are all played and never play the same move twice.
  chain = Promise.resolve(false);

  enqueue(step) {
    const mine = this.generation;
    const next = this.chain.then(() => (this.open && mine === this.generation ? step() : false));
    this.chain = next.catch(() => false);
    return next;
  }

  update() {
    $("solution-bar").hidden = !this.open;
    $("solution").setAttribute("aria-pressed", String(this.open));
    if (!this.open) {
      return;
    }
    const { line, index } = this;
    $("solution-controls").hidden = line.length === 0;
    if (line.length === 0) {
      return;
    }
    const game = store.game;
    const done = index >= line.length;
    const won = game?.outcome === "won";
    const paused = Boolean(game?.paused); // the cards are hidden: the line waits for Resume
    $("solution-position").textContent = `${index} / ${line.length}`;
    let message = `Solution from here. Next move: ${line[index]}`;
    if (paused) {
      message = "Paused: resume the game to go on with the solution.";
    } else if (done) {
      message = `Solution played to the end${won ? ": the game is won." : "."}`;
    }
    $("solution-message").textContent = message;
    $("solution-back").disabled = paused || index === 0 || !game?.can_undo || won;
    $("solution-forward").disabled = paused || done;
    $("solution-play").disabled = paused || done;
    const [icon, word] = this.playing ? ["❚❚", "Pause"] : ["▶", "Play"];
    $("solution-play").firstElementChild.textContent = icon;
    $("solution-play").lastElementChild.textContent = ` ${word}`;
    $("solution-play").setAttribute("aria-label", word);
    $("solution-copy").disabled = paused || done;
  }

  reset() {
    this.generation += 1;
    this.line = [];
    this.index = 0;
    this.steps = [];
    this.playing = false;
    $("solution-text").hidden = true;
    $("solution-copy").textContent = "Copy";
  }

  close() {
    this.open = false;
    this.reset();
    this.update();
  }

  /** Open on the game on the table, and ask the server for a winning line from here. */
  async show() {
    const game = store.game;
    if (!game || game.outcome !== "playing" || game.lesson || game.paused) {
      return;
    }
    this.reset();
    this.open = true;
    this.gameId = game.id;
    this.seenMoves = game.moves;
    const mine = this.generation;
    $("solution-message").textContent = "Looking for a winning line…";
    this.update();
    let answer = null;
    try {
      // A longer search after an "unknown" is waited for too: it answers within 30 s.
      answer = await settled(
        () => api.analysis(game.id, { line: true }),
        (a) => a.verdict === "pending" || a.searching,
        () => mine === this.generation,
        { polls: 75 },
      );
    } catch (error) {
      answer = { verdict: "error", message: error.message };
    }
    if (mine !== this.generation || !this.open) {
      return;
    }
    if (answer?.verdict === "winnable" && answer.line?.length) {
      this.line = answer.line;
      // The server has marked the game assisted: show it so.
      act((id) => api.state(id));
    } else if (answer === null) {
      $("solution-message").textContent = "The solver is still thinking. Try Solution again in a moment.";
    } else {
      $("solution-message").textContent = NO_LINE[answer.verdict] ?? answer.message ?? "No solution is known here.";
    }
    this.update();
  }

  /** Play the next move of the line; resolves true when it was played. */
  forward = async () => {
    if (this.index >= this.line.length) {
      return false;
    }
    const mine = this.generation;
    const before = store.game.moves;
    const move = this.line[this.index];
    const ok = await act((id) => api.move(id, move));
    if (!ok || mine !== this.generation) {
      this.playing = false;
      this.update();
      return false;
    }
    this.steps.push(store.game.moves - before);
    this.index += 1;
    this.update();
    return true;
  };

  /** Take back the last move the viewer played (as many undos as it counted). */
  back = async () => {
    if (this.index === 0) {
      return false;
    }
    const mine = this.generation;
    const count = this.steps[this.steps.length - 1];
    let undone = 0;
    while (undone < count && (await act((id) => api.undo(id)))) {
      undone += 1;
    }
    if (mine !== this.generation) {
      return false;
    }
    if (undone === count) {
      this.steps.pop();
      this.index -= 1;
    } else {
      this.steps[this.steps.length - 1] -= undone; // the undo limit stopped it part way
    }
    this.update();
    return undone === count;
  };

  /** A step asked for by the player (a button or a key): it pauses the playing first. */
  stepBy(step) {
    if (!this.open || !this.line.length) {
      return;
    }
    if (this.playing) {
      this.playing = false;
      this.update();
    }
    this.enqueue(step);
  }

  async togglePlay() {
    if (this.playing) {
      this.playing = false;
      this.update();
      return;
    }
    this.playing = true;
    this.update();
    const mine = this.generation;
    while (this.playing && mine === this.generation && this.index < this.line.length) {
      if (!(await this.enqueue(this.forward))) {
        break;
      }
      await wait(Number($("solution-speed").value));
    }
    if (mine === this.generation) {
      this.playing = false;
      this.update();
    }
  }

  async copy() {
    const text = this.line.slice(this.index).join(" ");
    const field = $("solution-text");
    try {
      if (!navigator.clipboard?.writeText) {
        throw new Error("no clipboard");
      }
      await navigator.clipboard.writeText(text);
      field.hidden = true;
      // On a phone the button shows only the tick; the toast says the rest.
      $("solution-copy").innerHTML = '<span class="wide-only">Copied </span>✓';
      toast(`Copied the remaining ${this.line.length - this.index} moves.`, "info");
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
  seen(game, byViewer) {
    if (!this.open) {
      return;
    }
    if (game.id !== this.gameId) {
      this.close();
      return;
    }
    if (game.paused) {
      this.playing = false; // a pause stops the line playing by itself
    }
    if (byViewer) {
      this.seenMoves = game.moves;
    } else if (game.moves !== this.seenMoves) {
      this.close();
      toast("You took over: the solution is closed. Ask for it again to see a line from here.", "info");
      return;
    }
    this.update();
  }
}

/** The viewer, wired to its bar; answers forward() and back() for the keys "." and ",". */
export function setupSolution() {
  const viewer = new Viewer();
  $("solution").addEventListener("click", () => (viewer.open ? viewer.close() : viewer.show()));
  $("solution-close").addEventListener("click", () => viewer.close());
  $("solution-forward").addEventListener("click", () => viewer.stepBy(viewer.forward));
  $("solution-back").addEventListener("click", () => viewer.stepBy(viewer.back));
  $("solution-play").addEventListener("click", () => viewer.togglePlay());
  $("solution-copy").addEventListener("click", () => viewer.copy());
  $("solution-speed").addEventListener("change", () => store.setOption("solutionSpeed", $("solution-speed").value));
  const speed = store.options.solutionSpeed;
  if (speed && [...$("solution-speed").options].some((o) => o.value === speed)) {
    $("solution-speed").value = speed;
  }
  store.subscribe((change) => {
    if (change.kind === "game" && (change.how === "played" || change.how === "viewer")) {
      viewer.seen(store.game, change.how === "viewer");
    }
  });
  return {
    forward: () => viewer.stepBy(viewer.forward),
    back: () => viewer.stepBy(viewer.back),
  };
}
