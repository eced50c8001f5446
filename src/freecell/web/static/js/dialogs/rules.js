// The Rules panel: the rules of the preset on the table, and our help on every preset.

import { $, escapeHtml } from "../dom.js";
import { store } from "../store.js";
import { opensWith } from "./dialog.js";
import { rulesList } from "./rules-list.js";

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
      html.push(`<h3>${escapeHtml(heading[2])}</h3>`);
    } else if (/^[-•*]\s+/.test(line)) {
      if (table) { flush(); }
      list ??= [];
      list.push(`<li>${escapeHtml(line.replace(/^[-•*]\s+/, ""))}</li>`);
    } else if (line.startsWith("|")) {
      if (list) { flush(); }
      if (/^\|[\s:|-]+\|$/.test(line)) {
        continue;
      }
      table ??= [];
      const cells = line.replace(/^\||\|$/g, "").split("|").map((c) => `<td>${escapeHtml(c.trim())}</td>`);
      table.push(`<tr>${cells.join("")}</tr>`);
    } else {
      flush();
      html.push(`<p>${escapeHtml(line)}</p>`);
    }
  }
  flush();
  return html.join("");
}

async function fill() {
  const list = await rulesList();
  const rules = list.find((r) => r.name === store.game?.rules.name) ?? list[0];
  $("rules-title").textContent = `Rules: ${rules.title}`;
  const help = rules.help ? `<h3>Our help, on every preset</h3>${prose(rules.help)}` : "";
  $("rules-text").innerHTML = prose(rules.text ?? rules.description) + help;
}

export function setupRules() {
  opensWith("rules-dialog", fill);
}
