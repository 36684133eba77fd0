// A decoded soundtrack as the engine takes it (dsp/assembly/soundtrack.ts): interleaved stereo
// 16-bit PCM at the engine's rate, with the loop it plays. Plain TypeScript, no decoders: the
// worklet receives this from the page and hands it to the engine (dsp/host/engine.ts).

/** Longest soundtrack kept, in seconds: a background recording loops, and 10 minutes at 48 kHz
 *  take 110 MiB of engine memory in each of the player and the export worker. */
export const MAX_SOUNDTRACK_SECONDS = 600;
/** The cross-fade at each turn of the loop when the file does not set one (SBaGen's default). */
export const DEFAULT_LOOP_FADE_SECONDS = 1;

export interface SoundtrackAudio {
  /** The file's name, as the schedule names it. */
  name: string;
  /** Frames per second (the engine's rate). */
  rate: number;
  frames: number;
  /** Interleaved stereo (a mono file is in both ears). */
  pcm: Int16Array;
  /** The loop: frames [loopStart, loopEnd) with loopFade frames of cross-fade at each turn. */
  loopStart: number;
  loopEnd: number;
  loopFade: number;
}
