// The JSON API of docs/api.md (defined in freecell/web/api.py, which tests/test_api_definition.py
// holds this file to): the page's one transport. Every call returns the parsed
// body or throws an ApiError that carries the server's sentence for the player; status 0
// means the server could not be reached (the page then says so and keeps its table).
// Served by `freecell play`, calls go to the server; in the static site (`freecell site`),
// to the site's Web Worker, which answers with the same Python.

import { connectSite } from "./site.js";

const site = await connectSite();

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

// The API's detail is always a sentence (docs/api.md); anything else came from elsewhere.
const describe = (detail) => (typeof detail === "string" && detail ? detail : "The server refused that.");

async function call(method, path, body, { keepalive = false } = {}) {
  if (site) {
    const answer = await site.request(method, path, body);
    if (answer.status >= 400) {
      throw new ApiError(answer.status, describe(answer.body?.detail));
    }
    return answer.body;
  }
  // keepalive: the request outlives the page (a pause sent as the tab closes).
  const options = { method, keepalive, headers: { Accept: "application/json" } };
  if (method !== "GET") {
    // The server takes a change of state only as JSON, a body-less one too (docs/api.md).
    options.headers["Content-Type"] = "application/json";
  }
  if (body !== undefined) {
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, "The game server cannot be reached.");
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, describe(data?.detail ?? text));
  }
  return data;
}

// On the static site the worker tells the page when the solver answers; a server's page asks again.
const SITE_ANSWER_MS = 5000; // at the latest, should a word from the worker be missed

/** Resolves when a pending answer is worth asking again: after `ms`, or on the static site as soon as the solver answers. */
export function answerMayHaveCome(ms) {
  return site ? site.nextAnswer(SITE_ANSWER_MS) : new Promise((resolve) => { setTimeout(resolve, ms); });
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  rules: () => call("GET", "/api/rules"),
  current: () => call("GET", "/api/current"),
  sharing: () => call("GET", "/api/sharing"),
  newGame: (body) => call("POST", "/api/games", body),
  state: (id) => call("GET", game(id)),
  move: (id, move) => call("POST", `${game(id)}/moves`, { move }),
  undo: (id) => call("POST", `${game(id)}/undo`),
  redo: (id) => call("POST", `${game(id)}/redo`),
  restart: (id) => call("POST", `${game(id)}/restart`),
  pause: (id, { keepalive = false } = {}) => call("POST", `${game(id)}/pause`, undefined, { keepalive }),
  resume: (id) => call("POST", `${game(id)}/resume`),
  options: (id, options) => call("POST", `${game(id)}/options`, options),
  finish: (id) => call("POST", `${game(id)}/finish`),
  hint: (id) => call("GET", `${game(id)}/hint`),
  analysis: (id, { line = false } = {}) => call("GET", `${game(id)}/analysis${line ? "?line=true" : ""}`),
  rewind: (id) => call("POST", `${game(id)}/rewind`),
  review: (id) => call("GET", `${game(id)}/review`),
  playOn: (id, step) => call("POST", `${game(id)}/play-on`, { step }),
  destinations: (id, source, count) =>
    call("GET", `${game(id)}/destinations?source=${encodeURIComponent(source)}&count=${count}`),
  capacity: (id, cells, columns) => {
    const query = cells === undefined ? "" : `?empty_cells=${cells}&empty_columns=${columns}`;
    return call("GET", `${game(id)}/capacity${query}`);
  },
  stats: () => call("GET", "/api/stats"),
  daily: (rules, date) => call("GET", `/api/daily?rules=${encodeURIComponent(rules)}&date=${encodeURIComponent(date)}`),
  startDaily: (body) => call("POST", "/api/daily", body),
  lessons: () => call("GET", "/api/lessons"),
  startLesson: (id) => call("POST", `/api/lessons/${encodeURIComponent(id)}`),
};
