// The static site's transport (freecell site DIR): when static/site.json says so (the
// server's copy says "server"), the page's API requests go to a Web Worker running our
// Python under Pyodide instead of a server. The page's side of the site (its loading
// screen, the statistics exports) is site-page.js: it watches the workers' start here.

import { TabLease } from "./site-lease.js";

const SOLVER_DELAY = 1500; // ms after the table shows
// Why a tab stops playing, as the player is told (with a button to reload).
const STOPPED = {
  elsewhere: "The game is now open in another tab, which has your latest moves: reload to play here.",
  cleared: "This browser's saved games were cleared (the site's data was deleted), so nothing more can be"
    + " saved here: reload to start again.",
  noStorage: "This browser does not let the site keep your games (its storage is off or full), so it cannot be"
    + " played here.",
};

let connecting = null;

/** The site's transport, or null when a server answers the page; the same one at every call. */
export function connectSite() {
  connecting ??= connect();
  return connecting;
}

async function connect() {
  let manifest = null;
  try {
    const answer = await fetch("static/site.json", { cache: "no-cache" });
    manifest = answer.ok ? await answer.json() : null;
  } catch {
    manifest = null;
  }
  if (manifest?.transport !== "worker") {
    return null; // served by `freecell play`: requests go to the server
  }
  return new Site(manifest); // main.js registers the site's service worker, sw.js beside the page
}

class Site {
  constructor(manifest) {
    const base = new URL(".", document.baseURI);
    const config = {
      pyodide: new URL(manifest.pyodide, base).href,
      pkg: new URL(manifest.package, base).href,
      version: manifest.version,
    };
    this.waiting = new Map();
    this.next = 1;
    this.config = config;
    this.jobs = []; // analyses waiting for the solver's worker
    this.dailies = new Map(); // "rules date" -> the daily deal's choice in the solver's worker, once asked
    this.hearing = []; // who waits for the solver's next answer (nextAnswer)
    this.answeredSinceRequest = false;
    // How the start goes, for the loading screen: {text, fraction, held, failed, done}.
    // `stopped`: why this tab no longer plays (another took the game, the storage is gone).
    this.progress = { text: "", fraction: 0, held: false, failed: false, done: false, stopped: null };
    this.watchers = [];
    // Python starts at once; the games are opened only once this tab holds the lease.
    this.api = this.worker("api", config);
    this.ready = this.alone().then(async () => {
      if (this.progress.stopped) {
        return;
      }
      // When a tab last held the games: the time since is kept off the game's clock.
      this.api.postMessage({ type: "open", lastSeen: this.lease.lastSeen });
      await this.api.ready;
      this.report({ done: true });
      // The solver's worker starts when the first analysis is asked for, or soon after
      // the table shows, so that it does not slow the first answers down.
      setTimeout(() => this.startSolver(), SOLVER_DELAY);
    });
  }

  /** `watcher(progress)` is called now and after each step of the start. */
  watch(watcher) {
    this.watchers.push(watcher);
    watcher({ ...this.progress });
  }

  report(change) {
    Object.assign(this.progress, change);
    for (const watcher of this.watchers) {
      watcher({ ...this.progress });
    }
  }

  /** The api worker's progress, unless a message is held until released. */
  reportProgress(text, fraction) {
    if (!this.progress.held) {
      this.report({ text, fraction });
    }
  }

  startSolver() {
    if (this.solver) {
      return;
    }
    this.solver = this.worker("solver", this.config);
    this.solver.ready.then(() => {
      for (const job of this.jobs.splice(0)) {
        this.solver.postMessage({ type: "solve", job });
      }
      this.solverReady = true;
    }, () => {
      this.solverFailed = true; // the api worker solves then, between requests
      for (const job of this.jobs.splice(0)) {
        this.api.postMessage({ type: "solve", job });
      }
    });
  }

  /**
   * A longer search, in a worker of its own: started for each one and ended after it (a
   * search's memory is not given back otherwise), or as soon as the game moves on.
   */
  startLonger(job) {
    this.endLonger();
    const number = JSON.parse(job).job;
    const worker = this.worker("longer", this.config);
    this.longer = { worker, number };
    worker.ready.then(() => {
      if (this.longer?.worker === worker) {
        worker.postMessage({ type: "solve", job, longer: true });
      }
    }, () => this.longerSolved(number, "the longer search's worker did not start"));
  }

  longerSolved(number, result) {
    if (this.longer?.number === number) {
      this.endLonger();
    }
    this.api.postMessage({ type: "longer-solved", number, result });
  }

  endLonger() {
    this.longer?.worker.terminate();
    this.longer = null;
  }

