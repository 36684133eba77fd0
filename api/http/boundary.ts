// The request boundary shared by every route: the body limits (64 KiB for JSON routes, 5 MiB for
// the routes that carry a sound, whose timeline may be long; beyond them a 413 that the client can
// read, with the rest of the body dropped within bounds first), tolerant JSON reading (malformed
// JSON is a 400; an empty body reads as {} so the missing-field text is answered), zod parsing into
// 400s with the schema's user-facing message, the client address for rate limits, bearer-token
// authentication, and an abort signal that outlives the handler.
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import { MAX_SOUND_BODY_BYTES } from "../../dsp/host/schema/preset";
import type { AppEnv } from "../context";
import { ApiError } from "../errors";
import { MSG } from "../messages";
import { containsNul, NUL_REFUSED, urlContainsNul } from "../rules/text-input";
import type { SessionService } from "../services/sessions";

// ---- bodies -------------------------------------------------------------------------------
export const JSON_BODY_LIMIT = 64 * 1024;

/** What is read and dropped of a refused body before its 413 goes out, at most: 4 MiB, for at most
 *  2 seconds. A client sends its whole body before it reads the answer, and a socket closed with
 *  input still arriving or unread makes the kernel answer with a reset, which can reach the client
 *  before it has read the 413 (Node's fetch then fails with EPIPE or "other side closed"). Reading
 *  the rest first lets the answer arrive; the bounds keep a slow or endless sender from holding
 *  the socket. Beyond them the 413 goes out anyway. */
export const REFUSED_BODY_DISCARD = { maxBytes: 4 * 1024 * 1024, maxMs: 2000 } as const;

/** Reads and drops what `reader` still has, within REFUSED_BODY_DISCARD's bounds. */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<"time up">((done) => {
    timer = setTimeout(() => done("time up"), REFUSED_BODY_DISCARD.maxMs);
  });
  let dropped = 0;
  try {
    for (;;) {
      const chunk = await Promise.race([reader.read(), timeUp]);
      if (chunk === "time up" || chunk.done) return;
      dropped += chunk.value.byteLength;
      if (dropped > REFUSED_BODY_DISCARD.maxBytes) return;
    }
  } catch {
    // the client went away: nothing left to drop
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  }
}

/** Answers 413 with `Connection: close` (the rest of the body is not read as a next request),
 *  after dropping the rest of the body within bounds. `declaredLength` is the Content-Length: a
 *  body that cannot be dropped within the bounds is not read at all. */
async function refuseBody(c: Context, reader: ReadableStreamDefaultReader<Uint8Array> | null, declaredLength?: number): Promise<never> {
  const drop =
    reader ?? (declaredLength !== undefined && declaredLength <= REFUSED_BODY_DISCARD.maxBytes ? (c.req.raw.body?.getReader() ?? null) : null);
  if (drop) await discardRest(drop);
  throw new ApiError(413, MSG.bodyTooLarge, { Connection: "close" });
}

/** The body limit of a route. GET and HEAD have no body. A request with a Content-Length and no
 *  Transfer-Encoding is decided from the header (Node's parser holds the body to that length), and
 *  its body is then read straight from the socket by c.req.text(): asking for `raw.body` would make
 *  @hono/node-server build the full Fetch API Request (a web stream over the socket, the costliest
 *  part of a small request). A chunked body is counted as it is read, as hono's bodyLimit does,
 *  into a buffer that replaces the request's body; this reader is kept so that a refused body can
 *  be dropped through it (refuseBody). */
export function bodyLimitOf(maxBytes: number): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined && /^\d+$/.test(length)) {
      if (Number(length) > maxBytes) await refuseBody(c, null, Number(length));
      return next();
    }
    const body = c.req.raw.body;
    if (!body) return next();
    const reader = body.getReader();
    let size = 0;
    let buffer = new Uint8Array(0);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const offset = size;
      size += value.byteLength;
      if (size > maxBytes) await refuseBody(c, reader);
      if (size > buffer.length) {
        const grown = new Uint8Array(Math.min(maxBytes, Math.max(size, buffer.length * 2)));
        grown.set(buffer.subarray(0, offset));
        buffer = grown;
      }
      buffer.set(value, offset);
    }
    c.req.raw = new Request(c.req.raw, { body: buffer.subarray(0, size) });
    return next();
  };
}

