// Counted exports (services/exports.ts): the studio asks before every WAV export and every render
// for the marketplace; the video routes count their MP4s themselves.
//   POST /api/exports {kind: 'wav'|'mp4'|'marketplace', durationSeconds}
//       200 {left, quota, periodEnd} after counting it (all null: unlimited);
//       401 signed out; 403 no plan with exports (free, demo); 402 the count used up, with the
//       upgrade path; 400 a bad body or a duration over the plan's maximum (rules/plan-access.ts).
//   GET  /api/exports   200 {left, quota, periodEnd} now, counting nothing; 403 without exports.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../context";
import { readBody, requireAuth } from "../http/boundary";
import { EXPORT_KINDS, EXPORT_TEXT as T } from "../rules/exports";
import { checkExportLength, countExport, exportCountOf, requireExportPlan } from "../services/exports";

const exportBody = z.object(
  {
    kind: z.enum(EXPORT_KINDS, { error: T.kindInvalid }),
    durationSeconds: z
      .number({ error: T.durationInvalid })
      .refine(Number.isFinite, { error: T.durationInvalid })
      .refine((d) => d > 0, { error: T.durationInvalid }),
  },
  { error: T.bodyInvalid },
);

export function exportRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/", requireAuth(s.sessions), async (c) => {
    const { user } = c.var.auth;
    const ent = await s.entitlementsOf(user);
    requireExportPlan(ent);
    const body = await readBody(c, exportBody);
    checkExportLength(ent, body.kind, body.durationSeconds);
    c.header("Cache-Control", "no-store");
    return c.json(await countExport(s, user.id, ent));
  });

  app.get("/", requireAuth(s.sessions), async (c) => {
    const { user } = c.var.auth;
    c.header("Cache-Control", "no-store");
    return c.json(await exportCountOf(s, user.id, await s.entitlementsOf(user)));
  });

  return app;
}
