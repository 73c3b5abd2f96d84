// Progressive enhancement of the pages, which all work without it:
// a tap updates the board in place (no reload), with a haptic tick; changes
// made on another phone show up within two seconds. Every action stays a
// form POST: its one-time token makes a retry after a network failure safe.
// Three parts, each its own function scope: the board (here), the outbox
// (taps kept while the server is away) and the screen kept awake, further
// down. They meet only through window.Ronda (the "Hooks" below).
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // A phone's timings, unless the server says otherwise on <html> (a test's).
  var timings = document.documentElement.dataset;
  var POLL_MS = Number(timings.pollMs) || 1500;
  var POLL_TIMEOUT_MS = 5000;  // a dropped Wi-Fi can leave a request hanging for minutes
  var RETRIES = [400, 1200, 3000];
  var busy = 0;
  var viewing = 0;  // board GETs queued or on their way (later, below)
  var queue = Promise.resolve();

  // Hooks: what the outbox and the screen-awake parts are given of the board
  // (ronda.board) and what they tell it (ronda.outbox, ronda.link). The other
  // parts fill theirs in when their script runs.
  var ronda = window.Ronda = window.Ronda || {};
  ronda.afterSwap = ronda.afterSwap || [];  // called once the server's board is in place

  function board() { return document.getElementById("board"); }

  function tick() { if (navigator.vibrate) { navigator.vibrate(12); } }

  // The board's one notice, over its status line (it covers no control and
  // moves nothing): `kind` "error" stays until the board is next drawn,
  // "info" (why a button is off) fades after a few seconds.
  var noticeTimer = null;
  function notify(text, kind) {
    var notice = document.getElementById("notice");
    if (!notice) { return; }
    clearTimeout(noticeTimer);
    notice.textContent = text;
    notice.className = "notice shown " + (kind || "error");
    if (kind === "info") {
      noticeTimer = setTimeout(function () { notice.className = "notice"; }, 4000);
    }
  }
  function showError(text) { notify(text, "error"); }

  // A second tap on the same control within DOUBLE_TAP_MS is the same tap (a
  // double tap, a bounce): it counts once, even when the first one's answer
  // already gave the page a fresh one-time token. The same control is the
  // same element saying the same thing (a Confirm that became "Yes, end the
  // hand now" is another question). Steppers (data-repeat) are meant to be
  // tapped again and again.
  // Taps are timed by their events' own time, not by when a busy page got
  // to them, so two taps far enough apart stay two taps on a slow phone.
  // Undo and Next deal (data-once) are the same control whatever the first
  // one's answer made them say (the Undo then names the event before it);
  // once answered, they take no tap for a moment (style.css, .settling).
  // The one window, online and offline: online the answered button also
  // settles for half a second, so a quick answer made a double tap 0.6 s
  // apart one tap, while a tap kept offline gets no answer and was judged by
  // a shorter window alone (playtest 5). The outbox judges no double tap.
  var DOUBLE_TAP_MS = Number(timings.doubleTapMs) || 600;
  var lastTap = { key: null, at: -Infinity };
  function repeated(control, at) {
    var once = control.hasAttribute("data-once");
    // The announcements (data-repeat) only mark the draft, which shows each
    // one: two partners' Rondas tapped 0.3 s apart are two. The draft's
    // chips (data-tap-group) are one control: a chip tapped away lets the
    // next one slide under the finger, which the second tap must not take.
    var group = control.getAttribute("data-tap-group");
    var key = group ? [group, "", ""] :
      [control, once ? "" : control.getAttribute("aria-label") || control.textContent,
       control.value];
    var last = lastTap.key;
    if (last && last[0] === key[0] && last[1] === key[1] && last[2] === key[2] &&
        at - lastTap.at < DOUBLE_TAP_MS && !control.hasAttribute("data-repeat")) {
      return true;
    }
    lastTap = { key: key, at: at };
    return false;
  }
  document.addEventListener("click", function (event) {
    var control = event.target.closest("#board button, #board a[data-swap]");
    if (control && repeated(control, event.timeStamp)) {
      event.preventDefault();  // no submit, no link followed
      event.stopImmediatePropagation();
    }
  }, true);

  // Two phones on one game (docs/BOARD.md): a tap is of the board the finger
  // saw. When this board followed another phone's taps after the finger came
  // down, the tap is sent with the version before them, and the server judges
  // what it meant there; when it followed them too shortly before the touch
  // to be seen (GLANCE_MS), it says so (followed_from): the same Missa tapped
  // on both phones then counts once.
  var GLANCE_MS = 1000;
  var followed = null;  // { from: the version before, at: when the other phone's taps came }
  var pressedAt = null;
  function press(event) {
    var target = event.target;
    pressedAt = target.closest && target.closest("#board button") ? event.timeStamp : null;
  }
  document.addEventListener("pointerdown", press, true);
  document.addEventListener("touchstart", press, { capture: true, passive: true });
  function cameFrom(from) {
    return function () {
      var now = performance.now(), current = board();
      if (current && current.dataset.version !== from) {
        var earlier = followed && followed.at > now - GLANCE_MS;  // still not seen
        followed = { from: earlier ? followed.from : from, at: now };
      }
    };
  }

  // A control that is off says why when it is tapped, in the notice.
  function sayWhy(control) {
    if (ronda.link && ronda.link.behind(control)) { return; }  // its reason may be stale
    var hint = document.getElementById(control.getAttribute("aria-describedby") || "");
    if (hint) { notify(hint.textContent, "info"); }
  }

  // Make `from` the same as `to`, changing only what differs: a tap changes a
  // few numbers, labels and tokens, and the browser then restyles, lays out
  // and repaints only those; a whole new board took about twice that
  // rendering work on a slowed-down phone (docs/PERFORMANCE.md). Children are
  // matched by position; a node of another kind or id is replaced.
  function morph(from, to) {
    if (from.nodeType !== 1) {
      if (from.nodeValue !== to.nodeValue) { from.nodeValue = to.nodeValue; }
      return;
    }
    var i, name, value;
    for (i = from.attributes.length - 1; i >= 0; i -= 1) {
      name = from.attributes[i].name;
      if (!to.hasAttribute(name)) { from.removeAttribute(name); }
    }
    for (i = 0; i < to.attributes.length; i += 1) {
      name = to.attributes[i].name;
      value = to.attributes[i].value;
      if (from.getAttribute(name) !== value) { from.setAttribute(name, value); }
    }
    if (from.tagName === "INPUT") {  // what was typed or picked is no attribute
      // Not the field being typed in: its answer may be older than its text.
      if (from.value !== to.value && from !== document.activeElement) { from.value = to.value; }
      from.checked = to.checked;
    }
    var old = from.firstChild, fresh = to.firstChild, next, after;
    while (fresh) {
      next = fresh.nextSibling;
      if (!old) {
        from.appendChild(fresh);
      } else if (old.nodeType === fresh.nodeType && old.nodeName === fresh.nodeName &&
                 (old.nodeType !== 1 || old.id === fresh.id)) {
        morph(old, fresh);
        old = old.nextSibling;
      } else {
        after = old.nextSibling;
        from.replaceChild(fresh, old);
        old = after;
      }
      fresh = next;
    }
    while (old) {
      next = old.nextSibling;
      from.removeChild(old);
      old = next;
    }
  }

  // Put the server's board in place of ours, keeping focus on a count field.
  function swap(page, url) {
    var fresh = page.getElementById("board");
    var current = board();
    if (!current) { return; }
    var focused = document.activeElement && document.activeElement.id;
    morph(current, fresh);
    if (url) { place(url); }
    if (focused && focused.indexOf("cards") === 0) {
      var field = document.getElementById(focused);
      if (field) { field.focus(); }
    }
    ronda.afterSwap.forEach(function (hook) { hook(); });
  }

  // A sheet is a place of its own in the history, as it is without
  // JavaScript: the phone's Back closes it, and does not leave the board
  // (playtest 4). Opening one adds an entry; closing it by its own controls
  // (Close, a tap recorded) goes back over that entry, so the history holds
  // the board once, however many sheets were opened. Only an entry this very
  // page added is gone back over: after a reload, the one before it is
  // another page's, and going back to it would load that page again.
  var PAGE = String(Math.random()).slice(2);
  var closing = null;  // where a sheet closed by its controls leaves the board
  function sheetIn(url) { return new URL(url, location.href).searchParams.has("sheet"); }
  function here() { return closing || location.href; }
  function place(url) {
    var href = new URL(url, location.href).href;
    var open = sheetIn(location.href);
    if (closing) {
      closing = href;  // the board moved on before the history went back
    } else if (sheetIn(href) && !open) {
      history.pushState({ sheet: PAGE }, "", href);
    } else if (open && !sheetIn(href) && history.state && history.state.sheet === PAGE) {
      closing = href;
      history.back();
    } else if (href !== location.href) {  // the same again would still cost a slow phone
      history.replaceState(history.state, "", href);
    }
  }
  window.addEventListener("popstate", function () {
    if (closing !== null) {  // the entry a sheet's control went back over
      var href = closing;
      closing = null;
      if (href !== location.href) { history.replaceState(history.state, "", href); }
      return;
    }
    var current = board();
    if (!current) { return; }
    // The phone's Back (or Forward): the board of that address. Its sheet
    // goes at once, also with no server to draw the board.
    var sheet = current.querySelector(".sheet");
    if (sheet && !sheetIn(location.href)) { sheet.remove(); }
    enqueue(location.href, { method: "GET" });
  });

  // A tap that changes the score shows the new score at once, marked as not
  // yet stored, before the server answers: the server computed it with the
  // engine when it drew the board (data-scores on the button). The server's
  // board then takes its place; a refusal or no answer puts the old score back.
  // Only when no other tap is on its way: that one could change the outcome.
  function showPredicted(button) {
    var scores = document.querySelector("#board .scores");
    if (!button || !button.dataset.scores || busy || !scores) { return null; }
    var shown = [];
    var needs = scores.querySelectorAll(".needs");
    var lines = (button.dataset.needs || "").split("|");
    button.dataset.scores.split(" ").forEach(function (value, side) {
      var points = document.getElementById("score-" + side);
      if (points) {
        shown.push([points, points.textContent]);
        points.textContent = value;
      }
      if (needs[side] && lines[side] !== undefined) {  // the line under it agrees with it
        shown.push([needs[side], needs[side].textContent]);
        needs[side].textContent = lines[side];
      }
    });
    scores.classList.add("pending");
    scores.setAttribute("aria-busy", "true");
    return function putBack() {
      shown.forEach(function (entry) { entry[0].textContent = entry[1]; });
      scores.classList.remove("pending");
      scores.removeAttribute("aria-busy");
    };
  }

  function wait(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

  // fetch, given up after `ms` (where the browser can abort a request).
  function fetchWithin(url, options, ms) {
    if (!window.AbortController) { return fetch(url, options); }
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, ms);
    options.signal = controller.signal;
    return fetch(url, options).finally(function () { clearTimeout(timer); });
  }

  function request(url, options, attempt, putBack) {
    options.headers = { "X-Board": "1" };
    options.credentials = "same-origin";
    return fetch(url, options).then(function (response) {
      if (ronda.link) { ronda.link.reached(); }
      return response.text().then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        if (!page.getElementById("board")) {
          // An error page (the store unreachable...): say it, keep the board.
          // Its sentence, else the board's own (in the page's language).
          if (putBack) { putBack(); }
          var alert = page.querySelector("[role=alert]");
          var current = board();
          showError(alert ? alert.textContent : (current ? current.dataset.failed : ""));
          return;
        }
        swap(page, response.headers.get("X-Board-URL") || (options.method === "GET" ? url : null));
      });
    }, function () {
      // No answer: send the very same form again; its token makes it count once.
      var lost = ronda.link && ronda.link.lost();
      if (attempt < RETRIES.length && !lost) {
        return wait(RETRIES[attempt]).then(function () {
          return request(url, options, attempt + 1, putBack);
        });
      }
      if (putBack) { putBack(); }
      // A view (a draft announcement, a sheet) is the server's to draw: it
      // cannot wait in the outbox as a tap does, so the scorer is told.
      if (ronda.link) { ronda.link.unreachable(options.offline); }
    });
  }

  // Once the next frame is painted, and the first task after it has run:
  // that one is the browser's and whatever waits for the frame (the new
  // score shown, an observer of it); a request started there, with the
  // outbox's bookkeeping, made the frame's first task 5 to 15 ms longer on
  // a slowed phone (docs/PERFORMANCE.md).
  function nextPaint() {
    return new Promise(function (resolve) {
      requestAnimationFrame(function () { setTimeout(function () { setTimeout(resolve, 0); }, 0); });
    });
  }

  // Taps run one after the other, in the order they were made. A tap whose
  // new score is already shown is sent once that score is painted: starting
  // a request costs a slow phone a few milliseconds that would delay it.
  function run(task) {
    busy += 1;
    // A task that fails must not stop the ones after it.
    queue = queue.then(task).catch(function () {}).finally(function () { busy -= 1; });
    return queue;
  }

  function enqueue(url, options, putBack) {
    var ready = putBack ? nextPaint() : null;
    var view = options.method === "GET";
    if (view) { viewing += 1; }
    return run(function () {
      var sent = ready ? ready.then(function () { return request(url, options, 0, putBack); })
                       : request(url, options, 0, putBack);
      return view ? sent.finally(function () { viewing -= 1; }) : sent;
    });
  }

  // A tap made while a new board is on its way (a draft, a sheet) is meant
  // for the board the scorer is about to see: B's Ronda then at once Confirm
  // confirms A's and B's Rondas, not A's alone; A's Ronda then at once B's
  // drafts both. Such a tap waits for that board, then is made on the same
  // control there (found by what it does), or on none if it is gone.
  function keyOf(control) {
    if (control.tagName === "BUTTON") {
      return [control.form && control.form.action, control.name, control.value].join(" ");
    }
    return control.getAttribute("aria-label") || control.textContent.trim();
  }
  // A link made later is itself a view on its way: a third tap waits for it
  // too (two quick Rondas, then a third that says the side holds two), and
  // its board is asked in its own turn, before the taps made after it.
  function later(control, make) {
    var key = keyOf(control);
    var link = control.tagName !== "BUTTON";
    var selector = link ? "a[data-swap]" : "button";
    control.classList.add("pressed");
    if (link) { viewing += 1; }
    run(function () {
      var current = board();
      var again = current && Array.prototype.filter.call(current.querySelectorAll(selector),
        function (other) { return keyOf(other) === key; })[0];
      control.classList.remove("pressed");
      var made = again ? make(again, true) : null;
      return link ? Promise.resolve(made).finally(function () { viewing -= 1; }) : made;
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest("#board") || form.hasAttribute("data-navigate")) { return; }
    event.preventDefault();
    var submitter = event.submitter;
    if (viewing && submitter && form.hasAttribute("data-follows-view")) {
      later(submitter, function (again) { again.form.requestSubmit(again); });
      return;
    }
    if (form.hasAttribute("data-live-form")) { clearTimeout(typing); }  // sent as typed
    if (submitter && submitter.getAttribute("aria-disabled") === "true") {
      sayWhy(submitter);
      return;
    }
    if (form.method.toLowerCase() === "get") {
      enqueue(form.action + "?" + new URLSearchParams(new FormData(form)), { method: "GET" });
      return;
    }
    // URL-encoded rather than multipart: smaller, and quicker for the server to read.
    var data = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    if (submitter) { submitter.classList.add("pressed"); }
    tick();
    var at = pressedAt !== null ? pressedAt : event.timeStamp, seen = null;
    if (followed && followed.at > at) {
      seen = followed.from;
    } else if (followed && followed.at > at - GLANCE_MS) {
      data.set("followed_from", followed.from);
    }
    pressedAt = followed = null;  // from now on the board shows this phone's own taps
    // A tap on the game goes through the outbox, which keeps it until answered.
    if (ronda.outbox && ronda.outbox.take(form, data, submitter, seen)) { return; }
    var putBack = showPredicted(submitter);
    enqueue(form.action, { method: "POST", body: data }, putBack);
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-swap]");
    if (!link || event.defaultPrevented || event.metaKey || event.ctrlKey) { return; }
    event.preventDefault();
    if (viewing) { later(link, follow); } else { follow(link); }
  });
  // `inline`: made in a turn of the queue already (later), not queued again.
  function follow(link, inline) {
    if (link.getAttribute("aria-disabled") === "true") {
      sayWhy(link);
      return null;
    }
    link.classList.add("pressed");
    tick();
    // What to say if the server does not answer: the outbox's words for it.
    var offline = link.closest(".announce, .marks") ? "announce-offline" : "view-offline";
    var options = { method: "GET", offline: offline };
    return inline ? request(link.href, options, 0) : enqueue(link.href, options);
  }

  // The end-of-hand count: the sheet follows what is typed. Its Confirm
  // posts the fields themselves, so the count typed is the count recorded;
  // until the sheet has caught up, it predicts no score (its prediction is
  // of the count before) and lets the server judge the count.
  var typing = null;
  document.addEventListener("input", function (event) {
    var form = event.target.closest("form[data-live-form]");
    if (!form) { return; }
    form.querySelectorAll("button[value=end_hand]").forEach(function (confirm) {
      delete confirm.dataset.scores;
      delete confirm.dataset.what;  // of the count before, too
      confirm.removeAttribute("aria-disabled");
    });
    clearTimeout(typing);
    typing = setTimeout(function () {
      var query = new URLSearchParams({ sheet: "end" });
      form.querySelectorAll("input[name^=cards]").forEach(function (field) {
        query.append(field.name, field.value);
      });
      if (form.querySelector("input[name=early]")) { query.append("ask", "early"); }
      enqueue(form.dataset.liveForm + "?" + query, { method: "GET" });
    }, 300);
  });

  // Several phones on one game: follow the game's version. The same request
  // tells whether the server can be reached at all.
  var polling = false;
  function poll() {
    var current = board();
    if (!current || busy || polling || document.visibilityState !== "visible") { return; }
    polling = true;
    fetchWithin("/api/games/" + current.dataset.game, { credentials: "same-origin" },
                POLL_TIMEOUT_MS)
      .then(function (response) {
        if (ronda.link) { ronda.link.reached(); }
        return response.ok ? response.json() : null;
      }, function () {
        if (ronda.link) { ronda.link.unreachable(); }
        return null;
      })
      .then(function (game) {
        var now = board();
        // The rematch started on another phone: follow it there (not when
        // this page was opened on a game whose rematch was already known).
        if (game && now && game.rematch && !now.dataset.rematch) {
          window.location.assign("/games/" + game.rematch);
          return;
        }
        if (game && now && !busy && String(game.version) !== now.dataset.version) {
          enqueue(here(), { method: "GET" }).then(cameFrom(now.dataset.version));
        }
      })
      .catch(function () {})
      .finally(function () { polling = false; });
  }

  // The new-game form: the third name only with three players.
  function followPlayers() {
    var form = document.querySelector(".new-game");
    if (!form) { return; }
    // Come back to (the phone's Back from a game started here), the form
    // opens at its top, where it says that game is in progress, not where
    // it was left, at Start (playtest 4).
    if ("scrollRestoration" in history) { history.scrollRestoration = "manual"; }
    var update = function () {
      var checked = form.querySelector("input[name=players]:checked");
      form.classList.toggle("three", !!checked && checked.value === "3");
      form.classList.toggle("four", !!checked && checked.value === "4");
    };
    form.addEventListener("change", update);
    form.addEventListener("input", update);
    update();
  }

  // A choice that reloads its form (the new game's preset): no extra tap.
  document.addEventListener("change", function (event) {
    var target = event.target.closest("select[data-autosubmit]");
    var button = target && document.getElementById(target.dataset.autosubmit);
    if (button) { button.click(); }
  });

  ronda.board = {
    element: board, swap: swap, run: run, nextPaint: nextPaint, tick: tick,
    fetchWithin: fetchWithin, poll: poll, busy: function () { return busy > 0; }, showError: showError,
    refresh: function () { return enqueue(here(), { method: "GET" }); }
  };

  if (board()) {
    setInterval(poll, POLL_MS);
  }
  followPlayers();
}());

