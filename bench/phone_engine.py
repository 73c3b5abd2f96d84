"""The phone's Python, measured: MicroPython's wasm (vendored) against Pyodide.

For each runtime: its size (raw, brotli), then in node and in headless
Chromium at 1× and 4× CPU (`Emulation.setCPUThrottlingRate`), each run cold
(a new page, an empty cache): the time until it is ready, to import the
engine, and to fold (parse and replay) a 100-event and a 2,000-event game.
Pyodide is not vendored: pass its npm folder (`npm install pyodide@314`).

    .venv/bin/python -m bench.phone_engine [--pyodide node_modules/pyodide] [--runs 3]
"""

import argparse
import json
import random
import shutil
import statistics
import subprocess
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from scorekeeper.phone import phone_files

from . import table
from .chromium import chromium

HERE = Path(__file__).parent
MICROPYTHON = HERE.parent / "static" / "vendor" / "micropython"
RUNNER = HERE / "phone_engine.mjs"
LENGTHS = (100, 2000)
RUNTIME_FILES = {
    "micropython": ("micropython.mjs", "micropython.wasm"),
    "pyodide": ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                "pyodide-lock.json"),
}
FOLD = """import json
from scorekeeper.engine import Setup, recorded_event, replay, rules_from_spec


def fold(path):
    with open(path) as source:
        game = json.load(source)
    setup = Setup(tuple(game["sides"]), game["players"], rules_from_spec(game["rules"]))
    return replay(setup, [recorded_event(e, setup) for e in game["events"]]).events
"""
BROTLI = """const zlib = require("zlib"), fs = require("fs");
const sizes = process.argv.slice(1).map((f) => [fs.statSync(f).size,
  zlib.brotliCompressSync(fs.readFileSync(f)).length]);
console.log(JSON.stringify(sizes));"""


def game_files(engine_files: dict[str, str]) -> dict[str, str]:
    """The engine's files, the fold, and one long game of each length."""
    files = {**engine_files, "bench_fold.py": FOLD}
    body = table.new_game_body(long=True)
    setup = table.setup_of(body)
    for length in LENGTHS:
        events = table.game(random.Random(length), setup, limit=length, long=True)
        files[f"games/{length}.json"] = json.dumps({
            "sides": body["sides"], "players": body["players"], "rules": body["rules"],
            "events": events})
    return files


def files_for(kind: str) -> dict[str, str]:
    """MicroPython gets the phone's files (with their stand-ins); Pyodide, a
    whole CPython, the engine's sources alone."""
    files = phone_files()
    if kind == "pyodide":
        files = {name: text for name, text in files.items() if name.startswith("scorekeeper/")}
    return game_files(files)


def sizes(kind: str, folder: Path) -> dict[str, float]:
    paths = [str(folder / name) for name in RUNTIME_FILES[kind]]
    pairs = json.loads(subprocess.run(["node", "-e", BROTLI, *paths], capture_output=True,
                                      text=True, check=True).stdout)
    return {"raw_mb": round(sum(p[0] for p in pairs) / 1e6, 2),
            "brotli_mb": round(sum(p[1] for p in pairs) / 1e6, 2)}


def in_node(kind: str, folder: Path, files_path: Path) -> dict[str, float]:
    done = subprocess.run(["node", str(RUNNER), kind, str(folder), str(files_path),
                           *map(str, LENGTHS)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


PAGE = """<!doctype html><meta charset="utf-8"><script type="module">
import { measure } from "./phone_engine.mjs";
window.run = async (kind) => measure(kind, "/" + kind,
  await (await fetch("/files-" + kind + ".json")).json(), %s);
window.ready = true;
</script>""" % json.dumps(list(LENGTHS))


class Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json"}

    def log_message(self, *args):
        pass


def in_chromium(browser, base: str, kind: str, rate: int) -> dict[str, float]:
    """One cold run: a new context (an empty cache) throttled to `rate`× CPU."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(base + "/index.html")
        page.wait_for_function("window.ready === true")
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        return page.evaluate(f"run('{kind}')")
    finally:
        context.close()


def summary(runs: list[dict]) -> dict[str, list[int]]:
    """Each figure's median, lowest and highest over the runs, in ms."""
    return {key: [round(statistics.median(values)), round(min(values)), round(max(values))]
            for key in runs[0] for values in [[run[key] for run in runs]]}


def measure(folders: dict[str, Path], runs: int) -> dict:
    results: dict = {}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for kind, folder in folders.items():
            shutil.copytree(folder, root / kind)
            (root / f"files-{kind}.json").write_text(json.dumps(files_for(kind)))
        shutil.copy(RUNNER, root / RUNNER.name)
        (root / "index.html").write_text(PAGE)
        server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=scratch))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            for kind in folders:
                figures = results[kind] = sizes(kind, root / kind)
                figures["node"] = summary([in_node(kind, root / kind, root / f"files-{kind}.json")
                                           for _ in range(runs)])
                with chromium() as browser:
                    for rate in (1, 4):
                        figures[f"chromium_{rate}x"] = summary(
                            [in_chromium(browser, base, kind, rate) for _ in range(runs)])
                print(kind, json.dumps(figures), flush=True)
        finally:
            server.shutdown()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pyodide", type=Path, help="Pyodide's npm folder (node_modules/pyodide)")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    folders = {"micropython": MICROPYTHON}
    if options.pyodide:
        folders["pyodide"] = options.pyodide.resolve()
    measure(folders, options.runs)


if __name__ == "__main__":
    main()
