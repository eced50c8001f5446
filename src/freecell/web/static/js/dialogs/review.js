// The game review: a timeline of the game's steps, each marked by the solver as keeping
// the game winnable or losing it (a colour, a symbol and words), the move that lost it,
// the steps that went back, and the game's length beside the solver's solution. The
// server (or the site's worker) judges one position a request, behind every game in
// play, so the review fills in while the page asks again. A tap on a step shows the table
// it left; "Play on from here" deals that table as a new game, marked assisted.

import { accept, run } from "../actions.js";
import { api } from "../api.js";
import { cardText, isRed } from "../cards.js";
import { $, escapeHtml, plural } from "../dom.js";
import { store } from "../store.js";
import { confirm } from "./confirm.js";
import { showDialog } from "./dialog.js";

const POLL_MS = 700;
const MAX_WAIT_MS = 180000; // an unknown costs the in-play limit (3 s): a long game's review takes a while

// Each mark: its symbol, its words, and its class (the colour).
const MARKS = {
  loses: ["✗", "lost the game here", "loses"],
  winnable: ["✓", "still winnable", "winnable"],
  "not-winnable": ["•", "not winnable", "lost"],
  unknown: ["?", "unknown: the search reached its limit", "unknown"],
  pending: ["…", "being judged", "pending"],
};

let shown = null; // {id, review, step}: the review on show and the step chosen
let polling = 0; // one more for each review asked for: an older poll stops
let previousGame = null; // the last game replaced by a new deal, which can be reviewed too

const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

function markOf(step) {
  return MARKS[step.loses ? "loses" : step.verdict] ?? MARKS.pending;
}

/** "Lost at move 3 · 3 moves played; the solver's solution from the deal: 89 moves." */
function summary(review) {
  const outcome = {
    won: "Won", lost: "Lost: no move left", abandoned: "Abandoned", playing: "Not finished",
  }[review.outcome] ?? "";
  const parts = [`${escapeHtml(review.deal)} · ${outcome}`];
  if (review.lost_at !== null) {
    parts.push(`<strong class="review-lost">The game was lost at step ${review.lost_at}</strong>`);
  } else if (review.steps.at(-1)?.verdict === "not-winnable" || review.start.verdict === "not-winnable") {
    parts.push(review.start.verdict === "not-winnable"
      ? "The solver proved this deal cannot be won" : "The game cannot be won from where it stands");
  }
  const solution = review.solution_moves === null
    ? (review.start.verdict === "pending" ? "the solver's solution: being searched"
      : "the solver found no solution within its limit")
    : `the solver's solution from the start: ${plural(review.solution_moves, "move")}`;
  parts.push(`${plural(review.moves_played, "move")} played; ${solution}`);
  return parts.map((part) => `<span>${part}</span>`).join("");
}

function progress(review) {
  if (review.complete) {
    return "";
  }
  const judged = review.steps.filter((step) => step.verdict !== "pending").length;
  return `Judging the positions… ${judged} of ${review.steps.length} known so far.`;
}

/** "Step 4, took back 4♣ to a free cell: back to where step 2 left it". */
function stepWhat(step) {
  const back = step.returns_to === null ? ""
    : step.returns_to === 0 ? ": back to the start" : `: back to where step ${step.returns_to} left it`;
  return `Step ${step.number}, ${step.text}${back}`;
}

function stepLabel(step) {
  return `${stepWhat(step)}: ${markOf(step)[1]}`;
}

function timeline(review) {
  const start = `<li><button type="button" class="review-mark start" data-step="0" aria-label="The start: ${
    MARKS[review.start.verdict]?.[1] ?? ""}"><span aria-hidden="true">◦</span><span class="n">start</span></button></li>`;
  const steps = review.steps.map((step) => {
    const [symbol, , kind] = markOf(step);
    const back = step.returns_to !== null ? " back" : "";
    return `<li><button type="button" class="review-mark ${kind}${back}" data-step="${step.number}" `
      + `aria-label="${escapeHtml(stepLabel(step))}" title="${escapeHtml(stepLabel(step))}">`
      + `<span aria-hidden="true">${step.kind === "undo" ? "↶" : symbol}</span>`
      + `<span class="n">${step.number}</span></button></li>`;
  });
  return start + steps.join("");
}

function miniCard(card) {
  return card ? `<span class="mini-card${isRed(card) ? " red" : ""}">${cardText(card)}</span>`
    : '<span class="mini-card empty"></span>';
}

/** The table a step left, small and read-only: cells and foundations, then the columns. */
function board(table) {
  const foundations = table.foundations.map((pile) => miniCard(pile.top)).join("");
  const cells = table.cells.map(miniCard).join("");
  const columns = table.columns.map((column) => `<li>${column.map(miniCard).join("")}</li>`).join("");
  return `<div class="mini-top"><div aria-label="Free cells">${cells}</div>`
    + `<div aria-label="Foundations">${foundations}</div></div><ol class="mini-columns">${columns}</ol>`;
}

