// Video export as a queued job: the request checked by routes/video-export.ts is queued
// on the shared job queue; whichever API process claims it renders the MP4 with the same
// VideoExporter as the streaming POST (so the two share its slots) into FileStorage, records the
// file in the job's result, and queues the file's removal for when it expires.
// A cancelled job (cancelVideoJob) leaves no file: while rendering, the queue aborts the handler's
// signal, which kills ffmpeg and stops the engine, and the half-written file is removed by the
// storage write that fails; a finished job's file is removed by the cancel itself; a file
// committed in the moment the job was cancelled is removed by the queue's discard.
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { Services } from "../context";
import { VIDEO_JOB_FILE_TTL_HOURS, VIDEO_TEXT, videoFileName } from "../rules/video";
import type { ExportCount } from "../rules/exports";
import { refundExport } from "./exports";
import { JOB_DEFINITIONS, type JobContext } from "./jobs";
import type { VideoJob } from "./video-export";
import { recordingSource } from "./recordings";

export interface VideoJobData {
  userId: string;
  job: VideoJob;
  /** What counting it against the plan answered (services/exports.ts): given back when the job's
   *  last attempt fails, since no video was made. */
  counted?: ExportCount;
}

export interface VideoJobResult {
  key: string;
  bytes: number;
  fileName: string;
  expiresAt: string;
}

interface ExpireData {
  key: string;
}

/** Registers the video workers on the app's queue. */
export function registerVideoJobs(s: Services): void {
  const removeFile = async (result: VideoJobResult | null) => {
    if (result?.key) await s.storage?.remove(result.key);
  };
  const attempts = JOB_DEFINITIONS["video-export"].retryLimit + 1;
  s.jobs.work<VideoJobData, VideoJobResult>("video-export", JOB_DEFINITIONS["video-export"].concurrency, async (ctx) => {
    try {
      return await renderVideoJob(ctx);
    } catch (err) {
      // The last attempt failed (not a cancel or a stop, which abort the signal): no video was
      // made, so the export's count is given back.
      if (!ctx.signal.aborted && ctx.attempt >= attempts && ctx.data.counted) {
        await refundExport(s, ctx.data.userId, ctx.data.counted).catch((e: unknown) => s.log.error("Export count not given back", { message: e instanceof Error ? e.message : String(e) }));
      }
      throw err;
    }
  }, { discard: removeFile });

  async function renderVideoJob({ data, signal, progress }: JobContext<VideoJobData>): Promise<VideoJobResult> {
    const storage = s.storage;
    if (!storage) throw new Error(VIDEO_TEXT.jobsUnavailable);
    const stream = await s.video.export(data.job, signal, progress, recordingSource(storage, data.job.sound.recordings, data.job.recordingFiles));
    const file = await storage.write(Readable.fromWeb(stream as NodeReadableStream<Uint8Array>));
    let key: string;
    try {
      key = await file.commit("mp4");
    } catch (err) {
      await file.discard();
      throw err;
    }
    const now = s.clock();
    const expiresAt = new Date(now.getTime() + VIDEO_JOB_FILE_TTL_HOURS * 3600_000);
    try {
      await s.jobs.enqueue("video-export-expire", { key } satisfies ExpireData, { startAfter: expiresAt });
    } catch (err) {
      await storage.remove(key); // a file nobody would remove is not kept
      throw err;
    }
    return { key, bytes: file.bytes, fileName: videoFileName(now, true), expiresAt: expiresAt.toISOString() };
  }
  s.jobs.work<ExpireData, null>("video-export-expire", JOB_DEFINITIONS["video-export-expire"].concurrency, async ({ data }) => {
    await s.storage?.remove(data.key);
    return null;
  });
}

/** Cancels the video job `id` (the caller has checked its owner): a queued job never runs, a
 *  running one is stopped, a finished one's file is removed. Repeating it changes nothing. */
export async function cancelVideoJob(s: Services, id: string): Promise<void> {
  const outcome = await s.jobs.cancel<VideoJobResult>("video-export", id);
  if (outcome?.result?.key) await s.storage?.remove(outcome.result.key);
}

/** A claim not turned into a job within this long (its request died) no longer holds the user. */
export const VIDEO_CLAIM_TTL_MS = 60_000;

/** Takes the user's one video job slot: the claim's id, or null while another of their jobs is
 *  queued or running (or being queued). Free when the slot is empty, its job has ended (completed,
 *  failed, cancelled, gone) or its claim is stale. Each step is one conditional statement, so two
 *  requests never both hold the slot, on SQLite or PostgreSQL, in one process or several. */
export async function claimVideoSlot(s: Services, userId: string): Promise<string | null> {
  const claim = randomUUID();
  for (let tries = 0; tries < 3; tries++) {
    const now = s.clock();
    const inserted = await s.db
      .insertInto("video_job_owners")
      .values({ user_id: userId, job_id: claim, pending: 1, updated_at: now.toISOString() })
      .onConflict((oc) => oc.column("user_id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return claim;
    const row = await s.db.selectFrom("video_job_owners").select(["job_id", "pending", "updated_at"]).where("user_id", "=", userId).executeTakeFirst();
    if (!row) continue; // released meanwhile: try the insert again
    const held = Number(row.pending) === 1
      ? Date.parse(row.updated_at) > now.getTime() - VIDEO_CLAIM_TTL_MS
      : ["queued", "active"].includes((await s.jobs.get("video-export", row.job_id))?.state ?? "");
    if (held) return null;
    const taken = await s.db
      .updateTable("video_job_owners")
      .set({ job_id: claim, pending: 1, updated_at: now.toISOString() })
      .where("user_id", "=", userId)
      .where("job_id", "=", row.job_id)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1 ? claim : null;
  }
  return null;
}

/** Hands the claim on to the job it became (`jobId`), or gives the slot back (null). */
export async function settleVideoSlot(s: Services, userId: string, claim: string, jobId: string | null): Promise<void> {
  if (jobId) {
    await s.db
      .updateTable("video_job_owners")
      .set({ job_id: jobId, pending: 0, updated_at: s.clock().toISOString() })
      .where("user_id", "=", userId)
      .where("job_id", "=", claim)
      .execute();
  } else {
    await s.db.deleteFrom("video_job_owners").where("user_id", "=", userId).where("job_id", "=", claim).execute();
  }
}
