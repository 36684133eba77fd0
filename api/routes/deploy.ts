// Deploy to live (spec/accounts.md section 7):
//   POST /api/deploy          admin → 202 {ok: true, id}; 409 while a build runs; 503 without a deployer
//   GET  /api/deploy/status   {state, id, url, claimed, claim_url, startedAt, finishedAt} (no auth, as the spec's poll; the
//                             failure reason is only shown to admins)
// The request body (the original client sends a provider, a build command and an output folder) is
// read for its size only and otherwise ignored: the server builds the one way it knows.
import { Hono } from "hono";
import type { AppEnv, Services } from "../context";
import { ApiError } from "../errors";
import { bearerToken, requireAuth } from "../http/boundary";
import { ADMIN_TEXT } from "../rules/admin";

export function deployRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const deployer = () => {
    if (!s.deployer) throw new ApiError(503, "Deploys are not available on this server");
    return s.deployer;
  };

  app.post("/", requireAuth(s.sessions), async (c) => {
    const ent = await s.entitlementsOf(c.var.auth.user);
    if (!ent.isAdmin) throw new ApiError(403, ADMIN_TEXT.adminOnly);
    await s.limiters.adminActionPerUser.enforce(c.var.auth.user.id);
    const started = deployer().start();
    if (!started) throw new ApiError(409, "A deploy is already running");
    return c.json({ ok: true, id: started.id }, 202);
  });

  app.get("/status", async (c) => {
    const { error, ...status } = deployer().status();
    const token = bearerToken(c);
    const session = token ? await s.sessions.verify(token) : null;
    const admin = session ? (await s.entitlementsOf(session.user)).isAdmin : false;
    return c.json(admin && error ? { ...status, error } : status, 200);
  });

  return app;
}
