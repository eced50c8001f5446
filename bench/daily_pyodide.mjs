// bench/daily.py --pyodide: the daily deal chosen under Pyodide in Node (the static site's
// Python, run as its api worker runs it), from a built site's pyodide/ folder and
// freecell.zip. Prints one JSON line per day: {rules, day, deal, difficulty, tries,
// expanded, length, seconds}.
//
//   node bench/daily_pyodide.mjs SITE_DIR START DAYS RULES[,RULES...]

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [siteDir, start, days, rules] = process.argv.slice(2);
const site = path.resolve(siteDir);
const runtime = path.join(site, "pyodide") + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);
const py = await loadPyodide({
  indexURL: runtime, stdout: (text) => process.stdout.write(`${text}\n`), stderr: (text) => process.stderr.write(`${text}\n`),
});
const zip = fs.readFileSync(path.join(site, "freecell.zip"));
py.unpackArchive(new Uint8Array(zip.buffer, zip.byteOffset, zip.byteLength), "zip", { extractDir: "/lib/freecell-site" });
py.runPython(`
import sys; sys.path.insert(0, '/lib/freecell-site')
import datetime, json, time
from freecell.daily import daily_deal
from freecell.notation import parse_move_text
from freecell.rules import find_rules
start = datetime.date.fromisoformat(${JSON.stringify(start)})
for name in ${JSON.stringify(rules)}.split(","):
    rules = find_rules(name)
    for offset in range(${Number(days)}):
        day = start + datetime.timedelta(days=offset)
        began = time.perf_counter()
        chosen = daily_deal(day, rules)
        seconds = time.perf_counter() - began
        length = sum(1 for text in chosen.line if not parse_move_text(text).to_foundation)
        print(json.dumps({"rules": name, "day": day.isoformat(), "deal": chosen.deal.number,
                          "difficulty": chosen.difficulty.value, "tries": chosen.tries,
                          "expanded": chosen.expanded, "length": length, "seconds": seconds}))
`);
