// The static site's side of the page (freecell site DIR): when static/site.json says so
// (the server's copy says "server"), the page's API requests go to a Web Worker running
// our Python under Pyodide instead of a server. Shows the loading screen and makes the
// statistics exports in the browser.

const SOLVER_DELAY = 1500; // ms after the table shows

export async function connectSite() {
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
    this.loading = new Loading();
    // Python starts at once; the games are opened only once this tab holds the lock.
    this.api = this.worker("api", config);
    this.ready = this.alone().then(async () => {
      this.api.postMessage({ type: "open" });
      await this.api.ready;
      this.loading.done();
      // The solver's worker starts when the first analysis is asked for, or soon after
      // the table shows, so that it does not slow the first answers down.
      setTimeout(() => this.startSolver(), SOLVER_DELAY);
    });
    document.addEventListener("click", (event) => this.exportClick(event));
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
   * Resolves once this is the only tab of the site running the game: each tab keeps its
   * own copy of the games and saves it whole, so two at once would undo each other's moves.
   */
  alone() {
    if (!navigator.locks) {
      return Promise.resolve(); // not a secure context: no locks (and no offline either)
    }
    return new Promise((resolve) => {
      const told = setTimeout(() => this.loading.hold("The game is open in another tab: close it to play here."), 500);
      navigator.locks.request(`freecell-site:${new URL(".", document.baseURI).pathname}`, () => {
        clearTimeout(told);
        this.loading.release();
        resolve();
        return new Promise(() => {}); // held while this page lives
      });
    });
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
          this.loading.show(message.text, message.fraction);
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
        this.loading.failed(message.text);
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

  /** One API request: {status, body}, as the server would answer it. */
  async request(method, path, body) {
    await this.ready;
    const [route, query = ""] = path.split("?");
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.api.postMessage({ type: "request", id, method, path: route, query, body });
    });
  }

  /** The statistics exports are made here, where the server would send a file. */
  async exportClick(event) {
    const link = event.target.closest?.("a[download][href^='/api/stats.']");
    if (!link) {
      return;
    }
    event.preventDefault(); // there is no server behind /api here
    const path = link.getAttribute("href");
    const { status, body } = await this.request("GET", path);
    if (status !== 200) {
      return;
    }
    const csv = path.endsWith(".csv");
    const text = csv ? body : `${JSON.stringify(body, null, 2)}\n`;
    const blob = new Blob([text], { type: csv ? "text/csv" : "application/json" });
    const url = URL.createObjectURL(blob);
    const save = document.createElement("a");
    save.href = url;
    save.download = `freecell-stats.${csv ? "csv" : "json"}`;
    document.body.append(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }
}

/** The loading screen, shown while the runtime loads. */
class Loading {
  constructor() {
    this.el = document.createElement("div");
    this.el.className = "loading";
    this.el.id = "loading";
    this.el.setAttribute("role", "status");
    this.el.innerHTML = '<p class="loading-text"></p><progress max="1" value="0"></progress>';
    document.body.append(this.el);
  }

  show(text, fraction) {
    if (this.held) {
      return;
    }
    this.el.querySelector(".loading-text").textContent = text;
    this.el.querySelector("progress").value = fraction;
  }

  /** Say `text` until released, whatever progress is made meanwhile. */
  hold(text) {
    this.show(text, 0);
    this.held = true;
  }

  release() {
    this.held = false;
  }

  failed(text) {
    this.held = false;
    this.show(`The game could not start in this browser: ${text}`, 0);
  }

  done() {
    this.el.remove();
  }
}
