// Video export's rules and texts (spec/studio.md sections 3, 5, 6, 7, 8 and 9), in one
// dependency-free module that the API's POST /api/video-export and the studio's Export Video dialog
// both import: the payload's options, the frame sizes, the duration limit, the verification counts
// and the user-visible messages.

import { MAX_DURATION_SECONDS } from "../../dsp/host/model/limits";

export const VIDEO_BACKGROUNDS = ["black", "black_waveform"] as const;
export type VideoBackground = (typeof VIDEO_BACKGROUNDS)[number];
export const VIDEO_BACKGROUND_LABELS: Record<VideoBackground, string> = {
  black: "Black",
  black_waveform: "Black with waveform",
};

export const VIDEO_QUALITIES = ["720p", "1080p"] as const;
export type VideoQuality = (typeof VIDEO_QUALITIES)[number];
export const VIDEO_SIZES: Record<VideoQuality, { width: number; height: number }> = {
  "720p": { width: 1280, height: 720 },
  "1080p": { width: 1920, height: 1080 },
};

/** Shortest video in seconds (spec 5). */
export const VIDEO_MIN_DURATION_SECONDS = 1;
/** Longest video in seconds: the dialog promises the '59 min limit', the studio's maximum for
 *  everyone but unlimited admins (MAX_DURATION_SECONDS, labelled '59 min max'); the server also
 *  applies the role's own maximum, whichever is lower. */
export const VIDEO_MAX_DURATION_SECONDS = MAX_DURATION_SECONDS;

/** Spec 8, verbatim, plus the API's own texts in the same voice. */
export const VIDEO_TEXT = {
  needsPro: "Video export requires a Pro subscription. Upgrade now to create videos!",
  noChannel: "Please enable at least one frequency before exporting video",
  durationTooShort: "Please set a duration of at least 1 second",
  authExpired: "Authentication expired. Please log in again and retry video export.",
  authRequired: "Authentication required. Please log in again.",
  failed: (message: string) => `Video export failed: ${message}`,
  success: "Video exported successfully! Check your downloads.",
  durationNote: "matches 59 min limit",
  // the API's own
  /** A second export while one of the user's jobs is queued or running (one at a time per user). */
  jobRunning: "You already have a video export running. Wait for it to finish or cancel it, then start another.",
  /** The installation's queue of video jobs is full (VIDEO_QUEUE_LIMIT). */
  queueFull: "The video export queue is full. Please try again in a few minutes.",
  headerMissing: "Missing X-Requested-With header",
  bodyInvalid: "Request body must be a JSON object with backgroundType, quality, duration, frequencies, effects and verification",
  backgroundInvalid: "backgroundType must be 'black' or 'black_waveform'",
  qualityInvalid: "quality must be '720p' or '1080p'",
  durationInvalid: "duration must be a number of seconds",
  durationTooLong: (maxSeconds: number) => `Please set a duration of at most ${formatLimit(maxSeconds)} for video export`,
  verificationInvalid: "verification must hold enabledChannelCount, enabledEffectCount and timestamp",
  verificationMismatch: "Video settings verification failed: the enabled channel and effect counts do not match the settings sent",
  settingsInvalid: (reason: string) => `Invalid video settings: ${reason}`,
  busy: (seconds: number) =>
    `The video renderer is busy with other exports. Please try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
  unavailable: "Video export is not available on this server (ffmpeg was not found)",
  encodeFailed: "the video encoder stopped unexpectedly",
  /** The job's error (shown after "Video export failed: ") when ffmpeg hung and the watchdog stopped it. */
  stalled: (seconds: number) => `the video encoder made no progress for ${seconds} seconds and was stopped; please try again`,
  // the job API (POST /api/video-export/jobs and its status and file)
  jobNotFound: "Video export job not found",
  jobNotReady: "The video is not ready yet",
  jobFailed: "The video export failed; start a new export",
  jobExpired: "This video has expired; export it again",
  jobCancelled: "This video export was cancelled; export it again",
  /** The Export Video dialog's status line after Cancel export. */
  cancelled: "Video export cancelled.",
  jobsUnavailable: "Video export jobs are not available on this server (no file storage)",
} as const;

function formatLimit(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? "" : "s"}`;
  if (seconds % 60 === 0) return `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/** Video jobs queued or running across the installation at most; more are refused (429). */
export const VIDEO_QUEUE_LIMIT = 20;
/** Retry-After of that refusal, in seconds. */
export const VIDEO_QUEUE_RETRY_SECONDS = 60;

/** How long a rendered video job's file is kept for download. */
export const VIDEO_JOB_FILE_TTL_HOURS = 24;

/** The longest video a role may export: the role's maximum, capped at the video limit. */
export function videoDurationLimit(roleMaxSeconds: number): number {
  return Math.min(roleMaxSeconds, VIDEO_MAX_DURATION_SECONDS);
}

interface CountedChannel {
  enabled: boolean;
  frequency: number;
}

/** The verification counts of spec 3: channels that sound (switched on, above 0 Hz, the rule of
 *  "at least one enabled channel") and effects switched on. The client sends them, the server
 *  recomputes them from the normalised settings and refuses the request when they differ. */
export function verificationCounts(
  channels: readonly CountedChannel[],
  effects: Readonly<Record<string, { enabled: boolean }>>,
): { enabledChannelCount: number; enabledEffectCount: number } {
  return {
    enabledChannelCount: channels.filter((c) => c.enabled && c.frequency > 0).length,
    enabledEffectCount: Object.values(effects).filter((fx) => fx.enabled).length,
  };
}

/** swizard-video-{timestamp}.mp4 (spec 9), the timestamp as YYYY-MM-DD_HH-MM-SS like the WAV
 *  export's; `utc` for the server's name, local time for the browser's. */
export function videoFileName(now: Date, utc = false): string {
  const p = (n: number) => String(n).padStart(2, "0");
  const [y, mo, d, h, mi, s] = utc
    ? [now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate(), now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds()]
    : [now.getFullYear(), now.getMonth() + 1, now.getDate(), now.getHours(), now.getMinutes(), now.getSeconds()];
  return `swizard-video-${y}-${p(mo)}-${p(d)}_${p(h)}-${p(mi)}-${p(s)}.mp4`;
}

/** The JSON body of POST /api/video-export (spec 3 and 7). */
export interface VideoExportPayload {
  backgroundType: VideoBackground;
  quality: VideoQuality;
  duration: number;
  frequencies: { id: number; frequency: number; waveform: string; volume: number; enabled: boolean }[];
  effects: Record<string, { enabled: boolean; value: number; [extra: string]: string | number | boolean }>;
  verification: { enabledChannelCount: number; enabledEffectCount: number; timestamp: number };
  /** The session timeline, when the sound changes over time (dsp/host/schema/timeline.ts's
   *  Timeline, checked by the preset schema on the server). */
  timeline?: unknown;
  /** The voices at 0:00, when the sound has voices (dsp/host/model/voices.ts's VoiceSlots, checked
   *  by the preset schema on the server). Not in the spec's payload. */
  voices?: unknown;
  /** The voice recordings the session places (dsp/host/model/recordings.ts); the server renders the
   *  account's own. Not in the spec's payload. */
  recordings?: unknown;
  /** The listener's levels (fade-in, limiter, ear balance: dsp/host/schema/levels.ts), applied to the
   *  video's sound as to Export WAV; absent: the engine's neutral default. Not in the spec's payload. */
  levels?: { fadeIn: number; limiter: boolean; balance: number };
}
