// The service worker: on a secure origin (https, or the phone's own
// 127.0.0.1) the board opens without the server (docs/OFFLINE.md, "The
// service worker, on a secure origin"). It keeps two things:
// - each game's board page as this phone last showed it (the last few
//   games): the page of its last visit, its board replaced by every board
//   the server has answered since (a tap's, a view's);
// - the versioned static files those pages name (script, style, icons).
// Pages come from the network first: the copy only when the server cannot
// be reached (no answer, or a proxy's 502/504 saying the server behind it
// is away), marked so that the page says it is the copy. A tap (a POST)
// goes to the network once, as the page sent it: never kept, never sent
// again here. The page's outbox keeps and resends taps, each counted once
// by its one-time key; a worker sending them too would be a second sender.
"use strict";

var PAGES = "ronda-pages-1";  // a new format: a new name (the old one is dropped)
var FILES = "ronda-files-1";
var KEPT_GAMES = 4;  // the boards of a phone's last evening, not its year
var PAGE_TIMEOUT_MS = 5000;  // as the board's poll: a dropped Wi-Fi can hang for minutes
var AWAY = [502, 504];  // a proxy answering for a server that is not there
var BOARD_PATH = /^\/games\/[a-z0-9]{1,40}$/;
var BOARD_START = /<div id="board"[^>]*>/;
var ASSET = /(?:href|src)="(\/static\/[^"?]+\?v=[0-9a-f]+)"/g;
var STORED_AT = "X-Ronda-Stored-At";
// Headers of an answer that belong to its bytes as they travelled, not to
// the page kept (the copy is text, re-encoded; no cookie is ever kept).
var TRAVEL_HEADERS = ["content-length", "content-encoding", "transfer-encoding", "etag",
                      "last-modified", "vary", "set-cookie", "date", "age", "server", "via",
                      "alt-svc"];

self.addEventListener("install", function () {
  self.skipWaiting();  // a new version of the app: its worker at once
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name !== PAGES && name !== FILES;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () {
    return self.clients.claim();
  }).then(function () {
    return self.clients.matchAll({ type: "window" });
  }).then(function (windows) {
    // A board opened before this worker existed (a phone's first visit):
    // its page never came through here, so it is fetched once to be kept.
    return Promise.all(windows.map(function (client) {
      var path = new URL(client.url).pathname;
      return BOARD_PATH.test(path) ? serially(function () { return keep(path); }) : null;
    }));
  }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate") {
    if (request.method === "GET" && (url.pathname === "/" || BOARD_PATH.test(url.pathname))) {
      event.respondWith(page(event, url.pathname));
    }
    return;  // every other page, and every form posted without JavaScript: the browser's own
  }
  if (request.headers.get("X-Board") === "1" ||
      (request.method === "GET" && url.pathname.indexOf("/api/") === 0)) {
    event.respondWith(passed(event));
    return;
  }
  if (request.method === "GET" && url.pathname.indexOf("/static/") === 0 &&
      url.searchParams.has("v") && !request.headers.has("Range")) {
    event.respondWith(file(event));
  }
});

// -- pages ---------------------------------------------------------------------------------

function page(event, path) {
  return within(fetch(event.request), PAGE_TIMEOUT_MS).then(function (response) {
    if (AWAY.indexOf(response.status) >= 0) {
      return copy(path).then(function (kept) { return kept || response; });
    }
    if (response.status === 403) {
      event.waitUntil(forget());  // turned away: no board of the table stays on this phone
    } else if (response.status === 200 && response.type === "basic") {
      event.waitUntil(response.clone().text().then(function (html) {
        return serially(function () { return shown(path, html, response.headers); });
      }));
    }
    return response;
  }, function () {
    return copy(path).then(function (kept) { return kept || Response.error(); });
  });
}

// The server's answer, or a failure: a 502/504 of a proxy is the server
// away, as a refused connection is, so that the page keeps its taps and
// waits for the server itself. A board in the answer (X-Board) is kept as
// the last one shown.
function passed(event) {
  return fetch(event.request).then(function (response) {
    if (AWAY.indexOf(response.status) >= 0) { return Response.error(); }
    if (response.status === 403) {
      event.waitUntil(forget());
    } else if (response.status === 200 && event.request.headers.get("X-Board") === "1") {
      event.waitUntil(response.clone().text().then(function (fragment) {
        return serially(function () { return follow(fragment); });
      }));
    }
    return response;
  });
}

// The page answered for a board's address: kept if it is that game's board.
function shown(path, html, headers) {
  var board = boardIn(html);
  if (path === "/" || !board || "/games/" + gameOf(board.tag) !== path) { return null; }
  return store(path, html, headers);
}

// A board drawn by the server for the page's script: it replaces the board
// of that game's kept page, unless an answer of a later version came first.
function follow(fragment) {
  fragment = fragment.trim();
  var board = boardIn(fragment);
  if (!board || board.start !== 0 || board.end !== fragment.length) { return null; }
  var path = "/games/" + gameOf(board.tag);
  return kept(path).then(function (page) {
    if (!page) { return keep(path); }
    var old = boardIn(page.html);
    if (!old || versionOf(board.tag) < versionOf(old.tag)) { return null; }
    return store(path, page.html.slice(0, old.start) + fragment + page.html.slice(old.end),
                 page.headers);
  });
}

// The game's page, fetched to be kept (with the phone's own cookies, as
// any request of the page): only when no answer of a later version is kept.
function keep(path) {
  return fetch(path, { credentials: "same-origin" }).then(function (response) {
    if (response.status === 403) { return forget(); }
    if (response.status !== 200) { return null; }
    return response.text().then(function (html) {
      var board = boardIn(html);
      return kept(path).then(function (page) {
        var old = page && boardIn(page.html);
        if (!board || (old && versionOf(board.tag) < versionOf(old.tag))) { return null; }
        return shown(path, html, response.headers);
      });
    });
  }).catch(function () { return null; });
}

