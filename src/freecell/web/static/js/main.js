// The page's controller: holds the state the server returned, renders it, and turns taps,
// drags and keys into moves in standard notation. The server decides every rule.

import { setupAdvice } from "./advice.js";
import { api } from "./api.js";
import { deal, play, snapshot } from "./animate.js";
import { suitOf, suitSymbols } from "./cards.js";
import { wireKeyboard, wirePointer } from "./input.js";
import { setupPanels } from "./panels.js";
import { moveText, placeKind, readTyped } from "./places.js";
import { ordered, tapsToFoundation } from "./runs.js";
import { setupSolution } from "./solution.js";
import { formatTime, showStatus, toast } from "./status.js";
import { placeElements, renderTable, sourceCards } from "./table.js";

const $ = (id) => document.getElementById(id);
const frame = $("frame");
const tableEl = $("table");

let state = null;
let selection = null; // {source, count, card}
let targets = [];
let hint = null; // {source, target, count, card}
let lastTap = null;
let receivedAt = performance.now();
let token = 0;
let panels = null;
let advice = null;
let solution = null;

// --- drawing ---------------------------------------------------------------------------

function decorate() {
  for (const el of tableEl.querySelectorAll(".selected, .target, .hint-source, .hint-target, .source-preview")) {
    el.classList.remove("selected", "target", "hint-source", "hint-target", "source-preview");
  }
  if (selection) {
    sourceCards(tableEl, selection.source, selection.count).forEach((el) => el.classList.add("selected"));
    for (const place of targets) {
      const suit = selection.card ? suitOf(selection.card) : null;
      const els = place === "h" && suit ? placeElements(tableEl, `h${suit.toLowerCase()}`) : placeElements(tableEl, place);
      els.forEach((el) => el.classList.add("target"));
    }
  }
  if (hint) {
    sourceCards(tableEl, hint.source, hint.count).forEach((el) => el.classList.add("hint-source"));
    placeElements(tableEl, hint.source).forEach((el) => el.classList.add("hint-source"));
    const target = hint.target === "h" && hint.card ? `h${suitOf(hint.card).toLowerCase()}` : hint.target;
    placeElements(tableEl, target).forEach((el) => el.classList.add("hint-target"));
  }
}

/** A selector that finds again, after a render, the table element that had the focus. */
function focusSelector(el) {
  if (!el || !tableEl.contains(el)) {
    return null;
  }
  if (el.dataset.key) {
    return `.card[data-key="${el.dataset.key}"]`;
  }
  const kind = el.classList.contains("heading") ? ".heading" : ".slot";
  const suit = el.dataset.suit ? `[data-suit="${el.dataset.suit}"]` : "";
  return el.dataset.place ? `${kind}[data-place="${el.dataset.place}"]${suit}` : null;
}

function render() {
  const focused = focusSelector(document.activeElement);
  renderTable(tableEl, state, frame);
  decorate();
  panels.update(state);
  showStatus(state, elapsed(), panels.options, { newGame, restart, undo });
  // Keyboard users keep their place: the card or place they were on keeps the focus.
  if (focused) {
    tableEl.querySelector(focused)?.focus({ preventScroll: true });
  }
}

function announce(next) {
  const moves = next.last ?? [];
  if (moves.length) {
    const count = `${next.moves} move${next.moves === 1 ? "" : "s"}`;
    $("announce").textContent = `Played ${moves.join(", ")}. ${count} so far.`;
  }
}

function elapsed() {
  if (!state) {
    return 0;
  }
  const running = !state.paused && state.outcome === "playing";
  return state.elapsed_seconds + (running ? (performance.now() - receivedAt) / 1000 : 0);
}

/**
 * Take a new state from the server: render it and animate what moved. `byViewer` says the
 * solution viewer asked for it (any other change of the position closes the viewer).
 */
async function accept(next, overrides = new Map(), byViewer = false) {
  const before = snapshot(tableEl);
  const wasPlaying = state?.outcome === "playing";
  const sameGame = state?.id === next.id;
  state = next;
  receivedAt = performance.now();
  selection = null;
  targets = [];
  hint = null;
  render();
  advice.refresh(next);
  solution.seen(next, byViewer);
  announce(next);
  if (sameGame) {
    // Not awaited: the next move may start while this one is still sliding.
    play(tableEl, before, next.last ?? [], overrides);
  } else if (next.moves === 0) {
    deal(tableEl);
  }
  if (sameGame && wasPlaying && next.outcome === "won") {
    frame.classList.add("celebrate");
    setTimeout(() => frame.classList.remove("celebrate"), 4000);
  }
}

// --- actions ---------------------------------------------------------------------------

