// Runs Python on the phone's runtime (the vendored MicroPython wasm) in node:
// node phone_engine.mjs <folder>. Every .py file under <folder> goes to the
// runtime's /app (its sys.path), then /app/main.py runs; its printed lines
// come out on stdout. A Python error exits 1 with its traceback on stderr.
import fs from "fs";
import path from "path";
import { fileURLToPath } from "url";

const here = path.dirname(fileURLToPath(import.meta.url));
const runtime = path.join(here, "../../static/vendor/micropython/micropython.mjs");
const { loadMicroPython } = await import(runtime);
const folder = process.argv[2];
const mp = await loadMicroPython({
  heapsize: 32 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function copy(from, to) {
  mp.FS.mkdirTree(to);
  for (const name of fs.readdirSync(from)) {
    const source = path.join(from, name);
    if (fs.statSync(source).isDirectory()) copy(source, `${to}/${name}`);
    else mp.FS.writeFile(`${to}/${name}`, fs.readFileSync(source));
  }
}

copy(folder, "/app");
try {
  mp.runPython("import sys\nsys.path.insert(0, '/app')\nexec(open('/app/main.py').read())");
} catch (error) {
  process.stderr.write(`${error.type || error.name}: ${error.message}\n`);
  process.exit(1);
}
