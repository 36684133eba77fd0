// The sound marketplace (spec/accounts.md section 7):
//   GET  /api/marketplace/sounds[?category=Focus]          {sounds}                         public
//   GET  /api/marketplace/sounds/{id}/preview               first 30 s, range requests       public
//   POST /api/marketplace/purchase/{id}                     {success, alreadyPurchased, checkoutUrl}
//   GET  /api/marketplace/purchases                         {sounds} the caller owns
//   POST /api/marketplace/sounds/{id}/download-link         {url} valid 10 minutes           owner/admin
//   GET  /api/marketplace/sounds/{id}/download[?token=]     the file, attachment, ranges     owner/admin
//   POST /api/marketplace/sounds/{id}/rating {rating}       {sound}                          owner, once
//   POST /api/marketplace/upload-direct  multipart          201 {success, sound}             admin
// The upload is streamed to storage (never buffered whole) under a server-made name, checked by
// its magic bytes and measured from the file; refused uploads leave nothing behind.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../context";
import { ApiError } from "../errors";
import { bearerToken, jsonBodyLimit, parseWith, readBody, requireAuth } from "../http/boundary";
import { readMultipart } from "../http/multipart";
import { rangedResponse } from "../http/ranges";
import { MARKETPLACE_TEXT as T, SOUND_CATEGORIES } from "../rules/marketplace";
import {
  countDownload, createSound, downloadBody, downloadLink, downloadTokenUser, findSound, listSounds, mayDownload,
  ownedSounds, previewBody, purchaseSound, rateSound, ratingBody, validateUploadFields,
} from "../services/marketplace";
import type { FileStorage } from "../services/storage";

const soundId = z.string().uuid({ error: T.soundNotFound });
const categoryQuery = z
  .string()
  .optional()
  .transform((c, ctx) => {
    if (c === undefined || c === "" || c.toLowerCase() === "all") return undefined;
    const found = SOUND_CATEGORIES.find((x) => x.toLowerCase() === c.toLowerCase());
    if (!found) {
      ctx.addIssue({ code: "custom", message: T.categoryInvalid });
      return z.NEVER;
    }
    return found;
  });

export function marketplaceRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s.sessions);
  const storage = (): FileStorage => {
    if (!s.storage) throw new ApiError(503, "File storage is not configured");
    return s.storage;
  };
  const idOf = (raw: string) => {
    const r = soundId.safeParse(raw);
    if (!r.success) throw new ApiError(404, T.soundNotFound);
    return r.data;
  };

  app.get("/sounds", async (c) => {
    const category = parseWith(categoryQuery, c.req.query("category"));
    return c.json({ sounds: await listSounds(s.db, category) }, 200);
  });

  app.on(["GET", "HEAD"], "/sounds/:id/preview", async (c) => {
    const sound = await findSound(s.db, idOf(c.req.param("id")));
    return rangedResponse(c.req.header("range"), await previewBody(storage(), sound), c.req.method === "HEAD");
  });

  app.post("/purchase/:id", auth, async (c) => {
    const { user } = c.var.auth;
    await s.limiters.marketplacePurchasePerUser.enforce(user.id);
    return c.json(await purchaseSound(s, user, idOf(c.req.param("id"))), 200);
  });

  app.get("/purchases", auth, async (c) => c.json({ sounds: await ownedSounds(s.db, c.var.auth.user.id) }, 200));

  app.post("/sounds/:id/download-link", auth, async (c) => {
    const { user } = c.var.auth;
    const id = idOf(c.req.param("id"));
    await findSound(s.db, id);
    if (!(await mayDownload(s, user, id))) throw new ApiError(403, T.notOwned);
    return c.json({ url: await downloadLink(s, user, id) }, 200);
  });

  app.on(["GET", "HEAD"], "/sounds/:id/download", async (c) => {
    const verifiedBearer = async () => {
      const bearer = bearerToken(c);
      return bearer ? s.sessions.verify(bearer) : null;
    };
    const id = idOf(c.req.param("id"));
    const token = c.req.query("token");
    const user = token ? await downloadTokenUser(s, token, id) : (await verifiedBearer())?.user;
    if (!user) throw new ApiError(401, token ? T.linkExpired : T.loginToDownload);
    const sound = await findSound(s.db, id);
    if (!(await mayDownload(s, user, id))) throw new ApiError(403, T.notOwned);
    const range = c.req.header("range");
    const body = await downloadBody(storage(), sound);
    const res = rangedResponse(range, body, c.req.method === "HEAD");
    // A download is counted when the file is fetched from its first byte.
    if (c.req.method === "GET" && (res.status === 200 || /^bytes=\s*0-/i.test(range ?? ""))) await countDownload(s.db, id);
    return res;
  });

  app.post("/sounds/:id/rating", auth, jsonBodyLimit, async (c) => {
    const { user } = c.var.auth;
    await s.limiters.marketplaceRatePerUser.enforce(user.id);
    const body = await readBody(c, ratingBody);
    return c.json({ sound: await rateSound(s, user, idOf(c.req.param("id")), body.rating) }, 200);
  });

  app.post("/upload-direct", async (c) => {
    const token = bearerToken(c);
    if (!token) throw new ApiError(401, T.loginToUpload);
    const session = await s.sessions.verify(token);
    if (!session) throw new ApiError(401, T.uploadAuthFailed);
    const ent = await s.entitlementsOf(session.user);
    if (!ent.isAdmin) throw new ApiError(403, T.adminOnly);
    await s.limiters.marketplaceUploadPerUser.enforce(session.user.id, T.uploadRateLimited);
    const store = storage();
    const form = await readMultipart(c, {
      storage: store,
      fileField: "audio",
      maxFileBytes: s.config.maxUploadBytes,
      tooLarge: T.tooLarge(s.config.maxUploadBytes),
    });
    let fields;
    try {
      fields = validateUploadFields(form.fields, form.file !== null && form.fileBytes > 0);
    } catch (err) {
      await form.file?.discard();
      throw err;
    }
    const sound = await createSound(s, store, session.user, fields, form.file!, form.fileBytes);
    return c.json({ success: true, sound }, 201);
  });

  return app;
}
