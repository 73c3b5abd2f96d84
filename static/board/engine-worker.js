// The board's engine worker (docs/OFFLINE.md, "The board counts by
// itself"): the project's own engine, in MicroPython's wasm, off the page's
// thread. The outbox starts it after the board's first paint with the
// addresses of the runtime and of the engine's files (each versioned,
// immutable: fetched once per version of the app), then asks it to count
// the taps that wait; it answers what the engine makes of them
// (scorekeeper/phone/count.py), or that it could not start.
var ready = null;

function start(message) {
  ready = import(message.runtime).then(function (runtime) {
    return runtime.loadMicroPython({ url: message.wasm, heapsize: 8 * 1024 * 1024 });
  }).then(function (python) {
    return fetch(message.files).then(function (response) {
      if (!response.ok) { throw new Error("the engine's files: " + response.status); }
      return response.json();
    }).then(function (files) {
      Object.keys(files).forEach(function (path) {
        python.FS.mkdirTree(("/engine/" + path).split("/").slice(0, -1).join("/"));
        python.FS.writeFile("/engine/" + path, files[path]);
      });
      python.runPython("import sys\nsys.path.insert(0, '/engine')\nimport board_count");
      return python;
    });
  });
  ready.then(function () { postMessage({ ready: true }); },
             function (error) { postMessage({ failed: String(error) }); });
}

// A question: { id, game (the board's plain data), events (null: a tap
// the board cannot name as an event), moves (the events of the buttons
// the count turns on or off), cards (the end-of-hand sheet's count, if open) }.
function count(message) {
  ready.then(function (python) {
    python.globals.set("asked", JSON.stringify({ game: message.game, events: message.events,
                                                moves: message.moves, cards: message.cards }));
    python.runPython("counted = board_count.answer(asked)");
    postMessage({ id: message.id, answer: JSON.parse(python.globals.get("counted")) });
  }).catch(function (error) {
    postMessage({ id: message.id, failed: String(error) });
  });
}

self.onmessage = function (event) {
  if (event.data.start) { start(event.data); } else if (ready) { count(event.data); }
};