function detail(review, number) {
  const step = number === 0 ? null : review.steps[number - 1];
  const table = step ?? review.start;
  let words;
  if (step === null) {
    words = `The deal as dealt: ${MARKS[review.start.verdict]?.[1] ?? ""}.`;
  } else {
    const [symbol, verdict, kind] = markOf(step);
    words = `<span class="review-word ${kind}"><span aria-hidden="true">${symbol}</span> ${
      verdict[0].toUpperCase()}${verdict.slice(1)}</span> ${escapeHtml(stepWhat(step))}.`;
  }
  $("review-step").innerHTML = words;
  $("review-board").innerHTML = board(table);
  $("review-board").setAttribute("aria-label", number === 0 ? "The table at the start" : `The table after step ${number}`);
  $("review-play-on").disabled = false;
}

function draw() {
  const { review, step } = shown;
  $("review-summary").innerHTML = summary(review);
  $("review-progress").textContent = progress(review);
  const list = $("review-timeline");
  const focused = document.activeElement?.dataset?.step;
  list.innerHTML = timeline(review);
  for (const button of list.querySelectorAll("button")) {
    const number = Number(button.dataset.step);
    button.setAttribute("aria-pressed", String(number === step));
    if (String(number) === focused) {
      button.focus();
    }
  }
  detail(review, step);
}

function choose(number) {
  shown.step = number;
  draw();
  list().querySelector(`[data-step="${number}"]`)?.scrollIntoView({ block: "nearest", inline: "nearest" });
}

const list = () => $("review-timeline");

/** Ask for the review of `id` until it is complete (or the dialog closes, or another is asked for). */
async function follow(id) {
  polling += 1;
  const mine = polling;
  const until = Date.now() + MAX_WAIT_MS;
  for (;;) {
    let review;
    try {
      review = await api.review(id);
    } catch (error) {
      if (error.status !== 503) {
        $("review-progress").textContent = error.message;
        return;
      }
      review = null; // the solver is busy with the games in play: ask again
    }
    if (mine !== polling || !$("review-dialog").open) {
      return;
    }
    if (review !== null) {
      const first = shown?.id !== id;
      const step = first ? (review.lost_at ?? review.steps.length) : shown.step;
      shown = { id, review, step };
      draw();
      if (first) {
        choose(step);
      }
      if (review.complete) {
        return;
      }
    }
    if (Date.now() > until) {
      $("review-progress").textContent = "The solver is busy: close and open the review again later.";
      return;
    }
    await wait(POLL_MS);
  }
}

/** Open the review of the game on the table, or of `id`. */
export async function openReview(id = store.game?.id) {
  if (!id) {
    return;
  }
  shown = null;
  $("review-summary").textContent = "";
  $("review-progress").textContent = "Judging the positions…";
  $("review-timeline").innerHTML = "";
  $("review-step").textContent = "";
  $("review-board").innerHTML = "";
  $("review-play-on").disabled = true;
  const other = previousGame && previousGame !== id && (store.game?.moves ?? 0) === 0;
  $("review-previous").hidden = !other;
  showDialog("review-dialog");
  await follow(id);
}

async function playOn() {
  if (!shown) {
    return;
  }
  const game = store.game;
  const inProgress = game && game.outcome === "playing" && game.moves > 0 && !game.abandoned;
  if (inProgress && !(await confirm({
    title: "Play on from this step?",
    text: "The game in progress will be abandoned and count as a loss; the new game, from the table shown, "
      + "counts as assisted.",
    ok: "Play on",
  }))) {
    return;
  }
  const { id, step } = shown;
  $("review-dialog").close();
  await run(async () => accept(await api.playOn(id, step)));
}

export function setupReview() {
  $("review-open").addEventListener("click", () => openReview());
  $("losing-review").addEventListener("click", () => openReview());
  $("review-previous").addEventListener("click", () => openReview(previousGame));
  $("review-play-on").addEventListener("click", playOn);
  list().addEventListener("click", (event) => {
    const button = event.target.closest("button[data-step]");
    if (button) {
      choose(Number(button.dataset.step));
    }
  });
  list().addEventListener("keydown", (event) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 }[event.key];
    if (step && shown) {
      event.preventDefault();
      const next = Math.max(0, Math.min(shown.review.steps.length, shown.step + step));
      choose(next);
      list().querySelector(`[data-step="${next}"]`)?.focus();
    }
  });
  // A game left for a new deal can still be reviewed from the new one.
  store.subscribe((change) => {
    const before = change.kind === "game" ? change.previous : null;
    if (before && store.game && before.id !== store.game.id && before.moves > 0 && !before.lesson) {
      previousGame = before.id;
    }
  });
}
