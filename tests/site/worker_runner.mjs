// Runs the static site's API worker under Node, for the contract test: Pyodide from the
// built site's pyodide/ folder, our package from its freecell.zip, and the same Python
// entry point as js/worker.js (freecell.web.worker.Api). Reads one request a line on
// stdin, {"method", "path", "query", "body"}, and writes one answer a line,
// {"status", "body"}. The analyses the API queues are solved here after each answer,
// by the same solve_job as the site's solver worker.
//
//   node tests/site/worker_runner.mjs SITE_DIR

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

const site = path.resolve(process.argv[2]);
const runtime = path.join(site, "pyodide") + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: runtime, stdout: () => {}, stderr: (text) => process.stderr.write(`${text}\n`) });
const zip = fs.readFileSync(path.join(site, "freecell.zip"));
py.unpackArchive(new Uint8Array(zip.buffer, zip.byteOffset, zip.byteLength), "zip", { extractDir: "/lib/freecell-site" });
py.runPython("import sys; sys.path.insert(0, '/lib/freecell-site')");
const module = py.pyimport("freecell.web.worker");
py.FS.mkdirTree("/data");
const api = module.Api("/data/freecell.db");
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) {
    continue;
  }
  const { method, path: route, query = "", body } = JSON.parse(line);
  const answer = api.answer(method, route, query, body === undefined || body === null ? "" : JSON.stringify(body));
  process.stdout.write(`${answer}\n`);
  for (let job = api.next_job(); job !== undefined && job !== null; job = api.next_job()) {
    api.solved(JSON.parse(job).job, module.solve_job(job));
  }
}