// Server actions run one after another, so fast typing never loses a move.
let queue = Promise.resolve(true);
let pending = 0;
function run(action, { quiet = false } = {}) {
  pending += 1;
  queue = queue.then(async () => {
    try {
      await action();
      return true;
    } catch (error) {
      // In a lesson the explanation shows in the lesson's panel instead.
      if (!quiet && !state?.lesson) {
        toast(error.message);
      }
      panels.lessonMistake(state, error.message);
      return false;
    } finally {
      pending -= 1;
    }
  });
  return queue;
}

function sendMove(text, overrides) {
  clearSelection();
  return run(async () => accept(await api.move(state.id, text), overrides));
}

const undo = () => run(async () => accept(await api.undo(state.id)));
const redo = () => run(async () => accept(await api.redo(state.id)));
const restart = () => run(async () => accept(await api.restart(state.id)));
const finish = () => run(async () => accept(await api.finish(state.id)));

async function togglePause() {
  await run(async () => accept(await (state.paused ? api.resume(state.id) : api.pause(state.id))));
}

async function newGame() {
  const inProgress = state && state.outcome === "playing" && state.moves > 0 && !state.lesson;
  if (inProgress && !(await panels.confirm())) {
    return;
  }
  panels.openNewGame(state);
}

async function showHint() {
  await run(async () => {
    const answer = await advice.hint(state);
    if (answer === null) {
      return; // the table changed while the solver thought
    }
    clearSelection();
    if (!answer.move) {
      toast(answer.text, "info");
      return;
    }
    const source = answer.source;
    const cards = sourceCards(tableEl, source, 1);
    hint = { source, target: answer.target, count: answer.count ?? 1, card: cards[0]?.dataset.card ?? null };
    decorate();
    toast(`${answer.text} (${answer.move})`, "info");
  });
}

// --- selection -------------------------------------------------------------------------

function clearSelection() {
  selection = null;
  targets = [];
  token += 1;
  decorate();
}

/** Check a card can be picked up; returns {source, count, card} or null with a message. */
function pickable(cardEl) {
  const source = cardEl.dataset.source;
  const count = Number(cardEl.dataset.count);
  if (cardEl.dataset.foundation && !state.rules.takes_back) {
    toast("Cards on the foundations stay there in these rules.");
    return null;
  }
  if (count > 1) {
    const index = Number(cardEl.dataset.index);
    const column = state.columns[placeKind(source).index];
    if (!ordered(column.slice(index), state.rules)) {
      toast("Only an ordered run can be picked up: the cards below this one are not in sequence.");
      return null;
    }
  }
  return { source, count, card: cardEl.dataset.card };
}

async function select(chosen, known = null) {
  selection = chosen;
  targets = [];
  if (hint && hint.source !== chosen.source) {
    hint = null; // picking up the hinted cards keeps the hint's target lit
  }
  decorate();
  const mine = ++token;
  try {
    const answer = known ?? await api.destinations(state.id, chosen.source, chosen.count);
    if (mine === token) {
      targets = answer.targets;
      decorate();
    }
  } catch (error) {
    toast(error.message);
  }
}

/** The place a tapped element stands for, as a move target. */
function targetOf(el) {
  const placeEl = el.closest("[data-place]");
  return placeEl ? placeEl.dataset.place : null;
}

async function tap(el) {
  if (!state || state.paused) {
    return;
  }
  const card = el.closest(".card[data-source]");
  const now = performance.now();
  if (card) {
    const double = lastTap && lastTap.key === card.dataset.key && now - lastTap.time < 450;
    lastTap = double ? null : { key: card.dataset.key, time: now };
    if (double && !card.dataset.foundation) {
      await sendMove(`${card.dataset.source}h`);
      return;
    }
  }
  if (selection) {
    const target = targetOf(el);
    if (card && card.dataset.source === selection.source) {
      if (card.dataset.card === selection.card) {
        clearSelection();
      } else {
        const chosen = pickable(card);
        if (chosen) {
          await select(chosen);
        }
      }
      return;
    }
    if (target === null) {
      clearSelection();
      return;
    }
    await sendMove(moveText(selection.source, target, selection.count));
    return;
  }
  if (!card) {
    return;
  }
  const chosen = pickable(card);
  if (!chosen) {
    return;
  }
  if (tapsToFoundation(state.rules) && chosen.count === 1 && !card.dataset.foundation) {
    const answer = await api.destinations(state.id, chosen.source, 1).catch(() => ({ targets: [] }));
    if (answer.targets.includes("h")) {
      await sendMove(`${chosen.source}h`);
      return;
    }
    await select(chosen, answer);
    return;
  }
  await select(chosen);
}

function pickUp(cardEl) {
  if (!state || state.paused) {
    return null;
  }
  const chosen = pickable(cardEl);
  if (!chosen) {
    return null;
  }
  select(chosen);
  return { els: sourceCards(tableEl, chosen.source, chosen.count) };
}

