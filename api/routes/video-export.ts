// POST /api/video-export (spec/studio.md sections 3, 5-8): the studio's sound as an MP4
// (H.264 + AAC), streamed back as an attachment named swizard-video-{timestamp}.mp4.
//
// Who may export, decided here from THE entitlement function (services/entitlements.ts):
//   - no or a dead session: 401;
//   - no Pro or unlimited access (free, demo, an admin with the override off and no plan of their
//     own): 403 'Video export requires a Pro subscription. Upgrade now to create videos!';
//   - capabilities.videoExport (rules/plan-access.ts mayExportVideo: every plan, a temporary grant,
//     an admin with the override): allowed, and the MP4 counts against the plan's exports
//     (services/exports.ts; 402 once they are used up).
// Then the request must carry X-Requested-With (a header a cross-site form cannot send; 400
// without) and a JSON body (5 MiB at most, MAX_SOUND_BODY_BYTES) of the spec's payload:
// backgroundType, quality, duration (1 s up to the lower of the role's maximum and the 59-minute
// video limit), frequencies and effects (checked and normalised by THE preset schema,
// dsp/host/schema/preset.ts), and verification counts that must match the normalised settings (400
// otherwise). Busy renderer: 429 + Retry-After.
// The same request can instead be queued as a job (POST /api/video-export/jobs, routes/video-jobs.ts).
import { type Context, Hono } from "hono";
import { z } from "zod";
import { levelsSchema } from "../../dsp/host/schema/levels";
import { PRESET_VERSION, parsePreset } from "../../dsp/host/schema/preset";
import { hasAudibleChannel, type SoundState } from "../../dsp/host/schema/state";
import { recordingPlacementsSchema } from "../../dsp/host/schema/recordings";
import { ownRecordingFiles, recordingSource } from "../services/recordings";
import type { RecordingFile } from "../rules/recordings";
import type { AppEnv, Services } from "../context";
import { ApiError } from "../errors";
import type { VideoJob } from "../services/video-export";
import { countExport, refundExport } from "../services/exports";
import type { ExportCount } from "../rules/exports";
import { videoJobRoutes } from "./video-jobs";
import { soundBodyLimit, keepClientSignal, readBody, requireAuth } from "../http/boundary";
import {
  VIDEO_BACKGROUNDS, VIDEO_MIN_DURATION_SECONDS, VIDEO_QUALITIES, VIDEO_TEXT as T, verificationCounts, videoDurationLimit,
  videoFileName,
} from "../rules/video";

const count = z.number({ error: T.verificationInvalid }).int({ error: T.verificationInvalid }).min(0, { error: T.verificationInvalid });

const videoBody = z.object(
  {
    backgroundType: z.enum(VIDEO_BACKGROUNDS, { error: T.backgroundInvalid }),
    quality: z.enum(VIDEO_QUALITIES, { error: T.qualityInvalid }),
    duration: z
      .number({ error: T.durationInvalid })
      .refine(Number.isFinite, { error: T.durationInvalid })
      .refine((d) => d >= VIDEO_MIN_DURATION_SECONDS, { error: T.durationTooShort }),
    frequencies: z.unknown().optional(), // checked by the preset schema below, with its own texts
    effects: z.unknown().optional(),
    /** The session timeline, checked by the preset schema like the rest of the sound. */
    timeline: z.unknown().optional(),
    /** The voices at 0:00 (an SBaGen schedule's sound), checked by the preset schema too. */
    voices: z.unknown().optional(),
    /** The voice recordings the session places (the account's own are rendered). */
    recordings: z.unknown().optional(),
    /** The listener's levels, made valid (missing or wrong values take the defaults). */
    levels: levelsSchema.optional(),
    verification: z.object(
      {
        enabledChannelCount: count,
        enabledEffectCount: count,
        timestamp: z.number({ error: T.verificationInvalid }).refine(Number.isFinite, { error: T.verificationInvalid }),
      },
      { error: T.verificationInvalid },
    ),
  },
  { error: T.bodyInvalid },
);

/** Who may export and what: the entitlement checks, the header and the body, shared by the
 *  streaming POST /api/video-export and the job API (routes/video-jobs.ts). Throws ApiError. */
