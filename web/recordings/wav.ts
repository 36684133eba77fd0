// Voice recordings' audio in the browser: the WAV helpers shared with the API's video export
// (dsp/host/export/recording-wav.ts) and the panel's clock.

export { clipFromWav, monoWav, toPcm16 } from "../../dsp/host/export/recording-wav";

/** m:ss of a number of seconds. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
