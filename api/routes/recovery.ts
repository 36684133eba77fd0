// E-mail verification and password recovery: POST/GET /api/auth/verify-email,
// POST /api/auth/forgot-password, /reset-password and /update-password. Every password change
// revokes the account's other sessions and voids outstanding reset links. A signed-in change
// proves the account again: with the current password, or with the one-time reset token that
// /exchange handed back for a recovery link.
import { Hono } from "hono";
import type { AppEnv, Services } from "../context";
import { ApiError } from "../errors";
import { clientIp, parseWith, readBody, requireAuth } from "../http/boundary";
import { MSG } from "../messages";
import { recoveryEmail } from "../services/auth-emails";
import { findUserByEmail, markEmailVerified, setPasswordHash } from "../services/users";
import { forgotPasswordBody, resetPasswordBody, updatePasswordBody, verifyEmailInput } from "./auth-schemas";

export function recoveryRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  async function verify(token: string) {
    const used = await s.tokens.consume(token, ["verify_email"]);
    if (!used) throw new ApiError(400, MSG.verifyFailed);
    await markEmailVerified(s.db, used.userId, s.clock());
    return { ok: true, message: MSG.verifySuccess, emailVerified: true };
  }

  app.post("/verify-email", async (c) => {
    const body = await readBody(c, verifyEmailInput);
    return c.json(await verify(body.token), 200);
  });

  app.get("/verify-email", async (c) => {
    const query = parseWith(verifyEmailInput, { token: c.req.query("token") });
    return c.json(await verify(query.token), 200);
  });

  // Same answer, same timing, for known and unknown addresses: the token and the mail are made
  // after the response, and a send failure is only logged.
  app.post("/forgot-password", async (c) => {
    await s.limiters.forgotPerIp.enforce(clientIp(c, s.config.trustProxy));
    const body = await readBody(c, forgotPasswordBody);
    s.defer(async () => {
      const user = await findUserByEmail(s.db, body.email);
      if (!user) return;
      const code = await s.tokens.issue(user.id, "reset_password");
      await s.mailer.send(recoveryEmail(s.config, user.email, code));
    });
    return c.json({ ok: true, message: MSG.forgotSent }, 200);
  });

  app.post("/reset-password", async (c) => {
    await s.limiters.resetPerIp.enforce(clientIp(c, s.config.trustProxy));
    const body = await readBody(c, resetPasswordBody);
    const used = await s.tokens.consume(body.token, ["reset_password"]);
    if (!used) throw new ApiError(400, MSG.resetTokenInvalid);
    const hash = await s.hasher.hash(body.password);
    const now = s.clock();
    await setPasswordHash(s.db, used.userId, hash, now);
    await markEmailVerified(s.db, used.userId, now);
    await s.sessions.revokeAllForUser(used.userId);
    await s.tokens.invalidate(used.userId, "reset_password");
    return c.json({ ok: true, message: MSG.resetSuccess }, 200);
  });

  app.post("/update-password", requireAuth(s.sessions), async (c) => {
    const { user, sessionId } = c.var.auth;
    // Per account: a stolen session must not become a way to guess the current password.
    await s.limiters.passwordChangePerUser.enforce(user.id);
    const body = await readBody(c, updatePasswordBody);
    if (body.resetToken !== undefined) {
      const used = await s.tokens.consume(body.resetToken, ["reset_password"]);
      if (!used || used.userId !== user.id) throw new ApiError(400, MSG.resetTokenInvalid);
    } else if (!(await s.hasher.verify(user.password_hash, body.currentPassword ?? ""))) {
      throw new ApiError(400, MSG.currentPasswordWrong);
    }
    const hash = await s.hasher.hash(body.newPassword);
    await setPasswordHash(s.db, user.id, hash, s.clock());
    await s.sessions.revokeAllForUser(user.id, sessionId);
    await s.tokens.invalidate(user.id, "reset_password");
    return c.json({ ok: true, message: MSG.passwordUpdated }, 200);
  });

  return app;
}
