// Export Video's client side (no React): checks the spec's preconditions, builds the payload of
// spec 3 (all channels, the effects, verification counts) and runs the export through the server's
// job API: POST /api/video-export/jobs queues the render (202 {id}); the job's status is
// polled about once a second for its progress; the finished MP4 is fetched from
// /api/video-export/jobs/{id}/file and downloaded as swizard-video-{local timestamp}.mp4. Every
// request carries the stored bearer token and X-Requested-With. Every failure becomes one of the
// spec's messages (section 8); a failed job shows the server's 'Video export failed: {reason}'.
//
// The job lives in the shared queue, so it survives a restart of the API process that accepted it
// (polls that cannot reach the server are retried for POLL_OUTAGE_MS) and runs once across
// processes. The running job's id is kept in sessionStorage so that a page reload resumes polling.
// Stopping an export (the dialog's Cancel export, or closing it) stops polling and cancels the job
// on the server (DELETE, cancelVideoJob): its render stops and no file is kept. A job cancelled
// elsewhere (another tab) ends the export with VideoJobCancelledError.
//
// The file is collected into a Blob and downloaded from an object URL. That holds the whole video
// in the browser (about 90 MB for an hour of 720p on black, a few hundred MB for an hour of 1080p
// waveform; Chromium moves large blobs to disk); the WAV export's save picker would stream to
// disk instead, but it has to be opened before the request, leaving an empty file behind whenever
// the server refuses, and a video is at most an hour long.

import type { Levels } from "../../dsp/host/model/levels";
import { hasAudibleChannel, type AudioState, type SoundState } from "../../dsp/host/schema/state";
import {
  VIDEO_MIN_DURATION_SECONDS, VIDEO_TEXT, verificationCounts, videoFileName, type VideoBackground,
  type VideoExportPayload, type VideoQuality,
} from "../../api/rules/video";
import type { KeyValueStorage } from "../account/storage";
import { saveAs } from "../export/download";

export const VIDEO_JOBS_PATH = "/api/video-export/jobs";
/** How often a running job's status is asked for. */
export const POLL_INTERVAL_MS = 1_000;
/** How long polls may fail in a row (server restarting, network down) before the export fails. */
export const POLL_OUTAGE_MS = 120_000;
/** sessionStorage key of the running job ({id}), read back after a page reload. */
export const RUNNING_JOB_KEY = "video_export_job";

export interface VideoOptions {
  background: VideoBackground;
  quality: VideoQuality;
  /** Seconds. */
  duration: number;
  /** The listener's levels, so the video sounds as the studio did (Safe levels). */
  levels?: Levels;
}

/** Why an export did not happen or failed, with the text the user sees. `signOut` asks the
 *  caller to clear the stored session (spec 8: 401 and 403); `transient` marks a failure that may
 *  pass (no answer, 5xx, 429), after which a status poll is tried again. */
export class VideoExportError extends Error {
  readonly signOut: boolean;
  readonly transient: boolean;
  constructor(message: string, signOut = false, transient = false) {
    super(message);
    this.name = "VideoExportError";
    this.signOut = signOut;
    this.transient = transient;
  }
}

/** A job that was cancelled (state 'cancelled'). */
export class VideoJobCancelledError extends VideoExportError {
  constructor() {
    super(VIDEO_TEXT.cancelled);
    this.name = "VideoJobCancelledError";
  }
}

/** A job the server does not know (or that belongs to someone else): 404. */
export class VideoJobGoneError extends VideoExportError {
  constructor() {
    super(VIDEO_TEXT.failed(VIDEO_TEXT.jobNotFound));
    this.name = "VideoJobGoneError";
  }
}

export function buildPayload(state: SoundState, options: VideoOptions, now = Date.now()): VideoExportPayload {
  return {
    ...(options.levels ? { levels: options.levels } : {}),
    backgroundType: options.background,
    quality: options.quality,
    duration: options.duration,
    frequencies: state.channels.map((c) => ({ ...c })),
    effects: state.effects,
    verification: { ...verificationCounts(state.channels, state.effects), timestamp: now },
    ...(state.timeline ? { timeline: state.timeline } : {}),
    ...(state.voices && state.voices.length > 0 ? { voices: state.voices } : {}),
    ...(state.recordings && state.recordings.length > 0 ? { recordings: state.recordings } : {}),
  };
}

/** The checks made before anything is sent, in the spec's order; null when the export may go. */
export function precheck(
  input: { token: string | null; proAccess: boolean; state: Pick<AudioState, "channels">; duration: number; maxDuration: number },
): string | null {
  if (!input.token) return VIDEO_TEXT.authRequired;
  if (!input.proAccess) return VIDEO_TEXT.needsPro;
  if (!hasAudibleChannel(input.state)) return VIDEO_TEXT.noChannel;
  if (!(input.duration >= VIDEO_MIN_DURATION_SECONDS)) return VIDEO_TEXT.durationTooShort;
  if (input.duration > input.maxDuration) return VIDEO_TEXT.durationTooLong(input.maxDuration);
  return null;
}

