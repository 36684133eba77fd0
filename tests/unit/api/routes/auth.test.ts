// Register, login, logout and profile through app.request(): success answers, stored rows and
// every error text of spec/accounts.md for these calls.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MSG } from "../../../../api/messages";
import { bodyOf, countingHasher, fastHasher, getWith, makeTestApp, postJson, signUp, type TestEnv } from "../helpers";

let env: TestEnv;
beforeEach(async () => {
  env = await makeTestApp();
});
afterEach(async () => {
  await env.close();
});

describe("health and transport", () => {
  it("GET /api/health answers {ok:true}", async () => {
    const res = await env.app.request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it("unknown API paths answer a JSON 404", async () => {
    const res = await env.app.request("/api/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: MSG.notFound });
  });

  it("malformed JSON is a 400, not a 500", async () => {
    const res = await postJson(env, "/api/auth/login", "{not json");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: MSG.badJson });
  });

  it("bodies over 64 KiB are refused with 413, with and without Content-Length", async () => {
    const big = JSON.stringify({ email: "a@b.co", password: "x".repeat(70 * 1024) });
    const res = await postJson(env, "/api/auth/login", big);
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close"); // the rest of the body is not a next request
    expect(await res.json()).toEqual({ error: MSG.bodyTooLarge });
    const stream = new Blob([big]).stream();
    const chunked = await env.app.request("/api/auth/register", {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });
});

describe("POST /api/auth/register", () => {
  it("creates the user with an argon2id hash and answers 201 {token, user, csrfToken}", async () => {
    const res = await postJson(env, "/api/auth/register", {
      email: "  Ada@Example.com ",
      password: " pass word ",
      fullName: "Ada",
    });
    expect(res.status).toBe(201);
    const body = await bodyOf(res);
    expect(typeof body.token).toBe("string");
    expect(typeof body.csrfToken).toBe("string");
    expect(body.user).toMatchObject({ email: "ada@example.com", fullName: "Ada", isAdmin: false, emailVerified: false });
    const row = await env.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
    expect(row.email).toBe("ada@example.com");
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain("pass word");
    const sessions = await env.db.selectFrom("sessions").selectAll().where("user_id", "=", row.id).execute();
    expect(sessions).toHaveLength(1);
  });

  it.each([
    [{}, MSG.registerMissing],
    [{ email: "ada@example.com" }, MSG.registerMissing],
    [{ password: "sea glass 1" }, MSG.registerMissing],
    [{ email: "ada@example.com", password: "" }, MSG.registerMissing],
    [{ email: "ada@example.com", password: 123456 }, MSG.registerMissing],
    [[], MSG.registerMissing],
    [{ email: "not-an-email", password: "sea glass 1" }, MSG.invalidEmail],
    [{ email: "ada@example.com", password: "12345" }, MSG.passwordTooShort],
    [{ email: "ada@example.com", password: "x".repeat(257) }, MSG.passwordTooLong],
    [{ email: "ada@example.com", password: "sea glass 1", confirmPassword: "sea glass 2" }, MSG.passwordsDontMatch],
    // the common-password rule holds on sign-up as on reset and update
    [{ email: "ada@example.com", password: "password1" }, MSG.commonPassword],
    [{ email: "ada@example.com", password: "123456789", confirmPassword: "123456789" }, MSG.commonPassword],
    [{ email: "ada@example.com", password: "Qwerty-uiop", fullName: "Ada" }, MSG.commonPassword],
  ])("answers 400 for %j", async (payload, message) => {
    const res = await postJson(env, "/api/auth/register", payload);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message });
    expect(await env.db.selectFrom("users").select("id").execute()).toHaveLength(0);
  });

  it("accepts exactly 6 and exactly 256 characters", async () => {
    expect((await postJson(env, "/api/auth/register", { email: "a@x.io", password: "abcdef" })).status).toBe(201);
    const long = "é".repeat(256);
    expect((await postJson(env, "/api/auth/register", { email: "b@x.io", password: long })).status).toBe(201);
    const login = await postJson(env, "/api/auth/login", { email: "b@x.io", password: long });
    expect(login.status).toBe(200);
  });

  it("answers 409 for an e-mail that is already registered (any case)", async () => {
    await signUp(env, "ada@example.com");
    const res = await postJson(env, "/api/auth/register", { email: "ADA@example.com", password: "another tune 1" });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: MSG.emailTaken });
  });
});

