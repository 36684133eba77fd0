// Property-based fuzzing of every API route. The routes are read from the Hono app
// itself (app.routes: method and path pattern, middleware included), so a route added later is
// fuzzed without editing this file. For each one, as anonymous, a free user, a Pro subscriber and
// an admin with the override on: path parameters filled with real ids, odd e-mails, %-sequences,
// long and unicode strings; random query strings; random headers (Content-Type, Authorization
// shapes, X-CSRF-Token, Range, X-Requested-With, Stripe-Signature, correctly signed ones included);
// random bodies (JSON of any shape, known-good bodies with one place changed, broken JSON, huge
// strings, raw bytes, multipart). The properties: never a 5xx; every error answer is JSON
// {"error": text}; no unhandled rejection; afterwards GET /api/health answers 200 and the SQLite
// file passes PRAGMA integrity_check.
//
// Reproducing a failure: the run is seeded (FUZZ_SEED, default below; each route's seed is derived
// from it and the route) and the failure message prints the seed and fast-check's path, e.g.
//   FUZZ_SEED=20261123 npx vitest run tests/unit/api/fuzz.test.ts -t "POST /api/presets/user"
// FUZZ_RUNS sets the runs per route (default 300, twice that for routes with known-good bodies or
// ids that exist: about 50 s for the file on the 2-core CI machine).
import { join } from "node:path";
import SQLite from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "./helpers";
import { bodyArb, headerArb, pathValueArb, queryArb } from "./fuzz/arbitraries";
import { ADMIN_EMAIL, FREE_EMAIL, fillPath, IDENTITIES, isApiPath, makeFuzzEnv, PRO_EMAIL, paramsOf, problemWith, type Route, routeKey, routesOf, send } from "./fuzz/env";

