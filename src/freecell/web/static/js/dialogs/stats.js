// The Statistics panel: for each preset played, games, wins, streaks and records; a table
// on a wide screen, a short block for each preset on a phone.

import { api } from "../api.js";
import { $, escapeHtml } from "../dom.js";
import { opensWith } from "./dialog.js";
import { rulesList } from "./rules-list.js";

function seconds(value) {
  if (value === null || value === undefined) {
    return "—";
  }
  const s = Math.round(value);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

async function fill() {
  const rows = await api.stats();
  const titles = new Map((await rulesList()).map((r) => [r.name, r.title]));
  const title = (row) => escapeHtml(titles.get(row.rules) ?? row.rules);
  const rate = (row) => (row.played ? `${Math.round((100 * row.won) / row.played)}%` : "—");
  const body = rows.map((row) => `<tr><th scope="row">${title(row)}</th>`
    + `<td>${row.played}</td><td>${row.won}</td><td>${row.lost}</td><td>${rate(row)}</td><td>${row.current_streak}</td>`
    + `<td>${row.best_streak}</td><td>${seconds(row.best_seconds)}</td><td>${row.fewest_moves ?? "—"}</td>`
    + `<td>${row.hints}</td><td>${row.assisted}</td></tr>`).join("");
  // On a phone each preset is a short block instead of a row of eleven cells.
  const blocks = rows.map((row) => `<li><strong>${title(row)}</strong>`
    + `<span>${row.played} played · ${row.won} won (${rate(row)}) · ${row.lost} lost</span>`
    + `<span>Streak ${row.current_streak} · best streak ${row.best_streak}</span>`
    + `<span>Best time ${seconds(row.best_seconds)} · fewest moves ${row.fewest_moves ?? "—"}</span>`
    + `<span>Hints ${row.hints} · assisted games ${row.assisted}</span></li>`).join("");
  $("stats-table").innerHTML = rows.length === 0
    ? "<p>No games finished yet.</p>"
    : `<table class="stats"><thead><tr><th>Rules</th><th>Played</th><th>Won</th><th>Lost</th><th>Won %</th>`
      + `<th>Streak</th><th>Best streak</th><th>Best time</th><th>Fewest moves</th><th>Hints</th>`
      + `<th>Assisted</th></tr></thead><tbody>${body}</tbody></table>`
      + `<ul class="stats-list">${blocks}</ul>`
      + `<p class="assisted-note">Games where the solution was shown are counted as assisted: they count `
      + "neither as played nor won, nor in streaks and records.</p>";
}

export function setupStats() {
  opensWith("stats-dialog", fill);
}
