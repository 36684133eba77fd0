// Headers a middleware adds after the route has answered (the security policy, the request id).
//
// hono's c.header() on a finished response copies it into a new Response whose body is re-read as
// a stream; on @hono/node-server that also turns its lightweight response (status, body string
// and headers, written straight to the socket) into a full undici Response. Two such calls per
// request were about 12 % of a small JSON request's time under load. The response's own headers
// can be changed in place instead; only a response whose headers are immutable (Response.redirect(),
// a fetch() result) still goes through c.header()'s copy.
import type { Context } from "hono";

/** What the middlewares do to a response's headers. */
export type HeaderEditor = Pick<Headers, "set" | "append" | "delete" | "getSetCookie">;

export function editResponseHeaders(c: Context, edit: (headers: HeaderEditor) => void): void {
  const headers = c.res.headers;
  if (isMutable(headers)) {
    edit(headers);
    return;
  }
  edit({
    set: (name, value) => c.header(name, value),
    append: (name, value) => c.header(name, value, { append: true }),
    delete: (name) => c.header(name, undefined),
    getSetCookie: () => c.res.headers.getSetCookie(),
  });
}

/** Headers of an immutable guard throw a TypeError on any change: probe with a harmless one. */
function isMutable(headers: Headers): boolean {
  try {
    headers.delete(PROBE);
    return true;
  } catch (err) {
    if (err instanceof TypeError) return false;
    throw err;
  }
}

const PROBE = "x-studio-header-probe";
