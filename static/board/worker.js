// The board's script, last part: on a secure origin, the service worker that
// reopens the board while the server is away (static/sw.js); plain http has
// none. After the page's load, so that it takes nothing from the first paint.
(function () {
  "use strict";
  if (window.isSecureContext && "serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js").catch(function () {});
    });
  }
}());
