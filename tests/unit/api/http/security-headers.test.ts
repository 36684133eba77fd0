// The security policy of api/http/security-headers.ts: its headers on every kind of response the
// real server sends (API JSON, API errors, the web app's files, a missing asset, a range read of a
// marketplace preview), HSTS only over https (X-Forwarded-Proto only with TRUST_PROXY), CORS
// closed to other origins, cookies hardened (and none sent by the API), and POST /api/csp-report.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorHandler } from "../../../../api/errors";
import { CONTENT_SECURITY_POLICY, HSTS, SECURITY_HEADERS, securityHeaders } from "../../../../api/http/security-headers";
import { createLogger } from "../../../../api/logging";
import { MSG } from "../../../../api/messages";
import { RATE_RULES } from "../../../../api/services/rate-limit";
import { type RunningServer, startServer } from "../../../../api/server";
import { makeTestApp, PUBLIC_URL, type TestEnv } from "../helpers";
import { Writable } from "node:stream";

const EVIL = "https://evil.example";

function expectPolicy(res: Response, what: string): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name), `${what}: ${name}`).toBe(value);
  expect(res.headers.get("access-control-allow-origin"), what).toBeNull();
}

describe("the Content-Security-Policy", () => {
  it("allows only the app's own scripts, worklets, workers and wasm, and no framing", () => {
    const directives = Object.fromEntries(CONTENT_SECURITY_POLICY.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));
    expect(directives["script-src"]).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives["worker-src"]).toEqual(["'self'", "blob:"]);
    expect(directives["connect-src"]).toEqual(["'self'"]);
    expect(directives["style-src"]).toEqual(["'self'"]);
    expect(directives["object-src"]).toEqual(["'none'"]);
    expect(directives["frame-ancestors"]).toEqual(["'none'"]);
    expect(directives["base-uri"]).toEqual(["'self'"]);
    expect(directives["form-action"]).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*/);
  });
});

describe("on the real server", () => {
  let root: string;
  let server: RunningServer;
  let proxied: RunningServer;
  const logged: string[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "studio-security-"));
    const distDir = join(root, "dist");
    mkdirSync(join(distDir, "assets"), { recursive: true });
    writeFileSync(join(distDir, "index.html"), "<!doctype html><title>Tone Studio</title>");
    writeFileSync(join(distDir, "assets", "app-1a2b.js"), "export {}");
    const destination = new Writable({
      write(chunk: Buffer, _e, done) {
        logged.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ level: "info", destination });
    // The shipped marketplace sounds give a preview to read with a range.
    server = await startServer({ port: 0, host: "127.0.0.1", dataDir: join(root, "a"), distDir, log: () => {}, logger });
    proxied = await startServer({ port: 0, host: "127.0.0.1", dataDir: join(root, "b"), distDir, log: () => {}, logger, trustProxy: 1, seedMarketplace: false });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await proxied?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("sends the policy on API answers, API errors, the web app's files and a missing asset", async () => {
    const cases: [string, RequestInit, number][] = [
      ["/api/health", {}, 200],
      ["/api/does-not-exist", {}, 404],
      ["/api/user/profile", {}, 401],
      ["/api/auth/login", { method: "POST", body: "{not json", headers: { "Content-Type": "application/json" } }, 400],
      ["/", {}, 200],
      ["/studio/route", {}, 200],
      ["/assets/app-1a2b.js", {}, 200],
      ["/assets/missing.js", {}, 404],
    ];
    for (const [path, init, status] of cases) {
      const res = await fetch(server.url + path, init);
      expect(res.status, path).toBe(status);
      expectPolicy(res, path);
      expect(res.headers.get("strict-transport-security"), path).toBeNull();
      await res.arrayBuffer();
    }
  });

  it("sends it on range reads of a preview (206 and 416)", async () => {
    let sounds: { id: string }[] = [];
    for (let i = 0; i < 100 && sounds.length === 0; i++) {
      sounds = ((await (await fetch(`${server.url}/api/marketplace/sounds`)).json()) as { sounds: { id: string }[] }).sounds;
      if (sounds.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(sounds.length).toBeGreaterThan(0);
    const url = `${server.url}/api/marketplace/sounds/${sounds[0].id}/preview`;
    const part = await fetch(url, { headers: { Range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    expectPolicy(part, "206");
    const outside = await fetch(url, { headers: { Range: "bytes=999999999-" } });
    expect(outside.status).toBe(416);
    expectPolicy(outside, "416");
    await outside.arrayBuffer();
  });

  it("sends HSTS behind a trusted proxy that saw https, and not for a forged header without TRUST_PROXY", async () => {
    const viaHttps = await fetch(`${proxied.url}/api/health`, { headers: { "X-Forwarded-Proto": "https" } });
    expect(viaHttps.headers.get("strict-transport-security")).toBe(HSTS);
    const viaHttp = await fetch(`${proxied.url}/api/health`, { headers: { "X-Forwarded-Proto": "http" } });
    expect(viaHttp.headers.get("strict-transport-security")).toBeNull();
    const forged = await fetch(`${server.url}/api/health`, { headers: { "X-Forwarded-Proto": "https" } });
    expect(forged.headers.get("strict-transport-security")).toBeNull();
  });

  it("logs one JSON line per request without the query string, a password or a bearer token", async () => {
    const password = "correct-Horse-battery-77";
    const reg = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "logs@example.test", password, confirmPassword: password, fullName: "Log Test" }),
    });
    expect(reg.status).toBe(201);
    const { token } = (await reg.json()) as { token: string };
    const profile = await fetch(`${server.url}/api/user/profile?download_token=query-secret-123`, {
      headers: { Authorization: `Bearer ${token}`, "X-Request-Id": "req-42" },
    });
    expect(profile.status).toBe(200);
    expect(profile.headers.get("x-request-id")).toBe("req-42");
    await new Promise((r) => setTimeout(r, 50));
    const lines = logged.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l.requestId === "req-42");
    expect(line).toMatchObject({ level: "info", msg: "request", method: "GET", path: "/api/user/profile", status: 200 });
    expect(typeof line?.ms).toBe("number");
    expect(lines.find((l) => l.msg === "request" && l.path === "/api/auth/register")).toMatchObject({ method: "POST", status: 201 });
    const all = logged.join("");
    for (const secret of [password, token, "query-secret-123"]) expect(all).not.toContain(secret);
  });
});

