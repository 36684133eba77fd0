// api/logging.ts: JSON lines, credentials redacted wherever a logged object carries them, the
// LOG_LEVEL parser, and the error handler's log line for a request that carried secrets.
import { Writable } from "node:stream";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { errorHandler } from "../../../api/errors";
import { createLogger, parseLogLevel, REDACTED, requestLog } from "../../../api/logging";

function capture() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _e, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const lines = () => chunks.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { destination, chunks, lines };
}

describe("createLogger", () => {
  it("writes JSON lines with level, time and message", () => {
    const { destination, lines } = capture();
    createLogger({ level: "info", destination }).info("hello", { n: 1 });
    expect(lines()).toEqual([expect.objectContaining({ level: "info", msg: "hello", n: 1, time: expect.stringMatching(/^\d{4}-/) })]);
  });

  it("redacts credential headers and password, token, secret and code fields at any depth logged", () => {
    const { destination, chunks, lines } = capture();
    const log = createLogger({ level: "info", destination });
    log.error("failed", {
      password: "pw-top-1",
      body: { email: "a@example.test", newPassword: "pw-nested-2", token: "tok-3", code: "123456" },
      req: { headers: { authorization: "Bearer jwt-4", cookie: "sid=cookie-5", "x-csrf-token": "csrf-6", "stripe-signature": "t=1,v1=sig-7" } },
      response: { headers: { "Set-Cookie": "sid=cookie-8" } },
      deep: { a: { b: { secret: "secret-9" } } },
    });
    const text = chunks.join("");
    for (const s of ["pw-top-1", "pw-nested-2", "tok-3", "123456", "jwt-4", "cookie-5", "csrf-6", "sig-7", "cookie-8", "secret-9"]) {
      expect(text).not.toContain(s);
    }
    const [line] = lines();
    expect(line.password).toBe(REDACTED);
    expect(line.body).toEqual({ email: "a@example.test", newPassword: REDACTED, token: REDACTED, code: REDACTED });
    expect((line.req as { headers: Record<string, string> }).headers.authorization).toBe(REDACTED);
  });

  it("writes nothing at silent and below its level", () => {
    const { destination, chunks } = capture();
    createLogger({ level: "silent", destination }).error("x");
    createLogger({ level: "warn", destination }).info("y");
    expect(chunks).toEqual([]);
  });
});

describe("LOG_LEVEL", () => {
  it("is info by default, silent under the test runner, and refuses unknown levels", () => {
    expect(parseLogLevel(undefined, {})).toBe("info");
    expect(parseLogLevel("", { VITEST: "true" })).toBe("silent");
    expect(parseLogLevel(" DEBUG ", {})).toBe("debug");
    expect(() => parseLogLevel("loud", {})).toThrow('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"');
  });
});

describe("a failing request that carried secrets", () => {
  it("logs the error and the request line without its password, bearer token or query string", async () => {
    const { destination, chunks, lines } = capture();
    const log = createLogger({ level: "info", destination });
    const app = new Hono();
    app.use("*", requestLog(log));
    app.onError(errorHandler(log));
    app.post("/api/auth/login", async (c) => {
      await c.req.json();
      throw new Error("database exploded");
    });
    const res = await app.request("/api/auth/login?reset_token=tok-in-query", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer eyJ.secret.jwt" },
      body: JSON.stringify({ email: "a@example.test", password: "hunter2-Password" }),
    });
    expect(res.status).toBe(500);
    const text = chunks.join("");
    for (const s of ["hunter2-Password", "eyJ.secret.jwt", "tok-in-query"]) expect(text).not.toContain(s);
    expect(lines().map((l) => [l.level, l.msg, l.path, l.status ?? null])).toEqual([
      ["error", "Unhandled API error", "/api/auth/login", null],
      ["info", "request", "/api/auth/login", 500],
    ]);
  });
});
