// The static site's side of the page (freecell site DIR): when static/site.json says so
// (the server's copy says "server"), the page's API requests go to a Web Worker running
// our Python under Pyodide instead of a server. Shows the loading screen and makes the
// statistics exports in the browser.

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
    this.loading = new Loading();
    this.ready = this.alone().then(async () => {
      this.api = this.worker("api", config);
      await this.api.ready;
      this.loading.done();
      this.solver = this.worker("solver", config); // started once the table can show
      this.solver.ready.then(() => { this.solverReady = true; });
    });
    document.addEventListener("click", (event) => this.exportClick(event));
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
      const told = setTimeout(() => this.loading.show("The game is open in another tab: close it to play here.", 0), 500);
      navigator.locks.request(`freecell-site:${new URL(".", document.baseURI).pathname}`, () => {
        clearTimeout(told);
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
      case "ready":
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
        // Until the solver's own worker has loaded, the api worker solves (between requests).
        (this.solverReady ? this.solver : this.api).postMessage({ type: "solve", job: message.job });
        break;
      case "solved":
        this.api.postMessage({ type: "solved", number: message.number, result: message.result });
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
    this.el.querySelector(".loading-text").textContent = text;
    this.el.querySelector("progress").value = fraction;
  }

  failed(text) {
    this.show(`The game could not start in this browser: ${text}`, 0);
  }

  done() {
    this.el.remove();
  }
}
