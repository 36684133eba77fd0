// The video export job API, under /api/video-export/jobs:
//   POST /            the same checks, limits and texts as POST /api/video-export (checkVideoRequest),
//                     then 202 {id}: the video is rendered by whichever API process claims the job.
//                     One job at a time per user: while one of theirs is queued or running, another
//                     is refused with 409 (T.jobRunning); more than VIDEO_QUEUE_LIMIT jobs queued or
//                     running across the installation: 429 (T.queueFull) with Retry-After, decided
//                     under one lock with the enqueue, so concurrent requests cannot pass it. The MP4
//                     counts against the plan's exports (402 once used up), given back when refused;
//   GET  /:id         {id, state, progress, error} to the user who made it, 404 to anyone else;
//   GET  /:id/file    the MP4 (ranges allowed) once completed: 409 before, 410 after it expired
//                     or was cancelled;
//   DELETE /:id       cancels it (services/video-jobs.ts cancelVideoJob): 200 with the status, state
//                     'cancelled' (a job that had already failed stays 'failed'); again is the same.
import { type Context, Hono } from "hono";
import type { AppEnv, Services } from "../context";
import { ApiError } from "../errors";
import { soundBodyLimit, requireAuth } from "../http/boundary";
import { rangedResponse } from "../http/ranges";
import { VIDEO_QUEUE_LIMIT, VIDEO_QUEUE_RETRY_SECONDS, VIDEO_TEXT as T } from "../rules/video";
import type { JobInfo } from "../services/jobs";
import type { VideoJob } from "../services/video-export";
import { cancelVideoJob, claimVideoSlot, settleVideoSlot, type VideoJobData, type VideoJobResult } from "../services/video-jobs";
import { refundExport } from "../services/exports";
import { withExclusiveLock } from "../db/locks";
import type { ExportCount } from "../rules/exports";

/** Job ids are UUIDs on both queues; anything else is not a job (and never reaches PostgreSQL). */
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Step<T> = (s: Services, c: Context<AppEnv>) => Promise<T>;

/** `check`: who may export what (routes/video-export.ts checkVideoRequest); `count`: counts the MP4
 *  against the plan once everything else passed. */
export function videoJobRoutes(s: Services, check: Step<VideoJob>, count: Step<ExportCount>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  /** The caller's own video job, or 404. */
  async function ownJob(c: Context<AppEnv>): Promise<JobInfo<VideoJobData, VideoJobResult>> {
    const id = c.req.param("id") ?? "";
    const job = JOB_ID.test(id) ? await s.jobs.get<VideoJobData, VideoJobResult>("video-export", id) : null;
    if (!job || job.data?.userId !== c.var.auth.user.id) throw new ApiError(404, T.jobNotFound);
    return job;
  }

  app.post("/", requireAuth(s.sessions), soundBodyLimit, async (c) => {
    const job = await check(s, c);
    if (!s.storage) throw new ApiError(503, T.jobsUnavailable);
    const userId = c.var.auth.user.id;
    // Admission is one step at a time across the installation (db/locks.ts): the count of queued
    // and running jobs and the enqueue that adds one, so that 26 users at once get at most
    // VIDEO_QUEUE_LIMIT jobs between them.
    const id = await withExclusiveLock(s.db, "video-export-admission", async () => {
      if ((await s.jobs.pending("video-export")) >= VIDEO_QUEUE_LIMIT) {
        throw new ApiError(429, T.queueFull, { "Retry-After": String(VIDEO_QUEUE_RETRY_SECONDS) });
      }
      // One queued-or-running job per user (services/video-jobs.ts claimVideoSlot), taken before the
      // count so that a refused job counts nothing.
      const claim = await claimVideoSlot(s, userId);
      if (!claim) throw new ApiError(409, T.jobRunning);
      let queued: string | null = null;
      try {
        const counted = await count(s, c);
        try {
          queued = await s.jobs.enqueue("video-export", { userId, job, counted } satisfies VideoJobData);
        } catch (err) {
          await refundExport(s, userId, counted);
          throw err;
        }
      } finally {
        await settleVideoSlot(s, userId, claim, queued);
      }
      return queued;
    });
    return c.json({ id }, 202);
  });

  /** The status answer of GET and DELETE. */
  function statusOf(c: Context<AppEnv>, job: JobInfo<VideoJobData, VideoJobResult>): Response {
    c.header("Cache-Control", "no-store");
    return c.json({
      id: job.id,
      state: job.state,
      progress: Math.round(job.progress * 1000) / 1000,
      error: job.state === "failed" ? T.failed(job.error ?? T.encodeFailed) : null,
      expiresAt: job.state === "completed" ? (job.result?.expiresAt ?? null) : null,
    });
  }

  app.get("/:id", requireAuth(s.sessions), async (c) => statusOf(c, await ownJob(c)));

  app.delete("/:id", requireAuth(s.sessions), async (c) => {
    const job = await ownJob(c);
    await cancelVideoJob(s, job.id);
    return statusOf(c, (await s.jobs.get<VideoJobData, VideoJobResult>("video-export", job.id)) ?? job);
  });

  app.get("/:id/file", requireAuth(s.sessions), async (c) => {
    const job = await ownJob(c);
    if (job.state === "failed") throw new ApiError(409, T.jobFailed);
    if (job.state === "cancelled") throw new ApiError(410, T.jobCancelled);
    if (job.state !== "completed" || !job.result) throw new ApiError(409, T.jobNotReady);
    const storage = s.storage;
    const { key, fileName, expiresAt } = job.result;
    const size = storage && Date.parse(expiresAt) > s.clock().getTime() ? await storage.size(key) : null;
    if (!storage || size === null) throw new ApiError(410, T.jobExpired);
    return rangedResponse(c.req.header("range"), {
      size,
      mime: "video/mp4",
      open: (range) => storage.read(key, range),
      disposition: `attachment; filename="${fileName}"`,
    });
  });

  return app;
}
