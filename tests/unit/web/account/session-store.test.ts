// The session store with an in-memory localStorage and a fake fetch: which keys sign-in writes,
// what a failed restore and a sign-out clear, the bearer header, the 5-minute profile cache and
// the `error` field (fallback 'Request failed') of non-OK answers.

import { describe, expect, it } from "vitest";
import { ApiRequestError, requestJson } from "../../../../web/account/api";
import { createSessionStore, PROFILE_TTL_MS } from "../../../../web/account/session-store";
import { clearSession, memoryStorage, readToken, readUser, saveSession, SESSION_KEYS } from "../../../../web/account/storage";

const user = { id: "u1", email: "ann@b.test", fullName: "Ann", isAdmin: false, is_super_admin: false, emailVerified: false, createdAt: "" };
const profile = { user, isAdmin: false, subscription: null, hasTemporaryAccess: false, temporaryAccess: null };

interface Call { url: string; method: string; auth: string | null; body: unknown }

function fakeFetch(routes: Record<string, (call: Call) => [number, unknown] | "network">) {
  const calls: Call[] = [];
  const impl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const call: Call = {
      url: String(input),
      method: init?.method ?? "GET",
      auth: headers.get("authorization"),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.url.split("?")[0]}`];
    const out = route ? route(call) : ([404, { error: "Not found" }] as [number, unknown]);
    if (out === "network") throw new TypeError("Failed to fetch");
    return new Response(JSON.stringify(out[1]), { status: out[0], headers: { "Content-Type": "application/json" } });
  }) as typeof fetch;
  return { impl, calls };
}

const keysOf = (s: ReturnType<typeof memoryStorage>) => SESSION_KEYS.filter((k) => s.getItem(k) !== null);

describe("storage keys", () => {
  it("a session is written under auth_token, token, authToken, jwt_token plus user_data, and cleared from all", () => {
    const s = memoryStorage();
    saveSession(s, "tok", user);
    expect(keysOf(s)).toEqual(["auth_token", "token", "authToken", "jwt_token", "user_data"]);
    expect(readToken(s)).toBe("tok");
    expect(readUser(s)?.email).toBe("ann@b.test");
    s.setItem("unrelated", "1");
    clearSession(s);
    expect(keysOf(s)).toEqual([]);
    expect(s.getItem("unrelated")).toBe("1");
  });

  it("reads a token any older key holds; ignores unreadable user data", () => {
    const s = memoryStorage();
    s.setItem("jwt_token", "old");
    s.setItem("user_data", "{not json");
    expect(readToken(s)).toBe("old");
    expect(readUser(s)).toBeNull();
  });
});

describe("requests", () => {
  it("send JSON with the bearer and read the error field, else 'Request failed'", async () => {
    const f = fakeFetch({
      "POST /api/x": () => [400, { error: "Nope" }],
      "GET /api/y": () => [500, "not an object"],
    });
    await expect(requestJson("/api/x", { body: { a: 1 }, token: "t", fetchImpl: f.impl })).rejects.toMatchObject({ message: "Nope", status: 400 });
    expect(f.calls[0]).toMatchObject({ method: "POST", auth: "Bearer t", body: { a: 1 } });
    await expect(requestJson("/api/y", { fetchImpl: f.impl })).rejects.toMatchObject({ message: "Request failed", status: 500 });
    expect(f.calls[1].auth).toBeNull();
  });

  it("a request that never got an answer is a network error", async () => {
    const f = fakeFetch({ "GET /api/z": () => "network" });
    const err = await requestJson("/api/z", { fetchImpl: f.impl }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRequestError);
    expect(err).toMatchObject({ network: true, status: 0 });
  });
});

describe("session store", () => {
  it("sign-in stores the token under every key and loads the profile", async () => {
    const storage = memoryStorage();
    const f = fakeFetch({
      "POST /api/auth/login": () => [200, { token: "tok1", user, csrfToken: "c" }],
      "GET /api/user/profile": () => [200, profile],
    });
    const store = createSessionStore({ storage, fetchImpl: f.impl });
    expect(store.getState().status).toBe("anonymous");
    await store.getState().signIn("  ann@b.test ", "secret1");
    expect(f.calls[0].body).toEqual({ email: "ann@b.test", password: "secret1" });
    expect(f.calls[1].auth).toBe("Bearer tok1");
    expect(store.getState()).toMatchObject({ status: "signed_in", token: "tok1", profile });
    expect(keysOf(storage)).toHaveLength(5);
  });

  it("restores a stored session with GET /api/user/profile", async () => {
    const storage = memoryStorage();
    saveSession(storage, "tok2", user);
    const f = fakeFetch({ "GET /api/user/profile": () => [200, profile] });
    const store = createSessionStore({ storage, fetchImpl: f.impl });
    expect(store.getState()).toMatchObject({ status: "restoring", user });
    await Promise.all([store.getState().restore(), store.getState().restore()]);
    expect(f.calls).toHaveLength(1); // one restore, shared
    expect(store.getState()).toMatchObject({ status: "signed_in", token: "tok2" });
  });

  // A restore that got no answer at all (offline) keeps the session: entitlement-cache.test.ts.
  it.each([
    ["an invalid token", () => [401, { error: "Invalid token" }] as [number, unknown]],
    ["a server error", () => [500, { error: "Server error" }] as [number, unknown]],
  ])("a failed restore (%s) clears every stored key", async (_name, answer) => {
    const storage = memoryStorage();
    saveSession(storage, "dead", user);
    const f = fakeFetch({ "GET /api/user/profile": answer });
    const store = createSessionStore({ storage, fetchImpl: f.impl });
    await store.getState().restore();
    expect(store.getState()).toMatchObject({ status: "anonymous", token: null, user: null });
    expect(keysOf(storage)).toEqual([]);
  });

  it("caches the profile for 5 minutes", async () => {
    let now = 1_000_000;
    const storage = memoryStorage();
    saveSession(storage, "tok3", user);
    const f = fakeFetch({ "GET /api/user/profile": () => [200, profile] });
    const store = createSessionStore({ storage, fetchImpl: f.impl, now: () => now });
    await store.getState().restore();
    now += PROFILE_TTL_MS - 1;
    await store.getState().loadProfile();
    expect(f.calls).toHaveLength(1);
    now += 2;
    await store.getState().loadProfile();
    expect(f.calls).toHaveLength(2);
    await store.getState().loadProfile(true);
    expect(f.calls).toHaveLength(3);
  });

  it("a 401 on a profile refresh raises 'Invalid token' and signs out", async () => {
    const storage = memoryStorage();
    saveSession(storage, "tok4", user);
    let alive = true;
    const f = fakeFetch({ "GET /api/user/profile": () => (alive ? [200, profile] : [401, { error: "Session expired" }]) });
    const store = createSessionStore({ storage, fetchImpl: f.impl });
    await store.getState().restore();
    alive = false;
    await expect(store.getState().loadProfile(true)).rejects.toThrow("Invalid token");
    expect(keysOf(storage)).toEqual([]);
  });

  it("sign-out calls POST /api/auth/logout with the bearer, then clears storage", async () => {
    const storage = memoryStorage();
    saveSession(storage, "tok5", user);
    const f = fakeFetch({ "GET /api/user/profile": () => [200, profile], "POST /api/auth/logout": () => [200, { ok: true }] });
    const store = createSessionStore({ storage, fetchImpl: f.impl });
    await store.getState().restore();
    expect(await store.getState().signOut()).toBe(true);
    expect(f.calls[1]).toMatchObject({ method: "POST", url: "/api/auth/logout", auth: "Bearer tok5" });
    expect(keysOf(storage)).toEqual([]);
    expect(store.getState().status).toBe("anonymous");
  });

  it("sign-out clears locally even when the server call fails, and reports the failure", async () => {
    const storage = memoryStorage();
    saveSession(storage, "tok6", user);
    const f = fakeFetch({ "GET /api/user/profile": () => [200, profile], "POST /api/auth/logout": () => "network" });
    const store = createSessionStore({ storage, fetchImpl: f.impl });
    await store.getState().restore();
    expect(await store.getState().signOut()).toBe(false);
    expect(keysOf(storage)).toEqual([]);
  });

  it("sign-up sends the fields and stays signed in; exchange adopts the session it answers", async () => {
    const storage = memoryStorage();
    const f = fakeFetch({
      "POST /api/auth/register": () => [201, { token: "new", user, csrfToken: "c" }],
      "POST /api/auth/exchange": () => [200, { token: "ex", user, type: "recovery" }],
      "GET /api/user/profile": () => [200, profile],
    });
    const store = createSessionStore({ storage, fetchImpl: f.impl });
    await store.getState().signUp({ fullName: " Ann ", email: "ann@b.test ", password: "abcdef", confirmPassword: "abcdef" });
    expect(f.calls[0].body).toEqual({ email: "ann@b.test", password: "abcdef", confirmPassword: "abcdef", fullName: "Ann" });
    expect(readToken(storage)).toBe("new");
    const answer = await store.getState().exchange("code123");
    expect(answer.type).toBe("recovery");
    expect(readToken(storage)).toBe("ex");
  });
});
