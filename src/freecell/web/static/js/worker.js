// A Web Worker of the static site (see freecell/site.py): it runs Pyodide with our package.
// Role "api" answers the page's API with freecell.web.worker.Api (the server's Service),
// its games in SQLite on IDBFS, saved to IndexedDB before each change is acknowledged.
// Role "solver" solves the analyses that the api worker queues, so play never waits
// (until it has loaded, the page hands them to the api worker, between requests).

const DATA = "/data";
let py = null;
let api = null;
let queue = Promise.resolve();

const post = (message) => self.postMessage(message);
const progress = (text, fraction) => post({ type: "progress", text, fraction });

function syncfs(populate) {
  return new Promise((resolve, reject) => py.FS.syncfs(populate, (error) => (error ? reject(error) : resolve())));
}

async function start({ role, pyodide, pkg, version }) {
  progress("Loading Python…", 0.1);
  const { loadPyodide } = await import(new URL("pyodide.mjs", pyodide).href);
  py = await loadPyodide({ indexURL: pyodide, stdout: () => {}, stderr: (text) => console.warn(text) });
  progress("Loading the game…", 0.75);
  const zip = await fetch(pkg);
  if (!zip.ok) {
    throw new Error(`the game's package could not be loaded (${zip.status})`);
  }
  py.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/lib/freecell-site" });
  py.runPython("import sys; sys.path.insert(0, '/lib/freecell-site')");
  if (role === "api") {
    py.FS.mkdirTree(DATA);
    py.FS.mount(py.FS.filesystems.IDBFS, {}, DATA);
    await syncfs(true);
    // Our modules compiled on the first visit are kept with the games, one folder per
    // build of the site, so that later visits start sooner.
    py.globals.set("build", version);
    py.runPython(`
import shutil, sys
from pathlib import Path
cache = Path("${DATA}/pycache")
for old in cache.glob("*"):
    if old.name != build:
        shutil.rmtree(old, ignore_errors=True)
sys.pycache_prefix = str(cache / build)
`);
  }
  const module = py.pyimport("freecell.web.worker");
  if (role === "api") {
    progress("Opening your games…", 0.9);
    api = module.Api(`${DATA}/freecell.db`);
    await syncfs(false);
  }
  self.solveJob = module.solve_job;
  progress("Ready", 1);
  post({ type: "ready" });
}

async function request({ id, method, path, query, body }) {
  const reply = JSON.parse(api.answer(method, path, query ?? "", body === undefined ? "" : JSON.stringify(body)));
  if (reply.changed) {
    await syncfs(false); // saved before the page hears of it
  }
  post({ type: "response", id, status: reply.status, body: reply.body });
  offerJob();
}

function offerJob() {
  const job = api.next_job();
  if (job !== undefined && job !== null) {
    post({ type: "job", job });
  }
}

function handle(message) {
  switch (message.type) {
    case "start":
      return start(message);
    case "request":
      return request(message);
    case "solve":
      return post({ type: "solved", number: JSON.parse(message.job).job, result: self.solveJob(message.job) });
    case "solved":
      api.solved(message.number, message.result);
      return offerJob();
    default:
      throw new Error(`unknown message ${message.type}`);
  }
}

self.onmessage = (event) => {
  // One message at a time, in order: Python runs one call at a time anyway, and a change
  // must be saved before the next request is answered.
  queue = queue.then(() => handle(event.data)).catch((error) => {
    const text = String(error?.message ?? error).split("\n").filter(Boolean).slice(-1)[0];
    post({ type: event.data.type === "request" ? "response" : "failed", id: event.data.id, status: 500,
      body: { detail: `The game in this browser failed: ${text}` }, text });
  });
};