const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** A stable per-route seed: adding a route does not change the inputs of the others. */
function seedOf(route: Route): number {
  let h = BASE_SEED | 0;
  for (const ch of routeKey(route)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

// Crashes that escape a request (a stream error nobody awaits, a timer throwing) land here.
const escaped: unknown[] = [];
const onEscape = (err: unknown) => escaped.push(err);
process.on("unhandledRejection", onEscape);
process.on("uncaughtException", onEscape);

const env = await makeFuzzEnv();
const routes = routesOf(env.app);
/** Statuses seen per route: printed at the end, so a run shows how deep it reached. */
const statuses = new Map<string, Map<number, number>>();

afterAll(async () => {
  process.off("unhandledRejection", onEscape);
  process.off("uncaughtException", onEscape);
  await env.close();
});

/** The known values this route finds when they fill all its parameters (asked as the admin):
 *  fuzzing leans on them, so the code behind the lookup is reached, not only the 404. */
async function liveValues(route: Route): Promise<string[]> {
  const n = paramsOf(route.path).length;
  if (n === 0) return [];
  const method = route.method === "ALL" ? "GET" : route.method;
  const live: string[] = [];
  for (const value of env.known) {
    const url = fillPath(route.path, Array.from({ length: n }, () => ({ value, how: "encoded" as const })));
    const res = await send(env, "admin", {
      method,
      url,
      headers: { auth: "bearer", contentType: "natural", csrf: "real", range: null, requestedWith: null, stripeSignature: "none", extra: [] },
      body: { kind: "none" },
    });
    await res.body?.cancel();
    if (res.status !== 404 && res.status !== 400) live.push(value);
  }
  return live;
}

async function fuzzRoute(route: Route): Promise<void> {
  const key = routeKey(route);
  const seen = new Map<number, number>();
  statuses.set(key, seen);
  env.errors.length = 0; // what the error handler logs is checked per route
  const nParams = paramsOf(route.path).length;
  const live = await liveValues(route);
  const examples = env.examples[key] ?? [];
  const input = fc.record({
    identity: fc.constantFrom(...IDENTITIES),
    method: route.method === "ALL" ? fc.constantFrom(...METHODS) : fc.constant(route.method),
    params: fc.array(pathValueArb(env.known, live), { minLength: nParams, maxLength: nParams }),
    query: queryArb(env.known),
    headers: headerArb,
    body: bodyArb(env.known, examples),
  });
  // Routes with more to reach (known-good bodies, ids that exist) get twice the runs.
  const numRuns = examples.length > 0 || live.length > 0 ? 2 * RUNS : RUNS;
  const seed = seedOf(route);
  try {
    await fc.assert(
      fc.asyncProperty(input, async ({ identity, method, params, query, headers, body }) => {
        const url = fillPath(route.path, params) + query;
        const res = await send(env, identity, { method, url, headers, body });
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        const problem = await problemWith(res, method, isApiPath(url));
        if (problem) throw new Error(`${method} ${url.slice(0, 200)} as ${identity}: ${problem}`);
        await env.app.settle();
        if (escaped.length > 0) {
          // Taken out of the list, so fast-check's shrinking runs start clean and the counterexample is the cause.
          const [first] = escaped.splice(0);
          throw new Error(`unhandled: ${first instanceof Error ? first.stack : String(first)}`);
        }
      }),
      { numRuns, seed },
    );
  } catch (err) {
    // fast-check's message already names the seed and path of this route's property; add how to rerun.
    const rerun = `FUZZ_SEED=${BASE_SEED} npx vitest run tests/unit/api/fuzz.test.ts -t "${key}"`;
    throw new Error(`${key} (route seed ${seed}; rerun: ${rerun})\n${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  // Logged as a bug by the error handler even if a status slipped through as < 500.
  expect(env.errors.filter((e) => e === "Unhandled API error")).toEqual([]);
  expect((await env.app.request("/api/health")).status).toBe(200);
}

describe("fuzzing every route of the app", () => {
  it("reads the routes from the app itself", () => {
    const keys = routes.map(routeKey);
    // A few that must be there, so an empty or broken enumeration cannot pass.
    for (const k of ["GET /api/health", "POST /api/marketplace/upload-direct", "GET /api/admin/check-user-access/:email", "POST /api/stripe/webhook", "ALL /api/*"]) {
      expect(keys).toContain(k);
    }
    expect(routes.length).toBeGreaterThan(35);
  });

  for (const route of routes) {
    it(`${routeKey(route)}: never a 5xx, errors are JSON {error}`, () => fuzzRoute(route), 120_000);
  }

  it("afterwards: health answers 200, the database file opens and passes integrity_check", async () => {
    expect(escaped).toEqual([]);
    const health = await env.app.request("/api/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    // On PostgreSQL (api-postgres) constraints are checked at every write; the file check is SQLite's.
    if (!TEST_DATABASE_URL) {
      const sqlite = new SQLite(join(env.dir, "studio.db"), { readonly: true, fileMustExist: true });
      try {
        expect(sqlite.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }]);
        expect(sqlite.pragma("foreign_key_check")).toEqual([]);
      } finally {
        sqlite.close();
      }
    }
    // The SQL-looking values were plain data: the accounts are all there, and one as a password fails.
    const emails = (await env.db.selectFrom("users").select("email").execute()).map((u) => u.email);
    expect(emails).toEqual(expect.arrayContaining([ADMIN_EMAIL, FREE_EMAIL, PRO_EMAIL]));
    const login = await env.app.request("/api/auth/login", { method: "POST", body: JSON.stringify({ email: FREE_EMAIL, password: "' OR '1'='1" }) });
    expect(login.status).toBe(401);
    // The generators reached past validation: some successes, not only refusals.
    const reached = [...statuses.values()].filter((m) => [...m.keys()].some((s) => s >= 200 && s < 300)).length;
    console.log(
      "fuzz statuses per route:\n" +
        [...statuses].map(([k, m]) => `  ${k}: ${[...m].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}x${n}`).join(" ")}`).join("\n"),
    );
    expect(reached).toBeGreaterThan(routes.length / 2);
  });
});
