"""How soon the static site shows a hint once its solver has one: the player presses Hint on
a new deal (the solver's worker started, nothing cached, the live verdict off), and the page is timed from the
moment it hears the solver worker's answer ("solved") to the hint lit on the table, and from
the press to the hint. Each deal is opened anew at ``?deal=N``.

    python bench/site_hints.py
    python bench/site_hints.py --deals 10
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from freecell.site import build_site, fetch_runtime

# bench/site.py (named so, it cannot be imported by name: Python's own `site` comes first).
_spec = importlib.util.spec_from_file_location("bench_site", Path(__file__).with_name("site.py"))
assert _spec is not None and _spec.loader is not None
bench_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_site)

# When the page heard the solver worker's answer, and when the hint was lit (ms since load).
# The live verdict is off, so that the hint is the first question asked of a position.
TIMES = """
localStorage.setItem("freecell.hideVerdict", "1");
window.heardSolved = null;
window.hintShown = null;
const Original = Worker;
window.Worker = class extends Original {
  set onmessage(handler) {
    super.onmessage = (event) => {
      if (event.data?.type === "solved" && !event.data.longer && window.heardSolved === null) {
        window.heardSolved = performance.now();
      }
      handler(event);
    };
  }
};
new MutationObserver(() => {
  if (window.hintShown === null && document.querySelector("#table .hint-source")) {
    window.hintShown = performance.now();
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
"""


def one_hint(page: Page, url: str, deal: int) -> tuple[float, float]:
    page.goto(f"{url}?deal={deal}&rules=standard")
    page.locator("#table .card").first.wait_for(state="visible", timeout=300_000)
    page.wait_for_function("performance.getEntriesByName('freecell solver ready').length === 1", timeout=300_000)
    page.evaluate("window.heardSolved = null; window.hintShown = null")
    pressed = page.evaluate("performance.now()")
    page.locator("#hint").click()
    page.wait_for_function("window.hintShown !== null", timeout=120_000)
    heard, shown = page.evaluate("[window.heardSolved, window.hintShown]")
    return shown - heard, shown - pressed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=8, help="new deals to ask a first hint on")
    options = parser.parse_args()
    executable, args = bench_site.chromium_args()
    load_before = os.getloadavg()[0]
    after_solve: list[float] = []
    after_press: list[float] = []
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        build_site(root / "site", pyodide=fetch_runtime())
        process, port = bench_site.serve(root / "site")
        url = f"http://127.0.0.1:{port}/"
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=executable, args=args)
                context = browser.new_context()
                context.add_init_script(TIMES)
                page = context.new_page()
                for deal in range(1, options.deals + 1):
                    solved, pressed = one_hint(page, url, 1000 + deal)
                    after_solve.append(solved)
                    after_press.append(pressed)
                browser.close()
        finally:
            process.terminate()
    load_after = os.getloadavg()[0]
    for name, values in (("solver's answer to hint shown", after_solve), ("Hint pressed to hint shown", after_press)):
        runs = ", ".join(f"{value:.0f}" for value in values)
        print(f"{name:<30} median {statistics.median(values):7.0f} ms  ({runs})")
    print(f"load average (1 min) {load_before:.1f} before, {load_after:.1f} after, on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
