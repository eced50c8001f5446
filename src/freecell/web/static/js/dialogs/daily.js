// The daily deal: one deal a day for each preset, the same for every player. The toolbar's
// Daily button says today's date, the preset, the grade and whether today's is won; its
// dialog tells the daily statistics and deals it. The day is the player's own calendar
// day (a new deal at local midnight), which the server or the site's worker checks.

import { accept } from "../actions.js";
import { api } from "../api.js";
import { $, escapeHtml, plural } from "../dom.js";
import { store } from "../store.js";
import { toast } from "../toast.js";
import { confirm } from "./confirm.js";
import { showDialog } from "./dialog.js";
import { rulesList } from "./rules-list.js";

const GRADES = { easy: "Easy", medium: "Medium", hard: "Hard" };
const known = new Map(); // "rules date" -> the answer of GET /api/daily

/** The player's calendar day, YYYY-MM-DD. */
export function today() {
  const now = new Date();
  const two = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/** "Sunday 6 December" (with `long`: "Sunday 6 December 2026"), in the player's language. */
export function dayText(date, { long = false } = {}) {
  const [year, month, day] = date.split("-").map(Number);
  const options = { weekday: "long", day: "numeric", month: "long", ...(long ? { year: "numeric" } : {}) };
  return new Date(year, month - 1, day).toLocaleDateString(undefined, options);
}

function shortDay(date) {
  const [year, month, day] = date.split("-").map(Number);
  return new Date(year, month - 1, day).toLocaleDateString(undefined, { day: "numeric", month: "short" });
}

async function dailyOf(rules, { fresh = false } = {}) {
  const key = `${rules} ${today()}`;
  if (fresh || !known.has(key)) {
    known.set(key, await api.daily(rules, today()));
  }
  return known.get(key);
}

/** What the day's result is, in words. */
function todayText(info) {
  const playing = store.game?.daily === info.date && store.game.rules.name === info.rules
    && store.game.outcome === "playing" && !store.game.abandoned;
  return {
    won: "Won today ✓ — come back tomorrow for a new deal.",
    assisted: "Won today with the solution shown: that does not count for the streak. Try it again on your own.",
    lost: "Not won yet today: try again, it still counts.",
  }[info.stats.today] ?? (playing ? "You are playing it now." : "Not played yet today.");
}

/** The toolbar's entry: "Daily" with the date, the grade and a tick once won. */
function showEntry(info) {
  const won = info.stats.today === "won";
  $("daily-day").textContent = ` ${shortDay(info.date)}`;
  $("daily-grade").textContent = GRADES[info.difficulty];
  $("daily-won").hidden = !won;
  $("daily").setAttribute(
    "aria-label",
    `Daily deal, ${dayText(info.date)}: ${info.title}, ${GRADES[info.difficulty]}${won ? ", won" : ""}`,
  );
  $("daily").title = `Today's daily deal (${info.title}, ${GRADES[info.difficulty]})${won ? ": won" : ""}`;
}

function fillDialog(info) {
  $("daily-date").textContent = dayText(info.date, { long: true });
  $("daily-deal").innerHTML = `${escapeHtml(info.title)} · deal ${info.deal} · `
    + `<span class="grade grade-${escapeHtml(info.difficulty)}">${GRADES[info.difficulty]}</span>`;
  $("daily-today").textContent = todayText(info);
  const { stats } = info;
  const time = stats.best_seconds === null ? "—"
    : `${Math.floor(Math.round(stats.best_seconds) / 60)}:${String(Math.round(stats.best_seconds) % 60).padStart(2, "0")}`;
  $("daily-stats").innerHTML = [
    ["Streak", plural(stats.current_streak, "day")],
    ["Best streak", plural(stats.best_streak, "day")],
    ["Days won", `${stats.won} of ${stats.played}`],
    ["Best time", time],
  ].map(([name, value]) => `<div><dt>${name}</dt><dd>${value}</dd></div>`).join("");
  const onTable = store.game?.daily === info.date && store.game.rules.name === info.rules && !store.game.abandoned
    && store.game.outcome === "playing";
  $("daily-play").textContent = onTable ? "Back to the game" : info.stats.today ? "Play it again" : "Play today's deal";
  $("daily-play").dataset.onTable = onTable ? "yes" : "";
}

/** Show the daily deal of `rules` in the dialog (and the toolbar, for the rules on the table). */
async function show(rules, { fresh = false } = {}) {
  $("daily-error").textContent = "";
  $("daily-deal").textContent = "Choosing today's deal…";
  $("daily-today").textContent = "";
  $("daily-stats").innerHTML = "";
  $("daily-play").disabled = true;
  try {
    const info = await dailyOf(rules, { fresh });
    if ($("daily-rules").value !== rules) {
      return; // another preset was chosen meanwhile
    }
    fillDialog(info);
    $("daily-play").disabled = false;
    if (rules === store.game?.rules.name) {
      showEntry(info);
    }
  } catch (error) {
    $("daily-deal").textContent = "";
    $("daily-error").textContent = error.message;
  }
}

/** Open the dialog on the preset of the game on the table. */
export async function openDaily(rules = store.game?.rules.name) {
  const list = await rulesList();
  const select = $("daily-rules");
  select.innerHTML = list.map((r) => `<option value="${escapeHtml(r.name)}">${escapeHtml(r.title)}</option>`).join("");
  select.value = rules ?? list[0].name;
  showDialog("daily-dialog");
  await show(select.value, { fresh: true });
}

/** Deal the daily deal of `rules`, once the player agrees to leave a game in progress. */
export async function playDaily(rules) {
  const game = store.game;
  const inProgress = game && game.outcome === "playing" && game.moves > 0 && !game.lesson && !game.abandoned;
  if (inProgress && !(await confirm())) {
    return false;
  }
  const next = await api.startDaily({ rules, date: today(), auto_home: store.options.autoHome });
  accept(next);
  return true;
}

/** "(Sunday 6 December, Easy, won ✓)": the daily deal of `rules` in a line, for the New game dialog. */
export async function dailyLine(rules) {
  const info = await dailyOf(rules);
  const won = info.stats.today === "won" ? ", won ✓" : "";
  return `(${dayText(info.date)}, ${GRADES[info.difficulty]}${won})`;
}

/** The toolbar's entry for the rules on the table, asked again when they change or a daily game ends. */
async function refreshEntry({ fresh = false } = {}) {
  const rules = store.game?.rules.name;
  if (!rules || store.game.lesson) {
    return;
  }
  try {
    showEntry(await dailyOf(rules, { fresh }));
  } catch {
    // The entry keeps its plain "Daily": the dialog says what went wrong.
  }
}

export function setupDaily() {
  $("daily").addEventListener("click", () => openDaily().catch((error) => toast(error.message)));
  $("daily-rules").addEventListener("change", () => show($("daily-rules").value));
  $("daily-form").addEventListener("submit", async (event) => {
    if (event.submitter?.value !== "play") {
      return;
    }
    event.preventDefault();
    if ($("daily-play").dataset.onTable) {
      $("daily-dialog").close("play");
      return;
    }
    try {
      $("daily-dialog").close("play");
      await playDaily($("daily-rules").value);
    } catch (error) {
      toast(error.message);
    }
  });
  store.subscribe((change) => {
    if (change.kind !== "game" || !store.game) {
      return;
    }
    const { game } = store;
    const before = change.previous;
    const ended = game.daily && game.outcome !== "playing" && before?.outcome === "playing" && before.id === game.id;
    if (ended || before?.rules.name !== game.rules.name || (game.daily && before?.id !== game.id)) {
      refreshEntry({ fresh: Boolean(ended || game.daily) });
    }
  });
}
