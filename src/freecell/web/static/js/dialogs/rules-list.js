// The presets as GET /api/rules lists them, asked for once and shared by the dialogs that
// name them (New game, Rules, Statistics).

import { api } from "../api.js";

let rules = null;

/** The list of presets: [{name, title, description, cells, cell_options, text, help}]. */
export async function rulesList() {
  rules ??= await api.rules();
  return rules;
}
