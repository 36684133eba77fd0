// The server's structured log: JSON lines (pino) on stdout, the level from LOG_LEVEL (info by
// default, silent under the test runner), secrets redacted wherever they appear in a logged
// object (credential headers; password, token, secret and code fields), and one line per request
// (method, path without its query string - download tokens travel there -, status, duration,
// request id). The Logger interface of api/errors.ts is what the app's services see.
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import pino, { type DestinationStream, type LevelWithSilent, type Logger as PinoLogger } from "pino";
import type { Logger } from "./errors";
import { editResponseHeaders } from "./http/response-headers";

export const LOG_LEVELS: readonly LevelWithSilent[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** Request headers that carry credentials. */
export const SECRET_HEADERS = ["authorization", "cookie", "set-cookie", "x-csrf-token", "stripe-signature"] as const;

/** Fields that hold a credential whatever object they sit in (request bodies, error details). */
export const SECRET_FIELDS = [
  "password",
  "currentPassword",
  "newPassword",
  "token",
  "accessToken",
  "refreshToken",
  "secret",
  "clientSecret",
  "code",
  "apiKey",
] as const;

export const REDACTED = "[redacted]";

function titleCase(header: string): string {
  return header.replace(/(^|-)([a-z])/g, (_, dash: string, ch: string) => dash + ch.toUpperCase());
}

/** pino's redact paths: the fields at the top and up to three levels down, and the headers under
 *  any `headers` object up to two levels down (req.headers, detail.response.headers). */
export const REDACT_PATHS: readonly string[] = [
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `*.*.*.${f}`]),
  ...SECRET_HEADERS.flatMap((h) => [h, titleCase(h)]).flatMap((h) => [
    `headers["${h}"]`,
    `*.headers["${h}"]`,
    `*.*.headers["${h}"]`,
  ]),
];

/** LOG_LEVEL: one of pino's levels; unset = info, or silent when running under vitest. */
export function parseLogLevel(value: string | undefined, env: NodeJS.ProcessEnv = process.env): LevelWithSilent {
  const v = (value ?? "").trim().toLowerCase();
  if (v === "") return env.VITEST ? "silent" : "info";
  if ((LOG_LEVELS as readonly string[]).includes(v)) return v as LevelWithSilent;
  throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${value}"`);
}

export interface AppLogger extends Logger {
  info(message: string, detail?: Record<string, unknown>): void;
  warn(message: string, detail?: Record<string, unknown>): void;
  /** One request line (requestLog's own fields only: written without the redaction walk). */
  request(detail: { requestId: string; method: string; path: string; status: number; ms: number }): void;
  /** The pino instance underneath (for child loggers and flushing). */
  readonly pino: PinoLogger;
}

export interface LoggerOptions {
  /** Default: LOG_LEVEL from the environment (parseLogLevel). */
  level?: LevelWithSilent;
  /** Default: stdout. Tests pass a stream to read the lines. */
  destination?: DestinationStream;
}

/** Stdout written in batches of 4 KiB rather than a write per line (under load a write per request
 *  line cost about a fifth of a cached read's throughput), flushed at least every second so an idle
 *  server's last lines still appear promptly, and synchronously at exit. A SIGKILL can lose up to
 *  one second of lines. */
function bufferedStdout(): DestinationStream {
  const out = pino.destination({ fd: 1, sync: false, minLength: 4096 });
  setInterval(() => out.flush(), 1000).unref();
  process.once("exit", () => {
    try {
      out.flushSync();
    } catch {
      // stdout already closed
    }
  });
  return out;
}

export function createLogger(options: LoggerOptions = {}): AppLogger {
  const destination = options.destination ?? bufferedStdout();
  const settings = {
    level: options.level ?? parseLogLevel(process.env.LOG_LEVEL),
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  const instance = pino({ ...settings, redact: { paths: [...REDACT_PATHS], censor: REDACTED } }, destination);
  // The request lines carry only fields requestLog builds itself (ids, method, path without its
  // query, status, ms), so they skip the redaction walk: with these wildcard paths it cost about
  // 125 us a line, half the throughput of a cached read (measured: 1,300 against 2,450 req/s).
  const plain = pino(settings, destination);
  return {
    pino: instance,
    error: (message, detail) => instance.error(detail ?? {}, message),
    warn: (message, detail) => instance.warn(detail ?? {}, message),
    info: (message, detail) => instance.info(detail ?? {}, message),
    request: (detail) => plain.info(detail, "request"),
  };
}

/** The logger of code that gets none passed in (createApp without a logger). */
let fallback: AppLogger | null = null;
export function defaultLogger(): AppLogger {
  return (fallback ??= createLogger());
}

const REQUEST_ID = /^[\w.:-]{1,64}$/;

/** One info line per request: method, path (no query string), status, duration in ms and a
 *  request id (the caller's X-Request-Id when it is a short plain token, else a new UUID), which
 *  the response echoes in X-Request-Id. */
export function requestLog(log: AppLogger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    try {
      await next();
    } finally {
      editResponseHeaders(c, (headers) => headers.set("X-Request-Id", requestId));
      log.request({
        requestId,
        method: c.req.method,
        path: c.req.path.slice(0, 512),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    }
  };
}
