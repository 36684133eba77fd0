// Sign-up, sign-in, sign-out and the exchange of an e-mailed code for a session:
// POST /api/auth/register, /login, /logout, /exchange. Answers follow spec/accounts.md section 7:
// {token, user, csrfToken} on success, {error} with 400/401/404/409/429 otherwise. Sign-in spends
// one password verify whether or not the e-mail has an account.
import { Hono } from "hono";
import type { AppEnv, Services } from "../context";
import { ApiError } from "../errors";
import { clientIp, readBody, requireAuth } from "../http/boundary";
import { MSG } from "../messages";
import { verificationEmail } from "../services/auth-emails";
import { isAdminUser } from "../services/entitlements";
import { unknownAccountCheck } from "../services/passwords";
import type { UserRow } from "../db/schema";
import { createUser, findUserByEmail, markEmailVerified, publicUser } from "../services/users";
import { exchangeBody, loginBody, registerBody } from "./auth-schemas";

export function authRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const checkUnknownAccount = unknownAccountCheck(s.hasher);

  /** The answer every sign-in path gives: a fresh session for `user`. */
  async function signedIn(user: UserRow) {
    const session = await s.sessions.create(user.id);
    return {
      token: session.token,
      user: publicUser(user, isAdminUser(user, s.config.adminEmails)),
      csrfToken: s.sessions.csrfTokenFor(session.sessionId),
      expiresAt: session.expiresAt.toISOString(),
    };
  }

  app.post("/register", async (c) => {
    await s.limiters.registerPerIp.enforce(clientIp(c, s.config.trustProxy));
    const body = await readBody(c, registerBody);
    if (await findUserByEmail(s.db, body.email)) throw new ApiError(409, MSG.emailTaken);
    const passwordHash = await s.hasher.hash(body.password);
    const fullName = (body.fullName ?? body.name ?? "") || null;
    const user = await createUser(s.db, { email: body.email, fullName, passwordHash, now: s.clock() });
    if (!user) throw new ApiError(409, MSG.emailTaken);
    const code = await s.tokens.issue(user.id, "verify_email");
    s.defer(() => s.mailer.send(verificationEmail(s.config, user.email, code)));
    return c.json(await signedIn(user), 201);
  });

  app.post("/login", async (c) => {
    const ip = clientIp(c, s.config.trustProxy);
    await s.limiters.loginPerIp.enforce(ip);
    const body = await readBody(c, loginBody);
    // One account from one address; then the account's failures from every address, which only
    // wrong passwords add to (services/rate-limit.ts): others guessing from many addresses slow
    // down the guessing, not the owner.
    await s.limiters.loginPerAccountIp.enforce(`${body.email}\u0000${ip}`);
    await s.limiters.loginFailuresPerAccount.check(body.email);
    const user = await findUserByEmail(s.db, body.email);
    if (!user) {
      // The spec's own 404 text stays; the argon2 work is spent anyway so that the timing does
      // not tell an unknown address from a wrong password either.
      await checkUnknownAccount(body.password);
      throw new ApiError(404, MSG.userNotFound);
    }
    if (!(await s.hasher.verify(user.password_hash, body.password))) {
      await s.limiters.loginFailuresPerAccount.hit(body.email);
      throw new ApiError(401, MSG.invalidCredentials);
    }
    return c.json(await signedIn(user), 200);
  });

  app.post("/logout", requireAuth(s.sessions), async (c) => {
    await s.sessions.revoke(c.var.auth.sessionId);
    return c.json({ ok: true, message: MSG.signedOut }, 200);
  });

  // The web app's /auth/callback posts the code from an e-mailed link. A verification code also
  // confirms the address; a recovery code (link marked #type=recovery) signs the user in so the
  // callback can open update_password, and comes back with a fresh one-time reset token
  // (`resetToken`, 1 hour) that update-password takes in place of the current password, which the
  // user has forgotten. Either way, reading the link proves the inbox is theirs.
  app.post("/exchange", async (c) => {
    await s.limiters.exchangePerIp.enforce(clientIp(c, s.config.trustProxy));
    const body = await readBody(c, exchangeBody);
    const used = await s.tokens.consume(body.code, ["verify_email", "reset_password"]);
    if (!used) throw new ApiError(400, MSG.exchangeInvalid);
    const user = await markEmailVerified(s.db, used.userId, s.clock());
    if (!user) throw new ApiError(400, MSG.exchangeInvalid);
    if (used.purpose !== "reset_password") return c.json({ ...(await signedIn(user)), type: "signup" }, 200);
    const resetToken = await s.tokens.issue(user.id, "reset_password");
    return c.json({ ...(await signedIn(user)), type: "recovery", resetToken }, 200);
  });

  return app;
}
