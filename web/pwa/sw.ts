// The service worker (built by vite-plugin-pwa's injectManifest into dist/sw.js). What it caches
// and why is in docs/deploy.md ("Installed and offline") and docs/security.md:
// - precache: the build itself (the app shell index.html, the hashed scripts and stylesheet, the
//   engine's wasm, the AudioWorklet, the export worker, the manifest and icons), listed with their
//   revisions at build time (self.__WB_MANIFEST) and served cache-first;
// - navigations: the precached index.html (the app shell), so every client-side route opens
//   offline; except /api/ navigations (download links), which go to the network;
// - the soundtrack decoders (FLAC, OGG, MP3 and the resampler: 2.3 MB that only a session with a
//   soundtrack loads) are left out of the precache and kept cache-first the first time a page
//   fetches them (their names are hashed), so installing stays light and a soundtrack chosen once
//   online decodes offline too;
// - /api/ and everything else: not handled at all, so the browser fetches it from the network as
//   if there were no service worker (network-only) and nothing of it is ever put in a cache.
// A new build installs beside the running one and waits; the page's update prompt
// (web/pwa/register.ts) sends SKIP_WAITING when the user chooses to reload.

import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { clientsClaim } from "workbox-core";
import { DECODER_CACHE, isSkipWaiting, isSoundtrackDecoder } from "./messages";

// The little of ServiceWorkerGlobalScope used here (TypeScript's WebWorker library would clash
// with the DOM library the rest of web/ is checked against).
declare const self: {
  __WB_MANIFEST: (string | PrecacheEntry)[];
  skipWaiting(): Promise<void>;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL("index.html"), { denylist: [/^\/api\//] }));
registerRoute(({ url }) => isSoundtrackDecoder(url.pathname), async ({ request }) => {
  const cache = await caches.open(DECODER_CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) await cache.put(request, res.clone());
  return res;
});

// The first visit's page is controlled as soon as the worker is active, so it works offline
// without a reload.
clientsClaim();

self.addEventListener("message", (event) => {
  if (isSkipWaiting(event.data)) void self.skipWaiting();
});
