// The static site's side of the page: the loading screen while the runtime starts (from
// the progress site.js reports), and the statistics exports, made in the browser where the
// server would send a file. Served by `freecell play`, it does nothing.

import { connectSite } from "./site.js";

/** The loading screen, shown until the api worker is ready; or why this tab stopped playing. */
function showLoading(site) {
  const el = document.createElement("div");
  el.className = "loading";
  el.id = "loading";
  el.setAttribute("role", "status");
  el.innerHTML = '<p class="loading-text"></p><progress max="1" value="0"></progress>';
  document.body.append(el);
  site.watch((progress) => {
    if (progress.stopped) {
      showStopped(progress.stopped);
      el.remove();
    } else if (progress.done) {
      el.remove();
    } else {
      const text = progress.failed ? `The game could not start in this browser: ${progress.text}` : progress.text;
      el.querySelector(".loading-text").textContent = text;
      el.querySelector("progress").value = progress.fraction;
    }
  });
}

/** Over the table, which stays as it was: why this tab cannot play on, and a reload. */
function showStopped(why) {
  if (document.getElementById("stopped")) {
    return;
  }
  const el = document.createElement("div");
  el.className = "loading stopped";
  el.id = "stopped";
  el.setAttribute("role", "alertdialog");
  el.setAttribute("aria-labelledby", "stopped-text");
  el.innerHTML = '<p class="loading-text" id="stopped-text"></p><button type="button" class="primary">Reload</button>';
  el.querySelector("p").textContent = why;
  el.querySelector("button").addEventListener("click", () => location.reload());
  document.body.append(el);
  el.querySelector("button").focus();
}

/** An export link of the Statistics panel: the file made from the worker's answer. */
async function exportStats(site, link) {
  const path = link.getAttribute("href");
  const { status, body } = await site.request("GET", path);
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

/** Wire the page to the site's workers, when the page is the static site's. */
export async function setupSitePage() {
  const site = await connectSite();
  if (!site) {
    return;
  }
  showLoading(site);
  for (const link of document.querySelectorAll("a[download][href^='/api/stats.']")) {
    link.addEventListener("click", (event) => {
      event.preventDefault(); // there is no server behind /api here
      exportStats(site, link);
    });
  }
}
