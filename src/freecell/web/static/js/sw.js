// The static site's service worker (copied to the site's top folder by `freecell site`,
// which writes the build's version in it, so that a new build installs a new worker):
// on install it caches every file that static/site.json lists, then serves the site from
// that cache, so the game starts and plays with no network at all. static/site.json itself
// is asked of the network first, so that a new build is found when there is a network.
// The install fetches past the browser's HTTP cache: a file that cache still counts fresh
// may be the last build's, and caching it here would keep the old code for good.

const VERSION = "dev";
const CACHE = `freecell-site-${VERSION}`;
const ROOT = new URL("./", self.location.href).href;
const MANIFEST = "static/site.json";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const manifest = await (await fetch(new URL(MANIFEST, ROOT), { cache: "no-cache" })).json();
    const cache = await caches.open(CACHE);
    const names = [ROOT, MANIFEST, ...manifest.files];
    await cache.addAll(names.map((name) => new Request(new URL(name, ROOT).href, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("freecell-site-") && name !== CACHE) {
        await caches.delete(name);
      }
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(ROOT)) {
    return;
  }
  const url = new URL(request.url);
  if (url.href === new URL(MANIFEST, ROOT).href) {
    event.respondWith(fetch(request).catch(() => caches.match(request, { ignoreSearch: true })));
    return;
  }
  event.respondWith((async () => {
    // A link to the page (…/?code=…) is the page: its query is for the page's script.
    const cached = await caches.match(request, { ignoreSearch: request.mode === "navigate" });
    return cached ?? fetch(request);
  })());
});
