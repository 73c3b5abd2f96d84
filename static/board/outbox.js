// The board's script, second part: the outbox (docs/OFFLINE.md). Each
// tap on the game is kept in localStorage, its form whole (its token is its
// Idempotency-Key), from before it is sent until the server answers it; taps
// that find the server away wait there, in order, and are sent again one by
// one with the game version they were made on. A refusal stops them until
// the scorer decides.
(function () {
  "use strict";
  var ronda = window.Ronda;
  if (!ronda || !ronda.board) { return; }

  var STORE = "ronda.outbox.v1";
  var LEASE = "ronda.outbox.sender";
  var TAP_TIMEOUT_MS = 8000;  // a slow network still answers; a dropped one hangs
  var LEASE_MS = 10000;  // longer than a send; a closed tab's turn lapses
  var BACK_SHOWN_MS = 3000;
  var PRESS_SHOWN_MS = 200;
  var TAP_PATH = /^\/games\/([^/]+)\/(play|undo)$/;
  var UNAVAILABLE = [502, 503, 504];  // the server is there, but cannot take taps yet

  var tab = newToken();
  var persistent = true;
  var memory = [];
  // The board as last shown, reopened from the service worker's copy while
  // the server was away (static/sw.js): the box says so until it answers.
  var copy = document.documentElement.hasAttribute("data-copy");
  var link = copy ? "lost" : "ok";  // "ok", "lost" (no answer), "busy" (answers 503), "back"
  var backTimer = null;
  var SAID_MS = Number(document.documentElement.dataset.saidMs) || 5000;
  var said = null;  // for a moment, instead of "No connection": what that tap needed
  var saidTimer = null;
  var sending = false;
  var sheet = null;

  function board() { return ronda.board.element(); }

  // As the server's (12 random bytes); getRandomValues needs no secure context.
  // This phone's device id (docs/BOARD.md, "Two phones"): the one its tab
  // keeps across boards and reloads, so that its taps are one phone's
  // whatever board each was made on; the page's own without storage.
  function device() {
    try {
      var kept = sessionStorage.getItem("ronda-device");
      if (!kept) { kept = newToken(); sessionStorage.setItem("ronda-device", kept); }
      return kept;
    } catch (error) { return null; }
  }

  function newToken() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode.apply(null, bytes))
      .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function load() {
    if (!persistent) { return memory; }
    try {
      var entries = JSON.parse(localStorage.getItem(STORE) || "[]");
      return Array.isArray(entries) ? entries : [];
    } catch (error) {
      return memory;
    }
  }

  function save(entries) {
    memory = entries;
    if (!persistent) { return; }
    try {
      if (entries.length) { localStorage.setItem(STORE, JSON.stringify(entries)); }
      else { localStorage.removeItem(STORE); }
    } catch (error) {
      persistent = false;  // full or forbidden: from now on this page's memory keeps them
    }
  }

  function change(edit) {
    var entries = load();
    edit(entries);
    save(entries);
    render(entries);
  }

  function ours(entries) {
    var current = board();
    var game = current && current.dataset.game;
    return entries.filter(function (entry) { return entry.game === game; });
  }

  function without(entries, id) {
    var index = entries.findIndex(function (entry) { return entry.id === id; });
    if (index >= 0) { entries.splice(index, 1); }
  }

  function value(entry, name) {
    var pair = entry.fields.filter(function (field) { return field[0] === name; })[0];
    return pair ? pair[1] : null;
  }

  // The server's key for a tap (views/games.py).
  function tapKey(entry) {
    return entry.url + " " + value(entry, "token") + " " + value(entry, "move");
  }

  // One tab sends at a time. Two would still count each tap once (by its
  // key): the turn only spares doubled requests.

  function takeTurn() {
    try {
      var lease = JSON.parse(localStorage.getItem(LEASE) || "null");
      if (lease && lease.tab !== tab && lease.until > Date.now()) { return false; }
      localStorage.setItem(LEASE, JSON.stringify({ tab: tab, until: Date.now() + LEASE_MS }));
    } catch (error) { /* no storage: no other tab sees these taps */ }
    return true;
  }

  function endTurn() {
    try {
      var lease = JSON.parse(localStorage.getItem(LEASE) || "null");
      if (lease && lease.tab === tab) { localStorage.removeItem(LEASE); }
    } catch (error) { /* nothing to end */ }
  }

  // A tap in the log's words (data-what), as the board names it once recorded.
  function describe(button) {
    if (!button) { return ""; }
    return (button.dataset.what || button.getAttribute("aria-label") || button.textContent)
      .replace(/\s+/g, " ").trim();
  }

  // A count confirmed before the sheet showed its points (offline): the
  // cards typed, which its label had not ("Confirm the count (25)").
  function typedCount(submitter, data) {
    if (!submitter || submitter.value !== "end_hand" || submitter.dataset.what) { return ""; }
    var typed = Array.from(data.entries()).filter(function (field) {
      return /^cards\d+$/.test(field[0]) && field[1] !== "";
    }).map(function (field) { return field[1]; });
    return typed.length ? " (" + typed.join(" – ") + ")" : "";
  }

  // The tap a form posts on this board's game: [path, game, "play" or "undo"].
  function tapOf(form, current) {
    var url = new URL(form.action, window.location.href);
    var match = TAP_PATH.exec(url.pathname);
    var mine = current && form.method.toLowerCase() === "post" &&
      url.origin === window.location.origin && match && match[1] === current.dataset.game;
    return mine ? match : null;
  }

  // Whether a tap's new score is shown at once: the score its button says,
  // with nothing on its way before it.
  function predicts(submitter, queued) {
    return !queued.length && !ronda.board.busy() && !!submitter && !!submitter.dataset.scores;
  }

  // The tap's new score, painted before the tap is made (board.js): only the
  // numbers, which the table reads; take() then adds their pending look.
  function paintFirst(form, submitter) {
    var current = board();
    if (link === "lost" || !tapOf(form, current) || !predicts(submitter, ours(load()))) {
      return false;
    }
    showScores(current, submitter.dataset.scores, submitter.dataset.needs || null);
    return true;
  }

  // Every form posted from the board: the game's taps are kept here (true).
  // `seen`: the version of the board the finger saw, when not this one.
  function take(form, data, submitter, seen) {
    var current = board();
    var match = tapOf(form, current);
    if (!match) { return false; }
    hush();  // a new tap: the box says the state from now on, not what an earlier one needed
    ronda.board.clearNotice();
    var entries = load();
    var queued = ours(entries);
    var label = describe(submitter) + typedCount(submitter, data);
    if (match[2] === "undo") {
      if (takeBack(entries, queued)) { return true; }
      label = text("undo").replace("{what}", undoTarget(current, queued) || "");
    }
    var shown = Number(seen !== null && seen !== undefined ? seen : current.dataset.version);
    var entry = {
      id: newToken(), game: current.dataset.game, url: match[0],
      fields: Array.from(data.entries()), label: label,
      // The game as the scorer sees it: this board (`board`, the version
      // the finger saw, which it is sent with), and the taps before it
      // (`version`, the board's plus their number: the game it predicts).
      version: shown + queued.length, ahead: queued.length, board: shown,
      waited: link === "lost" || queued.some(function (other) { return other.waited; }),
      scores: null,
      // The event it posts, as the board's button says it (data-event): the
      // board's own count folds it while it waits.
      event: submitter && submitter.dataset.event ? JSON.parse(submitter.dataset.event) : null
    };
    var phone = device();
    entry.fields.forEach(function (field) { if (field[0] === "device" && phone) { field[1] = phone; } });
    // The same button again while the board could not follow: another tap
    // (a double tap never gets here: the board's click filter dropped it),
    // with a token of its own that begins with the page's, whose taps the
    // server knows as this page's (views/games.py, page_of).
    if (queued.some(function (other) { return tapKey(other) === tapKey(entry); })) {
      entry.fields.forEach(function (field) {
        if (field[0] === "token") { field[1] = field[1].split(".")[0] + "." + newToken(); }
      });
    }
    // The new score at once, with nothing on its way before it.
    var predicted = predicts(submitter, queued);
    if (predicted) {
      entry.scores = submitter.dataset.scores;
      entry.needs = submitter.dataset.needs || null;
      // Sent right after its paint: marked as tried now, in the one write
      // before the paint, so that sending it writes nothing more.
      entry.tried = link !== "lost";
    }
    entries.push(entry);
    save(entries);
    render(entries);
    if (link !== "lost") {
      var ready = predicted ? ronda.board.nextPaint() : null;
      ronda.board.run(function () { return ready ? ready.then(flush) : flush(); });
    } else if (submitter) {  // kept: the press shows, then the button is free again
      setTimeout(function () { submitter.classList.remove("pressed"); }, PRESS_SHOWN_MS);
    }
    return true;
  }

  // Undo while taps wait takes back the last one here if it was never sent
  // (the one its label names); else a real undo goes after it: after a tap
  // that may have reached the server, or after an undo that waits (the
  // label then names the event before, which that undo did not take).
  function takeBack(entries, queued) {
    var last = queued.filter(records).pop();
    if (!last || undoes(last) || !last.waited || last.tried) { return false; }
    without(entries, last.id);
    save(entries);
    render();
    return true;
  }

  function undoes(entry) { return TAP_PATH.exec(entry.url)[2] === "undo"; }

  // Whether a tap makes a record: not the end-of-hand sheet's steppers and
  // preview, which only redraw the sheet.
  function records(entry) {
    return undoes(entry) || !/^end_(step|preview)$/.test((value(entry, "move") || "").split(".")[0]);
  }

  // What an Undo would take back now, in the log's words: the last tap here
  // that no undo after it takes back, else the counted events under those
  // (the server's, newest first, on the Undo). null: nothing is left to
  // undo; undefined: an older event than this page knows. A refused tap is
  // not among them: the game does not have it, and an Undo tapped while it
  // waits for the scorer's choice takes back the game's last event.
  function undoTarget(current, queued) {
    var button = current.querySelector(".undo-button");
    var stack = [];
    try {
      stack = JSON.parse((button && button.getAttribute("data-steps")) || "[]").reverse();
    } catch (error) { /* none known */ }
    var beyond = !!button && button.hasAttribute("data-older");
    queued.filter(function (entry) { return records(entry) && !entry.refused; }).forEach(function (entry) {
      if (!undoes(entry)) { stack.push(entry.label); } else if (!stack.pop()) { beyond = true; }
    });
    if (stack.length) { return stack[stack.length - 1]; }
    return beyond ? undefined : null;
  }

  function flush() {
    var entry = ours(load())[0];
    // Nothing left to send: the turn goes back at once, else the next page
    // (the rematch, a reload) would wait for it to lapse before its first tap.
    if (!entry && !sending) { endTurn(); }
    if (sending || !entry || entry.refused || !takeTurn()) { return null; }
    sending = true;
    return send(entry).then(function (more) {
      sending = false;
      if (more) { return flush(); }
      endTurn();
      render();
      return null;
    });
  }

  function send(entry) {
    if (!entry.tried) {  // from now on it may have reached the server
      change(function (entries) {
        entries.forEach(function (other) { if (other.id === entry.id) { other.tried = true; } });
      });
    }
    var body = new URLSearchParams(entry.fields);
    // This page's CSRF token: the kept one may belong to a session since ended.
    var csrf = document.querySelector("#board input[name=csrf_token]");
    if (csrf && body.has("csrf_token")) { body.set("csrf_token", csrf.value); }
    // Every tap is of the board the finger saw, with its phone (the form's
    // device): the server merges what it had not seen by one rule, this
    // phone's own taps before it being its own wherever they landed.
    body.set("expected_version", String(entry.board !== undefined ? entry.board : entry.version));
    return ronda.board.fetchWithin(entry.url, {
      method: "POST", body: body, headers: { "X-Board": "1" }, credentials: "same-origin"
    }, TAP_TIMEOUT_MS).then(function (response) {
      return response.text().then(function (html) { return answered(entry, response, html); });
    }).catch(function () {
      unreachable();  // no answer, or half of one: kept, to be sent again with its key
      return false;
    });
  }

  // What the server said of a waiting tap that counted (counted once, placed
  // in its deal, a deal closed with the other phone's taps) stays on the
  // board while the taps after it are sent: each answer draws the board
  // again, and one that says nothing would take it away unread.
  var news = null;
  function newsOf(page) {
    var said = page.querySelector("#notice.shown.info");
    return said ? said.textContent : null;
  }
  function keepNews(entry, said) {
    if (said) {
      news = said;
    } else if (news && entry.waited) {
      ronda.board.notify(news, "info");  // fades a few seconds after the last answer
    }
    if (!ours(load()).length) { news = null; }  // all sent: the next answer is news of its own
  }

  // What the server said to a tap; true to go on with the next one.
  function answered(entry, response, html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var fresh = page.getElementById("board");
    var alert = page.querySelector("[role=alert]");
    if (link === "lost") { setLink("back"); }
    if (response.ok && fresh) {
      if (link === "busy") { setLink("back"); }
      change(function (entries) { without(entries, entry.id); });
      var said = newsOf(page);  // read before the swap, which takes the fresh board's nodes
      ronda.board.swap(page, response.headers.get("X-Board-URL"));
      keepNews(entry, said);
      return true;
    }
    if (UNAVAILABLE.indexOf(response.status) >= 0) {
      markWaiting();
      setLink("busy");  // kept; sent again when the server next answers a poll
      return false;
    }
    var why = alert ? alert.textContent.replace(/\s+/g, " ").trim() : text("refused");
    if (!entry.waited && ours(load()).length === 1) {
      // A live tap refused, nothing after it: the board says why, as ever.
      change(function (entries) { without(entries, entry.id); });
      // At the address it is drawn for (a count's sheet of a hand now over
      // closed; the other phone's announcements marked with these): a follow
      // asked at the old one drew the board as it was before the refusal.
      if (fresh) {
        ronda.board.swap(page, response.headers.get("X-Board-URL"));
      } else {
        ronda.board.showError(why);
      }
      return false;
    }
    var shown = fresh || board();
    change(function (entries) {
      var refused = entries.filter(function (other) { return other.id === entry.id; })[0];
      if (refused) {
        refused.refused = why;
        refused.refusedOn = shown ? shown.dataset.version : null;  // the game it was refused on
      }
    });
    if (fresh) {
      if (alert) { alert.remove(); }  // the refusal sheet says it, not a line above the buttons
      ronda.board.swap(page, response.headers.get("X-Board-URL"));
    } else {
      ronda.board.refresh();
    }
    return false;
  }

  function setLink(state) {
    clearTimeout(backTimer);
    link = state;
    if (state !== "lost") { said = null; }
    if (state === "back") {
      backTimer = setTimeout(function () { if (link === "back") { setLink("ok"); } }, BACK_SHOWN_MS);
    }
    render();
  }

  // The server answered something (a poll, a page, a tap).
  function reached() {
    if (copy) {  // the live board first (its tokens), then the waiting taps
      copy = false;
      document.documentElement.removeAttribute("data-copy");
      ronda.board.refresh();
    }
    if (link === "lost") { setLink("back"); }
    if (!sending && ours(load()).length) { ronda.board.run(flush); }
  }

  // Every tap still here now waits for the server.
  function markWaiting() {
    var entries = load();
    var marked = false;
    ours(entries).forEach(function (entry) {
      if (!entry.waited) { entry.waited = marked = true; }
    });
    if (marked) { save(entries); }
  }

  // No answer; `needed` (the name of one of the page's texts) says what the
  // tap that got none needed: the server (an announcement, a sheet).
  function unreachable(needed) {
    if (typeof needed === "string") { say(needed); }
    markWaiting();
    var current = board();
    if (current) {
      current.querySelectorAll(".pressed").forEach(function (node) { node.classList.remove("pressed"); });
    }
    if (link !== "lost") { setLink("lost"); } else { render(); }
  }

  // For a moment, the box says what a tap needed (the name of one of the
  // page's texts) instead of the state.
  function say(name) {
    if (!text(name)) { return; }
    clearTimeout(saidTimer);
    said = text(name);
    saidTimer = setTimeout(function () { said = null; render(); }, SAID_MS);
    render();
  }
  function hush() {
    clearTimeout(saidTimer);
    said = null;
  }

  // A tap on a control that is off while taps of this game wait or are on
  // their way: the board shows the game before them, so why it is off may
  // no longer be true (an announcement "already recorded" after a waiting
  // Next deal). The box says what the tap needs instead: true if it did.
  // With nothing waiting, the board is the game as stored: its reason holds.
  function behind(control) {
    if (control.hasAttribute("data-offline")) {  // off for the server's absence alone
      say(control.closest(".announce, .marks") ? "announce-offline" : "view-offline");
      return true;
    }
    if (!ours(load()).length) { return false; }
    var needed = "waiting-first";
    if (link === "lost") { needed = control.closest(".announce, .marks") ? "announce-offline" : "view-offline"; }
    say(needed);
    return true;
  }

  // Without the server, what opens a view of the board (a sheet, the
  // announcements, a mark taken back) cannot: it is off, as it looks and as
  // it says when tapped (behind). They looked tappable. What the outbox keeps
  // for later (a Missa, a hit, Next deal, Undo) and a sheet's Close stay on.
  function offLinks(current, lost) {
    current.querySelectorAll("a.button[data-swap]:not(.close), .marks a[data-swap]")
      .forEach(function (link) {
        if (lost && link.getAttribute("aria-disabled") !== "true") {
          link.setAttribute("aria-disabled", "true");
          link.setAttribute("data-offline", "");
        } else if (!lost && link.hasAttribute("data-offline")) {
          link.removeAttribute("aria-disabled");
          link.removeAttribute("data-offline");
        }
      });
  }

  function texts() { return document.getElementById("outbox-texts"); }

  function text(name) {
    var template = texts();
    var node = template && template.content.querySelector('[data-text="' + name + '"]');
    return node ? node.textContent : "";
  }

  // The page gives a text per CLDR plural category; Intl.PluralRules picks.
  function plural(name, n) {
    var template = texts();
    if (!template) { return ""; }
    var category = "other";
    try { category = new Intl.PluralRules(document.documentElement.lang).select(n); } catch (error) { /* other */ }
    var pick = function (which) {
      return template.content.querySelector('[data-plural="' + name + '"][data-category="' + which + '"]');
    };
    var node = pick(category) || pick("other");
    return node ? node.textContent.replace("{num}", String(n)) : "";
  }

  // Only what differs is written: this runs at every tap, before its paint.
  function set(node, name, value) {
    if (value === null) {
      if (node.hasAttribute(name)) { node.removeAttribute(name); }
    } else if (node.getAttribute(name) !== value) {
      node.setAttribute(name, value);
    }
  }

  function render(entries) {
    var current = board();
    if (!current) { return; }
    var root = document.documentElement;
    var queued = ours(entries || load());
    var waiting = queued.some(function (entry) { return entry.waited; }) ? queued.length : 0;
    var refused = queued.length && queued[0].refused ? queued : null;
    if (waiting) { countWaiting(current, queued, "ask"); }
    set(root, "data-link", link);
    set(root, "data-outbox", waiting ? String(waiting) : null);
    offLinks(current, link === "lost");
    showNotice(waiting, refused);
    if (!queued.length) {
      restore(current);
    } else {
      predictFirst(current, queued[0]);
    }
    if (waiting) {
      loosen(current);
      relabelUndo(current, queued);
      listWaiting(current, queued);
      countWaiting(current, queued, "show");
    }
    showRefusal(refused);
  }

  // `value` as the last text of `node`, the server's kept until the taps are gone.
  function shows(node, value) {
    var last = node.lastChild;
    if (!last || last.nodeType !== 3) { return; }
    if (!node.hasAttribute("data-stored")) { node.setAttribute("data-stored", last.nodeValue); }
    if (last.nodeValue !== value) { last.nodeValue = value; }
  }

  // `html` as the content of `node`, the server's kept until the taps are gone.
  function showsHtml(node, html) {
    if (!node.hasAttribute("data-stored-html")) { node.setAttribute("data-stored-html", node.innerHTML); }
    if (node.innerHTML !== html) { node.innerHTML = html; }
  }

  function restore(current) {
    current.querySelectorAll("[data-stored]").forEach(function (node) {
      node.lastChild.nodeValue = node.getAttribute("data-stored");
      node.removeAttribute("data-stored");
    });
    current.querySelectorAll("[data-stored-html]").forEach(function (node) {
      node.innerHTML = node.getAttribute("data-stored-html");
      node.removeAttribute("data-stored-html");
    });
    current.querySelectorAll("[data-off-waiting]").forEach(function (node) {
      node.removeAttribute("aria-disabled");
      node.removeAttribute("data-off-waiting");
    });
    current.querySelectorAll("[data-on-waiting]").forEach(function (node) {
      node.setAttribute("aria-disabled", "true");
      node.removeAttribute("data-on-waiting");
    });
    if (current.hasAttribute("data-counted")) { current.removeAttribute("data-counted"); }
    var scores = current.querySelector(".scores.pending");
    if (scores) {
      scores.classList.remove("pending");
      scores.removeAttribute("aria-busy");
    }
  }

  // The Undo names what it will take back (undoTarget), as the server names
  // an event: the label's whole content, whatever it ends with (a name, a
  // number, a list). None, or one this page cannot name: off.
  function relabelUndo(current, queued) {
    var button = current.querySelector(".undo-button");
    var label = button && button.querySelector(".undo-what");  // beside its icon
    if (!label) { return; }
    var what = undoTarget(current, queued);
    if (typeof what === "string") {
      showsHtml(label, labelHtml(text("undo"), what));
      if (button.hasAttribute("data-off-waiting")) {
        button.removeAttribute("aria-disabled");
        button.removeAttribute("data-off-waiting");
      }
      return;
    }
    showsHtml(label, escaped(text(what === null ? "nothing-to-undo" : "undo-older")));
    set(button, "aria-disabled", "true");
    set(button, "data-off-waiting", "");
  }

  function escaped(words) {
    return words.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  // `sentence` ("Undo: {what}") with `words` in the log's words, marked up as
  // the server marks up the Undo's (describe.event_label): each name, in its
  // FSI…PDI, also in a <bdi>, which style.css shortens on its own.
  var FSI = "\u2068", PDI = "\u2069";
  function labelHtml(sentence, words) {
    var parts = sentence.split("{what}");
    var named = escaped(words).split(FSI).join("<bdi>" + FSI).split(PDI).join(PDI + "</bdi>");
    return escaped(parts[0]) + named + escaped(parts.slice(1).join(""));
  }

  // The waiting taps in words, in the order they were tapped (newest first
  // read as the reverse of the table's own order to a newcomer; the newest
  // is also the one the Undo names), as the log will name them, in the
  // announcements' quiet strip (a line of fixed size, no control in it):
  // a waiting Next deal or a second Missa shows, so no one taps it again
  // (a table tapped Next deal twice offline and saw a deal skipped). Only words:
  // what they will score is the server's to say once they are sent.
  // When they no longer fit its two lines, the oldest give way to "…": the
  // newest are the ones a scorer checks (they were the ones cut off).
  function listWaiting(current, queued) {
    var quiet = current.querySelector(".quiet-strip span");
    if (!quiet) { return; }
    var labels = queued.map(function (entry) { return entry.label; });
    // Counted by the phone (count.js), they are in the score, not yet stored.
    var sentence = text(ronda.count && ronda.count.counts() ? "waiting-list-counted" : "waiting-list");
    var said = function (from) {
      var list = labels.slice(from).join(text("list-sep"));
      return sentence.replace("{list}", from ? "…" + text("list-sep") + list : list);
    };
    // The fewest left out that fit, halving the range: each try lays the
    // page out again, and a long wait lists dozens.
    var low = 0, high = labels.length - 1;
    while (low < high) {
      var middle = (low + high) >> 1;
      shows(quiet, said(middle));
      if (overflows(quiet)) { low = middle + 1; } else { high = middle; }
    }
    shows(quiet, said(low));
  }

  function overflows(node) { return node.scrollHeight > node.clientHeight + 1; }

  // In a box of fixed size over the status line, under its deal line: it
  // hides neither (the deal line is what the table reads) and moves nothing.
  // Whether a service worker keeps this board, to reopen it without the server.
  function kept() {
    return Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
  }

  var noticeShown = null;  // what the box says now: written again only when it changes
  function showNotice(waiting, refused) {
    var notice = document.getElementById("link-state");
    if (!notice) { return; }
    // Back, but a tap was refused: what the box says is that the sending
    // stopped (its sheet is open), not a green "connected again".
    var state = { lost: copy ? "copy" : "lost", busy: "busy",
                  back: refused ? "stopped" : "back" }[link] ||
      (refused ? "stopped" : (waiting ? "sending" : ""));
    var shown = [state, said, waiting].join("\n");
    if (shown === noticeShown) { return; }
    noticeShown = shown;
    // Before anyone reloads: with the server away the page would not open
    // again (plain http has no service worker to draw it), and the taps
    // that wait are kept on this phone either way. Where a worker keeps the
    // board (a secure origin), a reload opens its copy: nothing to warn of.
    var away = state === "lost" && waiting && !kept();
    var what = said || (away ? text("lost-kept") : (state ? text(state) : ""));
    var count = waiting ? plural(away ? "kept" : "waiting", waiting) : "";
    [[".link-what", what], [".link-count", count]].forEach(function (line) {
      var span = notice.querySelector(line[0]);
      if (span.textContent !== line[1]) { span.textContent = line[1]; }
    });
    set(notice, "hidden", what || count ? null : "");
    set(notice, "class", "link-state link-" + (state || "ok"));
    // Below the deal line, two lines: a sentence too long for one takes both
    // (the waiting taps are still listed on the board and on its Undo), also
    // with no tap waiting: cut after one line, "tap it again once it is back"
    // lost the very instruction.
    var words = notice.querySelector(".link-what");
    if (what && overflows(words)) { notice.classList.add("full"); }
  }

  // While taps wait, a button off before them may apply after them: the
  // server decides when they are sent.
  function loosen(current) {
    current.querySelectorAll("form button[disabled], form button[aria-disabled]")
      .forEach(function (button) {
        var action = button.form && new URL(button.form.action, window.location.href).pathname;
        if (action && TAP_PATH.test(action)) {
          button.disabled = false;
          // The board's off buttons (docs/BOARD.md), off again once no tap waits.
          if (button.getAttribute("aria-disabled") === "true" &&
              !button.hasAttribute("data-off-waiting")) {
            button.setAttribute("data-on-waiting", "");
          }
          button.removeAttribute("aria-disabled");
        }
      });
  }

  // The first tap's score, and what each side then needs, while it is on
  // its way. Not once taps wait: the board then shows what is counted, as
  // its notice says ("N taps waiting, not yet counted"), not one tap of them.
  function predictFirst(current, entry) {
    var scores = current.querySelector(".scores");
    if (!entry || !entry.scores || !scores || entry.waited ||
        String(entry.version) !== current.dataset.version) {
      restore(current);
      return;
    }
    showScores(current, entry.scores, entry.needs);
    if (!scores.classList.contains("pending")) { scores.classList.add("pending"); }
    set(scores, "aria-busy", "true");
  }
  function showScores(current, values, needed) {
    var needs = current.querySelectorAll(".scores .needs");
    var lines = (needed || "").split("|");
    values.split(" ").forEach(function (points, side) {
      var shown = document.getElementById("score-" + side);
      if (shown) { shows(shown, points); }
      if (needs[side] && needed) { shows(needs[side], lines[side]); }
    });
  }

  // The board's own count of the taps that wait (count.js, which the page
  // loads after its first paint): a tap it cannot name as an event (an
  // Undo, a count typed in its sheet, one refused) goes as null. Asked
  // first, shown once the page has drawn the rest.
  function countWaiting(current, queued, how) {
    if (!ronda.count) { return; }
    ronda.count[how](current, queued.filter(records).map(function (entry) {
      return entry.refused || undoes(entry) ? null : entry.event || null;
    }));
  }

  // A refused tap: which one, why, what waits after it, and the scorer's choice.
  function showRefusal(queued) {
    if (!queued) {
      if (sheet) { sheet.remove(); sheet = null; }
      return;
    }
    var first = !sheet;
    if (first) {
      var template = texts();
      if (!template) { return; }
      sheet = template.content.querySelector(".refusal").cloneNode(true);
      sheet.querySelector("[data-choice=one]").addEventListener("click", dropFirst);
      sheet.querySelector("[data-choice=again]").addEventListener("click", sendAgain);
      sheet.querySelector("[data-choice=all]").addEventListener("click", dropAll);
      document.body.appendChild(sheet);
    }
    sheet.querySelector(".refused-what").textContent = queued[0].label;
    sheet.querySelector(".refused-why").textContent = queued[0].refused;
    var rest = sheet.querySelector(".refused-rest");
    var list = rest.querySelector("ol");
    list.textContent = "";
    queued.slice(1).forEach(function (entry) {
      var item = document.createElement("li");
      item.textContent = entry.label;
      list.appendChild(item);
    });
    rest.hidden = queued.length < 2;
    var all = sheet.querySelector("[data-choice=all]");
    all.hidden = queued.length < 2;
    all.textContent = plural("drop-rest", queued.length - 1);
    sheet.querySelector("[data-choice=one]").textContent =
      text(queued.length < 2 ? "drop-one" : "drop-one-send");
    var current = board();
    var again = sheet.querySelector("[data-choice=again]");
    again.hidden = !current || current.dataset.version === queued[0].refusedOn;
    var lone = again.hidden && all.hidden;  // one button: nothing to choose
    sheet.querySelector(".hint.choose").hidden = lone;
    sheet.querySelector(".hint.lone").hidden = !lone;
    if (first) { sheet.querySelector("h2").focus(); }
  }

  // Drop the refused tap; the others go on, each sent with the board it was
  // made on, and merged by the server's rule (docs/BOARD.md, "Two phones").
  function dropFirst() {
    var left = 0;
    change(function (entries) {
      var queued = ours(entries);
      if (!queued.length) { return; }
      without(entries, queued[0].id);
      ours(entries).forEach(function (other) {
        other.version -= 1;  // the game it predicts has one tap fewer
        other.waited = true;
      });
      left = queued.length - 1;
    });
    if (left) { ronda.board.run(flush); } else { ronda.board.refresh(); }
  }

  // The board changed since the refusal (the other phone undid the Next deal
  // that made it): the same tap, judged again by the server on the board it
  // was made on. The refusal's words stayed, and the only choices were to
  // drop a tap that would now count.
  function sendAgain() {
    change(function (entries) {
      var first = ours(entries)[0];
      if (first) { delete first.refused; delete first.refusedOn; }
    });
    ronda.board.run(flush);
  }

  function dropAll() {
    var game = board().dataset.game;
    change(function (entries) {
      for (var i = entries.length - 1; i >= 0; i -= 1) {
        if (entries[i].game === game) { entries.splice(i, 1); }
      }
    });
    ronda.board.refresh();
  }

  // Only where a worker can run the engine: elsewhere the board shows
  // the counted score while taps wait.
  function loadCount() {
    var template = texts();
    var current = board();
    if (!template || !template.dataset.engineCount || !current || !current.dataset.engine ||
        !window.Worker || typeof WebAssembly !== "object") {
      return;
    }
    var script = document.createElement("script");
    script.src = template.dataset.engineCount;
    document.head.appendChild(script);
  }

  ronda.outbox = { take: take, paintFirst: paintFirst, render: render,
                   paint: { set: set, escaped: escaped, showScores: showScores, showsHtml: showsHtml } };
  ronda.link = { reached: reached, unreachable: unreachable, behind: behind,
                 lost: function () { return link === "lost"; } };

  if (board()) {
    markWaiting();  // taps left by an earlier page (a reload, a closed tab) have waited
    ronda.afterSwap.push(render);
    window.addEventListener("storage", function (event) {
      if (event.key === STORE || event.key === null) { render(); }
    });
    window.addEventListener("offline", unreachable);
    // A reload (or a link away) while the server is away and taps wait: the
    // browser asks first, as the connection box says. Nothing waiting, or
    // the server there: the page goes at once.
    window.addEventListener("beforeunload", function (event) {
      if (link !== "lost" || !ours(load()).length || kept()) { return; }
      event.preventDefault();
      event.returnValue = "";  // the browsers that still ask for it
    });
    window.addEventListener("online", function () { ronda.board.poll(); });
    render();
    if (ours(load()).length) { ronda.board.run(flush); }
    // The board's own count, after the first paint, once the phone is
    // idle: nothing of it on the way to the board.
    var idle = window.requestIdleCallback || function (run) { setTimeout(run, 200); };
    if (document.readyState === "complete") {
      idle(loadCount);
    } else {
      window.addEventListener("load", function () { idle(loadCount); });
    }
  }
}());