describe("POST /api/auth/login", () => {
  it("answers 200 {token, user, csrfToken} for the right password and makes a session", async () => {
    const { userId } = await signUp(env, "ada@example.com", "correct horse");
    const res = await postJson(env, "/api/auth/login", { email: " ADA@example.com", password: "correct horse" });
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body.user).toMatchObject({ id: userId, email: "ada@example.com" });
    expect(typeof body.csrfToken).toBe("string");
    const profile = await getWith(env, "/api/user/profile", body.token as string);
    expect(profile.status).toBe(200);
    const rows = await env.db.selectFrom("sessions").select("id").where("user_id", "=", userId).execute();
    expect(rows).toHaveLength(2);
  });

  it("compares passwords exactly: no trimming, case-sensitive", async () => {
    await signUp(env, "ada@example.com", "Secret pw ");
    for (const wrong of ["Secret pw", "secret pw ", " Secret pw "]) {
      const res = await postJson(env, "/api/auth/login", { email: "ada@example.com", password: wrong });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: MSG.invalidCredentials });
    }
  });

  it("answers 404 for an unknown account", async () => {
    const res = await postJson(env, "/api/auth/login", { email: "nobody@example.com", password: "whatever" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: MSG.userNotFound });
  });

  it("spends one password verify for an unknown account, as for a wrong password, with the spec's texts", async () => {
    const { hasher, calls } = countingHasher();
    const counted = await makeTestApp({}, { hasher });
    try {
      await signUp(counted, "ada@example.com", "correct horse");
      calls.hash.length = 0;
      const wrong = await postJson(counted, "/api/auth/login", { email: "ada@example.com", password: "wrong horse" });
      expect([wrong.status, await wrong.json()]).toEqual([401, { error: MSG.invalidCredentials }]);
      expect(calls.verify.map((v) => v.password)).toEqual(["wrong horse"]);

      for (const password of ["guess one", "guess two"]) {
        const unknown = await postJson(counted, "/api/auth/login", { email: "nobody@example.com", password });
        expect([unknown.status, await unknown.json()]).toEqual([404, { error: MSG.userNotFound }]);
      }
      // Each unknown address ran a verify of its password against a hash of the same hasher (so
      // the same argon2 parameters), made once.
      expect(calls.verify.slice(1).map((v) => v.password)).toEqual(["guess one", "guess two"]);
      expect(calls.hash).toHaveLength(1);
      const params = (h: string) => h.split("$").slice(0, 4).join("$");
      const dummy = calls.verify[1].storedHash;
      expect(calls.verify[2].storedHash).toBe(dummy);
      expect(params(dummy)).toBe(params(calls.verify[0].storedHash));
      expect(await fastHasher.verify(dummy, "guess one")).toBe(false);
    } finally {
      await counted.close();
    }
  });

  it.each([
    [{}, MSG.loginMissing],
    [{ email: "", password: "x" }, MSG.loginMissing],
    [{ email: "ada@example.com" }, MSG.loginMissing],
    [{ email: "ada@example.com", password: "" }, MSG.loginMissing],
    [{ email: ["ada@example.com"], password: "x" }, MSG.loginMissing],
    [{ email: "ada", password: "x" }, MSG.invalidEmail],
  ])("answers 400 for %j", async (payload, message) => {
    const res = await postJson(env, "/api/auth/login", payload);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message });
  });
});

describe("POST /api/auth/logout and GET /api/user/profile", () => {
  it("profile answers the spec's fields for a free user", async () => {
    const { token, userId } = await signUp(env, "ada@example.com");
    const res = await getWith(env, "/api/user/profile", token);
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body).toMatchObject({
      user: { id: userId, email: "ada@example.com", isAdmin: false },
      isAdmin: false,
      subscription: null,
      hasTemporaryAccess: false,
      temporaryAccess: null,
      hasActiveSubscription: false,
      hasUnlimitedAccess: false,
      adminOverride: false,
      emailVerified: false,
      entitlements: { level: "free", capabilities: { channels: 1, allEffects: false, wavExport: false } },
    });
  });

  it("profile without or with a junk token answers 401", async () => {
    const none = await getWith(env, "/api/user/profile");
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: MSG.authRequired });
    const junk = await getWith(env, "/api/user/profile", "abc.def.ghi");
    expect(junk.status).toBe(401);
    expect(await junk.json()).toEqual({ error: MSG.invalidToken });
  });

  it("logout revokes the session on the server; other sessions keep working", async () => {
    const { token } = await signUp(env, "ada@example.com", "correct horse");
    const other = (await bodyOf(await postJson(env, "/api/auth/login", { email: "ada@example.com", password: "correct horse" })))
      .token as string;
    const res = await postJson(env, "/api/auth/logout", {}, token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
    const revoked = await env.db.selectFrom("sessions").select("revoked_at").where("revoked_at", "is not", null).execute();
    expect(revoked).toHaveLength(1);
    expect((await getWith(env, "/api/user/profile", token)).status).toBe(401);
    expect((await postJson(env, "/api/auth/logout", {}, token)).status).toBe(401);
    expect((await getWith(env, "/api/user/profile", other)).status).toBe(200);
  });
});