async function drop(place, rects) {
  if (!selection) {
    return false;
  }
  const target = place.startsWith("h") ? "h" : place;
  if (target === selection.source || (target === "h" && selection.source.startsWith("h"))) {
    clearSelection();
    return false;
  }
  return sendMove(moveText(selection.source, target, selection.count), rects);
}

// --- keyboard --------------------------------------------------------------------------

function showTyped(buffer) {
  const el = $("typed");
  el.hidden = buffer === "";
  el.textContent = buffer ? `Move: ${buffer}` : "";
  for (const node of tableEl.querySelectorAll(".source-preview")) {
    node.classList.remove("source-preview");
  }
  const read = buffer && state ? readTyped(buffer, state) : null;
  if (read?.source) {
    placeElements(tableEl, read.source).forEach((node) => node.classList.add("source-preview"));
  }
}

const keys = {
  typed(buffer) {
    if (!state || state.paused) {
      return "bad";
    }
    const read = readTyped(buffer, state);
    if (!read.valid) {
      toast(`“${buffer}” is not a move on this table.`);
      return "bad";
    }
    // While earlier moves are still on their way, the table may yet change (a column may
    // empty and take a "v" count), so a move onto a column waits for Enter or a pause.
    const settled = pending === 0 || placeKind(read.target ?? "h").kind !== "column";
    if (read.complete && settled) {
      sendMove(buffer);
      return "sent";
    }
    if (read.complete) {
      return "wait";
    }
    return read.waits ? "wait" : "more";
  },
  submit(text) {
    if (state && text) {
      sendMove(text);
    }
  },
  undo, redo,
  hint: showHint,
  newGame,
  stepForward: () => solution.forward(),
  stepBack: () => solution.back(),
  escape: () => { clearSelection(); hint = null; decorate(); },
  activate: (el) => tap(el),
  show: showTyped,
};

// --- start -----------------------------------------------------------------------------

/** A link to a deal (`?code=FC1-…`, or `?deal=617&rules=standard`) deals it, once. */
async function linkedGame(params) {
  const code = params.get("code");
  const number = params.get("deal");
  if (!code && !number) {
    return null;
  }
  history.replaceState(null, "", window.location.pathname); // a reload continues, not deals again
  const body = code ? { code } : { rules: params.get("rules") ?? "standard", deal: Number(number) };
  const cells = params.get("cells");
  if (!code && cells) {
    body.cells = Number(cells);
  }
  return api.newGame(body).catch((error) => {
    toast(error.message);
    return null;
  });
}

async function load() {
  const params = new URLSearchParams(window.location.search);
  const wanted = params.get("game");
  let first = await linkedGame(params);
  if (!first && wanted) {
    first = await api.state(wanted).catch(() => null);
  }
  if (!first) {
    const current = await api.current().catch(() => null);
    if (current?.id) {
      first = await api.state(current.id).catch(() => null);
    }
  }
  if (!first) {
    first = await api.newGame({ rules: "standard", random: true });
  }
  await accept(first);
}

function wireButtons() {
  $("new-game").addEventListener("click", newGame);
  $("restart").addEventListener("click", () => (state?.lesson ? panels.startLesson(state.lesson.id) : restart()));
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("hint").addEventListener("click", showHint);
  $("auto-finish").addEventListener("click", finish);
  $("pause").addEventListener("click", togglePause);
  $("resume").addEventListener("click", togglePause);
  $("copy-code").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(state.code);
      toast(`Game code ${state.code} copied.`, "info");
    } catch {
      const range = document.createRange();
      range.selectNodeContents($("game-code"));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      toast("Select and copy the game code shown.", "info");
    }
  });
  setInterval(() => {
    if (state) {
      $("timer").textContent = formatTime(elapsed());
    }
  }, 500);
  let width = window.innerWidth;
  window.addEventListener("resize", () => {
    if (state && window.innerWidth !== width) {
      width = window.innerWidth;
      render();
    }
  });
}

document.body.insertAdjacentHTML("afterbegin", suitSymbols());
panels = setupPanels({
  accept: (next) => accept(next),
  toast,
  rerender: (verdictToo) => {
    if (state) {
      render();
      if (verdictToo) {
        advice.refresh(state);
      }
    }
  },
  current: () => state,
});
advice = setupAdvice({ options: panels.options, current: () => state, accept: (next) => accept(next), toast });
solution = setupSolution({
  current: () => state,
  act: (request) => run(async () => accept(await request(state.id), new Map(), true)),
  toast,
});
wireButtons();
wirePointer(tableEl, { tap, pickUp, drop, cancelDrag: clearSelection });
wireKeyboard(keys);
load().catch((error) => toast(error.message));
