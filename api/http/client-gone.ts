// A client that goes away mid-request (a closed tab, `curl -m 1`, a phone losing its network)
// costs that one request and a line in the log, never the process:
// - isClientGone() tells the errors a vanished client causes (a reset or closed socket, a body
//   cut short, an aborted request) from the server's own failures; the error handler answers them
//   as client aborts (logged at info, status 499 that nobody reads) instead of 500s;
// - routeContext() remembers, for the whole async life of each request, which route it was on,
//   so that a stray stream error (an 'error' event that nothing listened to, which Node turns
//   into an uncaught exception) is logged with its route by guardStrayStreamErrors() instead of
//   ending the process. The real fix for any such error stays in the route that left the stream
//   unheard: the guard is the net under it, and what it catches is logged at error level.
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";

/** Where the guard's lines go (api/errors.ts Logger has this shape; not imported, which would be a cycle). */
interface ErrorLog {
  error(message: string, detail?: Record<string, unknown>): void;
}

/** Error codes of a socket or stream that the other side closed, or a body that ended early. */
const GONE_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ECONNABORTED",
  "ERR_STREAM_PREMATURE_CLOSE",
  "ERR_STREAM_DESTROYED",
  "ERR_STREAM_WRITE_AFTER_END",
  "ERR_STREAM_UNABLE_TO_PIPE",
  "ABORT_ERR",
  "UND_ERR_SOCKET",
  "UND_ERR_ABORTED",
]);

/** The status a request gets when its client left before the answer (nginx's convention; no
 *  client reads it, the log line does). */
export const CLIENT_GONE_STATUS = 499;

/** True for the errors a client that went away causes: the codes above, an AbortError, Node's
 *  "aborted" request error, and the same one level down in a cause. */
export function isClientGone(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 3) return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === "string" && GONE_CODES.has(e.code)) return true;
  if (e.name === "AbortError") return true;
  if (e.message === "aborted" || e.message === "terminated") return true;
  return isClientGone(e.cause, depth + 1);
}

export interface RouteInfo {
  method: string;
  path: string;
}

const routes = new AsyncLocalStorage<RouteInfo>();

/** Runs the rest of the request inside its route's context (put it first in the chain). */
export const routeContext: MiddlewareHandler = (c, next) => routes.run({ method: c.req.method, path: c.req.path.slice(0, 512) }, next);

/** The route the current async context belongs to, if any. */
export function currentRoute(): RouteInfo | undefined {
  return routes.getStore();
}

let guarded: ErrorLog | null = null;

/** Keeps the process alive through stray stream errors: an uncaught error that isClientGone()
 *  recognises is logged (with the route it came from) and dropped; anything else ends the process
 *  as Node would, with the stack on stderr and exit code 1. Installed once per process (startServer
 *  calls it); a later call only changes where the lines go. */
export function guardStrayStreamErrors(log: ErrorLog): void {
  const first = guarded === null;
  guarded = log;
  if (!first) return;
  process.on("uncaughtException", (err, origin) => {
    if (origin === "uncaughtException" && isClientGone(err)) {
      const e = err as NodeJS.ErrnoException;
      guarded?.error("Stray stream error (the process keeps running)", { ...currentRoute(), code: e.code, message: e.message });
      return;
    }
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
