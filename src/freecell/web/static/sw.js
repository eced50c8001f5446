// The service worker: the page's own files (never the API's answers) are kept in a cache,
// so that the page opens at once, and opens at all when the server cannot be reached (it
// then says so and shows the last table). Each file is answered from the cache and fetched
// again behind it, so the next visit has the newest.

const CACHE = "freecell-page-v1";
const FILES = [
  "/",
  "/static/manifest.webmanifest",
  "/static/favicon.ico",
  "/static/css/table.css",
  "/static/img/felt.svg",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
  ...["main", "api", "advice", "animate", "cards", "input", "links", "menu", "panels", "places", "runs",
    "solution", "status", "table"].map((name) => `/static/js/${name}.js`),
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) {
    return; // the API always goes to the server
  }
  // The page is one document whatever its query (?code=…, ?game=…).
  const key = url.pathname === "/" ? "/" : event.request;
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const cached = await cache.match(key);
    const fresh = fetch(event.request).then((response) => {
      if (response.ok) {
        cache.put(key, response.clone());
      }
      return response;
    });
    if (cached) {
      fresh.catch(() => {});
      return cached;
    }
    return fresh;
  }));
});
