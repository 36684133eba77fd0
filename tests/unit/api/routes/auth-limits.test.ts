// Rate limits: login, code exchange and password reset 10/min per IP (login also 10 per 10 minutes
// per account and address, and 100 failures an hour per account across addresses),
// register and forgot-password 5 per 10 min per IP, each answering 429 with Retry-After;
// X-Forwarded-For only counts with TRUST_PROXY.
import { afterEach, describe, expect, it } from "vitest";
import { MSG } from "../../../../api/messages";
import { RateLimiter } from "../../../../api/services/rate-limit";
import { makeTestApp, sentMail, signUp, TestClock, type TestEnv } from "../helpers";

let env: TestEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

function post(e: TestEnv, path: string, body: unknown, ip?: string) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (ip) headers["X-Forwarded-For"] = ip;
  return Promise.resolve(e.app.request(path, { method: "POST", headers, body: JSON.stringify(body) }));
}

async function expect429(res: Response, retryAfter: number) {
  expect(res.status).toBe(429);
  expect(res.headers.get("Retry-After")).toBe(String(retryAfter));
  expect(await res.json()).toEqual({ error: MSG.tooManyRequests(retryAfter) });
}

describe("RateLimiter", () => {
  it("allows `limit` hits per sliding window and reports when the oldest expires", () => {
    const clock = new TestClock();
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000 }, clock.now);
    expect(limiter.hit("a")).toEqual({ ok: true });
    clock.advance(10_000);
    expect(limiter.hit("a").ok).toBe(true);
    expect(limiter.hit("a").ok).toBe(true);
    expect(limiter.hit("a")).toEqual({ ok: false, retryAfterSeconds: 50 });
    expect(limiter.hit("b").ok).toBe(true); // keys are independent
    clock.advance(50_000);
    expect(limiter.hit("a").ok).toBe(true); // the first hit left the window
    expect(limiter.hit("a").ok).toBe(false);
  });

  it("keeps memory bounded", () => {
    const clock = new TestClock();
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000 }, clock.now, 100);
    for (let i = 0; i < 1000; i++) limiter.hit(`k${i}`);
    expect(limiter.size).toBeLessThanOrEqual(101);
  });
});

describe("login limits", () => {
  it("10 attempts per minute per IP, then 429 with Retry-After; the window reopens", async () => {
    env = await makeTestApp();
    for (let i = 0; i < 10; i++) {
      const res = await post(env, "/api/auth/login", { email: `u${i}@example.com`, password: "whatever" });
      expect(res.status).toBe(404);
    }
    await expect429(await post(env, "/api/auth/login", { email: "z@example.com", password: "whatever" }), 60);
    env.clock.advance(30_000);
    await expect429(await post(env, "/api/auth/login", { email: "z@example.com", password: "whatever" }), 30);
    env.clock.advance(30_001);
    expect((await post(env, "/api/auth/login", { email: "z@example.com", password: "whatever" })).status).toBe(404);
  });

  it("10 attempts per 10 minutes per account from one address; the owner still signs in from another", async () => {
    env = await makeTestApp({ trustProxy: 1 });
    await signUp(env, "ada@example.com", "right password");
    for (let i = 0; i < 10; i++) {
      expect((await post(env, "/api/auth/login", { email: "ada@example.com", password: `wrong ${i}` }, "10.0.0.1")).status).toBe(401);
      env.clock.advance(6_001); // within the address's own 10 a minute
    }
    await expect429(await post(env, "/api/auth/login", { email: "ADA@example.com", password: "right password" }, "10.0.0.1"), 540);
    expect((await post(env, "/api/auth/login", { email: "ada@example.com", password: "right password" }, "10.0.9.9")).status).toBe(200);
  });

  it("after 10 wrong passwords from 10 addresses, the owner signs in from an 11th, again and again", async () => {
    env = await makeTestApp({ trustProxy: 1 });
    await signUp(env, "ada@example.com", "right password");
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 10; i++) {
        const res = await post(env, "/api/auth/login", { email: "ada@example.com", password: "wrong" }, `10.${round}.0.${i}`);
        expect(res.status).toBe(401);
      }
      const owner = await post(env, "/api/auth/login", { email: "ada@example.com", password: "right password" }, `10.${round}.1.1`);
      expect(owner.status).toBe(200);
    }
  });

  it("slows guessing at one account from many addresses: 100 failures an hour, then 429 for it alone", async () => {
    env = await makeTestApp({ trustProxy: 1 });
    await signUp(env, "ada@example.com", "right password");
    for (let i = 0; i < 100; i++) {
      const res = await post(env, "/api/auth/login", { email: "ada@example.com", password: "wrong" }, `10.1.${i >> 8}.${i & 255}`);
      expect(res.status).toBe(401);
    }
    await expect429(await post(env, "/api/auth/login", { email: "ada@example.com", password: "wrong" }, "10.2.0.1"), 3600);
    // Another account is not held up by it, and the window reopens.
    expect((await post(env, "/api/auth/login", { email: "bob@example.com", password: "x" }, "10.2.0.1")).status).toBe(404);
    env.clock.advance(3600_001);
    expect((await post(env, "/api/auth/login", { email: "ada@example.com", password: "right password" }, "10.2.0.2")).status).toBe(200);
  });
});

