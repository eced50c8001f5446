// Everything around the table: the New game dialog and its confirmation, the rules,
// statistics, lessons and options panels, the lesson banner and the move calculator.

import { api } from "./api.js";

const $ = (id) => document.getElementById(id);

function escape(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Plain rules text to HTML: "#" headings, "-"/"•" lists, "|" tables, paragraphs. */
export function prose(text) {
  const html = [];
  let list = null;
  let table = null;
  const flush = () => {
    if (list) {
      html.push(`<ul>${list.join("")}</ul>`);
      list = null;
    }
    if (table) {
      html.push(`<table>${table.join("")}</table>`);
      table = null;
    }
  };
  for (const raw of String(text).split("\n")) {
    const line = raw.trim();
    if (line === "") {
      flush();
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      html.push(`<h3>${escape(heading[2])}</h3>`);
    } else if (/^[-•*]\s+/.test(line)) {
      if (table) { flush(); }
      list ??= [];
      list.push(`<li>${escape(line.replace(/^[-•*]\s+/, ""))}</li>`);
    } else if (line.startsWith("|")) {
      if (list) { flush(); }
      if (/^\|[\s:|-]+\|$/.test(line)) {
        continue;
      }
      table ??= [];
      const cells = line.replace(/^\||\|$/g, "").split("|").map((c) => `<td>${escape(c.trim())}</td>`);
      table.push(`<tr>${cells.join("")}</tr>`);
    } else {
      flush();
      html.push(`<p>${escape(line)}</p>`);
    }
  }
  flush();
  return html.join("");
}

function readOptions() {
  return {
    showScore: localStorage.getItem("freecell.hideScore") !== "1",
    showTimer: localStorage.getItem("freecell.hideTimer") !== "1",
    calculator: localStorage.getItem("freecell.calculator") === "1",
    showVerdict: localStorage.getItem("freecell.hideVerdict") !== "1",
    autoHome: localStorage.getItem("freecell.autoHome") === "1",
  };
}

export function setupPanels({ accept, toast, rerender, current, setAutoHome }) {
  let rulesList = null;
  let lessonsList = null;
  const options = readOptions();

  const loadRules = async () => (rulesList ??= await api.rules());
  const loadLessons = async () => (lessonsList ??= await api.lessons());

  // --- confirmation and New game -------------------------------------------------------

  const LEAVE = {
    title: "Leave this game?",
    text: "The game in progress will be abandoned and count as a loss in the statistics.",
    ok: "Leave it",
  };

  /** Ask before something that cannot be taken back; resolves true when the player agrees. */
  function confirm(question = LEAVE) {
    const dialog = $("confirm-dialog");
    $("confirm-title").textContent = question.title;
    $("confirm-text").textContent = question.text;
    $("confirm-ok").textContent = question.ok;
    return new Promise((resolve) => {
      dialog.returnValue = "";
      // The "close" event comes a task later: when the dialog is asked again at once, the
      // earlier closing's event arrives while it is open again, and must not answer for it.
      const closed = () => {
        if (dialog.open) {
          return;
        }
        dialog.removeEventListener("close", closed);
        resolve(dialog.returnValue === "ok");
      };
      dialog.addEventListener("close", closed);
      dialog.showModal();
      $("confirm-ok").focus();
    });
  }

  function fillCells(rules, wanted) {
    const select = $("new-cells");
    select.innerHTML = rules.cell_options
      .map((n) => `<option value="${n}"${n === wanted ? " selected" : ""}>${n}</option>`)
      .join("");
    select.disabled = rules.cell_options.length < 2;
    $("new-rules-description").textContent = rules.description;
  }

  async function openNewGame(state) {
    const list = await loadRules().catch((error) => { toast(error.message); return null; });
    if (!list) {
      return;
    }
    const select = $("new-rules");
    select.innerHTML = list.map((r) => `<option value="${escape(r.name)}">${escape(r.title)}</option>`).join("");
    const name = state?.rules.name ?? "standard";
    select.value = name;
    const chosen = list.find((r) => r.name === select.value) ?? list[0];
    fillCells(chosen, state?.rules.cells ?? chosen.cells);
    $("new-error").textContent = "";
    showBoard();
    $("new-dialog").showModal();
  }

  $("new-rules").addEventListener("change", () => {
    const chosen = rulesList.find((r) => r.name === $("new-rules").value);
    fillCells(chosen, chosen.cells);
  });
  for (const [field, value] of [["new-number", "number"], ["new-code", "code"], ["new-board", "board"]]) {
    $(field).addEventListener("input", () => {
      document.querySelector(`input[name="deal"][value="${value}"]`).checked = true;
    });
  }

  // The board's box opens only when a position of one's own is chosen.
  const showBoard = () => {
    $("new-board-box").hidden = !document.querySelector('input[name="deal"][value="board"]').checked;
  };
  $("new-form").addEventListener("change", (event) => {
    showBoard();
    if (event.target.name === "deal" && event.target.value === "board") {
      $("new-board").focus();
    }
  });

  $("new-form").addEventListener("submit", async (event) => {
    if (event.submitter?.value !== "deal") {
      return;
    }
    event.preventDefault();
    const kind = document.querySelector('input[name="deal"]:checked').value;
    const rules = $("new-rules").value;
    const cells = Number($("new-cells").value);
    let body;
    if (kind === "number") {
      const number = Number($("new-number").value);
      if (!Number.isInteger(number) || number < 1) {
        $("new-error").textContent = "Give a deal number of 1 or more.";
        return;
      }
      body = { rules, cells, deal: number };
    } else if (kind === "code") {
      const code = $("new-code").value.trim();
      if (!code) {
        $("new-error").textContent = "Paste a game code, like FC1-…";
        return;
      }
      body = { code };
    } else if (kind === "board") {
      const board = $("new-board").value;
      if (!board.trim()) {
        $("new-error").textContent = "Paste a position: one line for each column, deepest card first.";
        return;
      }
      // The server checks the board and names any card missing or there twice.
      body = { rules, cells, board };
    } else {
      body = { rules, cells, random: true };
      if ($("new-winnable").checked) {
        body.winnable = true;
      }
    }
    body.auto_home = options.autoHome;
    try {
      const state = await api.newGame(body);
      $("new-dialog").close("deal");
      await accept(state);
    } catch (error) {
      $("new-error").textContent = kind === "board" ? `This position cannot be played: ${error.message}` : error.message;
    }
  });

  // --- rules, statistics, lessons, options ---------------------------------------------

  async function showRules() {
    const state = current();
    const list = await loadRules();
    const rules = list.find((r) => r.name === state?.rules.name) ?? list[0];
    $("rules-title").textContent = `Rules: ${rules.title}`;
    const help = rules.help ? `<h3>Our help, on every preset</h3>${prose(rules.help)}` : "";
    $("rules-text").innerHTML = prose(rules.text ?? rules.description) + help;
  }

  function seconds(value) {
    if (value === null || value === undefined) {
      return "—";
    }
    const s = Math.round(value);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  async function showStats() {
    const rows = await api.stats();
    const titles = new Map((await loadRules()).map((r) => [r.name, r.title]));
    const rate = (row) => (row.played ? `${Math.round((100 * row.won) / row.played)}%` : "—");
    const body = rows.map((row) => `<tr><th scope="row">${escape(titles.get(row.rules) ?? row.rules)}</th>`
      + `<td>${row.played}</td><td>${row.won}</td><td>${row.lost}</td><td>${rate(row)}</td><td>${row.current_streak}</td>`
      + `<td>${row.best_streak}</td><td>${seconds(row.best_seconds)}</td><td>${row.fewest_moves ?? "—"}</td>`
      + `<td>${row.hints}</td><td>${row.assisted}</td></tr>`).join("");
    // On a phone each preset is a short block instead of a row of eleven cells.
    const blocks = rows.map((row) => `<li><strong>${escape(titles.get(row.rules) ?? row.rules)}</strong>`
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

  async function startLesson(id) {
    try {
      const state = await api.startLesson(id);
      $("lessons-dialog").close();
      $("lesson-feedback").textContent = "";
      await accept(state);
    } catch (error) {
      toast(error.message);
    }
  }

  async function showLessons() {
    const list = await loadLessons();
    $("lessons-list").innerHTML = list.map((lesson) =>
      `<li><button type="button" class="lesson-start" data-lesson="${escape(lesson.id)}">`
      + `<strong>${escape(lesson.title)}</strong><span>${escape(lesson.summary)}</span></button></li>`).join("");
  }
  $("lessons-list").addEventListener("click", (event) => {
    const button = event.target.closest("[data-lesson]");
    if (button) {
      startLesson(button.dataset.lesson);
    }
  });

  const openers = {
    "rules-dialog": showRules,
    "stats-dialog": showStats,
    "lessons-dialog": showLessons,
    "options-dialog": async () => {},
  };
  for (const button of document.querySelectorAll("[data-open]")) {
    button.addEventListener("click", async () => {
      const id = button.dataset.open;
      try {
        await openers[id]();
        if (!$(id).open) {
          $(id).showModal();
        }
      } catch (error) {
        toast(error.message);
      }
    });
  }
  // A click on the backdrop closes a panel.
  for (const dialog of document.querySelectorAll("dialog")) {
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) {
        dialog.close("cancel");
      }
    });
  }

  // Each "show" box is remembered in localStorage under freecell.hide<Name>.
  $("auto-home").checked = options.autoHome;
  $("auto-home").addEventListener("change", (event) => {
    options.autoHome = event.target.checked;
    localStorage.setItem("freecell.autoHome", options.autoHome ? "1" : "0");
    setAutoHome(options.autoHome);
  });

  for (const [box, option, key] of [
    ["show-score", "showScore", "hideScore"],
    ["show-timer", "showTimer", "hideTimer"],
    ["show-verdict", "showVerdict", "hideVerdict"],
  ]) {
    $(box).checked = options[option];
    $(box).addEventListener("change", (event) => {
      options[option] = event.target.checked;
      localStorage.setItem(`freecell.${key}`, options[option] ? "0" : "1");
      rerender(option === "showVerdict");
    });
  }

  // --- lesson banner -------------------------------------------------------------------

  function updateLesson(state) {
    const panel = $("lesson-panel");
    const lesson = state.lesson;
    panel.hidden = !lesson;
    if (!lesson) {
      return;
    }
    const steps = lesson.steps > 1 ? ` (step ${lesson.step} of ${lesson.steps})` : "";
    $("lesson-title").textContent = `Lesson: ${lesson.title ?? ""}${steps}`;
    $("lesson-text").textContent = lesson.text;
    panel.classList.toggle("done", Boolean(lesson.done));
    $("lesson-next").hidden = true;
    if (lesson.done) {
      loadLessons().then((list) => {
        const index = list.findIndex((l) => l.id === lesson.id);
        const next = list[index + 1];
        $("lesson-next").hidden = !next;
        $("lesson-next").dataset.lesson = next?.id ?? "";
      }).catch(() => {});
    }
    if (lesson.done) {
      $("lesson-feedback").textContent = "Well done: lesson complete!";
      $("lesson-feedback").className = "feedback good";
    } else if ($("lesson-feedback").className.includes("good")) {
      $("lesson-feedback").textContent = "";
      $("lesson-feedback").className = "feedback";
    }
  }

  function lessonMistake(state, message) {
    if (state?.lesson) {
      $("lesson-feedback").textContent = message;
      $("lesson-feedback").className = "feedback bad";
    }
  }

  $("lesson-next").addEventListener("click", () => {
    if ($("lesson-next").dataset.lesson) {
      startLesson($("lesson-next").dataset.lesson);
    }
  });
  $("lesson-restart").addEventListener("click", () => {
    const lesson = current()?.lesson;
    if (lesson) {
      startLesson(lesson.id);
    }
  });

  // --- move calculator -----------------------------------------------------------------

  let calcToken = 0;
  async function updateCalculator(state) {
    const always = Boolean(state.rules.show_capacity);
    const shown = always || options.calculator;
    $("calculator").hidden = !shown;
    $("toggle-calculator").hidden = always;
    $("toggle-calculator").setAttribute("aria-pressed", String(shown));
    if (!shown) {
      return;
    }
    $("calc-cells").max = state.rules.cells;
    $("calc-columns").max = state.rules.columns;
    const mine = ++calcToken;
    try {
      const now = await api.capacity(state.id);
      if (mine !== calcToken) {
        return;
      }
      $("calc-empty").textContent = `Now: ${now.empty_cells} empty free cell${now.empty_cells === 1 ? "" : "s"}, `
        + `${now.empty_columns} empty column${now.empty_columns === 1 ? "" : "s"}. `
        + "Capacity = (free cells + 1) × 2^(empty columns).";
      $("calc-occupied").textContent = now.formula_occupied;
      $("calc-empty-target").textContent = now.formula_empty;
      if (!$("calc-form").dataset.touched) {
        $("calc-cells").value = now.empty_cells;
        $("calc-columns").value = now.empty_columns;
        await tryCalculator();
      }
    } catch (error) {
      $("calc-occupied").textContent = error.message;
    }
  }

  // Answers can arrive out of order when the inputs change quickly: only the answer to
  // the latest question is shown.
  let tryToken = 0;
  async function tryCalculator() {
    const state = current();
    const cells = Number($("calc-cells").value);
    const columns = Number($("calc-columns").value);
    const mine = ++tryToken;
    let text;
    try {
      const answer = await api.capacity(state.id, cells, columns);
      text = `to an occupied column ${answer.formula_occupied} · to an empty one ${answer.formula_empty}`;
    } catch (error) {
      text = error.message;
    }
    if (mine === tryToken) {
      $("calc-try-out").textContent = text;
    }
  }
  $("calc-form").addEventListener("input", () => {
    $("calc-form").dataset.touched = "1";
    tryCalculator();
  });
  $("calc-form").addEventListener("submit", (event) => event.preventDefault());
  $("toggle-calculator").addEventListener("click", () => {
    options.calculator = !options.calculator;
    localStorage.setItem("freecell.calculator", options.calculator ? "1" : "0");
    const state = current();
    if (state) {
      updateCalculator(state);
    }
  });

  return {
    options,
    confirm,
    openNewGame,
    startLesson,
    lessonMistake,
    update(state) {
      updateLesson(state);
      updateCalculator(state);
    },
  };
}