// ---- the running job, remembered for a page reload ----

/** The job id kept in `storage` (sessionStorage), or null. */
export function rememberedJob(storage: KeyValueStorage | null): string | null {
  try {
    const raw = storage?.getItem(RUNNING_JOB_KEY);
    const id = raw ? (JSON.parse(raw) as { id?: unknown }).id : null;
    return typeof id === "string" && id ? id : null;
  } catch {
    return null;
  }
}

export function rememberJob(storage: KeyValueStorage | null, id: string | null): void {
  try {
    if (id) storage?.setItem(RUNNING_JOB_KEY, JSON.stringify({ id }));
    else storage?.removeItem(RUNNING_JOB_KEY);
  } catch {
    // storage full or refused: the export goes on, only a reload would lose it
  }
}

/** window.sessionStorage when the browser lets the page use it, else null. */
export function tabStorage(): KeyValueStorage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

// ---- the job API ----

export type VideoJobState = "queued" | "active" | "completed" | "failed" | "cancelled";

export interface VideoJobStatus {
  id: string;
  state: VideoJobState;
  /** 0..1 of the sound rendered. */
  progress: number;
  /** 'Video export failed: {reason}' when state is 'failed'. */
  error: string | null;
}

export interface VideoDownload {
  fileName: string;
  bytes: number;
}

interface RequestOptions {
  signal?: AbortSignal;
  fetchImpl?: typeof fetch;
}

function isAbort(err: unknown): boolean {
  return (err as { name?: string })?.name === "AbortError";
}

function headers(token: string, json = false): Record<string, string> {
  return {
    ...(json ? { "Content-Type": "application/json" } : {}),
    Accept: json ? "application/json" : "video/mp4, application/json",
    Authorization: `Bearer ${token}`,
    "X-Requested-With": "XMLHttpRequest",
  };
}

/** A request whose network failure is 'Video export failed: {message}' (AbortError passes). */
async function send(url: string, init: RequestInit, opts: RequestOptions): Promise<Response> {
  try {
    return await (opts.fetchImpl ?? fetch)(url, { ...init, signal: opts.signal });
  } catch (err) {
    if (isAbort(err) || opts.signal?.aborted) throw err;
    throw new VideoExportError(VIDEO_TEXT.failed(messageOf(err, "the server could not be reached")), false, true);
  }
}

/** 401/403: 'Authentication expired…' with signOut; other errors: 'Video export failed: {error}'. */
async function refusal(res: Response): Promise<VideoExportError> {
  if (res.status === 401 || res.status === 403) return new VideoExportError(VIDEO_TEXT.authExpired, true);
  const data = (await res.json().catch(() => null)) as { error?: unknown } | null;
  const message = typeof data?.error === "string" && data.error ? data.error : `${res.status} ${res.statusText}`.trim();
  return new VideoExportError(VIDEO_TEXT.failed(message), false, res.status >= 500 || res.status === 429);
}

/** Queues the export; resolves with the job's id. */
export async function startVideoJob(payload: VideoExportPayload, token: string, opts: RequestOptions = {}): Promise<string> {
  const res = await send(VIDEO_JOBS_PATH, { method: "POST", headers: headers(token, true), body: JSON.stringify(payload) }, opts);
  if (!res.ok) throw await refusal(res);
  const data = (await res.json().catch(() => null)) as { id?: unknown } | null;
  if (typeof data?.id !== "string" || !data.id) throw new VideoExportError(VIDEO_TEXT.failed("the server did not start the export"));
  return data.id;
}

/** The job's status. 404 rejects with VideoJobGoneError. */
export async function videoJobStatus(id: string, token: string, opts: RequestOptions = {}): Promise<VideoJobStatus> {
  const res = await send(`${VIDEO_JOBS_PATH}/${encodeURIComponent(id)}`, { headers: headers(token, true), cache: "no-store" }, opts);
  if (res.status === 404) throw new VideoJobGoneError();
  if (!res.ok) throw await refusal(res);
  const data = (await res.json().catch(() => null)) as Partial<VideoJobStatus> | null;
  const states: VideoJobState[] = ["queued", "active", "completed", "failed", "cancelled"];
  if (!data || !states.includes(data.state as VideoJobState)) throw new VideoExportError(VIDEO_TEXT.failed("the server sent an unreadable status"));
  return {
    id,
    state: data.state as VideoJobState,
    progress: typeof data.progress === "number" && Number.isFinite(data.progress) ? Math.min(1, Math.max(0, data.progress)) : 0,
    error: typeof data.error === "string" && data.error ? data.error : null,
  };
}

/** Cancels the job on the server (DELETE): a queued job never runs, a running render stops, a
 *  finished file is removed. Sent with keepalive, so it is not lost when the page goes away right
 *  after; resolves with whether the server answered 2xx (never rejects: the user has stopped
 *  waiting either way, and an uncancelled file expires). */
