// E-mail verification, forgot/reset/update password and the code exchange: the outbox mails carry
// working links, tokens are single use and expire, password changes revoke old sessions, a
// signed-in change needs the current password (or the reset token of a recovery link), and a
// common password is refused on reset and update alike.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MSG } from "../../../../api/messages";
import { hashToken } from "../../../../api/services/one-time-tokens";
import { bodyOf, getWith, lastCode, makeTestApp, postJson, PUBLIC_URL, sentMail, signUp, type TestEnv } from "../helpers";

const HOUR = 60 * 60 * 1000;
let env: TestEnv;
beforeEach(async () => {
  env = await makeTestApp();
});
afterEach(async () => {
  await env.close();
});

async function forgot(email: string): Promise<string> {
  const res = await postJson(env, "/api/auth/forgot-password", { email });
  expect(res.status).toBe(200);
  return lastCode(env, email);
}

/** Follows a recovery link: the session and the one-time reset token /exchange answers with. */
async function recover(email: string): Promise<{ session: string; resetToken: string }> {
  const exchanged = await bodyOf(await postJson(env, "/api/auth/exchange", { code: await forgot(email) }));
  expect(exchanged.type).toBe("recovery");
  return { session: exchanged.token as string, resetToken: exchanged.resetToken as string };
}

/** POST /api/auth/update-password as `session`: [status, body]. */
async function updatePassword(payload: Record<string, unknown>, session: string): Promise<[number, unknown]> {
  const res = await postJson(env, "/api/auth/update-password", payload, session);
  return [res.status, await res.json()];
}

