// Shared presets (spec/studio.md section 7):
//   POST /api/presets/user {name, data: {channels, effects, duration}} -> 201 {id}: signed in (401)
//     with preset sharing, which the entitlement function gives Pro, unlimited and admins with the
//     override (403 otherwise); at most RATE_RULES.presetCreatePerUser per user (429).
//   GET /api/presets/{id} -> {id, name, data}: public, since the unguessable id is the link.
// Bodies are JSON of at most MAX_SOUND_BODY_BYTES, 5 MiB (413, set in app.ts): a long timeline fits.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../context";
import { ApiError } from "../errors";
import { parseWith, readBody, requireAuth } from "../http/boundary";
import { MSG } from "../messages";
import { createPreset, findPreset } from "../services/presets";

export const PRESET_NAME_MAX = 100;

const createBody = z.object(
  {
    name: z
      .string({ error: MSG.presetNameMissing })
      .trim()
      .min(1, { error: MSG.presetNameMissing })
      .max(PRESET_NAME_MAX, { error: MSG.presetNameTooLong }),
    data: z.unknown().optional(), // checked by THE preset schema, with its own texts
  },
  { error: MSG.presetBodyInvalid },
);

/** Ids this server hands out are 22 base64url characters; older or hand-made ones stay URL-safe. */
const presetId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: MSG.presetIdInvalid });

export function presetRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/user", requireAuth(s.sessions), async (c) => {
    const { user } = c.var.auth;
    const ent = await s.entitlementsOf(user);
    if (!ent.capabilities.sharePreset) throw new ApiError(403, MSG.presetNeedsPro);
    await s.limiters.presetCreatePerUser.enforce(user.id);
    const body = await readBody(c, createBody);
    return c.json(await createPreset(s, user, body.name, body.data), 201);
  });

  app.get("/:id", async (c) => {
    const id = parseWith(presetId, c.req.param("id"));
    return c.json(await findPreset(s, id), 200);
  });

  return app;
}