// ---------------------------------------------------------------------------
// The outbox (issue 12; docs/RELIABILITY.md): each tap on the game is kept in
// localStorage, its form whole (its token is its Idempotency-Key), from before
// it is sent until the server answers it; taps that find the server away wait
// there, in order, and are sent again one by one with the game version they
// were made on. A refusal stops them until the scorer decides.
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
  var SAID_MS = 5000;
  var said = null;  // for a moment, instead of "No connection": what that tap needed
  var saidTimer = null;
  var sending = false;
  var sheet = null;

  function board() { return ronda.board.element(); }

  // As the server's (12 random bytes); getRandomValues needs no secure context.
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

  // Every form posted from the board: the game's taps are kept here (true).
  // `seen`: the version of the board the finger saw, when not this one.
  function take(form, data, submitter, seen) {
    var current = board();
    var url = new URL(form.action, window.location.href);
    var match = TAP_PATH.exec(url.pathname);
    if (!current || form.method.toLowerCase() !== "post" || url.origin !== window.location.origin ||
        !match || match[1] !== current.dataset.game) {
      return false;
    }
    hush();  // a new tap: the box says the state from now on, not what an earlier one needed
    var entries = load();
    var queued = ours(entries);
    var label = describe(submitter);
    if (match[2] === "undo") {
      if (takeBack(entries, queued)) { return true; }
      label = text("undo").replace("{what}", undoTarget(current, queued) || "");
    }
    var entry = {
      id: newToken(), game: current.dataset.game, url: url.pathname,
      fields: Array.from(data.entries()), label: label,
      // The game as the scorer sees it: this board, and the taps before it.
      version: Number(seen !== null && seen !== undefined ? seen : current.dataset.version) +
        queued.length, ahead: queued.length,
      waited: link === "lost" || queued.some(function (other) { return other.waited; }),
      scores: null
    };
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
    var predicted = !queued.length && !ronda.board.busy() && submitter && submitter.dataset.scores;
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
  // undo; undefined: an older event than this page knows.
  function undoTarget(current, queued) {
    var button = current.querySelector(".undo-button");
    var stack = [];
    try {
      stack = JSON.parse((button && button.getAttribute("data-steps")) || "[]").reverse();
    } catch (error) { /* none known */ }
    var beyond = !!button && button.hasAttribute("data-older");
    queued.filter(records).forEach(function (entry) {
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
    // Every tap is of the game the scorer saw: another phone's tap since
    // makes it a 409, not a second Missa. A live tap behind others of this
    // phone is of the board their answers left (some of them, the end sheet's
    // steppers, change no version).
    var seen = entry.waited || !entry.ahead || TAP_PATH.exec(entry.url)[2] === "undo" ?
      entry.version : Number(board().dataset.version);
    body.set("expected_version", String(seen));
    return ronda.board.fetchWithin(entry.url, {
      method: "POST", body: body, headers: { "X-Board": "1" }, credentials: "same-origin"
    }, TAP_TIMEOUT_MS).then(function (response) {
      return response.text().then(function (html) { return answered(entry, response, html); });
    }).catch(function () {
      unreachable();  // no answer, or half of one: kept, to be sent again with its key
      return false;
    });
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
      ronda.board.swap(page, response.headers.get("X-Board-URL"));
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
      if (fresh) { ronda.board.swap(page, null); } else { ronda.board.showError(why); }
      return false;
    }
    change(function (entries) {
      var refused = entries.filter(function (other) { return other.id === entry.id; })[0];
      if (refused) { refused.refused = why; }
    });
    if (fresh) {
      if (alert) { alert.remove(); }  // the refusal sheet says it, not a line above the buttons
      ronda.board.swap(page, null);
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
    if (!ours(load()).length) { return false; }
    var needed = "waiting-first";
    if (link === "lost") { needed = control.closest(".announce, .marks") ? "announce-offline" : "view-offline"; }
    say(needed);
    return true;
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
    set(root, "data-link", link);
    set(root, "data-outbox", waiting ? String(waiting) : null);
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

  // The waiting taps in words, newest first, as the log will name them, in
  // the announcements' quiet strip (a line of fixed size, no control in it):
  // a waiting Next deal or a second Missa shows (playtest 5). Only words:
  // what they will score is the server's to say once they are sent.
  function listWaiting(current, queued) {
    var quiet = current.querySelector(".quiet-strip span");
    if (!quiet) { return; }
    var labels = queued.map(function (entry) { return entry.label; }).reverse();
    shows(quiet, text("waiting-list").replace("{list}", labels.join(text("list-sep"))));
  }

  // In a box of fixed size over the status line, under its deal line: it
  // hides neither (playtest 5) and moves nothing.
  // Whether a service worker keeps this board, to reopen it without the server.
  function kept() {
    return Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
  }

  var noticeShown = null;  // what the box says now: written again only when it changes
  function showNotice(waiting, refused) {
    var notice = document.getElementById("link-state");
    if (!notice) { return; }
    var state = { lost: copy ? "copy" : "lost", busy: "busy", back: "back" }[link] ||
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
    // (the waiting taps are still listed on the board and on its Undo).
    var words = notice.querySelector(".link-what");
    if (what && count && words.scrollHeight > words.clientHeight + 1) { notice.classList.add("full"); }
  }

  // While taps wait, a button off before them may apply after them: the
  // server decides when they are sent.
  function loosen(current) {
    current.querySelectorAll("form button[disabled], form button[aria-disabled]")
      .forEach(function (button) {
        var action = button.form && new URL(button.form.action, window.location.href).pathname;
        if (action && TAP_PATH.test(action)) {
          button.disabled = false;
          button.removeAttribute("aria-disabled");  // the board's off buttons (docs/BOARD.md)
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
    var needs = scores.querySelectorAll(".needs");
    var lines = (entry.needs || "").split("|");
    entry.scores.split(" ").forEach(function (points, side) {
      var shown = document.getElementById("score-" + side);
      if (shown) { shows(shown, points); }
      if (needs[side] && entry.needs) { shows(needs[side], lines[side]); }
    });
    if (!scores.classList.contains("pending")) { scores.classList.add("pending"); }
    set(scores, "aria-busy", "true");
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
    if (first) { sheet.querySelector("h2").focus(); }
  }

  // Drop the refused tap; the others go on, on the game as it now is.
  function dropFirst() {
    var left = 0;
    change(function (entries) {
      var queued = ours(entries);
      if (!queued.length) { return; }
      without(entries, queued[0].id);
      var version = Number(board().dataset.version);
      ours(entries).forEach(function (entry, index) {
        entry.version = version + index;
        entry.waited = true;
      });
      left = queued.length - 1;
    });
    if (left) { ronda.board.run(flush); } else { ronda.board.refresh(); }
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

  ronda.outbox = { take: take };
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
  }

  // On a secure origin, the service worker that reopens the board while
  // the server is away (static/sw.js); plain http has none.
  if (window.isSecureContext && "serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js").catch(function () {});
    });
  }
}());

// ---------------------------------------------------------------------------
// The screen kept awake while a game is open (issue 12): the Wake Lock API in
// a secure context; elsewhere (NoSleep's way) a looping muted video started
// by the first tap, over the whole page but unseen: Chromium keeps the screen
// on for a muted video only if it fills a fifth of the view. Root element:
// data-awake="wakelock" | "video" | "off".
(function () {
  "use strict";
  var ronda = window.Ronda || {};
  var root = document.documentElement;
  var lock = null;
  var asking = false;
  var lockRefused = false;
  var tapped = false;
  var video = null;

  function show(mode) {
    if (root.getAttribute("data-awake") !== mode) { root.setAttribute("data-awake", mode); }
  }

  function wanted() {
    var board = document.getElementById("board");
    return !!board && board.dataset.live === "1" && document.visibilityState === "visible";
  }

  function update() {
    if (!wanted()) { stop(); return; }
    if ("wakeLock" in navigator && !lockRefused) {
      if (!lock && !asking) { askLock(); }
    } else if (tapped) {
      play();
    }
  }

  function askLock() {
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      lock = sentinel;
      sentinel.addEventListener("release", function () {
        if (lock === sentinel) { lock = null; show("off"); }
      });
      if (wanted()) { show("wakelock"); } else { stop(); }
    }, function () {
      asking = false;
      lockRefused = true;  // a power saver, a policy: the video, then
      update();
    });
  }

  function play() {
    if (!video) {
      var template = document.getElementById("awake-video");
      if (!template) { return; }
      video = template.content.firstElementChild.cloneNode(true);
      video.muted = true;
      document.body.appendChild(video);
    }
    var started = video.play();
    if (started && started.then) {
      started.then(function () {
        if (wanted()) { show("video"); } else { stop(); }
      }, function () { show("off"); });  // refused: tried again at the next tap
    } else {
      show("video");
    }
  }

  function stop() {
    if (lock) {
      var held = lock;
      lock = null;
      if (held.release) { Promise.resolve(held.release()).catch(function () {}); }
    }
    if (video && !video.paused) { video.pause(); }
    show("off");
  }

  function firstTap() {
    // Every tap comes here: once the screen is kept awake, it costs nothing.
    if (tapped && root.getAttribute("data-awake") !== "off") { return; }
    tapped = true;
    update();
  }

  show("off");
  if (document.getElementById("board")) {
    ["click", "touchend", "keydown"].forEach(function (type) {
      document.addEventListener(type, firstTap, true);
    });
    document.addEventListener("visibilitychange", update);
    (ronda.afterSwap || []).push(update);
    update();
  }
}());