export async function cancelVideoJob(id: string, token: string, opts: Pick<RequestOptions, "fetchImpl"> = {}): Promise<boolean> {
  try {
    const res = await (opts.fetchImpl ?? fetch)(`${VIDEO_JOBS_PATH}/${encodeURIComponent(id)}`, {
      method: "DELETE",
      headers: headers(token, true),
      keepalive: true,
    });
    return res.ok;
  } catch {
    return false;
  }
}

/** Fetches the finished MP4 and saves it as swizard-video-{local timestamp}.mp4. */
export async function downloadVideoJob(
  id: string,
  token: string,
  opts: RequestOptions & { onBytes?: (bytes: number) => void; save?: (blob: Blob, name: string) => void } = {},
): Promise<VideoDownload> {
  const res = await send(`${VIDEO_JOBS_PATH}/${encodeURIComponent(id)}/file`, { headers: headers(token) }, opts);
  if (res.status === 404) throw new VideoJobGoneError();
  if (!res.ok) throw await refusal(res);
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  try {
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value as Uint8Array<ArrayBuffer>);
      bytes += value.byteLength;
      opts.onBytes?.(bytes);
    }
  } catch (err) {
    if (isAbort(err) || opts.signal?.aborted) throw err;
    throw new VideoExportError(VIDEO_TEXT.failed(messageOf(err, "the download was interrupted")));
  }
  if (bytes === 0) throw new VideoExportError(VIDEO_TEXT.failed("the server sent an empty file"));
  const fileName = videoFileName(new Date());
  (opts.save ?? saveAs)(new Blob(parts, { type: "video/mp4" }), fileName);
  return { fileName, bytes };
}

/** Waits `ms`, or rejects with an AbortError when `signal` aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException("Aborted", "AbortError"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException("Aborted", "AbortError"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A failed poll worth trying again: no answer, a 5xx, or a 429. */
function transient(err: unknown): boolean {
  return err instanceof VideoExportError && err.transient;
}

export interface ExportProgress {
  phase: "queued" | "rendering" | "downloading";
  /** 0..1 of the sound rendered (phase 'rendering'). */
  progress: number;
  /** Bytes received (phase 'downloading'). */
  bytes: number;
}

export interface ExportOptions extends RequestOptions {
  /** Called once the job exists (to remember its id), even when `signal` aborted while it was being
   *  queued: the caller who stopped can then cancel it. */
  onJob?: (id: string) => void;
  onProgress?: (p: ExportProgress) => void;
  save?: (blob: Blob, name: string) => void;
  pollMs?: number;
  outageMs?: number;
  now?: () => number;
}

/** Runs an export through the job API: queues `payload` (or, with `resumeId`, follows a job
 *  already queued), polls its status until it completes or fails, then downloads the file.
 *  Rejects with a VideoExportError carrying the text to show (VideoJobCancelledError for a job
 *  cancelled elsewhere), or an AbortError when `signal` aborted (polling stops; cancelling the
 *  job on the server is cancelVideoJob's). */
export async function exportVideo(
  job: { payload: VideoExportPayload } | { resumeId: string },
  token: string,
  opts: ExportOptions = {},
): Promise<VideoDownload> {
  const pollMs = opts.pollMs ?? POLL_INTERVAL_MS;
  const outageMs = opts.outageMs ?? POLL_OUTAGE_MS;
  const now = opts.now ?? Date.now;
  if (opts.signal?.aborted) throw new DOMException("Aborted", "AbortError");
  // The start is not aborted half-way: a job the server made must reach onJob to be cancelled.
  const id = "resumeId" in job ? job.resumeId : await startVideoJob(job.payload, token, { ...opts, signal: undefined });
  opts.onJob?.(id);
  if (opts.signal?.aborted) throw new DOMException("Aborted", "AbortError");
  opts.onProgress?.({ phase: "queued", progress: 0, bytes: 0 });
  let failingSince: number | null = null;
  for (let first = true; ; first = false) {
    if (!first) await sleep(pollMs, opts.signal);
    let status: VideoJobStatus;
    try {
      status = await videoJobStatus(id, token, opts);
      failingSince = null;
    } catch (err) {
      if (!transient(err)) throw err;
      failingSince ??= now();
      if (now() - failingSince >= outageMs) throw err;
      continue;
    }
    if (status.state === "failed") throw new VideoExportError(status.error ?? VIDEO_TEXT.failed(VIDEO_TEXT.encodeFailed));
    if (status.state === "cancelled") throw new VideoJobCancelledError();
    if (status.state === "completed") break;
    opts.onProgress?.({ phase: status.state === "queued" ? "queued" : "rendering", progress: status.progress, bytes: 0 });
  }
  opts.onProgress?.({ phase: "downloading", progress: 1, bytes: 0 });
  return downloadVideoJob(id, token, { ...opts, onBytes: (bytes) => opts.onProgress?.({ phase: "downloading", progress: 1, bytes }) });
}

function messageOf(err: unknown, fallback: string): string {
  const m = err instanceof Error ? err.message : typeof err === "string" ? err : "";
  return m.trim() ? m.replace(/\.\s*$/, "") : fallback;
}
