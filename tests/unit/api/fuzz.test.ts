// Property-based robustness: no route (shared presets included) answers 5xx (or logs an unexpected error) for malformed
// JSON, wrong types, huge strings or SQL-looking strings; every failure is a JSON {error} 4xx and
// the database survives intact.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { presetData } from "../../../dsp/host/preset";
import { defaultAudioState } from "../../../dsp/host/state";
import { signUp } from "./helpers";
import { makePaymentsApp, type PaymentsEnv, PRICES } from "./payments-setup";

const ONE_MIB = "a".repeat(1024 * 1024);
const SQLISH = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "admin@example.com'--",
  "1; SELECT * FROM sessions",
  "%' UNION SELECT password_hash FROM users --",
  "\\'; DELETE FROM one_time_tokens; --",
];

const POST_ROUTES: Record<string, string[]> = {
  "/api/auth/register": ["email", "password", "confirmPassword", "fullName", "name"],
  "/api/auth/login": ["email", "password"],
  "/api/auth/logout": [],
  "/api/auth/verify-email": ["token"],
  "/api/auth/forgot-password": ["email"],
  "/api/auth/reset-password": ["token", "password", "confirmPassword"],
  "/api/auth/update-password": ["newPassword", "confirmNewPassword"],
  "/api/auth/exchange": ["code"],
  "/api/stripe/create-checkout-session": ["priceId", "mode"],
  "/api/handle-guest-checkout": ["session_id"],
  "/api/stripe/verify-checkout-session": ["sessionId"],
  "/api/stripe/create-customer-portal-session": ["return_url"],
  "/api/stripe/webhook": ["id", "type", "data"],
  "/api/demo/start": ["durationMinutes"],
  "/api/presets/user": ["name", "data"],
};
const GET_ROUTES = [
  "/api/health", "/api/user/profile", "/api/auth/verify-email", "/api/plans", "/api/demo/status", "/api/nope",
  "/api/presets/AAAAAAAAAAAAAAAAAAAAAA", "/api/presets/bad$id",
];

const sqlish = fc.constantFrom(...SQLISH);
const weirdString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  sqlish,
  fc.constant(""),
  fc.constant("a@b.co"),
  fc.constant("valid password"),
  fc.constant(ONE_MIB),
  // values that reach past validation on the payment and demo routes
  fc.constantFrom(PRICES.monthly, PRICES.oneDay, "payment", "subscription", "cs_test_000001", "http://studio.test/app"),
);
const anyNumber = fc.oneof(fc.constant(10), fc.integer(), fc.double());
/** Preset data with one field replaced by anything: reaches past the preset route's validation. */
const presetish = fc
  .record({ field: fc.constantFrom("channels", "effects", "duration", "none"), value: fc.jsonValue({ maxDepth: 3 }) })
  .map(({ field, value }) => (field === "none" ? presetData(defaultAudioState()) : { ...presetData(defaultAudioState()), [field]: value }));
const anyValue = fc.oneof(weirdString, anyNumber, fc.jsonValue({ maxDepth: 2 }), fc.constant(null), presetish);

function bodyFor(fields: string[]) {
  const keyed = fields.length
    ? fc.record(Object.fromEntries(fields.map((f) => [f, anyValue])), { requiredKeys: [] }).map((o) => JSON.stringify(o))
    : fc.constant("{}");
  return fc.oneof(
    keyed,
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 60 }), // mostly malformed JSON
    sqlish,
    fc.constantFrom("", "{", "[1,2", '{"email":}', "null", "\u0000", `{"email":"${ONE_MIB}"}`),
  );
}

/** HTTP header values are bytes: keep Latin-1 printable characters, as a real client must. */
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");

// Payments are configured (against the fake Stripe server) so the payment routes run past their 503.
let env: PaymentsEnv;
let token: string;
let proToken: string;
beforeAll(async () => {
  env = await makePaymentsApp();
  ({ token } = await signUp(env, "fuzz@example.com", "fuzz password"));
  const pro = await signUp(env, "fuzz-pro@example.com", "fuzz password");
  proToken = pro.token;
  const now = env.clock.now().toISOString();
  const end = new Date(env.clock.ms + 365 * 86_400_000).toISOString();
  await env.db
    .insertInto("subscriptions")
    .values({ id: "fuzz-sub", user_id: pro.userId, plan_name: "Monthly Plan", status: "active", current_period_end: end, created_at: now, updated_at: now })
    .execute();
});
afterAll(async () => {
  await env.close();
});

const seen = new Set<number>();