describe("verification", () => {
  it("register writes an .eml whose callback link verifies through exchange", async () => {
    const { userId } = await signUp(env, "ada@example.com");
    const mails = await sentMail(env);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe("ada@example.com");
    const link = new URL(mails[0].links[0]);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/auth/callback`);
    expect(link.searchParams.get("redirect")).toBe("/app");
    const code = link.searchParams.get("code") as string;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // only the SHA-256 of the code is stored
    const stored = await env.db.selectFrom("one_time_tokens").selectAll().execute();
    expect(stored.map((t) => t.token_hash)).toEqual([hashToken(code)]);
    expect(JSON.stringify(stored)).not.toContain(code);

    const res = await postJson(env, "/api/auth/exchange", { code });
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body).toMatchObject({ type: "signup", user: { id: userId, emailVerified: true } });
    const profile = await bodyOf(await getWith(env, "/api/user/profile", body.token as string));
    expect(profile.emailVerified).toBe(true);
    const again = await postJson(env, "/api/auth/exchange", { code });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: MSG.exchangeInvalid });
  });

  it("POST and GET verify-email consume the code once", async () => {
    const { userId } = await signUp(env, "ada@example.com");
    const code = await lastCode(env, "ada@example.com");
    const res = await postJson(env, "/api/auth/verify-email", { token: code });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, message: MSG.verifySuccess });
    const row = await env.db.selectFrom("users").select("email_verified_at").where("id", "=", userId).executeTakeFirstOrThrow();
    expect(row.email_verified_at).toBe(env.clock.now().toISOString());
    const viaGet = await env.app.request(`/api/auth/verify-email?token=${encodeURIComponent(code)}`);
    expect(viaGet.status).toBe(400);
    expect(await viaGet.json()).toEqual({ error: MSG.verifyFailed });
  });

  it("GET verify-email works and a verification code expires after 24 hours", async () => {
    await signUp(env, "ada@example.com");
    await signUp(env, "bob@example.com");
    const ada = await lastCode(env, "ada@example.com");
    const bob = await lastCode(env, "bob@example.com");
    env.clock.advance(23 * HOUR);
    expect((await env.app.request(`/api/auth/verify-email?token=${ada}`)).status).toBe(200);
    env.clock.advance(2 * HOUR);
    const late = await env.app.request(`/api/auth/verify-email?token=${bob}`);
    expect(late.status).toBe(400);
    expect(await late.json()).toEqual({ error: MSG.verifyFailed });
  });

  it("verify-email without a token says so", async () => {
    const res = await env.app.request("/api/auth/verify-email");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: MSG.verifyTokenMissing });
    const post = await postJson(env, "/api/auth/verify-email", {});
    expect(await post.json()).toEqual({ error: MSG.verifyTokenMissing });
  });

  it("exchange without a code says so", async () => {
    const res = await postJson(env, "/api/auth/exchange", {});
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: MSG.authFailed });
  });
});

describe("forgot and reset password", () => {
  it("answers the same for known and unknown e-mails and mails only the known one", async () => {
    await signUp(env, "ada@example.com");
    const known = await postJson(env, "/api/auth/forgot-password", { email: "ada@example.com" });
    const unknown = await postJson(env, "/api/auth/forgot-password", { email: "ghost@example.com" });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await known.json()).toEqual(await unknown.json());
    const mails = await sentMail(env);
    expect(mails.map((m) => m.to)).toEqual(["ada@example.com", "ada@example.com"]);
  });

  it("never reveals a send failure", async () => {
    await signUp(env, "ada@example.com");
    env.app.services.mailer.send = async () => {
      throw new Error("SMTP down");
    };
    const res = await postJson(env, "/api/auth/forgot-password", { email: "ada@example.com" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, message: MSG.forgotSent });
    await env.app.settle();
    expect(env.errors).toEqual(["Background task failed"]);
  });

  it("forgot-password validates the e-mail", async () => {
    for (const [payload, message] of [
      [{}, MSG.forgotMissing],
      [{ email: "   " }, MSG.forgotMissing],
      [{ email: "nope" }, MSG.invalidEmail],
    ] as const) {
      const res = await postJson(env, "/api/auth/forgot-password", payload);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: message });
    }
  });

  it("the recovery mail links to /auth/callback with #type=recovery", async () => {
    await signUp(env, "ada@example.com");
    await postJson(env, "/api/auth/forgot-password", { email: "ada@example.com" });
    const mail = (await sentMail(env)).at(-1)!;
    expect(mail.subject).toContain("Reset");
    const link = new URL(mail.links[0]);
    expect(link.pathname).toBe("/auth/callback");
    expect(link.hash).toBe("#type=recovery");
    expect(link.searchParams.get("redirect")).toBe("/auth?view=update_password");
  });

  it("a reset token works once, revokes old sessions, and the new password signs in", async () => {
    const { token: oldSession } = await signUp(env, "ada@example.com", "old password");
    const code = await forgot("ada@example.com");
    const res = await postJson(env, "/api/auth/reset-password", { token: code, password: "new password" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, message: MSG.resetSuccess });
    expect((await getWith(env, "/api/user/profile", oldSession)).status).toBe(401);
    const live = await env.db.selectFrom("sessions").select("id").where("revoked_at", "is", null).execute();
    expect(live).toHaveLength(0);
    const twice = await postJson(env, "/api/auth/reset-password", { token: code, password: "third password" });
    expect(twice.status).toBe(400);
    expect(await twice.json()).toEqual({ error: MSG.resetTokenInvalid });
    const oldLogin = await postJson(env, "/api/auth/login", { email: "ada@example.com", password: "old password" });
    expect(oldLogin.status).toBe(401);
    const newLogin = await postJson(env, "/api/auth/login", { email: "ada@example.com", password: "new password" });
    expect(newLogin.status).toBe(200);
  });

  it("a reset token expires after 1 hour", async () => {
    await signUp(env, "ada@example.com", "old password");
    const code = await forgot("ada@example.com");
    env.clock.advance(HOUR + 1);
    const res = await postJson(env, "/api/auth/reset-password", { token: code, password: "new password" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: MSG.resetTokenInvalid });
    const login = await postJson(env, "/api/auth/login", { email: "ada@example.com", password: "old password" });
    expect(login.status).toBe(200);
  });

  it("a newer reset link voids the older one, and a verification code cannot reset", async () => {
    await signUp(env, "ada@example.com");
    const verifyCode = await lastCode(env, "ada@example.com");
    const first = await forgot("ada@example.com");
    const second = await forgot("ada@example.com");
    expect(first).not.toBe(second);
    const old = await postJson(env, "/api/auth/reset-password", { token: first, password: "new password" });
    expect(old.status).toBe(400);
    const wrongKind = await postJson(env, "/api/auth/reset-password", { token: verifyCode, password: "new password" });
    expect(wrongKind.status).toBe(400);
    expect((await postJson(env, "/api/auth/reset-password", { token: second, password: "new password" })).status).toBe(200);
  });

  it.each([
    [{ password: "new password" }, MSG.resetTokenMissing],
    [{ token: "", password: "new password" }, MSG.resetTokenMissing],
    [{ token: "abc" }, MSG.resetFieldsMissing],
    [{ token: "abc", password: "" }, MSG.resetFieldsMissing],
    [{ token: "abc", password: "12345" }, MSG.resetTooShort],
    [{ token: "abc", password: "123456789", confirmPassword: "123456780" }, MSG.resetMismatch],
    [{ token: "abc", password: "good password" }, MSG.resetTokenInvalid],
  ])("reset-password answers 400 for %j", async (payload, message) => {
    const res = await postJson(env, "/api/auth/reset-password", payload);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message });
  });

  it.each(["password123", "QWERTY-board", "123456789x", "abc123abc", "111111a", "000000b"])(
    "reset-password refuses the common password %s with 400 and keeps the token",
    async (password) => {
      await signUp(env, "ada@example.com", "old password");
      const code = await forgot("ada@example.com");
      const res = await postJson(env, "/api/auth/reset-password", { token: code, password, confirmPassword: password });
      expect([res.status, await res.json()]).toEqual([400, { error: MSG.commonPassword }]);
      expect((await postJson(env, "/api/auth/reset-password", { token: code, password: "fine password" })).status).toBe(200);
    },
  );

  it("a validation error does not burn the reset token", async () => {
    await signUp(env, "ada@example.com");
    const code = await forgot("ada@example.com");
    expect((await postJson(env, "/api/auth/reset-password", { token: code, password: "123" })).status).toBe(400);
    expect((await postJson(env, "/api/auth/reset-password", { token: code, password: "fine password" })).status).toBe(200);
  });
});

describe("recovery through the callback and update-password", () => {
  it("exchanging a recovery code signs in; update-password then keeps only that session", async () => {
    const { token: oldSession } = await signUp(env, "ada@example.com", "old password");
    const { session, resetToken } = await recover("ada@example.com");
    expect(resetToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await postJson(env, "/api/auth/update-password", { newPassword: "brand new pw", resetToken }, session);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, message: MSG.passwordUpdated });
    expect((await getWith(env, "/api/user/profile", oldSession)).status).toBe(401);
    expect((await getWith(env, "/api/user/profile", session)).status).toBe(200);
    const login = await postJson(env, "/api/auth/login", { email: "ada@example.com", password: "brand new pw" });
    expect(login.status).toBe(200);
  });

  it.each([
    [{}, MSG.updateMissing],
    [{ newPassword: "" }, MSG.updateMissing],
    [{ newPassword: "abc" }, MSG.passwordTooShort],
    [{ newPassword: "x".repeat(257) }, MSG.passwordTooLong],
    [{ newPassword: "good password", confirmNewPassword: "good passw0rd" }, MSG.passwordsDontMatch],
    [{ newPassword: "PassWord99" }, MSG.commonPassword],
    [{ newPassword: "123456abc" }, MSG.commonPassword],
    [{ newPassword: "QWERTYuiop" }, MSG.commonPassword],
    [{ newPassword: "000000x" }, MSG.commonPassword],
  ])("update-password answers 400 for %j", async (payload, message) => {
    const { token } = await signUp(env, "ada@example.com", "old password");
    const res = await postJson(env, "/api/auth/update-password", payload, token);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message });
  });

  it("a verification exchange hands back no reset token", async () => {
    await signUp(env, "ada@example.com");
    const exchanged = await bodyOf(await postJson(env, "/api/auth/exchange", { code: await lastCode(env, "ada@example.com") }));
    expect(exchanged.type).toBe("signup");
    expect(exchanged).not.toHaveProperty("resetToken");
  });

  it("a signed-in change asks for the current password: missing or wrong is 400, right is 200", async () => {
    const { token } = await signUp(env, "ada@example.com", "old password");
    for (const [payload, message] of [
      [{ newPassword: "brand new pw" }, MSG.currentPasswordMissing],
      [{ newPassword: "brand new pw", currentPassword: "" }, MSG.currentPasswordMissing],
      [{ newPassword: "brand new pw", currentPassword: 42 }, MSG.currentPasswordMissing],
      [{ newPassword: "brand new pw", currentPassword: "old passwort" }, MSG.currentPasswordWrong],
      [{ newPassword: "brand new pw", currentPassword: "x".repeat(257) }, MSG.currentPasswordWrong],
    ] as const) {
      expect(await updatePassword(payload, token), JSON.stringify(payload)).toEqual([400, { error: message }]);
    }
    const oldLogin = await postJson(env, "/api/auth/login", { email: "ada@example.com", password: "old password" });
    expect(oldLogin.status).toBe(200); // unchanged by the refused attempts
    const changed = await updatePassword({ newPassword: "brand new pw", currentPassword: "old password" }, token);
    expect(changed).toEqual([200, { ok: true, message: MSG.passwordUpdated }]);
    expect((await postJson(env, "/api/auth/login", { email: "ada@example.com", password: "brand new pw" })).status).toBe(200);
    expect((await postJson(env, "/api/auth/login", { email: "ada@example.com", password: "old password" })).status).toBe(401);
  });

  it("a reset token proves the account once, and only for its own user", async () => {
    await signUp(env, "ada@example.com", "old password");
    const { token: bobSession } = await signUp(env, "bob@example.com", "bobs password");
    const { session, resetToken } = await recover("ada@example.com");
    const invalid = [400, { error: MSG.resetTokenInvalid }];
    // Ada's reset token does not change Bob's password (and is spent by the try).
    expect(await updatePassword({ newPassword: "brand new pw", resetToken }, bobSession)).toEqual(invalid);
    expect(await updatePassword({ newPassword: "brand new pw", resetToken }, session)).toEqual(invalid);
    expect(await updatePassword({ newPassword: "brand new pw", resetToken: "junk" }, session)).toEqual(invalid);
    expect((await postJson(env, "/api/auth/login", { email: "bob@example.com", password: "bobs password" })).status).toBe(200);
    expect((await postJson(env, "/api/auth/login", { email: "ada@example.com", password: "old password" })).status).toBe(200);
  });

  it("a validation error does not spend the reset token", async () => {
    await signUp(env, "ada@example.com", "old password");
    const { session, resetToken } = await recover("ada@example.com");
    expect(await updatePassword({ newPassword: "password123", resetToken }, session)).toEqual([400, { error: MSG.commonPassword }]);
    expect((await updatePassword({ newPassword: "brand new pw", resetToken }, session))[0]).toBe(200);
  });

  it("password changes are limited to 10 per 10 minutes per account (wrong current passwords count)", async () => {
    const { token } = await signUp(env, "ada@example.com", "old password");
    for (let i = 0; i < 10; i++) {
      const res = await postJson(env, "/api/auth/update-password", { newPassword: "brand new pw", currentPassword: `guess ${i}` }, token);
      expect(res.status).toBe(400);
    }
    const blocked = await postJson(env, "/api/auth/update-password", { newPassword: "brand new pw", currentPassword: "old password" }, token);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("Retry-After")).toBe("600");
    expect(await blocked.json()).toEqual({ error: MSG.tooManyRequests(600) });
  });

  it("update-password needs a session", async () => {
    const res = await postJson(env, "/api/auth/update-password", { newPassword: "brand new pw" });
    expect(res.status).toBe(401);
  });
});