  /**
   * Resolves once this is the only tab of the site running the game (site-lease.js); the
   * tab stops, and says why, if another tab takes the game later or the storage is gone.
   */
  alone() {
    this.lease = new TabLease(new URL(".", document.baseURI).pathname);
    return this.lease.hold({
      waiting: () => this.report({
        text: "The game is open in another tab: close it to play here.", fraction: 0, held: true,
      }),
      lost: () => this.stop(STOPPED.elsewhere),
      gone: () => this.stop(STOPPED.cleared),
    }).then(() => this.report({ held: false }), () => this.stop(STOPPED.noStorage));
  }

  /** No more requests from this tab: `why` is shown with a way to reload. */
  stop(why) {
    if (!this.progress.stopped) {
      this.report({ stopped: why });
      for (const done of this.waiting.values()) {
        done({ status: 503, body: { detail: why } });
      }
      this.waiting.clear();
    }
  }

  worker(role, config) {
    const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
    worker.ready = new Promise((resolve, reject) => {
      worker.onmessage = (event) => this.heard(role, event.data, resolve, reject);
    });
    worker.postMessage({ type: "start", role, ...config });
    return worker;
  }

  heard(role, message, resolve, reject) {
    switch (message.type) {
      case "progress":
        if (role === "api") {
          this.reportProgress(message.text, message.fraction);
        }
        break;
      case "step":
        performance.mark(`freecell ${role} ${message.name}`, { detail: message.ms });
        break;
      case "ready":
        performance.mark(`freecell ${role} ready`);
        resolve();
        break;
      case "failed":
        reject(new Error(message.text));
        this.report({ text: message.text, fraction: 0, held: false, failed: true });
        break;
      case "answered":
        this.answeredSinceRequest = true;
        for (const hear of this.hearing.splice(0)) {
          hear();
        }
        break;
      case "store-gone":
        this.stop(STOPPED.cleared);
        break;
      case "response": {
        const done = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        done?.({ status: message.status, body: message.body });
        break;
      }
      case "job":
        if (this.solverReady) {
          this.solver.postMessage({ type: "solve", job: message.job });
        } else if (this.solverFailed) {
          this.api.postMessage({ type: "solve", job: message.job });
        } else {
          this.jobs.push(message.job);
          this.startSolver();
        }
        break;
      case "daily-chosen": {
        const done = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        done?.(message.text);
        break;
      }
      case "solved":
        if (message.longer) {
          this.longerSolved(message.number, message.result);
        } else {
          this.api.postMessage({ type: "solved", number: message.number, result: message.result });
        }
        break;
      case "longer-job":
        this.startLonger(message.job);
        break;
      case "stop-longer":
        if (this.longer?.number === message.number) {
          this.endLonger();
        }
        break;
      default:
        break;
    }
  }

  /**
   * The daily deal of `rules` on `date`, chosen in the solver's worker and handed to the
   * api worker, which checks it: solving there would hold every move meanwhile. When the
   * solver's worker cannot start, the api worker chooses it itself, as it solves the rest.
   */
  chooseDaily(rules, date) {
    const key = `${rules} ${date}`;
    if (!this.dailies.has(key)) {
      this.dailies.set(key, (async () => {
        this.startSolver();
        try {
          await this.solver.ready;
        } catch {
          return;
        }
        const id = this.next++;
        const text = await new Promise((resolve) => {
          this.waiting.set(id, resolve);
          this.solver.postMessage({ type: "daily", id, rules, date });
        });
        if (text) {
          this.api.postMessage({ type: "learn-daily", text });
          performance.mark("freecell daily chosen by the solver's worker", { detail: key });
        }
      })());
    }
    return this.dailies.get(key);
  }

  /**
   * Resolves when the solver has given the api worker an answer since the last request
   * (at once if it already has), or after `ms` at the latest: an answer that was pending
   * is worth asking again then, with no polling.
   */
  nextAnswer(ms) {
    if (this.answeredSinceRequest) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.hearing.push(resolve);
      setTimeout(resolve, ms);
    });
  }

  /** One API request: {status, body}, as the server would answer it. */
  async request(method, path, body) {
    await this.ready;
    if (this.progress.stopped) {
      return { status: 503, body: { detail: this.progress.stopped } };
    }
    const [route, query = ""] = path.split("?");
    if (route === "/api/daily") {
      const asked = method === "GET" ? Object.fromEntries(new URLSearchParams(query)) : body ?? {};
      if (typeof asked.rules === "string" && typeof asked.date === "string") {
        await this.chooseDaily(asked.rules, asked.date);
      }
    }
    const id = this.next++;
    this.answeredSinceRequest = false;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.api.postMessage({ type: "request", id, method, path: route, query, body });
    });
  }
}
