// GET /api/user/profile: the signed-in user with everything the UI gates on, straight from the
// entitlement function (spec/accounts.md section 3 "Profile response" plus the fields the studio's
// account menu and gating read, and the demo's state).
import { Hono } from "hono";
import type { AppEnv, Services } from "../context";
import { requireAuth } from "../http/boundary";
import { publicUser } from "../services/users";

export function userRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/profile", requireAuth(s.sessions), async (c) => {
    const { user } = c.var.auth;
    const ent = await s.entitlementsOf(user);
    return c.json(
      {
        user: publicUser(user, ent.isAdmin),
        isAdmin: ent.isAdmin,
        subscription: ent.subscription,
        hasTemporaryAccess: ent.hasTemporaryAccess,
        temporaryAccess: ent.temporaryAccess,
        demo: ent.demo,
        hasActiveSubscription: ent.hasActiveSubscription,
        hasUnlimitedAccess: ent.hasUnlimitedAccess,
        adminOverride: ent.adminOverride,
        emailVerified: user.email_verified_at !== null,
        entitlements: { level: ent.level, demoActive: ent.demoActive, capabilities: ent.capabilities },
      },
      200,
    );
  });

  return app;
}
