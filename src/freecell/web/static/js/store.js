// The page's state, in one place. The game is the state the server last sent: it is
// replaced only by what the server sends, never edited here. The rest only the page
// knows: the cards picked up and where they may go, the hint on show, whether the server
// answers, and the player's options (kept in localStorage). Views subscribe and are told
// what changed; they read the rest from here.
//
// How a game state came (`how` in a "game" change):
//   "played"    a new state from the server (a move, a deal, an undo...): the selection
//               and the hint, which spoke of the table before, are dropped;
//   "viewer"    the same, asked for by the solution viewer;
//   "refreshed" the same position again, with the server's counters (hints) up to date:
//               the selection and the hint stay;
//   "saved"     the last state kept from an earlier visit, shown while the server
//               cannot be reached.

// Each option: its key in localStorage, and how the stored text reads.
const OPTIONS = {
  showScore: { key: "freecell.hideScore", read: (text) => text !== "1", write: (on) => (on ? "0" : "1") },
  showTimer: { key: "freecell.hideTimer", read: (text) => text !== "1", write: (on) => (on ? "0" : "1") },
  showVerdict: { key: "freecell.hideVerdict", read: (text) => text !== "1", write: (on) => (on ? "0" : "1") },
  calculator: { key: "freecell.calculator", read: (text) => text === "1", write: (on) => (on ? "1" : "0") },
  autoHome: { key: "freecell.autoHome", read: (text) => text === "1", write: (on) => (on ? "1" : "0") },
  solutionSpeed: { key: "freecell.solutionSpeed", read: (text) => text, write: (value) => value },
  // The theme (js/theme.js checks the names, and falls back on the first of each list).
  felt: { key: "freecell.felt", read: (text) => text, write: (value) => value },
  cardBack: { key: "freecell.cardBack", read: (text) => text, write: (value) => value },
  scheme: { key: "freecell.scheme", read: (text) => text, write: (value) => value },
  fourColour: { key: "freecell.fourColour", read: (text) => text === "1", write: (on) => (on ? "1" : "0") },
  largeIndices: { key: "freecell.largeIndices", read: (text) => text === "1", write: (on) => (on ? "1" : "0") },
  sounds: { key: "freecell.sounds", read: (text) => text === "1", write: (on) => (on ? "1" : "0") },
  welcomed: { key: "freecell.welcomed", read: (text) => text === "1", write: (on) => (on ? "1" : "0") },
};

function readOptions() {
  const options = {};
  for (const [name, option] of Object.entries(OPTIONS)) {
    options[name] = option.read(localStorage.getItem(option.key));
  }
  return options;
}

class Store {
  #game = null;
  #receivedAt = 0;
  #selection = null; // {source, count, card}: the cards picked up
  #targets = []; // where the server says they may go
  #hint = null; // {source, target, count, card}: the hint lit on the table
  #offline = false;
  #options = readOptions();
  #listeners = [];

  get game() { return this.#game; }
  get selection() { return this.#selection; }
  get targets() { return this.#targets; }
  get hint() { return this.#hint; }
  get offline() { return this.#offline; }
  get options() { return { ...this.#options }; }

  /** `listener(change)` is called after each change, in the order of subscription. */
  subscribe(listener) {
    this.#listeners.push(listener);
  }

  #notify(change) {
    for (const listener of this.#listeners) {
      listener(change);
    }
  }

  /** Take a game state the server sent (`how`: see the top of this module). */
  receive(game, how = "played") {
    const previous = this.#game;
    this.#game = game;
    this.#receivedAt = performance.now();
    if (how === "played" || how === "viewer") {
      this.#selection = null;
      this.#targets = [];
      this.#hint = null;
    }
    if (how !== "saved") {
      this.#offline = false;
    }
    this.#notify({ kind: "game", how, previous });
  }

  /** The game's clock in seconds: as the server last said, and running since then. */
  elapsed() {
    const game = this.#game;
    if (!game) {
      return 0;
    }
    const running = !game.paused && game.outcome === "playing";
    return game.elapsed_seconds + (running ? (performance.now() - this.#receivedAt) / 1000 : 0);
  }

  /** Pick up cards (`null`: put them down); where they may go is not known yet. */
  select(selection) {
    this.#selection = selection;
    this.#targets = [];
    this.#notify({ kind: "selection" });
  }

  /** Where the server says the cards picked up may go. */
  showTargets(targets) {
    this.#targets = targets;
    this.#notify({ kind: "selection" });
  }

  /** Light a hint on the table (`null`: none). */
  showHint(hint) {
    this.#hint = hint;
    this.#notify({ kind: "hint" });
  }

  /** Whether the server could not be reached at the last try. */
  setOffline(offline) {
    this.#offline = offline;
    this.#notify({ kind: "offline" });
  }

  /** Change one of the player's options, kept for the next visit. */
  setOption(name, value) {
    this.#options[name] = value;
    try {
      localStorage.setItem(OPTIONS[name].key, OPTIONS[name].write(value));
    } catch {
      // Storage full or refused: the option holds for this visit.
    }
    this.#notify({ kind: "options", name });
  }
}

/** The one store of the page. */
export const store = new Store();
