// A Web Worker of the static site (see freecell/site.py): it runs Pyodide with our package.
// Role "api" answers the page's API with freecell.web.worker.Api (the server's Service),
// its games in SQLite on IDBFS, saved to IndexedDB before each change is acknowledged.
// Role "api" opens the games only once the page says so ("open": this tab holds the lock),
// so Python may start meanwhile. Role "solver" solves the analyses that the api worker
// queues, so play never waits (the page holds them until it has loaded), and chooses the
// daily deal, which the api worker only checks; role "longer"
// does the longer search that follows one that reached its limit, and is ended by the
// page when the game moves on (nothing else stops a search under way).

const DATA = "/data";
let py = null;
let api = null;
let queue = Promise.resolve();
let open = null;
const opening = new Promise((resolve) => { open = resolve; });

const post = (message) => self.postMessage(message);
const progress = (text, fraction) => post({ type: "progress", text, fraction });
// How long each step of the start took (ms since the worker started): the page keeps them
// as performance marks, which bench/site.py prints.
const began = performance.now();
const step = (name) => post({ type: "step", name, ms: performance.now() - began });

function syncfs(populate) {
  return new Promise((resolve, reject) => py.FS.syncfs(populate, (error) => (error ? reject(error) : resolve())));
}

// Python's memory once our package is imported, kept after the first visit (one per build
// of the site): later visits restore it instead of starting Python and importing again,
// which takes most of the time to a table. It is Pyodide's memory snapshot, checked by
// Pyodide against the runtime's build; a snapshot that does not restore is dropped. It is
// kept in IndexedDB, which every context has (Cache Storage needs a secure one).
const SNAPSHOTS = { database: "freecell-snapshot", store: "snapshots", key: "python" };

function snapshotStore(mode, use) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(SNAPSHOTS.database, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(SNAPSHOTS.store);
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const db = opening.result;
      const transaction = db.transaction(SNAPSHOTS.store, mode);
      const request = use(transaction.objectStore(SNAPSHOTS.store));
      transaction.oncomplete = () => { db.close(); resolve(request.result); };
      transaction.onerror = () => { db.close(); reject(transaction.error); };
      transaction.onabort = () => { db.close(); reject(transaction.error); };
    };
  });
}

async function savedSnapshot(version) {
  try {
    const kept = await snapshotStore("readonly", (store) => store.get(SNAPSHOTS.key));
    return kept?.version === version ? kept.memory : null;
  } catch {
    return null; // no IndexedDB here (storage off): start Python as usual
  }
}

async function saveSnapshot(version, memory) {
  try {
    await snapshotStore("readwrite", (store) => store.put({ version, memory }, SNAPSHOTS.key)); // the last build's goes
  } catch (error) {
    console.warn("Python's memory could not be kept for the next visit:", error);
  }
}

const dropSnapshot = () => snapshotStore("readwrite", (store) => store.delete(SNAPSHOTS.key)).catch(() => {});

async function startPython(pyodide, pkg, version, role) {
  const [{ loadPyodide }, { default: createPyodideModule }, zip, snapshot] = await Promise.all([
    import(new URL("pyodide.mjs", pyodide).href),
    import(new URL("pyodide.asm.mjs", pyodide).href), // loaded here, beside the rest, not after it
    fetch(pkg).then((answer) => {
      if (!answer.ok) {
        throw new Error(`the game's package could not be loaded (${answer.status})`);
      }
      return answer.arrayBuffer();
    }),
    savedSnapshot(version),
  ]);
  step("files read");
  const options = { indexURL: pyodide, createPyodideModule, stdout: () => {}, stderr: (text) => console.warn(text) };
  const unpack = () => py.unpackArchive(zip, "zip", { extractDir: "/lib/freecell-site" });
  if (snapshot) {
    try {
      py = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      unpack(); // the files of modules imported later on (sys.path already has them)
      py.runPython("import random; random.seed()"); // not the same draws on every visit
      step("pyodide from its snapshot");
      return;
    } catch (error) {
      console.warn("Python's kept memory did not restore; starting it afresh:", error);
      await dropSnapshot();
    }
  }
  py = await loadPyodide({ ...options, _makeSnapshot: role === "api" });
  step("pyodide");
  progress("Loading the game…", 0.75);
  unpack();
  py.runPython("import sys; sys.dont_write_bytecode = True; sys.path.insert(0, '/lib/freecell-site'); import freecell.web.worker");
  step("import");
  if (role === "api") {
    await saveSnapshot(version, py.makeMemorySnapshot());
    step("snapshot saved");
  }
}

