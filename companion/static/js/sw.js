/* Spellbook Table's service worker (served as /sw.js, after the two lines the server puts first:
   VERSION, a hash of everything below and of the files it keeps, and PRECACHE, the files kept at install).

   Kept, for use without network: the static files, the rule lists, card pages once visited, and the
   offline look-up (/offline/rules searching /offline/index.json). Never kept: game, seat, join and API
   answers (a seat page holds its seat's hand and token), and searches (the offline look-up answers them). */
"use strict";
const CACHE = "spellbook-" + VERSION;
const KEEP = [/^\/c\/[^/]+\/[^/]+$/, /^\/rules(\/[^/]+)?$/, /^\/static\//, /^\/icons\//, /^\/offline\//,
  /^\/manifest\.webmanifest$/];
const FIRST_FROM_CACHE = /^\/(static|icons)\//;

function keepable(url) {
  return url.origin === self.location.origin && KEEP.some((pattern) => pattern.test(url.pathname));
}

function storable(url) {  // a search's answer is not stored: the offline look-up answers any search
  return keepable(url) && !(url.pathname === "/rules" && url.search);
}

/* Where a kept page is stored and looked for: its path, without the query. A card is opened by its printed QR
   code (/c/<game>/<card>?v=<the card's version when the kit was printed>) and, offline, by links without the
   query (the offline search's results, other card pages): it is one page, kept once. The query changes no kept
   page but the search's (/rules?q=..., never stored): ?v= only adds the "changed since your print" notice, and a
   card's ?g=&s= are read by its moves part (fetched apart, never kept). The last copy fetched with network replaces
   the one before, whatever query either had: a page opened by a newer print's code replaces an older one. */
function keyOf(url) {
  return url.pathname === "/rules" ? url.pathname + url.search : url.pathname;
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
    // the page that installed this worker was loaded before it ran: keep it too, if it is one to keep
    const cache = await caches.open(CACHE);
    for (const client of await self.clients.matchAll({ type: "window" })) {
      const url = new URL(client.url);
      if (storable(url)) {
        try {
          const answer = await fetch(url.pathname + url.search);
          if (answer.ok && answer.type === "basic") await cache.put(keyOf(url), answer);
        } catch (error) { /* offline again: next time */ }
      }
    }
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!keepable(url)) {  // games, seats, joining, the API: the network only, as without a worker
    // ... but the start page and a game's pages opened with no network get an app page, not the browser's error
    if (request.mode === "navigate" && url.origin === self.location.origin) event.respondWith(networkOrOffline(request, url));
    return;
  }
  event.respondWith(FIRST_FROM_CACHE.test(url.pathname) ? fromCache(request, url) : fromNetwork(request, url));
});

async function fromCache(request, url) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(keyOf(url));
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok && storable(url)) await cache.put(keyOf(url), answer.clone());
  return answer;
}

async function fromNetwork(request, url) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok && answer.type === "basic" && storable(url)) await cache.put(keyOf(url), answer.clone());
    return answer;
  } catch (offline) {
    const kept = await cache.match(keyOf(url));
    if (kept) return kept;
    if (url.pathname === "/rules") {  // a search with no network: the offline look-up runs it
      const lookup = await cache.match("/offline/rules");
      if (lookup) return lookup;
    }
    if (request.mode === "navigate") return notKept();
    throw offline;
  }
}

async function networkOrOffline(request, url) {
  try {
    return await fetch(request);
  } catch (offline) {  // nothing of a game is kept (a seat page holds a hand and a token): say so, offer what works
    const game = url.pathname.startsWith("/g/");
    return offlinePage(game ? "The game needs the table's Wi-Fi" : "No network",
      (game ? "This phone cannot reach the table's server just now, and a game is never kept on the phone (it "
              + "changes with every move). Your seat is still yours: reconnect to the table's Wi-Fi and open "
              + "the game again."
            : "This phone cannot reach the table's server just now. Reconnect to the table's Wi-Fi and try again.")
        + '</p><p><a class="button" href="' + url.pathname + '">Try again</a></p>'
        + '<p><a class="button secondary" href="/offline/rules">Search the rules and cards offline</a>');
  }
}

function offlinePage(title, text) {
  const page = '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · Spellbook Table</title>' +
    '<link rel="stylesheet" href="/static/css/app.css"></head><body><main id="main"><section class="panel">' +
    "<h1>" + title + "</h1><p>" + text + "</p></section></main></body></html>";
  return new Response(page, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function notKept() {
  const page = '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · Spellbook Table</title>' +
    '<link rel="stylesheet" href="/static/css/app.css"></head><body><main id="main"><section class="panel">' +
    "<h1>No network</h1><p>This page was not opened on this phone before, so there is no copy of it here.</p>" +
    '<p><a class="button" href="/offline/rules">Search the rules and cards offline</a></p></section></main></body></html>';
  return new Response(page, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