describe("the middleware", () => {
  function appWith(trustProxy: number) {
    const app = new Hono();
    app.use("*", securityHeaders({ trustProxy }));
    app.onError(errorHandler({ error: () => {} }));
    app.get("/boom", () => {
      throw new Error("bug");
    });
    app.get("/cookies", (c) => {
      c.header("Set-Cookie", "plain=1", { append: true });
      c.header("Set-Cookie", "strict=2; Path=/; Secure; HttpOnly; SameSite=Strict", { append: true });
      return c.text("ok");
    });
    // Headers edited in place (api/http/response-headers.ts): a Response a route builds itself,
    // and one whose headers are immutable (Response.redirect), which goes through hono's copy.
    app.get("/raw", () => new Response("raw", { headers: { "Set-Cookie": "raw=1" } }));
    app.get("/moved", () => Response.redirect("http://studio.test/elsewhere", 302));
    return app;
  }

  it("puts the policy on a Response a route built itself, and on one with immutable headers", async () => {
    const raw = await appWith(0).request("/raw");
    expectPolicy(raw, "raw Response");
    expect(raw.headers.getSetCookie()).toEqual(["raw=1; HttpOnly; SameSite=Lax"]);
    expect(await raw.text()).toBe("raw");
    const moved = await appWith(0).request("https://studio.test/moved");
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("http://studio.test/elsewhere");
    expectPolicy(moved, "redirect");
    expect(moved.headers.get("strict-transport-security")).toBe(HSTS);
  });

  it("puts the policy on a 500 from the error handler", async () => {
    const res = await appWith(0).request("/boom");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: MSG.serverError });
    expectPolicy(res, "500");
  });

  it("sends HSTS when the request itself came over https", async () => {
    expect((await appWith(0).request("https://studio.test/boom")).headers.get("strict-transport-security")).toBe(HSTS);
    expect((await appWith(0).request("http://studio.test/boom")).headers.get("strict-transport-security")).toBeNull();
  });

  it("takes X-Forwarded-Proto from the trusted hop, counted from the right", async () => {
    const twoHops = appWith(2);
    const h = (proto: string) => ({ headers: { "X-Forwarded-Proto": proto } });
    expect((await twoHops.request("/boom", h("http, https"))).headers.get("strict-transport-security")).toBeNull();
    expect((await twoHops.request("/boom", h("https, http"))).headers.get("strict-transport-security")).toBe(HSTS);
  });

  it("makes every cookie HttpOnly and SameSite, and Secure on https", async () => {
    const overHttp = (await appWith(0).request("http://studio.test/cookies")).headers.getSetCookie();
    expect(overHttp).toEqual(["plain=1; HttpOnly; SameSite=Lax", "strict=2; Path=/; Secure; HttpOnly; SameSite=Strict"]);
    const overHttps = (await appWith(0).request("https://studio.test/cookies")).headers.getSetCookie();
    expect(overHttps).toEqual(["plain=1; HttpOnly; SameSite=Lax; Secure", "strict=2; Path=/; Secure; HttpOnly; SameSite=Strict"]);
  });
});

