// Messages between the main thread and the engine worklet: a typed discriminated union.
// Requests that expect an answer carry an id; the client times them out.

import type { Levels } from "../dsp/host/model/levels";
import type { SoundState } from "../dsp/host/model/state";
import type { SoundtrackAudio } from "../dsp/host/model/soundtrack";
import type { RecordingClip } from "../dsp/host/model/recordings";

export type ToWorklet =
  | { type: "state"; state: SoundState }
  /** The recording the mix voices play, at the context's rate (null: none). */
  | { type: "soundtrack"; audio: SoundtrackAudio | null }
  /** The voice recordings the session may place (AudioState.recordings), mono 16-bit at the
   *  context's rate. */
  | { type: "recordings"; clips: RecordingClip[] }
  | { type: "start"; id: number; delay: number; duration: number }
  | { type: "stop" }
  /** The listener's levels (fade-in from the next start, limiter, per-ear balance). */
  | { type: "levels"; levels: Levels }
  /** The sleep timer: stop `after` seconds from now, fading over the last `fade` seconds. Playback
   *  that ends this way posts "ended" like the duration's end. */
  | { type: "sleep"; after: number; fade: number }
  | { type: "cancel-sleep" }
  /** The level meter: post "meter" `hz` times a second while sound plays (0: never). */
  | { type: "meter-rate"; hz: number }
  /** The node is being thrown away: process() returns false so the processor can be collected. */
  | { type: "dispose" };

export type FromWorklet =
  | { type: "started"; id: number; ok: boolean }
  | { type: "ended" }
  | { type: "effect-failed"; id: string }
  | { type: "error"; message: string }
  | MeterReading;

/** What the transport's level meter shows, posted at display rate: both ears over the frames
 *  since the last one (linear: peak, RMS) and the limiter's lowest gain meanwhile (1 = none). */
export interface MeterReading {
  type: "meter";
  peak: number;
  rms: number;
  gain: number;
}

export interface ProcessorOptions {
  module: WebAssembly.Module;
}

export const PROCESSOR_NAME = "tone-engine";
