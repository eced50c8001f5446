// Our own help on every preset: hints that lead to a win, the live verdict (can this
// game still be won?), and the move that lost a game that could have been won, with a
// way back to just before it. The solver runs on the server; while it thinks, an answer
// says `pending` and the page asks again shortly. When the in-play search reaches its
// limit, a longer one follows (`searching`): the page keeps asking until it has a verdict.

import { api } from "./api.js";

const $ = (id) => document.getElementById(id);

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
};

const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** Ask `request` until its answer is no longer pending (or give up after `polls`: null). */
export async function settled(request, isPending, stillWanted, { polls = MAX_POLLS } = {}) {
  for (let i = 0; i < polls; i += 1) {
    const answer = await request();
    if (!isPending(answer) || !stillWanted()) {
      return answer;
    }
    await wait(POLL_MS);
  }
  return null;
}

/**
 * `options.showVerdict` says whether the verdict is on show; `current()` is the state on
 * show; `accept(state)` takes the state a rewind returns; `toast` shows a message.
 */
export function setupAdvice({ options, current, accept, toast }) {
  let generation = 0;
  let timer = null;

  function showVerdict(verdict) {
    const [text, kind] = VERDICTS[verdict] ?? ["", ""];
    $("verdict").textContent = text;
    $("verdict").className = `verdict ${kind}`;
  }

  function hideLosing() {
    $("losing").hidden = true;
  }

  async function analyse(state, mine) {
    let answer = await settled(
      () => api.analysis(state.id),
      (a) => a.verdict === "pending",
      () => mine === generation,
    );
    const until = Date.now() + FURTHER_MS;
    while (answer?.searching && mine === generation && Date.now() < until) {
      showVerdict("searching");
      await wait(FURTHER_POLL_MS);
      answer = await api.analysis(state.id);
    }
    if (mine !== generation) {
      return;
    }
    showVerdict(answer?.searching ? "unknown" : answer?.verdict ?? "unknown");
    const losing = answer?.losing_move;
    // A deal lost before any move has nothing to go back to: a new deal is the way on.
    const lostDeal = answer?.verdict === "not-winnable" && state.moves === 0 && !state.can_undo;
    $("losing").hidden = !losing && !lostDeal;
    $("rewind").hidden = !losing;
    $("losing-new").hidden = !lostDeal;
    if (lostDeal) {
      $("losing-text").textContent = "This deal cannot be won, whatever is played: our solver proved it.";
    } else if (losing) {
      $("losing-text").textContent = losing.text;
      $("rewind").textContent = `Go back ${losing.moves_back} move${losing.moves_back === 1 ? "" : "s"}`;
    }
  }

  /** After each new state: ask, once play pauses, whether the game can still be won. */
  function refresh(state) {
    generation += 1;
    clearTimeout(timer);
    const shown = options.showVerdict && state.outcome === "playing" && !state.lesson;
    $("verdict-box").hidden = !shown;
    hideLosing();
    if (!shown) {
      return;
    }
    showVerdict("pending");
    const mine = generation;
    timer = setTimeout(() => {
      analyse(state, mine).catch(() => {
        if (mine === generation) {
          showVerdict("unknown");
        }
      });
    }, SETTLE_MS);
  }

  /** A hint for `state`: {move, source, target, text} once the solver has answered. */
  async function hint(state) {
    const mine = generation;
    let told = false;
    const answer = await settled(
      async () => {
        const reply = await api.hint(state.id);
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
    if (answer.verdict && options.showVerdict && mine === generation) {
      showVerdict(answer.searching ? "searching" : answer.verdict);
    }
    return mine === generation ? answer : null;
  }

  $("rewind").addEventListener("click", async () => {
    const state = current();
    try {
      await accept(await api.rewind(state.id));
    } catch (error) {
      toast(error.message);
    }
  });

  return { refresh, hint };
}
