// The board's script, third part: the screen kept awake while a game is open
// (a scorer does not touch the phone between deals): the Wake Lock API in
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
