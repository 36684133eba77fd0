// The security policy of every response the server sends (API JSON, errors, 404s, the web app's
// files, range downloads), in one place: the Content-Security-Policy, cross-origin isolation,
// nosniff, referrer and framing rules, HSTS when the request came over https, hardened cookies,
// and the same-origin rule for the API (no CORS: other sites' pages may not call it).
import type { Context, MiddlewareHandler } from "hono";
import { ApiError } from "../errors";
import { MSG } from "../messages";
import { editResponseHeaders } from "./response-headers";

/** The app's own scripts, worklets and wasm only. Worklets (the AudioWorklet) are governed by
 *  script-src; the export worker is a same-origin file (Vite's `?worker`), so worker-src 'self';
 *  and blob: for the FLAC and MP3 encoders' own worker, which those packages start from a Blob
 *  of their bundled code (a blob: URL is made only by a script this policy already let run).
 *  'wasm-unsafe-eval' allows WebAssembly compilation and nothing else (no eval, no new Function:
 *  the web app runs zod jitless, web/zod-jitless.ts). style-src is 'self' because the build turns
 *  sonner's injected <style> into a stylesheet file (vite.config.ts). blob: serves the keep-alive
 *  audio element and downloads; data: only images. Violations are reported to
 *  POST /api/csp-report (api/routes/csp-report.ts), which logs them. */
export const CSP_DIRECTIVES = {
  "default-src": ["'self'"],
  "script-src": ["'self'", "'wasm-unsafe-eval'"],
  "worker-src": ["'self'", "blob:"],
  "child-src": ["'self'"],
  "connect-src": ["'self'"],
  "img-src": ["'self'", "data:", "blob:"],
  "media-src": ["'self'", "blob:"],
  "font-src": ["'self'"],
  "style-src": ["'self'"],
  "object-src": ["'none'"],
  "base-uri": ["'self'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
  "report-uri": ["/api/csp-report"],
} as const satisfies Record<string, readonly string[]>;

export const CONTENT_SECURITY_POLICY = Object.entries(CSP_DIRECTIVES)
  .map(([name, sources]) => `${name} ${sources.join(" ")}`)
  .join("; ");

/** One year; sent only on https (browsers ignore it over http anyway, RFC 6797 section 8.1). */
export const HSTS = "max-age=31536000";

/** Sent on every response, https or not. Cross-origin isolation (COOP + COEP) lets the audio
 *  engine use SharedArrayBuffer; CORP keeps other sites from embedding our files and audio. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  // Download links carry their token in the query string: never send a URL to another site.
  "Referrer-Policy": "same-origin",
};
const SECURITY_HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

/** The value of a proxy-appended header list that the trusted hop wrote, counting from the right
 *  as clientIp does (a client cannot choose it by sending its own header). */
function trustedHop(value: string, trustProxyHops: number): string | undefined {
  const hops = value
    .slice(0, 256)
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return hops[Math.max(0, hops.length - trustProxyHops)];
}

/** Whether the request reached us over https: directly (a TLS socket), or through a trusted proxy
 *  (X-Forwarded-Proto, honoured only when TRUST_PROXY is set). */
export function requestIsHttps(c: Context, trustProxyHops: number): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  if (trustProxyHops <= 0) return false;
  const forwarded = c.req.header("x-forwarded-proto");
  return forwarded !== undefined && trustedHop(forwarded, trustProxyHops) === "https";
}

/** A Set-Cookie value with HttpOnly and SameSite (Lax unless it names one), and Secure on https,
 *  added where missing. The API sets no cookies (sessions are bearer tokens); this guards any
 *  cookie a later route or library might add. */
export function hardenCookie(cookie: string, https: boolean): string {
  const attrs = cookie
    .split(";")
    .slice(1)
    .map((a) => a.trim().split("=")[0].toLowerCase());
  let out = cookie.trim();
  if (!attrs.includes("httponly")) out += "; HttpOnly";
  if (!attrs.includes("samesite")) out += "; SameSite=Lax";
  if (https && !attrs.includes("secure")) out += "; Secure";
  return out;
}

export interface SecurityHeaderOptions {
  /** Reverse-proxy hops trusted for X-Forwarded-Proto (config.trustProxy); 0 = none. */
  trustProxy: number;
}

/** Sets the policy on whatever response leaves (including error pages from onError handlers). */
export function securityHeaders(options: SecurityHeaderOptions): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const https = requestIsHttps(c, options.trustProxy);
    editResponseHeaders(c, (headers) => {
      for (const [name, value] of SECURITY_HEADER_ENTRIES) headers.set(name, value);
      if (https) headers.set("Strict-Transport-Security", HSTS);
      const cookies = headers.getSetCookie();
      if (cookies.length > 0) {
        headers.delete("Set-Cookie");
        for (const cookie of cookies) headers.append("Set-Cookie", hardenCookie(cookie, https));
      }
    });
  };
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The origin the request was addressed to (its Host header, e.g. behind the dev server's proxy),
 *  with https when a trusted proxy terminated TLS in front of us. */
function ownOrigin(c: Context, trustProxyHops: number): string {
  const url = new URL(c.req.url);
  if (url.protocol === "http:" && requestIsHttps(c, trustProxyHops)) url.protocol = "https:";
  return url.origin;
}

/** CORS closed: no Access-Control-Allow-* header is ever sent, a preflight (OPTIONS) from another
 *  origin answers 403, and so does a state-changing request a foreign page sends without one (a
 *  form post or a "simple" fetch). Requests without an Origin header (same-origin GETs, curl,
 *  Stripe's webhook) pass. */
export function sameOriginOnly(options: { publicUrl: string; trustProxy: number }): MiddlewareHandler {
  const publicOrigin = new URL(options.publicUrl).origin;
  return async (c, next) => {
    const origin = c.req.header("origin");
    const foreign = origin !== undefined && origin !== publicOrigin && origin !== ownOrigin(c, options.trustProxy);
    if (foreign && (c.req.method === "OPTIONS" || UNSAFE_METHODS.has(c.req.method))) {
      throw new ApiError(403, MSG.crossOrigin);
    }
    await next();
  };
}