// The copy of a board's page, marked as such (data-copy on its root: the
// page's script says it is the board as last shown). For "/" (where the
// installed app opens), the board shown last.
function copy(path) {
  if (path === "/") {
    return latest().then(function (last) {
      return last ? Response.redirect(last, 302) : null;
    });
  }
  return kept(path).then(function (page) {
    if (!page) { return null; }
    return new Response(page.html.replace(/<html\b/, '<html data-copy=""'),
                        { status: 200, headers: page.headers });
  });
}

function kept(path) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(path);
  }).then(function (response) {
    if (!response) { return null; }
    return response.text().then(function (html) { return { html: html, headers: response.headers }; });
  });
}

function store(path, html, from) {
  var headers = new Headers();
  from.forEach(function (value, name) {
    if (TRAVEL_HEADERS.indexOf(name.toLowerCase()) < 0) { headers.set(name, value); }
  });
  headers.set(STORED_AT, String(Date.now()));
  return caches.open(PAGES).then(function (cache) {
    return cache.put(path, new Response(html, { status: 200, headers: headers }))
      .then(function () { return prune(cache); });
  }).then(function () {
    return keepFiles(html);
  });
}

// Only the last KEPT_GAMES games' pages.
function prune(cache) {
  return stamps(cache).then(function (pages) {
    return Promise.all(pages.slice(KEPT_GAMES).map(function (page) {
      return cache.delete(page.path);
    }));
  });
}

// The kept pages, the last stored first.
function stamps(cache) {
  return cache.keys().then(function (requests) {
    return Promise.all(requests.map(function (request) {
      return cache.match(request).then(function (response) {
        return { path: new URL(request.url).pathname,
                 at: Number(response && response.headers.get(STORED_AT)) || 0 };
      });
    }));
  }).then(function (pages) {
    return pages.sort(function (a, b) { return b.at - a.at; });
  });
}

function latest() {
  return caches.open(PAGES).then(stamps).then(function (pages) {
    return pages.length ? pages[0].path : null;
  });
}

function forget() {
  return caches.delete(PAGES);
}

// The page's board element: where it starts and ends in the text, and its
// start tag. Every "<div" and "</div" of a board is a tag (text and
// attributes are escaped), so counting them finds its end.
function boardIn(html) {
  var found = BOARD_START.exec(html);
  if (!found) { return null; }
  var tags = /<div\b|<\/div\s*>/g;
  var depth = 0;
  var tag;
  tags.lastIndex = found.index;
  while ((tag = tags.exec(html)) !== null) {
    depth += tag[0].charAt(1) === "/" ? -1 : 1;
    if (depth === 0) {
      return { start: found.index, end: tags.lastIndex, tag: found[0] };
    }
  }
  return null;
}

function gameOf(tag) {
  var found = /\sdata-game="([a-z0-9]{1,40})"/.exec(tag);
  return found ? found[1] : null;
}

function versionOf(tag) {
  var found = /\sdata-version="(\d+)"/.exec(tag);
  return found ? Number(found[1]) : -1;
}

// The writes of kept pages, one after the other, in the order the answers
// came: two taps answered close together keep the later board.
var writing = Promise.resolve();
function serially(task) {
  var done = writing.then(task).catch(function () { return null; });
  writing = done;
  return done;
}

function within(promise, ms) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () { reject(new Error("no answer in time")); }, ms);
    promise.then(function (value) { clearTimeout(timer); resolve(value); },
                 function (error) { clearTimeout(timer); reject(error); });
  });
}

// -- static files ----------------------------------------------------------------------------

// A versioned address never changes content: from the cache first. While
// the server is away, any kept version of that file (an older game's page
// may name a script since replaced).
function file(event) {
  return caches.open(FILES).then(function (cache) {
    return cache.match(event.request, { ignoreVary: true }).then(function (found) {
      if (found) { return found; }
      return fetch(event.request).then(function (response) {
        if (response.status === 200) { event.waitUntil(putFile(cache, event.request.url, response.clone())); }
        return response;
      }, function (error) {
        return cache.match(event.request, { ignoreSearch: true, ignoreVary: true }).then(function (older) {
          if (older) { return older; }
          throw error;
        });
      });
    });
  });
}

// One version of each file: the older ones go as a newer one comes.
function putFile(cache, url, response) {
  var path = new URL(url).pathname;
  return cache.keys().then(function (requests) {
    return Promise.all(requests.filter(function (request) {
      return new URL(request.url).pathname === path && request.url !== url;
    }).map(function (request) { return cache.delete(request); }));
  }).then(function () {
    return cache.put(url, response);
  });
}

// The static files a kept page names, fetched if no version of them is
// kept (the page may be older than a version kept since).
function keepFiles(html) {
  var urls = [];
  var found;
  ASSET.lastIndex = 0;
  while ((found = ASSET.exec(html)) !== null) {
    if (urls.indexOf(found[1]) < 0) { urls.push(found[1]); }
  }
  return caches.open(FILES).then(function (cache) {
    return Promise.all(urls.map(function (url) {
      var absolute = new URL(url, self.location.origin).href;
      return cache.match(absolute, { ignoreSearch: true, ignoreVary: true }).then(function (present) {
        if (present) { return null; }
        return fetch(absolute).then(function (response) {
          return response.status === 200 ? putFile(cache, absolute, response) : null;
        });
      }).catch(function () { return null; });
    }));
  });
}
