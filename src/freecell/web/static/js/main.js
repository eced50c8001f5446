// The page's controller: holds the state the server returned, renders it, and turns taps,
// drags and keys into moves in standard notation. The server decides every rule.

import { setupAdvice } from "./advice.js";
import { api } from "./api.js";
import { deal, play, snapshot } from "./animate.js";
import { cardLabel, cardText, suitOf, suitSymbols } from "./cards.js";
import { wireKeyboard, wirePointer } from "./input.js";
import { linkRequest, setupShare } from "./links.js";
import { setupMenu } from "./menu.js";
import { setupPanels } from "./panels.js";
import { moveText, placeKind, readTyped } from "./places.js";
import { ordered, tapsToFoundation } from "./runs.js";
import { setupSolution } from "./solution.js";
import { clearToast, formatTime, showStatus, toast } from "./status.js";
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
let menu = null;
let drawn = ""; // the felt's size the table was last laid out for

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
  // The panels first: the table is sized to the room they leave.
  panels.update(state);
  showStatus(state, elapsed(), panels.options, { newGame, restart, undo });
  drawn = `${frame.clientWidth}x${frame.clientHeight}`;
  renderTable(tableEl, state, frame);
  decorate();
  menu.update();
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
  // A message about the table before is stale once a move is made, a deal dealt or a game won.
  if (!sameGame || next.moves !== state.moves || next.outcome !== state.outcome) {
    clearToast();
  }
  $("offline").hidden = true;
  remember(next);
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
      if (error.status === 0) {
        $("offline").hidden = false; // the last table stays in view
      } else if (!quiet && !state?.lesson) {
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
/** Back to the start of the deal, once the player has confirmed it when moves were made. */
async function restart() {
  const playing = state && state.outcome === "playing" && state.moves > 0;
  if (playing && !(await panels.confirm({
    title: "Restart this deal?",
    text: `The ${state.moves} move${state.moves === 1 ? "" : "s"} played will be taken back and the clock starts again.`,
    ok: "Restart",
  }))) {
    return;
  }
  await run(async () => accept(await api.restart(state.id)));
}
const finish = () => run(async () => accept(await api.finish(state.id)));

async function togglePause() {
  localStorage.removeItem(PAUSED_WHILE_AWAY); // the player's own pause or resume: it stays as they left it
  await run(async () => accept(await (state.paused ? api.resume(state.id) : api.pause(state.id))));
}

// The clock counts only the time the game is in front of the player, as desktop games do:
// it stops when the page is hidden (another tab, a minimised window, the tab closed, the
// phone locked), and starts again when the page comes back, or is opened again after the
// tab was closed, unless the player had paused. Which game the page paused is kept here.
const PAUSED_WHILE_AWAY = "freecell.pausedWhileAway";
function pauseWhileAway() {
  if (document.visibilityState === "hidden") {
    if (state && !state.paused && state.outcome === "playing") {
      try {
        localStorage.setItem(PAUSED_WHILE_AWAY, state.id);
      } catch {
        return; // storage refused: the page could not tell its pause from the player's
      }
      run(async () => accept(await api.pause(state.id, { keepalive: true })), { quiet: true });
    }
    return;
  }
  const pausedId = takePausedWhileAway();
  if (pausedId !== null) {
    // Queued after the pause, so it sees the state the pause left.
    run(async () => state && accept(await resumedIf(state, pausedId)), { quiet: true });
  }
}

/** The game this page paused as it left (null if none), forgotten now: it goes on once. */
function takePausedWhileAway() {
  const pausedId = localStorage.getItem(PAUSED_WHILE_AWAY);
  localStorage.removeItem(PAUSED_WHILE_AWAY);
  return pausedId;
}

/** `next`, or the state after resuming it when it is the paused game `pausedId`. */
async function resumedIf(next, pausedId) {
  return next.paused && next.id === pausedId ? api.resume(next.id) : next;
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
    if (!state.lesson) {
      state.hints = (state.hints ?? 0) + 1; // as the server counted it
      showStatus(state, elapsed(), panels.options, { newGame, restart, undo });
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
  announceSelection();
}

/**
 * The arrow keys: one card more (`step` 1) or fewer (-1) of the ordered run under the
 * selected card of a column. Answers whether the selection changed.
 */
function widen(step) {
  if (!selection || placeKind(selection.source).kind !== "column") {
    return false;
  }
  const column = state.columns[placeKind(selection.source).index];
  const count = selection.count + step;
  if (count < 1 || count > column.length || !ordered(column.slice(column.length - count), state.rules)) {
    return false;
  }
  select({ source: selection.source, count, card: column[column.length - count] });
  return true;
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

/** Tell a screen reader what is held: "Selected 7 of hearts and the 2 cards on it". */
function announceSelection() {
  const el = $("announce-selection");
  if (!selection) {
    el.textContent = "";
    return;
  }
  const more = selection.count - 1;
  const on = more ? ` and the ${more === 1 ? "card" : `${more} cards`} on it` : "";
  const where = targets.length ? ` It may go to ${targets.map(placeName).join(", ")}.` : "";
  el.textContent = `Selected ${cardLabel(selection.card)}${on}.${where}`;
}

function placeName(place) {
  const kind = placeKind(place);
  if (kind.kind === "foundation") {
    return "its foundation";
  }
  return kind.kind === "column" ? `column ${place}` : `free cell ${place}`;
}

async function select(chosen, known = null) {
  selection = chosen;
  targets = [];
  announceSelection();
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
      announceSelection();
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
      await sendUseful(card);
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

/**
 * A double-click's move: home when the card may go there; else to a free cell (as most
 * FreeCell programs do); else onto a column where it fits, an occupied one first. The
 * server says where the card may legally go.
 */
async function sendUseful(card) {
  const chosen = pickable(card);
  if (!chosen) {
    return;
  }
  clearSelection();
  const single = chosen.count === 1;
  let answer;
  try {
    answer = await api.destinations(state.id, chosen.source, chosen.count);
  } catch (error) {
    toast(error.message);
    return;
  }
  const targets = answer.targets;
  const fromCell = placeKind(chosen.source).kind === "cell";
  const columns = targets.filter((t) => placeKind(t).kind === "column");
  const occupied = columns.filter((t) => state.columns[placeKind(t).index].length > 0);
  const choice = (single && targets.includes("h") ? "h" : null)
    ?? (single && !fromCell ? targets.find((t) => placeKind(t).kind === "cell") : null)
    ?? occupied[0] ?? columns[0] ?? null;
  if (choice === null) {
    toast(`${cardText(chosen.card)} has nowhere to go: no free cell, and no column where it fits.`, "info");
    return;
  }
  await sendMove(moveText(chosen.source, choice, chosen.count));
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
  widen,
};

// --- start -----------------------------------------------------------------------------

/** Keep the last state, so that the table stays in view when the server cannot be reached. */
function remember(next) {
  try {
    localStorage.setItem("freecell.lastState", JSON.stringify(next));
  } catch {
    // Storage full or refused: the page works on without it.
  }
}

/** The game a link asks for, once the player agrees to leave a game in progress. */
async function openLink(link) {
  // A reload continues the game instead of dealing the link again.
  window.history.replaceState(null, "", window.location.pathname);
  const current = await api.current();
  const playing = current.id ? await api.state(current.id).catch(() => null) : null;
  if (playing && playing.outcome === "playing" && playing.moves > 0 && !playing.lesson && !(await panels.confirm({
    title: "Open the shared deal?",
    text: "The game in progress will be abandoned and count as a loss in the statistics.",
    ok: "Open it",
  }))) {
    return playing;
  }
  try {
    return await api.newGame({ ...link, auto_home: panels.options.autoHome });
  } catch (error) {
    if (error.status === 0) {
      throw error;
    }
    toast(`This link cannot be opened: ${error.message}`);
    return playing;
  }
}

async function load() {
  const params = new URLSearchParams(window.location.search);
  const link = linkRequest(window.location.search);
  let first = null;
  try {
    if (link) {
      first = await openLink(link);
    } else if (params.get("game")) {
      first = await api.state(params.get("game")).catch((error) => {
        if (error.status === 0) {
          throw error;
        }
        return null;
      });
    }
    if (!first) {
      const current = await api.current();
      if (current.id) {
        first = await api.state(current.id).catch(() => null);
      }
    }
    if (!first) {
      first = await api.newGame({ rules: "standard", random: true, auto_home: panels.options.autoHome });
    }
    // The player's choice of sending safe cards home holds in every game they play.
    if (!first.lesson && first.outcome === "playing" && !first.abandoned && first.auto_home !== panels.options.autoHome) {
      first = await api.options(first.id, { auto_home: panels.options.autoHome });
    }
  } catch (error) {
    if (error.status !== 0) {
      throw error;
    }
    offline();
    return;
  }
  await accept(first);
  pauseWhileAway(); // opened in a hidden tab, or again after the tab was closed
}

/** The server cannot be reached: say so, and show the last table it sent. */
function offline() {
  $("offline").hidden = false;
  if (!state) {
    try {
      const last = JSON.parse(localStorage.getItem("freecell.lastState") ?? "null");
      if (last) {
        state = last;
        render();
      }
    } catch {
      // Nothing usable was kept: the message alone shows.
    }
  }
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
  document.addEventListener("visibilitychange", pauseWhileAway);
  $("retry").addEventListener("click", () => {
    $("offline").hidden = true;
    // A pause sent as the page left may have reached the server after all: once it answers,
    // the game paused while away goes on, as on any return to the page; in the same queued
    // action, so that a move typed meanwhile waits for the resumed game.
    const retry = state?.id
      ? run(async () => {
          const next = await api.state(state.id);
          await accept(await resumedIf(next, takePausedWhileAway()));
        })
      : load();
    retry.catch(() => offline());
  });
  $("losing-new").addEventListener("click", () => panels.openNewGame(state));
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
  // The table is laid out again whenever the felt changes size: a resize, a rotation, or
  // a panel above it opening or closing.
  let queued = false;
  new ResizeObserver(() => {
    if (queued) {
      return;
    }
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      if (state && `${frame.clientWidth}x${frame.clientHeight}` !== drawn) {
        render();
      }
    });
  }).observe(frame);
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
  setAutoHome: (on) => {
    if (state && !state.lesson && state.outcome === "playing" && !state.abandoned) {
      run(async () => accept(await api.options(state.id, { auto_home: on })));
    }
  },
});
advice = setupAdvice({ options: panels.options, current: () => state, accept: (next) => accept(next), toast });
solution = setupSolution({
  current: () => state,
  act: (request) => run(async () => accept(await request(state.id), new Map(), true)),
  toast,
});
menu = setupMenu();
setupShare({ current: () => state, toast });
wireButtons();
wirePointer(tableEl, { tap, pickUp, drop, cancelDrag: clearSelection });
wireKeyboard(keys);
load().catch((error) => toast(error.message));
// Installed on a phone's home screen, the page opens from the service worker's cache. The
// script sits beside the page: the server's /sw.js, or the static site's own.
navigator.serviceWorker?.register("sw.js").catch(() => {});
