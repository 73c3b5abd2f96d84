// The big screen of a club night: no controls; it follows the night's
// tables by asking for their stamp every second, and when it changed it
// takes the server's new content in place (no reload, no flash).
(function () {
  "use strict";
  var body = document.body;
  var feed = body.dataset.feed;
  var every = Number(body.dataset.poll) || 1000;
  if (!feed) { return; }
  var busy = false;

  function current() { return document.getElementById("screen"); }

  function refresh() {
    return fetch(location.href, { headers: { "X-Screen": "1" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.getElementById("screen");
        var shown = current();
        if (fresh && shown) { shown.replaceWith(fresh); }
      });
  }

  function poll() {
    if (busy || document.visibilityState === "hidden") { return; }
    busy = true;
    fetch(feed, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        var shown = current();
        if (data && shown && data.stamp !== shown.dataset.stamp) { return refresh(); }
      })
      .catch(function () {})
      .then(function () { busy = false; });
  }

  setInterval(poll, every);
}());
