// The demo: GET /api/demo/status and POST /api/demo/start {durationMinutes?: 10}.
// The length is the server's (10 minutes); a body may only restate it.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../context";
import { readBody, requireAuth } from "../http/boundary";
import { MSG } from "../messages";
import { demoStatus, startDemo } from "../services/demo";

const startBody = z.object(
  { durationMinutes: z.literal(10, { error: MSG.demoDurationInvalid }).optional() },
  { error: MSG.demoDurationInvalid },
);

export function demoRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s.sessions);

  app.get("/status", auth, async (c) => c.json(await demoStatus(s, c.var.auth.user), 200));

  app.post("/start", auth, async (c) => {
    const { user } = c.var.auth;
    await s.limiters.demoStartPerUser.enforce(user.id);
    await readBody(c, startBody);
    return c.json(await startDemo(s, user), 200);
  });

  return app;
}