/** The limit of JSON routes: 64 KiB. */
export const jsonBodyLimit: MiddlewareHandler = bodyLimitOf(JSON_BODY_LIMIT);
/** The limit of routes whose body carries a sound state (dsp/host/schema/preset.ts MAX_SOUND_BODY_BYTES). */
export const soundBodyLimit: MiddlewareHandler = bodyLimitOf(MAX_SOUND_BODY_BYTES);

export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, MSG.badJson);
  }
  // JSON can only carry a NUL as the escape \u0000 (a raw one is a syntax error): most bodies
  // skip the walk through the parsed value.
  if (text.includes("\\u0000") && containsNul(value)) throw new ApiError(400, NUL_REFUSED);
  return value;
}

/** Refuses a path or query string holding an encoded NUL (rules/text-input.ts) before any route. */
export const refuseNulInUrl: MiddlewareHandler = async (c, next) => {
  const url = c.req.url;
  const target = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  if (urlContainsNul(target)) throw new ApiError(400, NUL_REFUSED);
  await next();
};

/** Parses `data` with `schema`; every schema here carries user-facing messages on its checks. */
export function parseWith<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    const message = result.error.issues[0]?.message ?? MSG.badJson;
    throw new ApiError(400, message);
  }
  return result.data;
}

/** readJson + parseWith. */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await readJson(c));
}

// ---- client address ------------------------------------------------------------------------
// The socket's remote address, or X-Forwarded-For when TRUST_PROXY says how many proxy hops sit in
// front of us. Without a socket (tests calling app.request()) it falls back to a constant.

export const UNKNOWN_CLIENT = "unknown";

export function clientIp(c: Context, trustProxyHops: number): string {
  if (trustProxyHops > 0) {
    const forwarded = c.req.header("x-forwarded-for");
    if (forwarded) {
      // Each trusted proxy appends the address it saw; count back from the right so a client
      // cannot choose its own key by sending a forged header.
      const hops = forwarded
        .slice(0, 2048)
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (hops.length > 0) return hops[Math.max(0, hops.length - trustProxyHops)].slice(0, 64);
    }
  }
  try {
    return getConnInfo(c).remote.address ?? UNKNOWN_CLIENT;
  } catch {
    return UNKNOWN_CLIENT;
  }
}

// ---- authentication ------------------------------------------------------------------------
// Resolves `Authorization: Bearer <jwt>` to a live session (services/sessions.ts) and stores it as
// c.var.auth, or answers 401.

export function bearerToken(c: Context): string | null {
  const header = c.req.header("authorization");
  if (!header || header.length > 4200) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

export function requireAuth(sessions: SessionService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c);
    if (!token) throw new ApiError(401, MSG.authRequired);
    const session = await sessions.verify(token);
    if (!session) throw new ApiError(401, MSG.invalidToken);
    c.set("auth", session);
    await next();
  };
}

// ---- the client leaving -----------------------------------------------------------------------

/** The request's abort signal, for work that outlives the handler (a streamed export). undici's
 *  Request forwards its caller's abort through a weak reference to its own controller, which the
 *  Request alone holds: once the Request is collected, the abort never arrives (Node 20; found as a
 *  video export that ran on after its client left, and an api-postgres test that hung). The
 *  listener added here holds the Request for as long as the signal is held. */
export function lastingSignal(request: Request): AbortSignal {
  const signal = request.signal;
  signal.addEventListener("abort", () => void request, { once: true });
  return signal;
}

/** Sets c.var.clientSignal from the request as it arrived: put it before anything that replaces
 *  c.req.raw (the limit of a chunked body, bodyLimitOf, wraps the Request in a new one, a second weak link). */
export const keepClientSignal: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("clientSignal", lastingSignal(c.req.raw));
  await next();
};
