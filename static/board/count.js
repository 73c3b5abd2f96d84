// The board's own count (docs/OFFLINE.md, "The board counts by itself"):
// while taps wait, the project's engine, run on this phone in a worker
// (engine-worker.js), folds their events onto the game the board shows,
// and the board shows its answer (scores, what each side needs, the deal
// line, the open chain's strip, which hits are on, the result at the
// target), marked as not yet stored. A tap the engine refuses, or that the
// board cannot name as an event, is the server's to judge: nothing is
// guessed for it or after it. The outbox loads this script after the
// board's first paint, where Worker and WebAssembly exist; elsewhere, or
// until the engine is ready, the board
// shows the counted score.
(function () {
  "use strict";
  var ronda = window.Ronda;
  var template = document.getElementById("outbox-texts");
  if (!ronda || !ronda.outbox || !template) { return; }
  var paint = ronda.outbox.paint;
  var urls = template.dataset;
  var words = JSON.parse(urls.countWords);
  var engine = null;
  var ready = false;
  var asked = null;  // { id, key, version, events } of the last question
  var questions = 0;
  var counted = null;  // the question last answered, with its `answer`

  // On the root, as the screen kept awake is (data-awake): "ready" once
  // the engine counts, "off" where it could not start.
  function stop() {
    if (engine) { engine.terminate(); }
    engine = null;
    ready = false;
    paint.set(document.documentElement, "data-engine", "off");
  }

  function heard(event) {
    var message = event.data;
    if (message.ready) {
      ready = true;
      paint.set(document.documentElement, "data-engine", "ready");
      ronda.outbox.render();
    } else if (message.id === undefined) {
      stop();  // it could not start
    } else if (asked && message.id === asked.id && message.answer) {
      counted = asked;
      counted.answer = message.answer;
      ronda.outbox.render();
    }
  }

  // The game the board shows after `events` (null: a tap the board cannot
  // name), once the engine has answered; until then, the counted board.
  function show(current, events) {
    var key = ask(current, events);
    if (key === null) { return; }
    if (counted && counted.key === key) {
      if (counted.answer.counted) { paintCount(current, counted.answer); }
      return;
    }
    // Until it answers, the last count stands where the server has since
    // stored its first taps, and nothing else: it is the same game (each tap
    // judged by the same engine), where the server's board alone would show
    // the score without the taps still waiting for a moment.
    if (counted && storedSince(counted, asked)) { paintCount(current, counted.answer); }
  }

  // The engine asked at once, before the page's own work for the tap: it
  // folds while the page draws the waiting list. The question's key, or
  // null where no engine counts.
  function ask(current, events) {
    var game = current.dataset.engine;
    if (!ready || !game) { return null; }
    var key = current.dataset.version + " " + JSON.stringify(events);
    if ((!counted || counted.key !== key) && (!asked || asked.key !== key)) {
      questions += 1;
      asked = { id: questions, key: key, version: Number(current.dataset.version), events: events };
      var moves = hitButtons(current).map(function (hit) { return JSON.parse(hit.dataset.event); });
      engine.postMessage({ id: questions, game: JSON.parse(game), events: events, moves: moves });
    }
    return key;
  }

  function storedSince(before, now) {
    var stored = now.version - before.version;
    return stored > 0 && before.answer.counted === before.events.length &&
      before.events.length - stored === now.events.length &&
      JSON.stringify(before.events.slice(stored)) === JSON.stringify(now.events);
  }

  function paintCount(current, answer) {
    // The result first: once it goes, its moves are put back as they were
    // and the hits are then set by this count.
    paintResult(current, answer);
    paintChain(current, answer.chain);
    paintHits(current, answer.moves_on || []);
    var needs = answer.scores.map(function (score, side) {
      var win = answer.to_win && answer.to_win[side];
      return (win ? words[win[0]].replace("{points}", String(win[1])) + "\n" : "") + words.unstored;
    });
    paint.showScores(current, answer.scores.join(" "), needs.join("|"));
    var scores = current.querySelector(".scores");
    if (scores && !scores.classList.contains("pending")) { scores.classList.add("pending"); }
    if (scores) { paint.set(scores, "aria-busy", "true"); }
    paint.set(current, "data-counted", "");
    var deal = current.querySelector(".status-text span");
    if (!deal) { return; }
    var line = paint.escaped(words.deal_line.replace("{hand}", answer.hand)
      .replace("{deal}", answer.deal).replace("{deals}", answer.deals));
    if (answer.last_deal) {
      line += " · <strong class=\"last-deal\">" + paint.escaped(words.last_deal) + "</strong>";
    }
    paint.showsHtml(deal, line);
  }

  // The hit buttons whose events the count judges (its `moves`).
  function hitButtons(current) {
    return Array.prototype.slice.call(current.querySelectorAll(".pads .hits button[data-event]"));
  }

  // Each hit off where the engine refuses it after the waiting taps, as the
  // server's board draws it; the outbox puts the server's back with its board.
  function paintHits(current, on) {
    hitButtons(current).forEach(function (button, index) {
      var off = on[index] === false;
      if (!off && !button.hasAttribute("data-off-waiting")) { return; }
      paint.set(button, "aria-disabled", off ? "true" : null);
      paint.set(button, "data-off-waiting", off ? "" : null);
    });
  }

  // The open chain's strip as the server draws it (games/_board.html), or
  // none; drawn only when it changes (in a live region: a screen reader
  // would hear it again), the server's kept until no tap waits (unkeep).
  function paintChain(current, chain) {
    var slot = current.querySelector(".chain-slot");
    if (!slot) { return; }  // a board with no strips (a finished game's)
    var said = chain ? phrase("chain-" + chain.side).innerHTML.replace("{value}", chain.value) : "";
    var key = chain ? said + (chain.end_on ? "" : " off") : "";
    if (!slot.hasAttribute("data-kept-html")) {
      var words = slot.querySelector(".chain-strip span");
      slot.setAttribute("data-kept-html", slot.innerHTML);
      slot.setAttribute("data-chain-shown", words ? words.innerHTML +
        (slot.querySelector(".chain-strip [aria-disabled=true]") ? " off" : "") : "");
    }
    if (slot.getAttribute("data-chain-shown") === key) { return; }
    slot.innerHTML = chain ? strip(current, chain, said) : "";
    slot.setAttribute("data-chain-shown", key);
  }

  function strip(current, chain, said) {
    var pads = current.querySelector("form.pads");
    var form = document.createElement("form");
    form.setAttribute("method", "post");
    form.setAttribute("action", pads.getAttribute("action"));
    form.className = "strip chain-strip";
    pads.querySelectorAll(":scope > input[type=hidden]").forEach(function (key) {
      form.appendChild(key.cloneNode(false));  // the board's keys, as each of its forms has them
    });
    form.appendChild(document.createElement("span")).innerHTML = said;
    var over = form.appendChild(document.createElement("button"));
    var name = phrase("chain-over").textContent;
    over.name = "move";
    over.value = "chain_end";
    over.setAttribute("aria-label", name);
    over.setAttribute("data-what", name);  // the waiting tap's name, as the log's
    over.setAttribute("data-event", JSON.stringify(chain.end));
    if (!chain.end_on) { over.setAttribute("aria-disabled", "true"); }
    over.textContent = phrase("over").textContent;
    return form.outerHTML;
  }

  // A phrase of the board's words, in the outbox's template (_outbox.html).
  function phrase(name) {
    return template.content.querySelector('[data-text="' + name + '"]');
  }

  // Once no tap waits (the outbox's data-outbox gone), the server's again.
  function unkeep() {
    if (document.documentElement.hasAttribute("data-outbox")) { return; }
    document.querySelectorAll("#board [data-kept-html]").forEach(function (node) {
      node.innerHTML = node.getAttribute("data-kept-html");
      node.removeAttribute("data-kept-html");
    });
  }
  new MutationObserver(unkeep).observe(document.documentElement,
                                       { attributes: true, attributeFilter: ["data-outbox"] });

  // The result at the target, as the server's finished board says it (who
  // won, under the final scores), marked as not yet stored, over the two
  // strips (its few styles set here: style.css weighs on the first page).
  // A move tapped then is refused here, as the server refuses a tap on a
  // finished game; the Undo stays (the count without the winning tap takes
  // the result away) and the Rematch needs the server (it says so).
  var RESULT_CSS = "position:absolute;inset:0;gap:0;padding:0;background:var(--bg)";
  var WINNER_CSS = "font-size:1.6rem;white-space:nowrap;overflow:hidden;text-overflow:ellipsis";
  function paintResult(current, answer) {
    var slots = current.querySelector(".slots");
    var key = answer.finished ? answer.winner + " " + answer.scores.join(" ") : "";
    var shown = current.querySelector(".counted-over");
    if (shown && shown.dataset.key !== key) { clearResult(current, true); }
    if (!key || !slots) { return; }
    if (!current.querySelector(".counted-over")) { showResult(slots, answer, key); }
    current.querySelectorAll("button[name=move]").forEach(function (button) {
      if (!button.hasAttribute("data-over")) {
        button.setAttribute("data-over", button.getAttribute("aria-describedby") || "");
      }
      paint.set(button, "aria-describedby", "counted-why");
      // Again after the outbox's loosen; marked as the outbox marks what it
      // turns off while taps wait, so that its restore puts the board back.
      if (button.getAttribute("aria-disabled") !== "true") {
        button.setAttribute("aria-disabled", "true");
        button.setAttribute("data-off-waiting", "");
      }
    });
  }
  function showResult(slots, answer, key) {
    slots.insertAdjacentHTML("beforeend", "<section class=\"over counted-over\" data-key=\"" + key +
      "\" aria-labelledby=\"counted-winner\"><p class=\"over-label\" id=\"counted-why\">" +
      paint.escaped(words.game_over + " · " + words.unstored) + "</p><p class=\"winner side-" +
      answer.winner + "\" id=\"counted-winner\">" + words.wins[answer.winner] + "</p><button " +
      "type=\"button\" class=\"primary\" aria-disabled=\"true\" data-offline>" +
      paint.escaped(words.rematch) + "</button></section>");
    slots.style.position = "relative";
    slots.lastElementChild.style.cssText = RESULT_CSS;
    slots.querySelector("#counted-winner").style.cssText = WINNER_CSS;
  }
  // `waiting`: taps still wait, and the moves are on as the outbox has them
  // (the count then sets the hits); none: the outbox has put back the
  // board as stored, each move as the server drew it.
  function clearResult(current, waiting) {
    var shown = current.querySelector(".counted-over");
    if (shown) { shown.remove(); }
    current.querySelectorAll("button[data-over]").forEach(function (button) {
      paint.set(button, "aria-describedby", button.getAttribute("data-over") || null);
      button.removeAttribute("data-over");
      if (waiting) {
        paint.set(button, "aria-disabled", null);
        paint.set(button, "data-off-waiting", null);
      }
    });
  }
  // Before the board's own listeners (board.js), which would make the tap.
  function refuseOver(event) {
    var target = event.target.closest ? event.target : document.body;
    var rematch = event.type === "click" && target.closest(".counted-over button");
    if (rematch) { ronda.link.behind(rematch); }
    if (!target.closest("#board [data-over][aria-disabled=true]")) { return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    ronda.board.showError(document.getElementById("counted-why").textContent);
  }
  window.addEventListener("touchend", refuseOver, true);
  window.addEventListener("click", refuseOver, true);
  // No tap left waiting: the outbox restores the board as stored (data-counted goes).
  new MutationObserver(function () {
    var current = ronda.board.element();
    if (current && !current.hasAttribute("data-counted")) { clearResult(current, false); }
  }).observe(document.body, { subtree: true, attributeFilter: ["data-counted"] });

  try {
    engine = new Worker(urls.engineWorker, { type: "module" });
  } catch (error) {
    stop();
    return;
  }
  engine.onmessage = heard;
  engine.onerror = stop;
  engine.postMessage({ start: true, runtime: urls.engineRuntime, wasm: urls.engineWasm,
                       files: urls.engineFiles });
  ronda.count = { ask: ask, show: show, counts: function () { return ready; } };
}());
