// Voice recordings (the studio's Recordings panel; api/rules/recordings.ts):
//   POST   /api/recordings?name=...   body: the WAV (audio/wav, 16-bit PCM, 48 kHz, mono or stereo,
//          at most 10 minutes) -> 201 {recording}; signed in (401) with voice recording (Monthly,
//          Commercial, their temporary grants, admins with the override: 403 otherwise); over
//          config.maxRecordingBytes 413; at most RECORDINGS_PER_ACCOUNT and the account's byte cap
//          (config.maxRecordingAccountBytes, 2 GB), both held under concurrency by a reservation
//          taken before the body streams (409); RECORDING_UPLOADS_PER_10_MINUTES uploads per
//          account (429 + Retry-After); bytes after the WAV's audio data 400.
//   GET    /api/recordings            -> {recordings}: the account's own, newest first.
//   GET    /api/recordings/{id}       -> {recording}; another account's id is 404.
//   GET    /api/recordings/{id}/audio -> the WAV (ranges): the owner with voice recording, or anyone
//          with ?preset={shared preset id} when that preset, shared by the owner, lists it.
//   DELETE /api/recordings/{id}       -> 204; the row and the file go.
// Listing and deleting need only the sign-in: an account whose plan ended still sees and removes
// what it keeps.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../context";
import { ApiError } from "../errors";
import { jsonBodyLimit, parseWith, requireAuth } from "../http/boundary";
import { rangedResponse } from "../http/ranges";
import { RECORDING_NAME_MAX, RECORDING_TEXT as T } from "../rules/recordings";
import { createRecording, deleteRecording, listRecordings, ownRecording, recordingInfo, sharedRecording } from "../services/recordings";
import type { FileStorage } from "../services/storage";

const recordingId = z.string().uuid();
const presetId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const nameQuery = z
  .string({ error: T.nameInvalid })
  .trim()
  .min(1, { error: T.nameInvalid })
  .max(RECORDING_NAME_MAX, { error: T.nameInvalid });

export function recordingRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s.sessions);
  const storage = (): FileStorage => {
    if (!s.storage) throw new ApiError(503, "File storage is not configured");
    return s.storage;
  };
  const idOf = (raw: string) => {
    const r = recordingId.safeParse(raw);
    if (!r.success) throw new ApiError(404, T.notFound);
    return r.data;
  };
  const mayRecord = async (c: { var: AppEnv["Variables"] }) => {
    const ent = await s.entitlementsOf(c.var.auth.user);
    if (!ent.capabilities.voiceRecording) throw new ApiError(403, T.needsPlan);
  };

  app.post("/", auth, async (c) => {
    await mayRecord(c);
    const name = parseWith(nameQuery, c.req.query("name"));
    const max = s.config.maxRecordingBytes;
    const length = c.req.header("content-length");
    if (length !== undefined && /^\d+$/.test(length) && Number(length) > max) {
      throw new ApiError(413, T.tooLarge(max), { Connection: "close" });
    }
    // Uploads per account are limited (429 with Retry-After) before any room is reserved.
    await s.limiters.recordingUploadPerUser.enforce(c.var.auth.user.id);
    const declared = length !== undefined && /^\d+$/.test(length) && c.req.header("transfer-encoding") === undefined ? Number(length) : undefined;
    const recording = await createRecording(s, storage(), c.var.auth.user, name, c.req.raw.body, declared);
    return c.json({ recording }, 201);
  });

  app.get("/", auth, async (c) => c.json({ recordings: await listRecordings(s, c.var.auth.user) }, 200));

  app.get("/:id", auth, async (c) => c.json({ recording: recordingInfo(await ownRecording(s, c.var.auth.user, idOf(c.req.param("id")))) }, 200));

  app.on(["GET", "HEAD"], "/:id/audio", async (c) => {
    const id = idOf(c.req.param("id"));
    const shared = c.req.query("preset");
    let row;
    if (shared !== undefined) {
      const p = presetId.safeParse(shared);
      if (!p.success) throw new ApiError(404, T.notFound);
      row = await sharedRecording(s, p.data, id);
    } else {
      await auth(c, async () => {});
      await mayRecord(c);
      row = await ownRecording(s, c.var.auth.user, id);
    }
    const store = storage();
    const size = await store.size(row.file_key);
    if (size === null) throw new ApiError(404, T.notFound);
    const key = row.file_key;
    return rangedResponse(c.req.header("range"), { size, mime: "audio/wav", open: (r) => store.read(key, r) }, c.req.method === "HEAD");
  });

  app.delete("/:id", auth, jsonBodyLimit, async (c) => {
    await deleteRecording(s, storage(), c.var.auth.user, idOf(c.req.param("id")));
    return c.body(null, 204);
  });

  return app;
}
