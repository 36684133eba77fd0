// The one HTTP error type of the API and the single handler that turns every thrown error into
// `{ "error": "..." }`. Handlers throw ApiError with the user-facing text; anything else is a bug,
// logged without request data (no bodies, no headers, so no passwords or tokens) and answered 500.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import { MSG } from "./messages";
import { CLIENT_GONE_STATUS, isClientGone } from "./http/client-gone";

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: ContentfulStatusCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.headers = headers;
  }
}

/** Where unexpected errors are reported: the pino logger of api/logging.ts (which redacts
 *  credentials), or a test's collector. */
export interface Logger {
  error(message: string, detail?: Record<string, unknown>): void;
  /** Things worth a look that are not failures (CSP violation reports); falls back to error. */
  warn?(message: string, detail?: Record<string, unknown>): void;
  /** Ordinary events (a client that went away mid-request); dropped when absent. */
  info?(message: string, detail?: Record<string, unknown>): void;
}

/** Builds Hono's onError handler. */
export function errorHandler(log: Logger) {
  return (err: Error, c: Context): Response => {
    if (err instanceof ApiError) {
      // An error with a cause is an upstream failure (e.g. Stripe unreachable): worth a log line.
      if (err.cause !== undefined) {
        log.error("Upstream service failed", { method: c.req.method, path: c.req.path, cause: String(err.cause) });
      }
      return c.json({ error: err.message }, err.status, { ...err.headers });
    }
    if (err instanceof HTTPException && err.status < 500) {
      // Raised by Hono's own middleware (e.g. the body limit); keep its status, use our texts.
      const message = err.status === 413 ? MSG.bodyTooLarge : err.message || MSG.notFound;
      return c.json({ error: message }, err.status as ContentfulStatusCode);
    }
    // A client that went away (a reset socket, a body cut short, an aborted request) is not a
    // failure of ours: one info line, and a 499 that nobody reads.
    if (isClientGone(err) || clientLeft(c)) {
      log.info?.("Client went away", { method: c.req.method, path: c.req.path, code: (err as NodeJS.ErrnoException)?.code ?? err?.name });
      return c.body(null, CLIENT_GONE_STATUS as StatusCode);
    }
    log.error("Unhandled API error", {
      method: c.req.method,
      path: c.req.path,
      name: err?.name,
      message: err?.message,
      stack: err?.stack,
    });
    return c.json({ error: MSG.serverError }, 500);
  };
}

/** True when the request's own signal says its client has gone. */
function clientLeft(c: Context): boolean {
  try {
    return c.req.raw.signal?.aborted === true;
  } catch {
    return false;
  }
}
