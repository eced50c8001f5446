// The service worker: the page's own files (never the API's answers) are kept in a cache,
// so that they load at once, and the page opens at all when the server cannot be reached
// (it then says so and shows the last table). Each file is answered from the cache and
// fetched again behind it, so the next visit has the newest; the page itself comes from the
// server while it answers.

const CACHE = "freecell-page-v1";
// The page's own files: the server writes the list in as it serves this script
// (freecell.web.service_worker), so a new module is never left out.
const FILES = [];

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
  if (event.request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")
      || url.searchParams.has("token")) {
    return; // the API, and the printed address that lets the player in, always go to the server
  }
  if (event.request.mode === "navigate") {
    // The page itself: from the server, or from the cache when it cannot be reached.
    event.respondWith(fetch(event.request).then((response) => {
      if (response.ok && url.pathname === "/") {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put("/", copy));
      }
      return response;
    }).catch(async () => (await caches.match("/")) ?? Response.error()));
    return;
  }
  // The page's own files: at once from the cache, fetched again behind it for next time.
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const cached = await cache.match(event.request);
    const fresh = fetch(event.request).then((response) => {
      if (response.ok) {
        cache.put(event.request, response.clone());
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