async function start({ role, pyodide, pkg, version }) {
  progress("Loading Python…", 0.1);
  await startPython(pyodide, pkg, version, role);
  const module = py.pyimport("freecell.web.worker");
  if (role === "api") {
    const { lastSeen } = await opening; // the page's go-ahead: this tab is the only one playing
    progress("Opening your games…", 0.9);
    py.FS.mkdirTree(DATA);
    py.FS.mount(py.FS.filesystems.IDBFS, {}, DATA);
    await syncfs(true);
    api = module.Api(`${DATA}/freecell.db`);
    if (given(lastSeen)) {
      api.skip_time_away(lastSeen / 1000); // the site was closed since: the clock stood still
    }
    await syncfs(false);
    step("store");
  }
  self.solveJob = module.solve_job;
  self.dailyJob = module.daily_job;
  progress("Ready", 1);
  post({ type: "ready" });
}

// The games' IndexedDB is gone (the site's data cleared while the tab was open): nothing
// can be saved any more, so nothing more is answered; the page offers a reload.
let storeGone = false;

async function request({ id, method, path, query, body }) {
  if (storeGone) {
    return post({ type: "response", id, status: 503, body: { detail: "The games saved in this browser are gone." } });
  }
  const reply = JSON.parse(api.answer(method, path, query ?? "", body === undefined ? "" : JSON.stringify(body)));
  if (reply.changed) {
    try {
      await syncfs(false); // saved before the page hears of it
    } catch (error) {
      storeGone = true; // the change is not acknowledged: it was not saved
      console.warn("The games could not be saved:", error);
      post({ type: "store-gone" });
      return post({ type: "response", id, status: 503, body: { detail: "The games saved in this browser are gone." } });
    }
  }
  post({ type: "response", id, status: reply.status, body: reply.body });
  offerJob();
}

const given = (value) => value !== undefined && value !== null; // Python's None comes as undefined

function offerJob() {
  const stop = api.longer_to_stop();
  if (given(stop)) {
    post({ type: "stop-longer", number: stop });
  }
  const job = api.next_job();
  if (given(job)) {
    post({ type: "job", job });
  }
  const longer = api.next_longer_job();
  if (given(longer)) {
    post({ type: "longer-job", job: longer });
  }
}

function handle(message) {
  switch (message.type) {
    case "start":
      return start(message);
    case "request":
      return request(message);
    case "solve":
      return post({
        type: "solved", number: JSON.parse(message.job).job, result: self.solveJob(message.job), longer: message.longer,
      });
    case "solved":
      api.solved(message.number, message.result);
      post({ type: "answered" }); // the page asks again now, instead of on a timer
      return offerJob();
    case "daily": {
      const text = self.dailyJob(message.rules, message.date);
      return post({ type: "daily-chosen", id: message.id, text: given(text) ? text : null });
    }
    case "learn-daily":
      try {
        return api.learn_daily(message.text);
      } catch (error) {
        // Not trusted: the api worker chooses the deal itself when it is asked for.
        return console.warn("The daily deal from the solver's worker was refused:", error);
      }
    case "longer-solved":
      api.longer_solved(message.number, message.result);
      post({ type: "answered" });
      return offerJob();
    default:
      throw new Error(`unknown message ${message.type}`);
  }
}

self.onmessage = (event) => {
  if (event.data.type === "open") {
    open(event.data); // heard at once, while the start is still under way
    return;
  }
  // One message at a time, in order: Python runs one call at a time anyway, and a change
  // must be saved before the next request is answered.
  queue = queue.then(() => handle(event.data)).catch((error) => {
    const text = String(error?.message ?? error).split("\n").filter(Boolean).slice(-1)[0];
    post({ type: event.data.type === "request" ? "response" : "failed", id: event.data.id, status: 500,
      body: { detail: `The game in this browser failed: ${text}` }, text });
  });
};
