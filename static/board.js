// Progressive enhancement of the pages, which all work without it:
// a tap updates the board in place (no reload), with a haptic tick; the
// screen stays awake while a game is open; changes made on another phone
// show up within two seconds. Every action stays a form POST: its one-time
// token makes a retry after a network failure safe.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var POLL_MS = 1500;
  var RETRIES = [400, 1200, 3000];
  var busy = 0;
  var queue = Promise.resolve();

  function board() { return document.getElementById("board"); }

  function tick() { if (navigator.vibrate) { navigator.vibrate(12); } }

  function showError(text) {
    var current = board();
    if (!current) { return; }
    var note = document.createElement("p");
    note.className = "flash flash-error";
    note.setAttribute("role", "alert");
    note.textContent = text;
    current.prepend(note);
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
      if (from.value !== to.value) { from.value = to.value; }
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
    // The same address again would still cost a slow phone a few milliseconds.
    if (url && new URL(url, location.href).href !== location.href) {
      history.replaceState(null, "", url);
    }
    if (focused && focused.indexOf("cards") === 0) {
      var field = document.getElementById(focused);
      if (field) { field.focus(); }
    }
  }

  // A tap that changes the score shows the new score at once, marked as not
  // yet stored, before the server answers: the server computed it with the
  // engine when it drew the board (data-scores on the button). The server's
  // board then takes its place; a refusal or no answer puts the old score back.
  // Only when no other tap is on its way: that one could change the outcome.
  function showPredicted(button) {
    var scores = document.querySelector("#board .scores");
    if (!button || !button.dataset.scores || busy || !scores) { return null; }
    var shown = [];
    button.dataset.scores.split(" ").forEach(function (value, side) {
      var points = document.getElementById("score-" + side);
      if (points) {
        shown.push([points, points.textContent]);
        points.textContent = value;
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

  function request(url, options, attempt, putBack) {
    options.headers = { "X-Board": "1" };
    options.credentials = "same-origin";
    return fetch(url, options).then(function (response) {
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
      if (attempt < RETRIES.length) {
        return wait(RETRIES[attempt]).then(function () {
          return request(url, options, attempt + 1, putBack);
        });
      }
      if (putBack) { putBack(); }
      var current = board();
      showError(current ? current.dataset.offline : "");
    });
  }

  function nextPaint() {
    return new Promise(function (resolve) {
      requestAnimationFrame(function () { setTimeout(resolve, 0); });
    });
  }

  // Taps run one after the other, in the order they were made. A tap whose
  // new score is already shown is sent once that score is painted: starting
  // a request costs a slow phone a few milliseconds that would delay it.
  function enqueue(url, options, putBack) {
    busy += 1;
    var ready = putBack ? nextPaint() : null;
    queue = queue.then(function () {
      return ready ? ready.then(function () { return request(url, options, 0, putBack); })
                   : request(url, options, 0, putBack);
    })
      .finally(function () { busy -= 1; });
    return queue;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest("#board")) { return; }
    event.preventDefault();
    var submitter = event.submitter;
    if (form.method.toLowerCase() === "get") {
      enqueue(form.action + "?" + new URLSearchParams(new FormData(form)), { method: "GET" });
      return;
    }
    // URL-encoded rather than multipart: smaller, and quicker for the server to read.
    var data = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    if (submitter) { submitter.classList.add("pressed"); }
    tick();
    var putBack = showPredicted(submitter);
    enqueue(form.action, { method: "POST", body: data }, putBack);
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-swap]");
    if (!link || event.defaultPrevented || event.metaKey || event.ctrlKey) { return; }
    event.preventDefault();
    if (link.getAttribute("aria-disabled") === "true") { return; }
    link.classList.add("pressed");
    tick();
    enqueue(link.href, { method: "GET" });
  });

  // The end-of-hand count: the sheet follows what is typed.
  var typing = null;
  document.addEventListener("input", function (event) {
    var form = event.target.closest("form[data-live-form]");
    if (!form) { return; }
    clearTimeout(typing);
    typing = setTimeout(function () {
      enqueue(form.action + "?" + new URLSearchParams(new FormData(form)), { method: "GET" });
    }, 300);
  });

  // Several phones on one game: follow the game's version.
  function poll() {
    var current = board();
    if (!current || busy || document.visibilityState !== "visible") { return; }
    fetch("/api/games/" + current.dataset.game, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (game) {
        var now = board();
        if (game && now && !busy && String(game.version) !== now.dataset.version) {
          enqueue(window.location.href, { method: "GET" });
        }
      }, function () {});
  }

  // Keep the screen on while a game is open.
  var wakeLock = null;
  function keepAwake() {
    var current = board();
    if (!current || current.dataset.live !== "1" || !("wakeLock" in navigator)) { return; }
    if (document.visibilityState === "visible" && !wakeLock) {
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        lock.addEventListener("release", function () { wakeLock = null; });
      }, function () {});
    }
  }

  // The new-game form: the third name only with three players.
  function followPlayers() {
    var form = document.querySelector(".new-game");
    if (!form) { return; }
    var update = function () {
      var checked = form.querySelector("input[name=players]:checked");
      form.classList.toggle("three", !!checked && checked.value === "3");
      form.classList.toggle("four", !!checked && checked.value === "4");
    };
    // With four players, a side's name follows its partners ("Karim & Salma")
    // while it is the name the page offered or one this script wrote.
    var written = {};
    form.addEventListener("input", function (event) {
      var match = /^p([01])[ab]$/.exec(event.target.id || "");
      if (match) { followPartners(match[1]); }
    });
    function followPartners(side) {
      var name = document.getElementById("name" + side);
      var given = form.querySelector("input[name=given" + side + "]");
      if (!name || !given || (name.value !== given.value && name.value !== written[side])) { return; }
      var partners = ["a", "b"].map(function (seat) {
        return document.getElementById("p" + side + seat).value.trim();
      }).filter(Boolean);
      if (!partners.length) { return; }
      written[side] = partners.join(" & ").slice(0, 40);
      name.value = written[side];
    }
    // A recent player's button fills its field at once (without the script: a GET).
    form.addEventListener("click", function (event) {
      var chip = event.target.closest("button[data-fill]");
      var field = chip && document.getElementById(chip.dataset.fill);
      if (!field) { return; }
      event.preventDefault();
      field.value = chip.value.slice(chip.value.indexOf(":") + 1);
      var seat = /^p([01])[ab]$/.exec(field.id);
      if (seat) { followPartners(seat[1]); }
      tick();
    });
    form.addEventListener("change", update);
    update();
  }

  // A club night's form: a partner's field only for teams.
  var nightForm = document.querySelector(".night-form");
  if (nightForm) {
    var follow = function () {
      var checked = nightForm.querySelector("input[name=players]:checked");
      nightForm.classList.toggle("teams", !!checked && checked.value === "4");
    };
    nightForm.addEventListener("change", follow);
    follow();
  }

  // A choice that reloads its form (the new game's preset): no extra tap.
  document.addEventListener("change", function (event) {
    var target = event.target.closest("select[data-autosubmit]");
    var button = target && document.getElementById(target.dataset.autosubmit);
    if (button) { button.click(); }
  });

  if (board()) {
    setInterval(poll, POLL_MS);
    document.addEventListener("visibilitychange", keepAwake);
    keepAwake();
  }
  followPlayers();
}());
