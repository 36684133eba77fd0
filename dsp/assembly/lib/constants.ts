// Engine-wide constants. Values with a spec source cite spec/studio.md section 9.

/** Internal processing block: control values (smoothers, LFO rates) update once per block.
 *  render() always works in whole blocks aligned to the sound's first frame, so the host's call
 *  size never changes the output (worklet 128, export 16384: same bytes). 256 frames (5.3 ms at
 *  48 kHz) halves the per-block cost of 30 effects against 128 (measured: all 30 on went from
 *  190x to 209x realtime) while staying finer than every smoothing time constant. */
export const BLOCK: i32 = 256;
/** Largest render() call, in frames. */
export const MAX_FRAMES: i32 = 16384;
export const CHANNELS: i32 = 4;
/** Channel tone gain (spec 9). */
export const TONE_GAIN: f32 = 0.15;
/** Master gain: the spec gives 0.5 and 0.8; 0.8 is used (the louder reading, still far below 0 dBFS). */
export const MASTER_GAIN: f32 = 0.8;
/** Stop fade (spec 4 and 9): defined with the studio's limits, which the export report reads too. */
export { STOP_FADE_SECONDS } from "../../host/model/limits";
/** Fade-in after the start delay: short enough to feel instant, long enough to be click-free. */
export const START_FADE_SECONDS: f64 = 0.005;
/** Parameter smoothing time (ARCHITECTURE: every change smoothed over a few ms). */
export const SMOOTH_SECONDS: f64 = 0.005;
/** Compressor (spec 9): threshold -24 dB, ratio 12, attack 3 ms, release 250 ms.
 *  Knee 30 dB is the Web Audio default the original graph ran with. */
export const COMP_THRESHOLD_DB: f32 = -24.0;
export const COMP_KNEE_DB: f32 = 30.0;
export const COMP_RATIO: f32 = 12.0;
export const COMP_ATTACK: f64 = 0.003;
export const COMP_RELEASE: f64 = 0.25;
