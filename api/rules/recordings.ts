// Voice recordings' rules and texts ("Recordings": the account's microphone takes, kept apart from
// the engine's SBaGen voices), in one dependency-free module the API's /api/recordings routes and
// the studio's Recordings panel both import: who may record, the format and size limits, and the
// user-visible texts (in the voice of the spec's 'Video export requires a Pro subscription. Upgrade
// now to create videos!').

import { MAX_RECORDING_SECONDS } from "../../dsp/host/model/limits";

/** The one format the API stores: RIFF WAVE, PCM 16-bit, 48 kHz, mono (or stereo). */
export const RECORDING_RATE = 48000;
export const RECORDING_BITS = 16;
export const RECORDING_MAX_CHANNELS = 2;
export const RECORDING_MAX_SECONDS = MAX_RECORDING_SECONDS;
/** Largest upload the API takes by default: 10 minutes of 16-bit stereo at 48 kHz and room for
 *  the header (115.2 MB; a mono take is half). RECORDINGS_MAX_UPLOAD_BYTES sets another. */
export const RECORDING_MAX_BYTES_DEFAULT = RECORDING_MAX_SECONDS * RECORDING_RATE * RECORDING_MAX_CHANNELS * 2 + 4096;
/** Most recordings one account keeps (delete one to add another). */
export const RECORDINGS_PER_ACCOUNT = 50;
/** Most bytes of recordings one account keeps by default: 2 GB, about 17 ten-minute stereo takes
 *  or 34 mono ones (the studio records mono). RECORDINGS_MAX_ACCOUNT_BYTES sets another. */
export const RECORDING_ACCOUNT_BYTES_DEFAULT = 2_000_000_000;
/** Recording uploads one account may start in 10 minutes (429 with Retry-After beyond). */
export const RECORDING_UPLOADS_PER_10_MINUTES = 30;
export const RECORDING_NAME_MAX = 100;

/** A recording as the API answers it. */
export interface RecordingInfo {
  id: string;
  name: string;
  /** Seconds of audio. */
  duration: number;
  channels: number;
  sampleRate: number;
  bytes: number;
  createdAt: string;
}

/** A recording file a video export renders: the recording's id, its storage key and its length in
 *  frames (absent in jobs queued by an older version: taken as the longest). */
export interface RecordingFile {
  id: string;
  key: string;
  frames?: number;
}

/** 2 GB, 1.5 GB, 250 MB, 900 kB. */
function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${+(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${+(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.round(bytes / 1e3)} kB`;
}

export const RECORDING_TEXT = {
  /** 403 for free, demo and One Day Pass accounts (the plan cards give voice recording to Monthly). */
  needsPlan: "Voice recording requires a Monthly or Commercial plan. Upgrade now to record your voice!",
  notFound: "Recording not found",
  badFormat: "The recording must be a 16-bit PCM WAV file at 48 kHz, mono or stereo",
  tooLong: `A recording can be at most ${RECORDING_MAX_SECONDS / 60} minutes long`,
  tooLarge: (bytes: number) => `The recording is too large (at most ${Math.floor(bytes / 1e6)} MB)`,
  tooMany: `You have ${RECORDINGS_PER_ACCOUNT} recordings: delete one to keep another`,
  /** 409 when the account's recordings (and uploads in progress) would pass its byte cap. */
  accountFull: (bytes: number) => `Your recordings would take more than the ${formatBytes(bytes)} an account keeps: delete one to keep another`,
  /** 400 for a WAV with bytes after its audio data (only the header and the audio are kept). */
  trailingBytes: (n: number) => `The recording has ${n} bytes after its audio data: upload the WAV file alone`,
  nameInvalid: `The name must be 1 to ${RECORDING_NAME_MAX} characters`,
} as const;
