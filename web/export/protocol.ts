// The export worker's Comlink interface, shared by the worker and the main-thread runner.

import type { ExportReport } from "../../dsp/host/export/report";
import type { SoundState } from "../../dsp/host/schema/state";
import type { Levels } from "../../dsp/host/schema/levels";
import type { SoundtrackAudio } from "../../dsp/host/model/soundtrack";
import type { RecordingClip } from "../../dsp/host/model/recordings";
import type { ExportSettings } from "../../dsp/host/export/formats";
import type { ExportTarget, SinkResult, SinkStage } from "./sink";

export interface ExportJob {
  /** The compiled engine (a WebAssembly.Module is cloned to the worker, not recompiled). */
  module: WebAssembly.Module;
  state: SoundState;
  /** Seconds of audio. */
  duration: number;
  /** The file's format and its tuning (default: WAV 16-bit). FLAC, MP3 and Opus are encoded in a
   *  worker of their own (dsp/host/export/encoders.ts) from the renderer's raw PCM. */
  settings?: ExportSettings;
  /** Verify the rendered audio while it renders and return the export report with the result. */
  report?: boolean;
  /** Where the file goes (web/export/sink.ts): a save-picker handle, an OPFS file the worker
   *  opens by folder and name, or memory. */
  target: ExportTarget;
  /** With an OPFS target: the memory fallback's limit, used when the worker cannot open the OPFS
   *  file after all (0: no fallback). */
  fallbackLimitBytes?: number;
  /** Bytes per write; at least 1 MiB. */
  chunkBytes?: number;
  /** The listener's levels (fade-in, limiter, balance), as for live playback. */
  levels?: Levels;
  /** Loudness-normalise to NORMALISED_LUFS (measuring passes first, then the file). */
  normalize?: boolean;
  /** The recording the mix voices play, decoded at 48 kHz (web/audio/soundtrack-store.ts). */
  soundtrack?: SoundtrackAudio | null;
  /** The voice recordings the session places, mono 16-bit at 48 kHz (web/recordings/store.ts). */
  recordings?: readonly RecordingClip[];
}

export interface ExportProgress {
  bytesDone: number;
  totalBytes: number;
  /** 0..1 of the file written. */
  fraction: number;
}

/** Why a run failed, as plain data (an Error loses its fields on the way out of a worker): the
 *  original error's name and message and the stage it happened in ("render": the engine). */
export interface ExportFailureInfo {
  stage: SinkStage | "render";
  name: string;
  message: string;
}

export interface ExportResult {
  status: "done" | "cancelled" | "failed";
  /** The file's bytes (when done: its size). */
  bytes: number;
  /** When done: which sink wrote the file, and the Blob when it was kept in memory. */
  sink?: "sync" | "writable" | "memory";
  output?: SinkResult;
  /** When failed. */
  failure?: ExportFailureInfo;
  /** What was verified on the rendered audio (when the job asked for it and the file is done). */
  report?: ExportReport;
}

/** A short render held in memory (the Quality Test): the same engine, state handling and bytes
 *  as an export of `duration` seconds, returned as the complete WAV file. */
export interface ClipJob {
  module: WebAssembly.Module;
  state: SoundState;
  /** Seconds of audio (a few: the whole file is held in memory). */
  duration: number;
  levels?: Levels;
  soundtrack?: SoundtrackAudio | null;
  recordings?: readonly RecordingClip[];
}

export interface ExportWorkerApi {
  /** Renders and writes the whole file; resolves "cancelled" when cancel() stopped it (the partial
   *  file is then left for the caller to remove) and "failed" with the failure's name, message and
   *  stage when it failed. */
  run(job: ExportJob, onProgress: (p: ExportProgress) => void): Promise<ExportResult>;
  cancel(): void;
  /** Renders `job` and returns the WAV file's bytes (transferred, not copied). */
  renderClip(job: ClipJob): Promise<Uint8Array>;
}