describe("register and forgot-password limits", () => {
  it("register: 5 per 10 minutes per IP", async () => {
    env = await makeTestApp();
    for (let i = 0; i < 5; i++) {
      expect((await post(env, "/api/auth/register", { email: `u${i}@example.com`, password: "sea glass 1" })).status).toBe(201);
    }
    await expect429(await post(env, "/api/auth/register", { email: "u9@example.com", password: "sea glass 1" }), 600);
    expect(await env.db.selectFrom("users").select("id").execute()).toHaveLength(5);
  });

  it("forgot-password: 5 per 10 minutes per IP", async () => {
    env = await makeTestApp();
    for (let i = 0; i < 5; i++) {
      expect((await post(env, "/api/auth/forgot-password", { email: "a@example.com" })).status).toBe(200);
    }
    env.clock.advance(60_000);
    await expect429(await post(env, "/api/auth/forgot-password", { email: "a@example.com" }), 540);
  });
});

describe("code exchange and password reset limits", () => {
  /** The code of the newest mail to `to` (a verification or recovery link). */
  async function codeFor(e: TestEnv, to: string): Promise<string> {
    const mail = (await sentMail(e)).filter((m) => m.to === to).at(-1)!;
    return new URL(mail.links[0]).searchParams.get("code")!;
  }

  it.each([
    ["/api/auth/exchange", (code: string) => ({ code })],
    ["/api/auth/reset-password", (code: string) => ({ token: code, password: "fresh password" })],
  ] as const)("%s: 10 per minute per IP, then 429 with Retry-After; a good code waits, unspent", async (path, bodyOf) => {
    env = await makeTestApp();
    await signUp(env, "ada@example.com", "old password");
    await post(env, "/api/auth/forgot-password", { email: "ada@example.com" });
    const code = await codeFor(env, "ada@example.com"); // a recovery code: both routes take it
    for (let i = 0; i < 10; i++) {
      expect((await post(env, path, bodyOf(`${"x".repeat(42)}${i}`))).status).toBe(400);
    }
    await expect429(await post(env, path, bodyOf(code)), 60);
    env.clock.advance(45_000);
    await expect429(await post(env, path, bodyOf(code)), 15);
    env.clock.advance(15_001);
    expect((await post(env, path, bodyOf(code))).status).toBe(200);
  });

  it("keys on the client address: another client is not held up", async () => {
    env = await makeTestApp({ trustProxy: 1 });
    for (let i = 0; i < 10; i++) await post(env, "/api/auth/exchange", { code: "junk" }, "203.0.113.7");
    expect((await post(env, "/api/auth/exchange", { code: "junk" }, "203.0.113.7")).status).toBe(429);
    expect((await post(env, "/api/auth/exchange", { code: "junk" }, "203.0.113.8")).status).toBe(400);
    expect((await post(env, "/api/auth/reset-password", { token: "junk", password: "fresh password" }, "203.0.113.7")).status).toBe(400);
  });
});

describe("client address", () => {
  it("ignores X-Forwarded-For unless TRUST_PROXY is set", async () => {
    env = await makeTestApp(); // no proxy: every request here shares the fallback address
    for (let i = 0; i < 5; i++) {
      await post(env, "/api/auth/forgot-password", { email: "a@example.com" }, `192.0.2.${i}`);
    }
    expect((await post(env, "/api/auth/forgot-password", { email: "a@example.com" }, "198.51.100.1")).status).toBe(429);
  });

  it("with TRUST_PROXY, keys on the address the proxy appended, not a forged first entry", async () => {
    env = await makeTestApp({ trustProxy: 1 });
    for (let i = 0; i < 5; i++) {
      await post(env, "/api/auth/forgot-password", { email: "a@example.com" }, `1.2.3.${i}, 203.0.113.7`);
    }
    const sameClient = await post(env, "/api/auth/forgot-password", { email: "a@example.com" }, "9.9.9.9, 203.0.113.7");
    expect(sameClient.status).toBe(429);
    const otherClient = await post(env, "/api/auth/forgot-password", { email: "a@example.com" }, "203.0.113.8");
    expect(otherClient.status).toBe(200);
  });
});