export async function checkVideoRequest(s: Services, c: Context<AppEnv>): Promise<VideoJob> {
  const ent = await s.entitlementsOf(c.var.auth.user);
  if (!ent.capabilities.videoExport) throw new ApiError(403, T.needsPro);
  if (!c.req.header("x-requested-with")?.trim()) throw new ApiError(400, T.headerMissing);

  const body = await readBody(c, videoBody);
  const limit = videoDurationLimit(ent.capabilities.maxDurationSeconds);
  if (body.duration > limit) throw new ApiError(400, T.durationTooLong(limit));
  // The preset schema clamps durations to the studio's 30 s minimum: the video's own duration
  // was checked above, so a placeholder stands in for it here.
  // The studio sends its state as it plays it: today's volumes (no older preset's migration).
  const settings = parsePreset({ version: PRESET_VERSION, channels: body.frequencies, effects: body.effects, duration: limit, timeline: body.timeline, voices: body.voices });
  if (!settings.ok) throw new ApiError(400, T.settingsInvalid(settings.error.replace(/^channels/, "frequencies")));
  const sound: SoundState = settings.state;
  if (!hasAudibleChannel(sound)) throw new ApiError(400, T.noChannel);
  // The voice recordings it places (every one, not only those a shared preset keeps): the
  // account's own are read from the file store when the render starts.
  let recordingFiles: RecordingFile[] = [];
  if (body.recordings !== undefined) {
    const placed = recordingPlacementsSchema.safeParse(body.recordings);
    if (!placed.success) throw new ApiError(400, T.settingsInvalid(`recordings ${placed.error.issues[0]?.message ?? "are invalid"}`));
    recordingFiles = await ownRecordingFiles(s, c.var.auth.user.id, placed.data);
    if (recordingFiles.length > 0) sound.recordings = placed.data;
  }
  const expected = verificationCounts(sound.channels, sound.effects);
  if (
    body.verification.enabledChannelCount !== expected.enabledChannelCount ||
    body.verification.enabledEffectCount !== expected.enabledEffectCount
  ) {
    throw new ApiError(400, T.verificationMismatch);
  }
  // What is exported is what was heard: the studio sends the listener's levels. Without them (an
  // older client, a script) the sound renders as before, with the engine's neutral default.
  return {
    background: body.backgroundType, quality: body.quality, duration: body.duration, sound,
    ...(body.levels ? { levels: body.levels } : {}),
    ...(recordingFiles.length > 0 ? { recordingFiles } : {}),
  };
}

/** Counts the MP4 against the caller's plan (services/exports.ts), after every other check passed:
 *  403 with the upgrade path when the count is used up. */
export async function countVideoExport(s: Services, c: Context<AppEnv>): Promise<ExportCount> {
  const { user } = c.var.auth;
  return countExport(s, user.id, await s.entitlementsOf(user));
}

export function videoExportRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.route("/jobs", videoJobRoutes(s, checkVideoRequest, countVideoExport));

  app.post("/", keepClientSignal, requireAuth(s.sessions), soundBodyLimit, async (c) => {
    const job = await checkVideoRequest(s, c);
    const counted = await countVideoExport(s, c);
    const signal = c.var.clientSignal;
    let stream: ReadableStream<Uint8Array>;
    try {
      // The recordings are read once the render has its slot (and within the renders' memory budget).
      stream = await s.video.export(job, signal, undefined, recordingSource(s.storage, job.sound.recordings, job.recordingFiles));
    } catch (err) {
      // Nothing was encoded (the renderer busy, ffmpeg missing, the client gone): not an export.
      await refundExport(s, c.var.auth.user.id, counted);
      // The client left while waiting for a slot or for ffmpeg's first bytes: nobody reads this.
      if (signal.aborted && !(err instanceof ApiError)) return new Response(null, { status: 499 });
      throw err;
    }
    return new Response(stream, {
      status: 200,
      headers: {
        "Content-Type": "video/mp4",
        "Content-Disposition": `attachment; filename="${videoFileName(s.clock(), true)}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  });

  return app;
}
