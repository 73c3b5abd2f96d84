// Progressive enhancement of the pages, which all work without it:
// a tap updates the board in place (no reload), with a haptic tick; changes
// made on another phone show up within two seconds. Every action stays a
// form POST: its one-time token makes a retry after a network failure safe.
// The board's script is four files, one per thing it does, served as one
// (scorekeeper/web/plumbing/assets.py, BUNDLES) in this order: the board (here), the
// outbox of taps waiting for the server (outbox.js), the screen kept awake
// (awake.js) and the service worker's registration (worker.js). Each is its
// own function scope; they meet only through window.Ronda (the "Hooks" below).
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
  // Changes typed or picked in the page's fields, counted. A field keeps
  // what was typed in it after the request of the answer being put in place:
  // on a slow network the count's first field was emptied by the answer to
  // the sheet's opening, which arrived once both fields were typed. A request
  // that sends no field (following the other phone, a link) knows none of
  // them (asked 0): a correction's side picked went back to the first side
  // as the board followed, and the points went to the wrong side.
  var edits = 0;
  var answered = Infinity;  // the edits made when the answer in place was asked

  // Hooks: what the outbox and the screen-awake parts are given of the board
  // (ronda.board) and what they tell it (ronda.outbox, ronda.link). The other
  // parts fill theirs in when their script runs.
  var ronda = window.Ronda = window.Ronda || {};
  ronda.afterSwap = ronda.afterSwap || [];  // called once the server's board is in place

  function board() { return document.getElementById("board"); }

  function tick() { if (navigator.vibrate) { navigator.vibrate(12); } }

  // The board's one notice, over its status line (it covers no control and
  // moves nothing): `kind` "error" stays until the board is next drawn,
  // "info" (why a button is off) fades after a few seconds (3 s more than
  // the "connected again" box, which lies over it for 3 s after a wait).
  var noticeTimer = null;
  function notify(text, kind) {
    var notice = document.getElementById("notice");
    if (!notice) { return; }
    notice.textContent = text;
    notice.className = "notice shown " + kind;
    fadeSaid();
  }
  // So does a board drawn saying something of its tap that is no refusal
  // (counted once, in the deal it was tapped in, after the other phone's
  // taps): read, it goes, and the hand's and the dealer's lines under it show.
  function fadeSaid() {
    clearTimeout(noticeTimer);
    var notice = document.getElementById("notice");
    if (notice && notice.className === "notice shown info") {
      noticeTimer = setTimeout(function () { notice.className = "notice"; }, 6000);
    }
  }
  function showError(text) { notify(text, "error"); }
  // A new tap: what was said of an earlier one (refused, or counted once)
  // is no longer the news (made offline, no board is drawn that would take it away).
  function clearNotice() {
    var notice = document.getElementById("notice");
    if (notice && notice.className !== "notice") { notice.className = "notice"; }
    fadeSaid();
  }

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
  // a shorter window alone, and counted twice at the table. The outbox judges
  // no double tap.
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

  // Two phones on one game (docs/BOARD.md): a tap is sent with the version
  // of the board the finger saw: not one this board followed from another
  // phone after the finger came down, but the version before it. The server
  // merges the records new to this phone by one rule: the same Missa tapped
  // on both phones is then counted once.
  var followed = null;  // { from: the version before, at: when the other phone's taps came }
  var pressedAt = null;
  function press(event) {
    var target = event.target;
    pressedAt = target.closest && target.closest("#board button") ? event.timeStamp : null;
  }
  document.addEventListener("pointerdown", press, true);
  document.addEventListener("touchstart", press, { capture: true, passive: true });

  // A finger's tap on a board button is made when the finger lifts, where
  // it lifts: the browser's own click comes later, once it has drawn the
  // pressed look and run the mouse's events, a good part of the time from
  // the finger down to the new score on a slow phone (docs/PERFORMANCE.md,
  // "From the finger down to the score"). Only a plain tap: one finger, lifted within
  // TAP_HOLD_MS on the button it came down on, without sliding (a scroll).
  // Anything else is the browser's, as are a button whose form has a field
  // (its tap must close the phone's keyboard) and the keyboard's taps.
  var TAP_SLOP_PX = 10;
  var TAP_HOLD_MS = 500;  // Android's long press
  var touched = null;  // { button, x, y, at } of the finger down
  function liftTappable(button) {
    var form = button && button.form;
    return !!form && button.type === "submit" && !button.disabled && !!form.closest("#board") &&
      form.method.toLowerCase() === "post" && !form.hasAttribute("data-navigate") &&
      !form.querySelector("input:not([type=hidden])");
  }
  function slid(touch, from) {
    return Math.abs(touch.clientX - from.x) > TAP_SLOP_PX ||
      Math.abs(touch.clientY - from.y) > TAP_SLOP_PX;
  }
  document.addEventListener("touchstart", function (event) {
    var button = event.target.closest && event.target.closest("#board button");
    var touch = event.touches[0];
    touched = event.touches.length === 1 && liftTappable(button) ?
      { button: button, x: touch.clientX, y: touch.clientY, at: event.timeStamp } : null;
  }, { capture: true, passive: true });
  document.addEventListener("touchmove", function (event) {
    if (touched && (event.touches.length !== 1 || slid(event.touches[0], touched))) { touched = null; }
  }, { capture: true, passive: true });
  document.addEventListener("touchcancel", function () { touched = null; }, true);
  document.addEventListener("touchend", function (event) {
    var from = touched, touch = event.changedTouches[0];
    touched = null;
    if (!from || !touch || !event.cancelable || event.touches.length ||
        event.timeStamp - from.at > TAP_HOLD_MS || slid(touch, from)) {
      return;
    }
    // Still the button under the finger: not moved away by a board drawn
    // since, nor covered, nor settling (it then takes no tap).
    var under = document.elementFromPoint(touch.clientX, touch.clientY);
    var button = from.button;
    if (!under || under.closest("#board button") !== button || !liftTappable(button)) { return; }
    event.preventDefault();  // no click after it: the click would be this tap again
    if (repeated(button, event.timeStamp)) { return; }
    made();  // a tap painted first and not yet made is made before this one
    var at = event.timeStamp;
    if (paintsFirst(button, at)) {
      var down = pressedAt;  // this finger's, whatever touches come before the paint
      toMake = function () {
        pressedAt = down;
        submitted(button.form, button, at);
      };
      nextPaint().then(made);
    } else {
      submitted(button.form, button, at);
    }
  }, true);

  // A tap whose new score the board can show at once has it painted first,
  // and is made (read, kept, sent) just after that paint: the rest of its
  // work took a slowed-down phone several milliseconds before the paint the
  // table waits for (docs/PERFORMANCE.md, "From the finger down to the
  // score"). Only a plain tap: on a button that is on, not waiting
  // for a view, on a board that did not follow another phone since the
  // finger came down. A page hidden or left before its next frame (the
  // screen locked, a link followed) makes it at once: a hidden page draws
  // no frame, and one left would lose it.
  var toMake = null;
  function made() {
    var tap = toMake;
    toMake = null;
    if (tap) { tap(); }
  }
  document.addEventListener("visibilitychange", made);
  window.addEventListener("pagehide", made);
  function paintsFirst(button, at) {
    var plain = button.getAttribute("aria-disabled") !== "true" &&
      !(viewing && button.form.hasAttribute("data-follows-view")) &&
      !(followed && followed.at > (pressedAt !== null ? pressedAt : at));
    return plain && !!ronda.outbox && !!ronda.outbox.paintFirst &&
      ronda.outbox.paintFirst(button.form, button);
  }

  // A finger's tap on the board leaves the focus where it was: moving it to
  // the button restyled that button and the one it left inside the tap,
  // before its click ran (docs/PERFORMANCE.md, "From the finger down to the
  // score"). The keyboard still focuses every button. Not in a form with a
  // field to type in: its buttons close the keyboard.
  document.addEventListener("mousedown", function (event) {
    var button = event.target.closest && event.target.closest("#board button");
    if (button && !(button.form && button.form.querySelector("input:not([type=hidden])"))) {
      event.preventDefault();
    }
  }, true);
  function cameFrom(from) {
    return function () {
      var now = performance.now(), current = board();
      if (current && current.dataset.version !== from) {
        // Followed twice since the finger came down: it saw the first's before.
        var since = followed && pressedAt !== null && followed.at > pressedAt;
        followed = { from: since ? followed.from : from, at: now };
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
  function comesLater(node, id) {
    for (; node; node = node.nextSibling) {
      if (node.nodeType === 1 && node.id === id) { return true; }
    }
    return false;
  }
  function morph(from, to) {
    if (from.nodeType !== 1) {
      if (from.nodeValue !== to.nodeValue) { from.nodeValue = to.nodeValue; }
      return;
    }
    var i, name, value;
    // Another field in this place: what was typed in the one before is not its.
    if (from.tagName === "INPUT" && from.getAttribute("name") !== to.getAttribute("name")) {
      from.typed = 0;
    }
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
      // Not the field being typed in, nor one typed in or picked since the
      // answer was asked: the answer does not know what is in them.
      var changed = (from.typed || 0) > answered;
      if (from.value !== to.value && from !== document.activeElement && !changed) {
        from.value = to.value;
      }
      if (!changed) { from.checked = to.checked; }
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
      } else if (old.nodeType === 1 && old.id && comesLater(next, old.id)) {
        // A new element before one that stays (the last card's form above
        // the count, once the other phone reached the last deal; the first
        // of the last events, above an open sheet): put in before it, not in
        // its place, so the field being typed in stays the same element and
        // keeps what was typed.
        from.insertBefore(fresh, old);
      } else if (fresh.nodeType === 1 && fresh.id && comesLater(old.nextSibling, fresh.id)) {
        // Gone from before one that stays (the last events, all undone):
        // taken out, and the one that stays changed in place.
        while (old.id !== fresh.id) {
          after = old.nextSibling;
          from.removeChild(old);
          old = after;
        }
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
  // An answer asked before the last change typed (`asked`, the edits then)
  // keeps the typed fields, and its Confirm predicts nothing: its prediction
  // is of the count before.
  var drawn = 0;  // boards put in place so far: a look at the game older than the last is stale
  function swap(page, url, asked) {
    var fresh = page.getElementById("board");
    var current = board();
    if (!current) { return; }
    drawn += 1;
    var focused = document.activeElement && document.activeElement.id;
    answered = asked === undefined ? Infinity : asked;
    try { morph(current, fresh); } finally { answered = Infinity; }
    current.querySelectorAll("form[data-live-form]").forEach(function (form) {
      var typedSince = Array.prototype.some.call(form.querySelectorAll("input"), function (field) {
        return (field.typed || 0) > asked;
      });
      if (typedSince) { predictsNothing(form); }
    });
    if (url) { place(url); }
    if (focused && focused.indexOf("cards") === 0) {
      var field = document.getElementById(focused);
      if (field) { field.focus(); }
    }
    fadeSaid();
    ronda.afterSwap.forEach(function (hook) { hook(); });
  }

  // A sheet is a place of its own in the history, as it is without
  // JavaScript: the phone's Back closes it, and does not leave the board
  // (scorers at the table reached for Back to close one). Opening one adds
  // an entry; closing it by its own controls (Close, a tap recorded) goes
  // back over that entry, so the history holds
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
  // A whole page opens no count's sheet of a hand now over (the server
  // closes it, saying so), but its address still says that sheet: the
  // board's next follow, asked at that address, opened the sheet by itself,
  // filled with the other hand's count. The address loses it too.
  (function () {
    var shown = board();
    if (!shown || !sheetIn(location.href) || shown.querySelector(".sheet")) { return; }
    var url = new URL(location.href);
    var kept = new URLSearchParams();
    url.searchParams.forEach(function (value, key) {
      var counted = key === "hand" || key === "ask" || key.indexOf("cards") === 0 ||
        (key === "sheet" && value === "end");
      if (!counted) { kept.append(key, value); }
    });
    url.search = kept.toString();
    history.replaceState(history.state, "", url.href);
  }());

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
    enqueue(location.href, { method: "GET", asked: 0 });
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
    // A board drawn to follow another phone's records: its result takes no
    // win back in one tap, as that win was not this phone's tap.
    if (options.follows) { options.headers["X-Board-Follows"] = "1"; }
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
        swap(page, response.headers.get("X-Board-URL") || (options.method === "GET" ? url : null),
             options.asked);
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
      if (options.offline === "count-offline") { countOffline(); }
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
    if (options.asked === undefined) { options.asked = edits; }  // its fields were read now
    var ready = putBack ? nextPaint() : null;
    var view = options.method === "GET";
    if (view) { viewing += 1; }
    return run(function () {
      // No address: the board's as it is when its turn comes (a follow
      // queued behind a tap goes where that tap's answer left the page).
      var target = url || here();
      var sent = ready ? ready.then(function () { return request(target, options, 0, putBack); })
                       : request(target, options, 0, putBack);
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

  // A control off on the board before the taps on their way, which may make
  // it possible (a Khamsa tapped as the Bount before it is sent, a Ronda
  // marked as Next deal is sent, on a slow network): its tap is made on the
  // board they leave, or says why there. It was dropped, saying to tap again
  // once they were sent; a scorer who missed that line lost the Khamsa.
  // Offline, the board they leave is not near: the tap says what it waits for.
  function offBefore(control) {
    return busy > 0 && !control.hasAttribute("data-offline") && !(ronda.link && ronda.link.lost());
  }
  // A move off on this board may be on in the game as it now is, once the
  // board follows the other phone: their Bount, then our Khamsa at once,
  // one on each phone (the Khamsa said it only follows an open 1, and was
  // lost). Online, the board follows the game first; the tap is then made
  // there (the server judges it as of this board), or says why there.
  function followsFirst(control) {
    return control.name === "move" && !control.hasAttribute("data-offline") &&
      !(ronda.link && ronda.link.lost());
  }
  // Offline, the board cannot follow: a hit or an Over off here may follow
  // the other phone's Bount it has not seen. It waits for the server, which
  // judges it, instead of being dropped with this board's reason (a line
  // hidden under the offline box; nothing said later that a tap was lost).
  function waitsOffline(control) {
    return control.name === "move" && /^(hit\.|chain_end)/.test(control.value) &&
      !!ronda.outbox && !!ronda.link && ronda.link.lost();
  }
  function catchUp() {
    var current = board();
    enqueue(null, { method: "GET", follows: true, asked: 0 })
      .then(cameFrom(current.dataset.version));
  }
  // A tap made again on the board that its wait brought: judged there, not
  // put off once more.
  var remade = null;
  function remake(again) {
    remade = again;
    try { again.form.requestSubmit(again); } finally { remade = null; }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest("#board") || form.hasAttribute("data-navigate")) { return; }
    event.preventDefault();
    submitted(form, event.submitter, event.timeStamp);
  });
  // A board form sent: by its submit event, or by a finger's tap at the
  // lift, which dispatches none (nothing listens for it but this).
  function submitted(form, submitter, at) {
    made();  // the tap painted first comes before any other
    if (viewing && submitter && form.hasAttribute("data-follows-view")) {
      later(submitter, function (again) { again.form.requestSubmit(again); });
      return;
    }
    if (form.hasAttribute("data-live-form")) { clearTimeout(typing); }  // sent as typed
    if (submitter && submitter.getAttribute("aria-disabled") === "true") {
      if (submitter !== remade && offBefore(submitter)) {
        later(submitter, remake);
        return;
      }
      if (submitter !== remade && followsFirst(submitter)) {
        catchUp();
        later(submitter, remake);
        return;
      }
      // Still off on the board followed: it says why at once (a Khamsa
      // whose Bount the other phone has not sent yet is tapped again once
      // that Bount shows).
      if (!waitsOffline(submitter)) {
        sayWhy(submitter);
        return;
      }
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
    var seen = null;
    at = pressedAt !== null ? pressedAt : at;
    if (followed && followed.at > at) { seen = followed.from; }
    pressedAt = followed = null;  // from now on the board shows this phone's own taps
    // A tap on the game goes through the outbox, which keeps it until answered.
    if (ronda.outbox && ronda.outbox.take(form, data, submitter, seen)) { return; }
    var putBack = showPredicted(submitter);
    enqueue(form.action, { method: "POST", body: data }, putBack);
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-swap]");
    if (!link || event.defaultPrevented || event.metaKey || event.ctrlKey) { return; }
    event.preventDefault();
    if (viewing) { later(link, follow); } else { follow(link); }
  });
  // `inline`: made in a turn of the queue already (later), not queued again.
  function follow(link, inline) {
    made();  // a tap painted first goes before the view
    if (link.getAttribute("aria-disabled") === "true") {
      if (!inline && offBefore(link)) {
        later(link, follow);
        return null;
      }
      sayWhy(link);
      return null;
    }
    link.classList.add("pressed");
    tick();
    // What to say if the server does not answer: the outbox's words for it.
    var offline = link.closest(".announce, .marks") ? "announce-offline" : "view-offline";
    var options = { method: "GET", offline: offline, asked: 0 };
    return inline ? request(link.href, options, 0) : enqueue(link.href, options);
  }

  // The end-of-hand count: the sheet follows what is typed. Its Confirm
  // posts the fields themselves, so the count typed is the count recorded;
  // until the sheet has caught up, it predicts no score (its prediction is
  // of the count before) and lets the server judge the count.
  var typing = null;
  function predictsNothing(form) {
    form.querySelectorAll("button[value=end_hand]").forEach(function (confirm) {
      delete confirm.dataset.scores;
      delete confirm.dataset.what;  // of the count before, too
      confirm.removeAttribute("aria-disabled");
    });
  }
  document.addEventListener("input", function (event) {
    var field = event.target, stamp = edits += 1;
    // A radio picked unpicks the others of its group: the group is changed.
    var group = field.type === "radio" && field.form && field.form.elements.namedItem(field.name);
    (group && group.length ? Array.prototype.slice.call(group) : [field]).forEach(function (one) {
      one.typed = stamp;
    });
    var form = event.target.closest("form[data-live-form]");
    if (!form) { return; }
    predictsNothing(form);
    clearTimeout(typing);
    typing = setTimeout(function () {
      // The sheet's form as it is then: a board swapped in meanwhile may have
      // made that element another one (its address was "undefined").
      followCount(document.body.contains(form) && form.dataset.liveForm ? form :
        document.querySelector("#board form[data-live-form]"));
    }, 300);
  });
  // The count typed offline: the sheet's points and "type the count" were
  // of the count before; it says instead that they wait for the server.
  function countOffline() {
    var said = document.getElementById("outbox-texts");
    said = said && said.content.querySelector("[data-text=count-offline]");
    var gets = document.querySelector("#board .end-sheet .gets");
    if (!gets || !said) { return; }
    gets.className = "gets hint";
    gets.textContent = said.textContent;
    var parts = document.querySelector("#board .end-sheet .parts");
    if (parts) { parts.textContent = ""; }
  }
  function followCount(form) {
    if (!form) { return; }
    var query = new URLSearchParams({ sheet: "end" });
    form.querySelectorAll("input[name^=cards]").forEach(function (field) {
      query.append(field.name, field.value);
    });
    // The hand counted, kept in the address: once another phone has counted
    // it, the board this phone follows to is without this sheet.
    var hand = form.querySelector("input[name=hand]");
    if (hand) { query.append("hand", hand.value); }
    if (form.querySelector("input[name=early]")) { query.append("ask", "early"); }
    // Offline the sheet cannot show the count's points: the box says so.
    enqueue(form.dataset.liveForm + "?" + query, { method: "GET", offline: "count-offline" });
  }
  // A sheet opened by a whole page (a reload, a link) was drawn for a page
  // without this script: its Confirm looks tappable with no count typed (a
  // newcomer tapped it and got only the hint). Drawn again as the script
  // follows the count, once.
  var opened = document.querySelector("#board form[data-live-form]");
  if (opened && opened.querySelector(
      "button[value=end_hand]:not([data-scores]):not([aria-disabled])")) {
    followCount(opened);
  }

  // Several phones on one game: follow the game's version. The same request
  // tells whether the server can be reached at all.
  var polling = false;
  function poll() {
    var current = board();
    if (!current || busy || polling || document.visibilityState !== "visible") { return; }
    polling = true;
    var drawnThen = drawn;
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
        // A look asked before this phone's own tap was drawn tells of the
        // game before it: following it would only wipe that tap's notice.
        if (game && now && !busy && drawn === drawnThen &&
            String(game.version) !== now.dataset.version) {
          enqueue(null, { method: "GET", follows: true, asked: 0 })
            .then(cameFrom(now.dataset.version));
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
    // it was left, at Start, under a finger that would start a second game.
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
    notify: notify,
    clearNotice: clearNotice,
    edits: function () { return edits; },
    refresh: function () { return enqueue(here(), { method: "GET", asked: 0 }); }
  };

  if (board()) {
    fadeSaid();
    setInterval(poll, POLL_MS);
  }
  followPlayers();
}());
