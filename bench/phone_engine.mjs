// The phone's Python runtimes, timed: ready, the engine imported, a game folded.
// In node: node bench/phone_engine.mjs <micropython|pyodide> <runtime folder> <files.json>
// prints one JSON line. In a page, bench/phone_engine.py imports `measure`.

const now = () => performance.now();

async function load(kind, base) {
  if (kind === "micropython") {
    const { loadMicroPython } = await import(`${base}/micropython.mjs`);
    return loadMicroPython({ heapsize: 16 * 1024 * 1024, stdout: () => {}, stderr: () => {} });
  }
  const { loadPyodide } = await import(`${base}/pyodide.mjs`);
  return loadPyodide({ indexURL: `${base}/`, stdout: () => {}, stderr: () => {} });
}

function writeTree(fs, files) {
  for (const [name, text] of Object.entries(files)) {
    const parts = `/app/${name}`.split("/");
    fs.mkdirTree(parts.slice(0, -1).join("/"));
    fs.writeFile(`/app/${name}`, text);
  }
}

// `files`: path -> text under /app, with games/<n>.json the games to fold.
export async function measure(kind, base, files, lengths) {
  const times = {};
  let start = now();
  const runtime = await load(kind, base);
  times.ready_ms = now() - start;
  start = now();
  writeTree(runtime.FS, files);
  runtime.runPython("import sys\nsys.path.insert(0, '/app')\nimport bench_fold");
  times.import_ms = now() - start;
  for (const length of lengths) {
    start = now();
    runtime.runPython(`folded = bench_fold.fold('/app/games/${length}.json')`);
    const events = runtime.globals.get("folded");
    times[`fold_${length}_ms`] = now() - start;
    if (events !== length) throw new Error(`folded ${events} events of ${length}`);
  }
  return times;
}

if (typeof process === "object" && process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const { readFileSync } = await import("fs");
  const { pathToFileURL } = await import("url");
  const [kind, folder, filesPath, ...lengths] = process.argv.slice(2);
  const files = JSON.parse(readFileSync(filesPath, "utf8"));
  const base = pathToFileURL(folder).href;
  const times = await measure(kind, kind === "pyodide" ? folder : base, files, lengths.map(Number));
  process.stdout.write(JSON.stringify(times) + "\n");
}
