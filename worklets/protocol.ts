// Messages between the main thread and the engine worklet: a typed discriminated union.
// Requests that expect an answer carry an id; the client times them out.

import type { Levels } from "../dsp/host/model/levels";
import type { SoundState } from "../dsp/host/model/state";
import { ProgramCompiler, isEmptyProgram, programTransfer, type Program } from "../dsp/host/program";
import type { SoundtrackAudio } from "../dsp/host/model/soundtrack";
import type { RecordingClip } from "../dsp/host/model/recordings";

export type ToWorklet =
  /** What changed in the session, compiled on the page (ProgramPort): the worklet only loads it. */
  | { type: "program"; program: Program }
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

/** The page's side of an engine node's state: compiles each new state into a program (what
 *  changed, as tables) and posts it with its buffers transferred, so the audio thread only copies
 *  tables into the engine. One per node: the compiler remembers what that engine has. */
export class ProgramPort {
  private readonly compiler: ProgramCompiler;

  constructor(
    private readonly port: MessagePort,
    sampleRate: number,
  ) {
    this.compiler = new ProgramCompiler(sampleRate);
  }

  /** Posts what changed in `state` (nothing when nothing did). Returns the ids of effects whose
   *  values could not be read: they are switched off, and the UI should show them off. */
  send(state: SoundState): string[] {
    const { program, failed } = this.compiler.compile(state);
    if (!isEmptyProgram(program)) this.port.postMessage({ type: "program", program } satisfies ToWorklet, programTransfer(program));
    return failed;
  }

  /** The engine refused an effect's update and switched it off ("effect-failed"). */
  forgetEffect(id: string): void {
    this.compiler.forgetEffect(id);
  }
}
