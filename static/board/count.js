// The board's own count (docs/OFFLINE.md, "The board counts by itself"):
// while taps wait, the project's engine, run on this phone in a worker
// (engine-worker.js), folds their events onto the game the board shows,
// and the board shows its answer (scores, what each side needs, the deal
// line, the open chain's strip, which hits are on, the result at the
// target, the deal's announcements and their Confirm), marked as not yet
// stored. A tap the engine refuses, or that the
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
  // The deal's announcements marked while the server is away, as the
  // server's board keeps them in its address: [side, kind] in the order
  // tapped; `draftAt`, the game's version they were first marked on.
  var draft = [];
  var draftAt = null;
  var adoptedFrom = null;  // the server's board whose draft this one took over
  var drew = false;  // the announcements are this count's, until the server's again
  var markWords = null;  // their words (_count_texts.html), once fetched

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
      // Ready once its words and the server's sheet have come too (or
      // could not): what the board draws while away is then all there.
      fetched.then(function () {
        ready = true;
        paint.set(document.documentElement, "data-engine", "ready");
        redraw();
      });
    } else if (message.id === undefined) {
      stop();  // it could not start
    } else if (asked && message.id === asked.id && message.answer) {
      counted = asked;
      counted.answer = message.answer;
      redraw();
    }
  }

  // The game the board shows after `events` (null: a tap the board cannot
  // name), once the engine has answered; until then, the counted board.
  function show(current, events) {
    var key = ask(current, events);
    if (key === null) { return; }
    var lost = ronda.link.lost();
    if (!events.length && !lost) {  // the server's board, as it drew it
      undraw(current, false);
      return;
    }
    if (counted && counted.key === key) {
      if (counted.answer.counted) { paintCount(current, counted.answer); }
      paintAnnouncements(current, counted.answer, events, lost);
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
    if (!events.length && !ronda.link.lost()) { return ""; }  // the server's board: nothing to ask
    var cards = typedCards(current);
    var key = current.dataset.version + " " + JSON.stringify(events) + " " + JSON.stringify(draft) +
      " " + JSON.stringify(cards);
    if ((!counted || counted.key !== key) && (!asked || asked.key !== key)) {
      questions += 1;
      asked = { id: questions, key: key, version: Number(current.dataset.version), events: events };
      var moves = hitButtons(current).map(function (hit) { return JSON.parse(hit.dataset.event); })
        .concat(markEvents(current));
      engine.postMessage({ id: questions, game: JSON.parse(game), events: events, moves: moves,
                           cards: cards });
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
    var lines = current.querySelectorAll(".status-text span");
    if (!lines.length) { return; }
    var line = paint.escaped(words.deal_line.replace("{hand}", answer.hand)
      .replace("{deal}", answer.deal).replace("{deals}", answer.deals));
    if (answer.last_deal) {
      line += " · <strong class=\"last-deal\">" + paint.escaped(words.last_deal) + "</strong>";
    }
    paint.showsHtml(lines[0], line);
    if (lines[1]) { paint.showsHtml(lines[1], words.dealers[answer.dealer]); }  // a new hand's
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

  // A strip's form, posting as the board's others do, with their keys.
  function stripForm(current, kind) {
    var pads = current.querySelector("form.pads");
    var form = document.createElement("form");
    form.setAttribute("method", "post");
    form.setAttribute("action", pads.getAttribute("action"));
    form.className = "strip " + kind;
    pads.querySelectorAll(":scope > input[type=hidden]").forEach(function (key) {
      form.appendChild(key.cloneNode(false));  // the board's keys, as each of its forms has them
    });
    return form;
  }

  function strip(current, chain, said) {
    var form = stripForm(current, "chain-strip");
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

  // The deal's announcements while the server is away, drawn from this
  // count as games/_board.html draws them from the server's: each side's
  // links on where the engine takes the draft with one more (the events
  // after the hits in `moves`, as the server's board judges its links),
  // the draft's chips in the sides' order with its Confirm and ✕, and once
  // the count has the deal's announcements, what the server then says.
  // Their Confirm waits as any tap does; the ranks to settle need the server.
  function markWord(name, side) {
    var said = markWords.content.querySelectorAll('[data-text="' + name + '"]');
    var named = Array.prototype.filter.call(said, function (one) { return one.dataset.side === side; });
    return (named[0] || said[0]).textContent;
  }
  function filled(sentence, name, value) {
    return sentence.replace("{" + name + "}", function () { return value; });
  }
  function announce(marks) {
    return { type: "announce", announcements: marks.map(function (mark) {
      return { side: mark[0], kind: mark[1] };
    }) };
  }
  function markLinks(current) {
    return Array.prototype.slice.call(current.querySelectorAll(".pads .announce a"));
  }
  function markOf(link) {
    return [Number(/side-(\d+)/.exec(link.closest(".pad").className)[1]),
            /kind-(\w+)/.exec(link.className)[1]];
  }
  // Each link's draft with its mark, then the draft itself (its Confirm).
  function markEvents(current) {
    var events = markLinks(current).map(function (link) {
      return announce(draft.concat([markOf(link)]));
    });
    return draft.length ? events.concat([announce(draft)]) : events;
  }

  function paintAnnouncements(current, answer, events, lost) {
    var waiting = events.length;
    if (!markWords || answer.counted !== waiting || !(lost || (draft.length && waiting))) {
      undraw(current, waiting);  // the server's, or its words away: it needs the server
      return;
    }
    adopt(current, events);
    drew = true;
    var links = markLinks(current);
    var on = answer.moves_on.slice(hitButtons(current).length);
    links.forEach(function (link, index) {
      own(link);
      paint.set(link, "aria-disabled", on[index] ? null : "true");
    });
    // Closing the deal would leave the marks unconfirmed, as the server's board says.
    current.querySelectorAll(".actions button[value=next_deal]").forEach(function (next) {
      paint.set(next, "data-draft-off", draft.length ? "" : null);
    });
    paintSlot(current, answer, on[links.length]);
    paintEnd(current, answer);
  }

  // A link of the server's board, this count's while it draws the board
  // (not a view the outbox turns off while the server is away); disown puts
  // back whether it was off, and why.
  function own(link) {
    if (link.hasAttribute("data-counts")) { return; }
    link.setAttribute("data-counts", link.hasAttribute("data-offline") ? "" :
                      link.getAttribute("aria-disabled") || "");
    link.setAttribute("data-counts-why", link.getAttribute("aria-describedby") || "");
    link.removeAttribute("aria-describedby");  // the server's reason, of the game before
    link.removeAttribute("data-offline");
    link.removeAttribute("data-swap");
  }
  function disown(link) {
    if (!link || !link.hasAttribute("data-counts")) { return; }
    paint.set(link, "aria-disabled", link.getAttribute("data-counts") || null);
    paint.set(link, "aria-describedby", link.getAttribute("data-counts-why") || null);
    link.removeAttribute("data-counts");
    link.removeAttribute("data-counts-why");
    link.setAttribute("data-swap", "");
  }

  // The server's draft (its address's marks), taken over once per board;
  // not once its Confirm waits.
  function adopt(current, events) {
    if (adoptedFrom === current.dataset.version) { return; }
    adoptedFrom = current.dataset.version;
    var form = current.querySelector(".announce-slot .draft-strip");
    var confirmed = events.some(function (event) { return event.type === "announce"; });
    if (!form || draft.length || confirmed) { return; }
    draft = Array.prototype.map.call(form.querySelectorAll("input[name=a]"), function (input) {
      var mark = input.value.split("-");
      return [Number(mark[0]), mark[1]];
    });
    var at = new URLSearchParams(form.querySelector("input[name=back]").value).get("at");
    draftAt = at === null ? Number(current.dataset.version) + events.length : Number(at);
  }

  function paintSlot(current, answer, confirmOn) {
    var slot = current.querySelector(".announce-slot");
    if (!slot) { return; }
    if (!slot.hasAttribute("data-kept-html")) {
      slot.setAttribute("data-kept-html", slot.innerHTML);
      slot.removeAttribute("data-draft-shown");
    }
    var key = JSON.stringify([draft, answer.announced, answer.settle, confirmOn]);
    if (slot.getAttribute("data-draft-shown") === key) { return; }
    slot.setAttribute("data-draft-shown", key);
    slot.innerHTML = "";
    if (draft.length) {
      slot.appendChild(draftStrip(current, confirmOn));
    } else if (answer.settle) {
      slot.innerHTML = "<p class=\"strip reveal-strip\"><span>" +
        paint.escaped(markWord("settle-" + answer.settle)) + "</span><a class=\"button\" href=\"" +
        gameUrl(current) + "?sheet=ranks\" data-swap data-offline aria-disabled=\"true\">" +
        paint.escaped(markWord("pick-ranks")) + "</a></p>";
    } else {
      slot.innerHTML = "<p class=\"strip quiet-strip\"><span>" +
        paint.escaped(markWord(answer.announced ? "recorded" : "hint")) + "</span></p>";
    }
    redraw();  // the waiting taps listed in a quiet strip drawn anew
  }

  function gameUrl(current) {
    return new URL(current.querySelector("form.pads").action).pathname.replace(/\/play$/, "");
  }
  function sideNames(current) {
    return Array.prototype.map.call(current.querySelectorAll(".pads .pad legend"),
                                    function (legend) { return legend.textContent; });
  }
  function draftQuery(marks) {
    return marks.map(function (mark) { return "a=" + mark[0] + "-" + mark[1]; }).join("&") +
      (marks.length ? "&at=" + draftAt : "");
  }

  // The draft's strip, as the server draws it: its marks for the form, the
  // sentence for screen readers, a chip per side and kind (a chip takes
  // one back), Confirm, and ✕.
  function draftStrip(current, confirmOn) {
    var form = stripForm(current, "draft-strip");
    var sides = sideNames(current);
    var list = text("list-sep");
    form.setAttribute("data-follows-view", "");
    form.querySelector("input[name=back]").value = draftQuery(draft);
    draft.forEach(function (mark) {
      form.insertAdjacentHTML("beforeend", "<input type=\"hidden\" name=\"a\" value=\"" +
                              mark[0] + "-" + mark[1] + "\">");
    });
    form.insertAdjacentHTML("beforeend", "<p class=\"visually-hidden draft-words\">" +
      filled(paint.escaped(markWord("draft")), "list", draft.map(function (mark) {
        return sideHtml(mark[0], sides[mark[0]]) + " " + paint.escaped(markWord("kind-" + mark[1]));
      }).join(paint.escaped(list))) + "</p>");
    var chips = form.appendChild(document.createElement("ul"));
    chips.className = "marks";
    marks().forEach(function (chip) {
      var item = chips.appendChild(document.createElement("li"));
      var link = item.appendChild(document.createElement("a"));
      var kind = markWord("kind-" + chip.kind);
      var less = draftQuery(without(chip.side, chip.kind));
      item.className = "side-" + chip.side;
      link.href = gameUrl(current) + (less ? "?" + less : "");
      link.setAttribute("data-counts", "");
      link.setAttribute("data-tap-group", "take-back");
      link.setAttribute("data-mark", chip.side + "-" + chip.kind);
      link.setAttribute("aria-label", filled(filled(markWord("take-back", sides[chip.side]),
                                                    "kind", kind), "side", sides[chip.side]));
      link.textContent = kind;
      if (chip.count > 1) {
        link.insertAdjacentHTML("beforeend", " <bdi dir=\"ltr\">×" + chip.count + "</bdi>");
      }
    });
    var confirm = form.appendChild(document.createElement("button"));
    confirm.name = "move";
    confirm.value = "announce";
    confirm.setAttribute("data-what", filled(markWord("draft"), "list", bySide(sides).join(list)));
    confirm.setAttribute("data-event", JSON.stringify(announce(draft)));
    if (!confirmOn) { confirm.setAttribute("aria-disabled", "true"); }
    confirm.textContent = markWord("confirm");
    form.insertAdjacentHTML("beforeend", "<a class=\"button quiet clear\" href=\"" +
      gameUrl(current) + "\" data-counts aria-label=\"" +
      paint.escaped(markWord("clear")).replace(/"/g, "&quot;") + "\">✕</a>");
    return form;
  }
  function text(name) { return phrase(name).textContent; }
  // A side's name isolated as the server isolates it (a team's partners
  // each in their own): as the chain's words have it, where a name is.
  function sideHtml(side, name) {
    var named = phrase("chain-" + side).querySelector("bdi");
    return named ? named.outerHTML : "<bdi>" + paint.escaped(name) + "</bdi>";
  }

  // The chips: in the sides' order, each side's kinds in the order marked.
  function marks() {
    var chips = [];
    draft.slice().sort(function (a, b) { return a[0] - b[0]; }).forEach(function (mark) {
      var chip = chips.filter(function (one) {
        return one.side === mark[0] && one.kind === mark[1];
      })[0];
      if (chip) { chip.count += 1; } else { chips.push({ side: mark[0], kind: mark[1], count: 1 }); }
    });
    return chips;
  }
  // The draft without the last mark of `kind` for `side`.
  function without(side, kind) {
    var last = -1;
    draft.forEach(function (mark, index) { if (mark[0] === side && mark[1] === kind) { last = index; } });
    return draft.slice(0, last).concat(draft.slice(last + 1));
  }
  // The Confirm's name as the log will say it (describe.undo_words): each
  // side once, its kinds ("Ronda ×2", "Ronda + Tringa"), its name isolated.
  function bySide(sides) {
    var order = [];
    var kinds = {};
    draft.forEach(function (mark) {
      if (!kinds[mark[0]]) { kinds[mark[0]] = []; order.push(mark[0]); }
      var known = kinds[mark[0]].filter(function (one) { return one.kind === mark[1]; })[0];
      if (known) { known.count += 1; } else { kinds[mark[0]].push({ kind: mark[1], count: 1 }); }
    });
    return order.map(function (side) {
      return "\u2068" + sides[side] + "\u2069 " + kinds[side].map(function (one) {
        return markWord("kind-" + one.kind) + (one.count > 1 ? " ×" + one.count : "");
      }).join(" + ");
    });
  }

  // The server's links and strip again. A draft still marked once the
  // server is back and no tap waits goes to the server's board, in its
  // address, as if marked there.
  function undraw(current, waiting) {
    markLinks(current).concat([endLink(current)]).forEach(disown);
    current.querySelectorAll("[data-draft-off]").forEach(function (next) {
      next.removeAttribute("data-draft-off");
    });
    var slot = current.querySelector(".announce-slot[data-kept-html]");
    if (slot) {
      slot.innerHTML = slot.getAttribute("data-kept-html");
      slot.removeAttribute("data-kept-html");
    }
    var sheetQuery = closeSheet(current);
    if (!drew || waiting || ronda.link.lost()) { return; }
    drew = false;
    adoptedFrom = null;  // the server's board is the draft's again
    var address = new URL(window.location.href);
    var marks = draft.map(function (mark) { return mark[0] + "-" + mark[1]; });
    var query = [draftQuery(draft), sheetQuery].filter(Boolean).join("&");
    draft = [];
    if (!sheetQuery && address.searchParams.getAll("a").join() === marks.join()) { return; }
    address.search = query ? "?" + query : "";
    window.history.replaceState(window.history.state, "", address.href);
    ronda.board.refresh();
  }

  var DOUBLE_TAP_MS = Number(document.documentElement.dataset.doubleTapMs) || 600;
  var chipAt = -Infinity;
  // A tap on a link or chip this count draws: the draft changes here.
  function marked(event) {
    var link = event.target.closest && event.target.closest("#board a[data-counts]");
    if (!link) { return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    var current = ronda.board.element();
    if (link.hasAttribute("data-end")) {
      if (draft.length) { ronda.board.showError(markWord("pending")); }
      if (link.getAttribute("aria-disabled") !== "true") { openSheet(current); }
      return;
    }
    if (link.classList.contains("close")) {
      closeSheet(current);
      redraw();
      return;
    }
    if (link.getAttribute("aria-disabled") === "true") { return; }  // the engine refuses it
    if (link.closest(".announce")) {
      if (!draft.length) { draftAt = Number(current.dataset.version) + waitingNow(); }
      draft.push(markOf(link));
    } else if (link.hasAttribute("data-mark")) {
      // The chips are one control, as the server's (board.js, data-tap-group):
      // the one that slides under the finger takes no double tap's second.
      if (event.timeStamp - chipAt < DOUBLE_TAP_MS) { return; }
      chipAt = event.timeStamp;
      var mark = link.getAttribute("data-mark").split("-");
      draft = without(Number(mark[0]), mark[1]);
    } else {
      draft = [];
    }
    ronda.board.tick();
    redraw();
  }
  // The end of hand while the server is away: its sheet is the server's
  // (games/_sheet_end.html, fetched once per game while it answers, with the
  // sentence that says which count is missing, side by side), its fields
  // and steppers work here, its rest, points and Confirm are this count's
  // (`end`, the engine's card_count as the server's sheet), and its
  // Confirm waits as any tap, then the sheet closes, as the server's does.
  // Where the engine refuses the count, the server judges it, as a count
  // typed in a sheet without this script is.
  var endSheets = null;  // { game, html, missing: the sentence for each side's missing count }
  // A network that drops mid-answer leaves a fetch hanging: the engine is
  // ready without what did not come within this time (it then needs the server).
  var FETCH_MS = 5000;
  function endLink(current) {
    return current.querySelector(".actions a[href*='sheet=end'], .actions a[href*='why=end_hand']");
  }
  function fetchSheets() {
    var current = ronda.board.element();
    if (!current || !current.dataset.engine || ronda.link.lost() ||
        (endSheets && endSheets.game === current.dataset.game)) { return Promise.resolve(); }
    var game = current.dataset.game;
    var sides = current.querySelectorAll(".pads .pad").length;
    var asks = [];
    for (var typed = 0; typed < sides - 1; typed += 1) {
      var query = "?sheet=end&hand=" + current.dataset.deal.split(".")[0];
      for (var side = 0; side < typed; side += 1) { query += "&cards" + side + "=0"; }
      // The whole page, not the board alone (X-Board): the service worker
      // keeps every board drawn for the page's script as the one last shown.
      asks.push(ronda.board.fetchWithin(gameUrl(current) + query, { credentials: "same-origin" },
                                        FETCH_MS)
        .then(function (response) { return response.ok ? response.text() : null; }));
    }
    endSheets = { game: game, html: null, missing: [] };
    return Promise.all(asks).then(function (pages) {
      var found = pages.map(function (html) {
        return html && new DOMParser().parseFromString(html, "text/html").getElementById("sheet");
      });
      if (!found.every(function (sheet) { return sheet && sheet.querySelector("#count-form"); })) {
        endSheets = null;  // asked again at the next board
        return;
      }
      endSheets.html = found[0].outerHTML;
      endSheets.missing = found.map(function (sheet) { return sheet.querySelector(".gets").textContent; });
    }).catch(function () { endSheets = null; });
  }
  ronda.afterSwap.push(function () { setTimeout(fetchSheets, 1000); });

  function sheetForm(current) {
    return current.querySelector("#count-form[data-counts]");
  }
  // The counts typed (null where none is); false where one is not a whole
  // number (the server judges it).
  function typedCards(current) {
    var form = sheetForm(current);
    if (!form) { return null; }
    var cards = Array.prototype.map.call(form.querySelectorAll("input[name^=cards]"), function (field) {
      var value = field.value.trim();
      return value === "" ? null : (/^\d{1,2}$/.test(value) ? Number(value) : false);
    });
    return cards.indexOf(false) === -1 ? cards : false;
  }

  function paintEnd(current, answer) {
    var end = endLink(current);
    if (end && endSheets && endSheets.html) {
      own(end);
      end.setAttribute("data-end", "");
      paint.set(end, "aria-disabled", answer.end_on && !draft.length ? null : "true");
    }
    if (sheetForm(current)) { paintSheet(current, answer); }
  }

  function openSheet(current) {
    if (current.querySelector("#sheet")) { return; }
    current.insertAdjacentHTML("beforeend", endSheets.html);
    var sheet = current.querySelector("#sheet");
    var form = sheet.querySelector("#count-form");
    var lastCard = sheet.querySelector("form.last-card");
    if (lastCard) { lastCard.remove(); }  // its taps need the server's board
    form.removeAttribute("data-live-form");  // followed here, not by the server
    var shownCount = form.querySelector("input[name=shown]");
    if (shownCount) { shownCount.remove(); }
    form.setAttribute("data-counts", "");
    // This board's keys, as its other forms have them.
    form.querySelectorAll("input[name=csrf_token], input[name=token], input[name=back], " +
                          "input[name=expected_version], input[name=device]")
      .forEach(function (key) { key.remove(); });
    var keys = current.querySelector("form.pads").querySelectorAll(":scope > input[type=hidden]");
    Array.prototype.slice.call(keys).reverse().forEach(function (key) {
      form.insertBefore(key.cloneNode(false), form.firstChild);
    });
    sheet.querySelector("a.close").setAttribute("data-counts", "");
    sheet.querySelector("a.close").removeAttribute("data-swap");
    sheet.querySelector("p.computed").setAttribute("data-rest", sheet.querySelector("p.computed").innerHTML);
    ronda.board.tick();
    redraw();
  }

  // The sheet closed; what it holds, as the server's address would say it.
  function closeSheet(current) {
    var form = sheetForm(current);
    if (!form) { return ""; }
    var query = "sheet=end&hand=" + form.querySelector("input[name=hand]").value;
    form.querySelectorAll("input[name^=cards]").forEach(function (field) {
      query += "&" + field.name + "=" + encodeURIComponent(field.value);
    });
    current.querySelector("#sheet").remove();
    return query;
  }

  function paintSheet(current, answer) {
    var form = sheetForm(current);
    var end = answer.end;
    var last = current.querySelectorAll(".pads .pad").length - 1;
    form.querySelector("input[name=hand]").value = answer.hand;
    var computed = form.querySelector("p.computed");
    var gets = form.querySelector("p.gets");
    var cards = typedCards(current);
    var complete = cards && cards.indexOf(null) === -1;
    drawn(computed, end && end.computed !== null ? "<span>" +
      filled(filled(filled(plural("computed", end.computed), "num", String(end.computed)),
                    "deck", String(end.deck)), "side", sideHtml(last, sideNames(current)[last])) +
      "</span>" : computed.getAttribute("data-rest"));
    var confirms = form.querySelectorAll("button[value=end_hand]");
    var points = end && end.points;
    if (points) {
      gets.className = "gets";
      drawn(gets, end.points.map(function (got, side) {
        return "<span class=\"pair side-" + side + "\">" + sideHtml(side, sideNames(current)[side]) +
          " <bdi dir=\"ltr\">" + (got < 0 ? "-" : "+") + Math.abs(got) + "</bdi></span>";
      }).join("<span class=\"sep\"> · </span>"));
    } else {
      gets.className = "gets hint";
      drawn(gets, paint.escaped(complete ? text("count-offline") :
        endSheets.missing[cards ? cards.indexOf(null) : 0] || ""));
    }
    confirms.forEach(function (confirm) {
      paint.set(confirm, "aria-disabled", complete || cards === false ? null : "true");
      // Its event for this count, where the engine takes it; the server judges any other.
      paint.set(confirm, "data-event", points ? JSON.stringify({ type: "end_hand",
        cards: cards.concat([null]) }) : null);
    });
    form.setAttribute("data-last-deal", answer.last_deal ? "" : "no");
    form.setAttribute("data-deal", answer.deal + " " + answer.deals);
  }

  // Only what differs is written (the outbox keeps no copy: the sheet is this count's).
  function drawn(node, html) {
    if (node.innerHTML !== html) { node.innerHTML = html; }
  }

  // The question of a hand ended early, where the server asks it: before
  // the hand's last deal, the Confirm's place taken by the question and
  // its Yes.
  function askEarly(form, confirm) {
    var deal = form.getAttribute("data-deal").split(" ");
    form.querySelectorAll(".answer").forEach(function (answer) { answer.remove(); });
    form.insertAdjacentHTML("beforeend", "<p class=\"ask answer\" role=\"alert\">" +
      paint.escaped(filled(filled(markWord("early"), "deal", deal[0]), "deals", deal[1])) +
      "</p><input type=\"hidden\" name=\"early\" value=\"1\">");
    var yes = form.appendChild(confirm.cloneNode(false));
    yes.className = "primary wide answer";
    yes.textContent = markWord("end-now");
  }

  // The sheet's own buttons: a stepper, the preview, a Confirm that asks
  // first or is off (it says why); the others are the board's.
  function sheetTap(event) {
    var button = event.target.closest && event.target.closest("#count-form[data-counts] button");
    if (!button) { return; }
    var form = button.form;
    var step = /^end_step\.(\d+)\.(-?1)$/.exec(button.value);
    var off = button.value === "end_hand" && button.getAttribute("aria-disabled") === "true";
    var early = button.value === "end_hand" && form.getAttribute("data-last-deal") === "no" &&
      !form.querySelector("input[name=early]");
    if (button.value === "end_hand" && !off && !early) { return; }  // a tap, kept by the outbox
    event.preventDefault();
    event.stopImmediatePropagation();
    if (off) {
      ronda.board.showError(form.querySelector(".gets").textContent);
    } else if (early) {
      askEarly(form, button);
    } else if (step) {
      var field = form.querySelector("input[name=cards" + step[1] + "]");
      var end = counted && counted.answer.end;
      if (end) {  // as the server's sheet steps (views/games.py, _stepped)
        var value = field.value === "" ? end.start :
          Math.max(0, Math.min(end.deck, Number(field.value) || 0));
        field.value = String(Math.max(0, Math.min(end.deck, value + Number(step[2]))));
      }
    }
    redraw();
  }
  window.addEventListener("click", sheetTap, true);
  window.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest("#count-form[data-counts]")) { redraw(); }
  }, true);

  // The board drawn again: by the outbox while taps wait, else here.
  function redraw() {
    ronda.outbox.render();
    alone();
  }
  function alone() {
    var current = ronda.board.element();
    if (current && !document.documentElement.hasAttribute("data-outbox")) { show(current, []); }
  }
  function waitingNow() {
    return asked ? asked.events.length : 0;
  }
  window.addEventListener("click", marked, true);
  // Its Confirm taken: the draft is a waiting tap now.
  var take = ronda.outbox.take;
  ronda.outbox.take = function (form) {
    var taken = take.apply(null, arguments);
    if (taken && form.matches(".announce-slot[data-kept-html] .draft-strip")) {
      draft = [];
      redraw();
    }
    if (taken && form.matches("#count-form[data-counts]")) {  // counted: the sheet closes
      form.closest("#sheet").remove();
      redraw();
    }
    return taken;
  };
  // A text of the count's words by the plural category of `n` (as the outbox's).
  function plural(name, n) {
    var category = "other";
    try { category = new Intl.PluralRules(document.documentElement.lang).select(n); } catch (error) { /* other */ }
    var forms = markWords.content.querySelectorAll('[data-text="' + name + '"]');
    var picked = Array.prototype.filter.call(forms, function (one) { return one.dataset.category === category; });
    return (picked[0] || forms[forms.length - 1]).textContent;
  }
  // A move that would close the deal under the marks says why, as the server's.
  function draftInTheWay(event) {
    var target = event.target.closest && event.target.closest("#board [data-draft-off]");
    if (!target) { return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    ronda.board.showError(markWord("pending"));
  }
  window.addEventListener("touchend", draftInTheWay, true);
  window.addEventListener("click", draftInTheWay, true);

  // Once no tap waits (the outbox's data-outbox gone), the server's again.
  function unkeep() {
    if (document.documentElement.hasAttribute("data-outbox")) { return; }
    document.querySelectorAll("#board [data-kept-html]").forEach(function (node) {
      node.innerHTML = node.getAttribute("data-kept-html");
      node.removeAttribute("data-kept-html");
    });
  }
  // Nor while the server is away with no tap waiting: the outbox then asks
  // no count, and the deal's announcements are this count's (or, once it is
  // back, the server's again).
  new MutationObserver(function () {
    unkeep();
    alone();
  }).observe(document.documentElement,
             { attributes: true, attributeFilter: ["data-outbox", "data-link"] });

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
  // The words, at the engine's version, in the page's language; the sheet.
  var fetched = Promise.all([
    ronda.board.fetchWithin(urls.engineFiles.replace("/engine.", "/texts.").replace(/\.json$/,
      "." + document.documentElement.lang + ".html"), { credentials: "same-origin" }, FETCH_MS)
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        markWords = document.createElement("template");
        markWords.innerHTML = html;
      }),
    fetchSheets()
  ]).catch(function () { /* what they draw needs the server, as without a count */ });
  ronda.count = { ask: ask, show: show, counts: function () { return ready; } };
}());