async function expectClientError(res: Response) {
  seen.add(res.status);
  expect(res.status).toBeLessThan(500);
  expect(res.headers.get("content-type") ?? "").toContain("application/json");
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status >= 400) expect(typeof body.error).toBe("string");
}

describe("no route answers 5xx to hostile input", () => {
  it("POST routes: arbitrary bodies, with and without a session", async () => {
    const route = fc.constantFrom(...Object.keys(POST_ROUTES));
    const input = route.chain((path) =>
      fc.record({
        path: fc.constant(path),
        body: bodyFor(POST_ROUTES[path]),
        auth: fc.oneof(fc.constant(undefined), fc.constant("valid"), fc.constant("pro"), weirdString),
        contentType: fc.constantFrom("application/json", "text/plain", undefined),
      }),
    );
    await fc.assert(
      fc.asyncProperty(input, async ({ path, body, auth, contentType }) => {
        env.clock.advance(11 * 60_000); // keep rate limits from hiding the deeper code paths
        const headers: Record<string, string> = {};
        if (contentType) headers["Content-Type"] = contentType;
        const bearer = auth === "valid" ? token : auth === "pro" ? proToken : auth === undefined ? undefined : headerSafe(auth);
        if (bearer !== undefined) headers.Authorization = `Bearer ${bearer}`;
        if (path === "/api/stripe/webhook") headers["Stripe-Signature"] = `t=${Math.floor(env.clock.ms / 1000)},v1=${"0".repeat(64)}`;
        const res = await env.app.request(path, { method: "POST", headers, body });
        await expectClientError(res);
      }),
      { numRuns: 600 },
    );
    expect(env.errors).toEqual([]);
    // the generators reach past validation too, not only the 400 path
    for (const status of [200, 400, 401, 413]) expect(seen).toContain(status);
  });

  it("GET routes: arbitrary query strings and Authorization headers", async () => {
    const input = fc.record({
      path: fc.constantFrom(...GET_ROUTES),
      token: fc.oneof(weirdString, fc.constant(undefined)),
      auth: fc.oneof(weirdString, fc.constant(undefined)),
    });
    await fc.assert(
      fc.asyncProperty(input, async ({ path, token: q, auth }) => {
        const url = q === undefined ? path : `${path}?token=${encodeURIComponent(q)}`;
        const headers: Record<string, string> = auth === undefined ? {} : { Authorization: `Bearer ${headerSafe(auth)}` };
        const res = await env.app.request(url, { headers });
        await expectClientError(res);
      }),
      { numRuns: 200 },
    );
    expect(env.errors).toEqual([]);
  });

  it("POST /api/presets/user: arbitrary names and data from a Pro account", async () => {
    // A fresh session: the property above may have signed the first one out (POST /api/auth/logout).
    const login = await env.app.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "fuzz-pro@example.com", password: "fuzz password" }),
    });
    const { token: pro } = (await login.json()) as { token: string };
    const statuses = new Set<number>();
    const input = fc.record({
      name: fc.oneof(weirdString, fc.constant("My preset"), fc.constant(undefined)),
      data: fc.oneof(presetish, fc.jsonValue({ maxDepth: 4 }), fc.anything({ maxDepth: 3 }).map((v) => (v === undefined ? null : v))),
    });
    await fc.assert(
      fc.asyncProperty(input, async (body) => {
        env.clock.advance(31_000); // 20 shares per 10 minutes: never rate-limited here
        const res = await env.app.request("/api/presets/user", {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${pro}` },
          body: JSON.stringify(body),
        });
        statuses.add(res.status);
        await expectClientError(res);
      }),
      { numRuns: 300 },
    );
    expect(env.errors).toEqual([]);
    for (const status of [201, 400]) expect(statuses).toContain(status);
  });

  it("GET /api/presets/{id}: arbitrary ids", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(weirdString, fc.string({ unit: "binary", maxLength: 80 })), async (id) => {
        const res = await env.app.request(`/api/presets/${encodeURIComponent(id)}`);
        await expectClientError(res);
        expect([200, 400, 404]).toContain(res.status);
      }),
      { numRuns: 200 },
    );
    expect(env.errors).toEqual([]);
  });

  it("the database is intact afterwards and SQL-looking e-mails are plain data", async () => {
    const users = await env.db.selectFrom("users").select("email").execute();
    expect(users.map((u) => u.email)).toContain("fuzz@example.com");
    const res = await env.app.request("/api/auth/login", {
      method: "POST",
      body: JSON.stringify({ email: "fuzz@example.com", password: "' OR '1'='1" }),
    });
    expect(res.status).toBe(401);
    expect((await env.app.request("/api/health")).status).toBe(200);
  });
});
