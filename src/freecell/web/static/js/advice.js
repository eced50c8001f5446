// Our own help on every preset: hints that lead to a win, the live verdict (can this
// game still be won?), and the move that lost a game that could have been won, with a
// way back to just before it. The solver runs on the server; while it thinks, an answer
// says `pending` and the page asks again shortly (on the static site, as soon as its
// solver answers). When the in-play search reaches its limit, a longer one follows
// (`searching`): the page keeps asking until it has a verdict.

import { accept, runInPlay } from "./actions.js";
import { answerMayHaveCome, api } from "./api.js";
import { $, plural } from "./dom.js";
import { sourceCards } from "./table.js";
import { store } from "./store.js";
import { toast } from "./toast.js";

const POLL_MS = 600;
const MAX_POLLS = 30;
const SETTLE_MS = 350;
const FURTHER_POLL_MS = 1000;
const FURTHER_MS = 45000; // the longer search's 30 s, with room for a busy machine

const VERDICTS = {
  winnable: ["Can be won", "good"],
  "not-winnable": ["Cannot be won from here", "bad"],
  unknown: ["Unknown: the search reached its limit", "unsure"],
  searching: ["Unknown so far: searching further…", "pending"],
  pending: ["Thinking…", "pending"],
  finishing: ["Won: every card can go home", "good"],
};

const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** Ask `request` until its answer is no longer pending (or give up after `polls`: null). */
export async function settled(request, isPending, stillWanted, { polls = MAX_POLLS } = {}) {
  for (let i = 0; i < polls; i += 1) {
    const answer = await request();
    if (!isPending(answer) || !stillWanted()) {
      return answer;
    }
    await answerMayHaveCome(POLL_MS);
  }
  return null;
}

let generation = 0; // one more for each table the verdict is asked of
let timer = null;

function showVerdict(verdict) {
  const [text, kind] = VERDICTS[verdict] ?? ["", ""];
  $("verdict").textContent = text;
  $("verdict").className = `verdict ${kind}`;
}

async function analyse(game, mine) {
  let answer = await settled(
    () => api.analysis(game.id),
    (a) => a.verdict === "pending",
    () => mine === generation,
  );
  const until = Date.now() + FURTHER_MS;
  // Not the last word yet: a longer search is under way, or the game is lost and the move
  // that lost it waits for the verdicts of the positions before (worked out after this one).
  const unfinished = (a) => a?.searching || (a?.verdict === "not-winnable" && !a.losing_move && game.can_undo);
  while (unfinished(answer) && mine === generation && Date.now() < until) {
    showVerdict(answer.searching ? "searching" : answer.verdict);
    await wait(FURTHER_POLL_MS);
    answer = await api.analysis(game.id);
  }
  if (mine !== generation) {
    return;
  }
  showVerdict(answer?.searching ? "unknown" : answer?.verdict ?? "unknown");
  const losing = answer?.losing_move;
  // A deal lost before any move has nothing to go back to: a new deal is the way on.
  const lostDeal = answer?.verdict === "not-winnable" && game.moves === 0 && !game.can_undo;
  $("losing").hidden = !losing && !lostDeal;
  $("rewind").hidden = !losing;
  $("losing-new").hidden = !lostDeal;
  if (lostDeal) {
    $("losing-text").textContent = "This deal cannot be won, whatever is played: our solver proved it.";
  } else if (losing) {
    $("losing-text").textContent = losing.text;
    $("rewind").textContent = `Go back ${plural(losing.moves_back, "move")}`;
  }
}

/** After each new state: ask, once play pauses, whether the game can still be won. */
function refresh(game) {
  generation += 1;
  clearTimeout(timer);
  const shown = store.options.showVerdict && game.outcome === "playing" && !game.lesson;
  $("verdict-box").hidden = !shown;
  $("losing").hidden = true;
  if (!shown) {
    return;
  }
  if (game.can_finish) {
    showVerdict("finishing"); // no search needed, nor any wait for one
    return;
  }
  showVerdict("pending");
  const mine = generation;
  timer = setTimeout(() => {
    analyse(game, mine).catch(() => {
      if (mine === generation) {
        showVerdict("unknown");
      }
    });
  }, SETTLE_MS);
}

/** A hint for `game`: {move, source, target, count, text} once the solver has answered; null if the table changed meanwhile. */
async function askHint(game) {
  const mine = generation;
  let told = false;
  const answer = await settled(
    async () => {
      const reply = await api.hint(game.id);
      if (reply.pending && !told) {
        told = true;
        toast("Thinking about a hint…", "info");
      }
      return reply;
    },
    (a) => a.pending,
    () => mine === generation,
  );
  if (answer === null) {
    return { move: null, text: "The solver found no hint in time; try again." };
  }
  // Where every card can go home, that says more than the hint's "can be won".
  if (answer.verdict && store.options.showVerdict && mine === generation && !game.can_finish) {
    showVerdict(answer.searching ? "searching" : answer.verdict);
  }
  return mine === generation ? answer : null;
}

/** Hint: the next move of a winning line, lit on the table and said in words; none while paused. */
export function showHint() {
  return runInPlay(async () => {
    const game = store.game;
    const answer = await askHint(game);
    if (answer === null) {
      return; // the table changed while the solver thought
    }
    store.select(null);
    if (!answer.move) {
      toast(answer.text, "info");
      return;
    }
    const card = sourceCards($("table"), answer.source, 1)[0]?.dataset.card ?? null;
    store.showHint({ source: answer.source, target: answer.target, count: answer.count ?? 1, card });
    toast(`${answer.text} (${answer.move})`, "info");
    if (!game.lesson) {
      // The server counted the hint: its state says so.
      store.receive(await api.state(game.id), "refreshed");
    }
  });
}

export function setupAdvice() {
  store.subscribe((change) => {
    const game = store.game;
    const fresh = change.kind === "game" && (change.how === "played" || change.how === "viewer");
    if (fresh || (change.kind === "options" && change.name === "showVerdict" && game)) {
      refresh(game);
    }
  });
  // Going back changes the cards: queued as every such action, and let pass while paused.
  $("rewind").addEventListener("click", () => runInPlay(async () => accept(await api.rewind(store.game.id))));
}