describe("the API (app.request)", () => {
  let e: TestEnv;
  beforeAll(async () => {
    e = await makeTestApp();
  });
  afterAll(() => e.close());

  const register = (email: string, headers: Record<string, string> = {}) =>
    e.app.request("/api/auth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify({ email, password: "tone-Studio-42", confirmPassword: "tone-Studio-42", fullName: "Origin Test" }),
    });

  it("refuses preflights from other origins with 403 and no Access-Control-Allow-* header", async () => {
    const res = await e.app.request("/api/auth/login", {
      method: "OPTIONS",
      headers: { Origin: EVIL, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, authorization" },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: MSG.crossOrigin });
    for (const [name] of res.headers) expect(name).not.toMatch(/^access-control-/);
  });

  it("refuses writes from other origins (and from an opaque 'null' origin) without touching the database", async () => {
    for (const origin of [EVIL, "null", "http://studio.test:8443"]) {
      const res = await register(`evil-${origin.length}@example.test`, { Origin: origin });
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toEqual({ error: MSG.crossOrigin });
    }
    expect(await e.db.selectFrom("users").select("email").where("email", "like", "evil-%").execute()).toEqual([]);
  });

  it("answers a cross-origin read without Access-Control-Allow-Origin, so the browser hides it", async () => {
    const res = await e.app.request("/api/marketplace/sounds", { headers: { Origin: EVIL } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("serves the same origin (PUBLIC_URL or the request's own), and clients that send no Origin", async () => {
    expect((await register("public@example.test", { Origin: new URL(PUBLIC_URL).origin })).status).toBe(201);
    const own = await e.app.request("http://localhost:5173/api/auth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://localhost:5173" },
      body: JSON.stringify({ email: "own@example.test", password: "tone-Studio-42", confirmPassword: "tone-Studio-42", fullName: "Own" }),
    });
    expect(own.status).toBe(201);
    expect((await register("curl@example.test")).status).toBe(201);
  });

  it("counts a trusted proxy's https in the request's own origin", async () => {
    const proxied = await makeTestApp({ trustProxy: 1 });
    try {
      const send = (proto: string) =>
        proxied.app.request("http://studio.example/api/auth/register", {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: "https://studio.example", "X-Forwarded-Proto": proto },
          body: JSON.stringify({ email: `tls-${proto}@example.test`, password: "tone-Studio-42", confirmPassword: "tone-Studio-42", fullName: "TLS" }),
        });
      expect((await send("https")).status).toBe(201);
      expect((await send("http")).status).toBe(403);
    } finally {
      await proxied.close();
    }
  });

  it("sets no cookie: sign-up, sign-in, profile and sign-out answer without Set-Cookie", async () => {
    const reg = await register("cookies@example.test");
    const { token } = (await reg.json()) as { token: string };
    const login = await e.app.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "cookies@example.test", password: "tone-Studio-42" }),
    });
    expect(login.status).toBe(200);
    const auth = { Authorization: `Bearer ${token}` };
    const profile = await e.app.request("/api/user/profile", { headers: auth });
    const logout = await e.app.request("/api/auth/logout", { method: "POST", headers: auth });
    for (const res of [reg, login, profile, logout]) expect(res.headers.getSetCookie()).toEqual([]);
    expect(logout.status).toBeLessThan(300);
  });
});

describe("POST /api/csp-report", () => {
  let e: TestEnv;
  const warnings: { message: string; detail?: Record<string, unknown> }[] = [];
  beforeAll(async () => {
    e = await makeTestApp();
    // makeTestApp's logger collects errors only; hear the warnings too.
    Object.assign(e.app.services.log, { warn: (message: string, detail?: Record<string, unknown>) => warnings.push({ message, detail }) });
  });
  afterAll(() => e.close());

  const report = (body: unknown, type = "application/csp-report", ip = "198.51.100.7") =>
    e.app.request("/api/csp-report", {
      method: "POST",
      headers: { "Content-Type": type, "X-Forwarded-For": ip },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  it("logs the directive and the blocked origin only, for both report formats", async () => {
    const classic = await report({
      "csp-report": {
        "document-uri": "http://studio.test/api/marketplace/sounds/1/download?token=doc-secret",
        "effective-directive": "script-src-elem",
        "blocked-uri": "https://cdn.evil.example/x.js?token=blocked-secret",
      },
    });
    expect(classic.status).toBe(204);
    const modern = await report(
      [{ type: "csp-violation", body: { effectiveDirective: "script-src", blockedURL: "eval", documentURL: "http://studio.test/?t=x" } }],
      "application/reports+json",
    );
    expect(modern.status).toBe(204);
    expect(warnings).toEqual([
      { message: "CSP violation", detail: { directive: "script-src-elem", blocked: "https://cdn.evil.example" } },
      { message: "CSP violation", detail: { directive: "script-src", blocked: "eval" } },
    ]);
    expect(JSON.stringify(warnings)).not.toMatch(/secret/);
  });

  it("answers 400 to a body that is no report and 413 beyond 8 KiB", async () => {
    const bad = await report({ hello: "world" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: MSG.cspReportInvalid });
    const big = await report({ "csp-report": { "blocked-uri": "x".repeat(9000) } });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: MSG.bodyTooLarge });
  });

  it("is rate-limited per client", async () => {
    const body = { "csp-report": { "effective-directive": "img-src", "blocked-uri": "data" } };
    // No TRUST_PROXY in the test app: every request here shares one client key.
    const statuses: number[] = [];
    for (let i = 0; i < RATE_RULES.cspReportPerIp.limit + 1; i++) statuses.push((await report(body)).status);
    expect(statuses[0]).toBe(204);
    expect(statuses.at(-1)).toBe(429);
    const limited = await report(body);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
