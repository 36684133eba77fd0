// Export Video's client side (no React): checks the spec's preconditions, builds the payload of
// spec 3 (all channels, the effects, verification counts), POSTs it to /api/video-export with the
// stored bearer token and X-Requested-With, receives the streamed MP4 and downloads it as
// swizard-video-{timestamp}.mp4. Every failure becomes one of the spec's messages (section 8).
//
// The file is collected into a Blob and downloaded from an object URL. That holds the whole video
// in the browser (about 90 MB for an hour of 720p on black, a few hundred MB for an hour of 1080p
// waveform; Chromium moves large blobs to disk); the WAV export's save picker would stream to
// disk instead, but it has to be opened before the request, leaving an empty file behind whenever
// the server refuses, and a video is at most an hour long.

import { hasAudibleChannel, type AudioState, type SoundState } from "../../dsp/host/state";
import {
  VIDEO_MIN_DURATION_SECONDS, VIDEO_TEXT, verificationCounts, videoFileName, type VideoBackground,
  type VideoExportPayload, type VideoQuality,
} from "../../api/rules/video";
import { saveAs } from "../export/download";

export const VIDEO_EXPORT_PATH = "/api/video-export";

export interface VideoOptions {
  background: VideoBackground;
  quality: VideoQuality;
  /** Seconds. */
  duration: number;
}

/** Why an export did not happen or failed, with the text the user sees. `signOut` asks the
 *  caller to clear the stored session (spec 8: 401 and 403). */
export class VideoExportError extends Error {
  readonly signOut: boolean;
  constructor(message: string, signOut = false) {
    super(message);
    this.name = "VideoExportError";
    this.signOut = signOut;
  }
}

export function buildPayload(state: SoundState, options: VideoOptions, now = Date.now()): VideoExportPayload {
  return {
    backgroundType: options.background,
    quality: options.quality,
    duration: options.duration,
    frequencies: state.channels.map((c) => ({ ...c })),
    effects: state.effects,
    verification: { ...verificationCounts(state.channels, state.effects), timestamp: now },
    ...(state.timeline ? { timeline: state.timeline } : {}),
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

function isAbort(err: unknown): boolean {
  return (err as { name?: string })?.name === "AbortError";
}

export interface VideoDownload {
  fileName: string;
  bytes: number;
}

/** Sends the export and downloads the MP4. `onBytes` reports what has arrived so far. Rejects with
 *  a VideoExportError carrying the text to show, or with an AbortError when `signal` aborted. */
export async function exportVideo(
  payload: VideoExportPayload,
  token: string,
  opts: { signal?: AbortSignal; onBytes?: (bytes: number) => void; fetchImpl?: typeof fetch; save?: (blob: Blob, name: string) => void } = {},
): Promise<VideoDownload> {
  const doFetch = opts.fetchImpl ?? fetch;
  let res: Response;
  try {
    res = await doFetch(VIDEO_EXPORT_PATH, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "video/mp4, application/json",
        Authorization: `Bearer ${token}`,
        "X-Requested-With": "XMLHttpRequest",
      },
      body: JSON.stringify(payload),
      signal: opts.signal,
    });
  } catch (err) {
    if (isAbort(err)) throw err;
    throw new VideoExportError(VIDEO_TEXT.failed(messageOf(err, "the server could not be reached")));
  }
  if (res.status === 401 || res.status === 403) throw new VideoExportError(VIDEO_TEXT.authExpired, true);
  if (!res.ok) {
    const data = (await res.json().catch(() => null)) as { error?: unknown } | null;
    const message = typeof data?.error === "string" && data.error ? data.error : `${res.status} ${res.statusText}`.trim();
    throw new VideoExportError(VIDEO_TEXT.failed(message));
  }

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

function messageOf(err: unknown, fallback: string): string {
  const m = err instanceof Error ? err.message : typeof err === "string" ? err : "";
  return m.trim() ? m.replace(/\.\s*$/, "") : fallback;
}

