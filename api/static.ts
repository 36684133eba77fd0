// Serves the built web app (Vite's dist/) next to the API: files with their content types,
// immutable caching for hashed /assets/*, and index.html (never cached) for every other GET path so
// client-side routes (/app, /auth, /preset/abc) load the app. Without a build it answers 503.
import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { Hono } from "hono";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
};

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
}

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const NOT_BUILT = "The web app has not been built yet. Run `npm run build`, then start the server again.";

async function fileAt(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Maps a URL path to a file inside root, or null if it would escape root or is malformed. */
function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  const full = resolve(root, `.${decoded.startsWith("/") ? "" : "/"}${decoded}`);
  return full === root || full.startsWith(root + sep) ? full : null;
}

/** `distDir` may be a getter: a deploy switches the served release by changing what it returns
 *  (each request reads it once, so a request never mixes two releases). */
export function webAppRoutes(distDir: string | (() => string)): Hono {
  const rootOf = typeof distDir === "string" ? () => distDir : distDir;
  const app = new Hono();

  app.get("*", async (c) => {
    const root = resolve(rootOf());
    const indexFile = join(root, "index.html");
    const path = c.req.path;
    const file = resolveInside(root, path);
    if (file && file !== root && (await fileAt(file))) {
      const body = await readFile(file);
      const cache = path.startsWith("/assets/") ? IMMUTABLE : "no-cache";
      return c.body(body, 200, { "Content-Type": contentTypeFor(file), "Cache-Control": cache });
    }
    // A missing hashed asset is a real 404: answering HTML to a module or wasm fetch only hides it.
    if (path.startsWith("/assets/")) return c.text("Not found", 404);
    if (!(await fileAt(indexFile))) return c.text(NOT_BUILT, 503, { "Cache-Control": "no-store" });
    const html = await readFile(indexFile);
    return c.body(html, 200, { "Content-Type": CONTENT_TYPES[".html"], "Cache-Control": "no-cache" });
  });

  app.all("*", (c) => c.text("Not found", 404));
  return app;
}
