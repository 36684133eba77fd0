// The soundtrack: one decoded recording (SBaGen's `-m FILE`) that the session's `mix` voices play.
// The host decodes and resamples it to the engine's rate (dsp/host/soundtrack) and writes it here
// as interleaved stereo 16-bit PCM, SBaGen's own sample format, which halves the memory a long
// background recording takes against f32 (10 minutes at 48 kHz: 110 MiB).
//
// The soundtrack runs on the session's clock: at sound frame n it is at frame n of its loop, so a
// mix voice that fades in or out, or a seek, finds it where it would be. It loops for ever (as
// SBaGen's loopable files do): the loop is the section [loopStart, loopEnd) of the recording, and
// each time round, its last `fade` frames overlap the next turn's first `fade` frames with an
// equal-power cross-fade (sin/cos gains), which keeps the level of uncorrelated material such as
// water or rain steady through the seam. The very first turn starts at the section's start with
// nothing to overlap.

let data: usize = 0;
let capacity: usize = 0; // bytes
let frames: i32 = 0;
let loopStart: i32 = 0;
let period: i32 = 0; // loop length minus the cross-fade
let fade: i32 = 0;
let fadeScale: f32 = 0.0;

/** Where the host writes `n` frames of interleaved stereo int16 (grows the store when needed: in
 *  place when it is the last block on the heap, else into a new block, the old one left unused by
 *  the stub runtime). */
export function soundtrackBuffer(n: i32): usize {
  const bytes = <usize>max(n, 1) << 2;
  if (bytes > capacity) {
    data = data == 0 ? heap.alloc(bytes) : heap.realloc(data, bytes);
    capacity = bytes;
  }
  frames = 0;
  return data;
}

/** Uses the `n` frames written at soundtrackBuffer(): the loop is [start, end) with `fadeFrames`
 *  of cross-fade (clamped so that the loop is at least twice the fade). n = 0 removes it. */
export function commitSoundtrack(n: i32, start: i32, end: i32, fadeFrames: i32): void {
  frames = max(0, min(n, <i32>(capacity >> 2)));
  loopStart = min(max(start, 0), frames);
  const stop = min(max(end, loopStart), frames);
  const len = stop - loopStart;
  fade = min(max(fadeFrames, 0), len >> 1);
  period = len - fade;
  fadeScale = fade > 0 ? <f32>(1.0 / <f64>fade) : 0.0;
  if (period <= 0) frames = 0;
}

export function soundtrackFrames(): i32 {
  return frames;
}

// @ts-ignore: decorator
@inline
function sampleAt(k: i32, right: i32): f32 {
  return <f32>load<i16>(data + ((<usize>k << 2) | (<usize>right << 1))) * <f32>(1.0 / 32768.0);
}

const HALF_PI: f32 = 1.5707963;

/** Adds the soundtrack's frames [frame, frame + n) to l and r, its gain moving linearly g0 -> g1. */
export function addSoundtrack(l: usize, r: usize, frame: f64, n: i32, g0: f32, g1: f32): void {
  if (frames == 0 || (g0 == 0.0 && g1 == 0.0)) return;
  const p = <f64>period;
  const turn = Math.floor(frame / p);
  let q = <i32>(frame - turn * p);
  let first = turn == 0.0;
  const dg = (g1 - g0) / <f32>n;
  for (let i = 0; i < n; i++) {
    const g = g0 + dg * <f32>i;
    const k = loopStart + q;
    let sl = sampleAt(k, 0), sr = sampleAt(k, 1);
    if (q < fade && !first) {
      // The seam: this turn's start rises while the last turn's tail falls away.
      const u = <f32>q * fadeScale * HALF_PI;
      const gin = Mathf.sin(u), gout = Mathf.cos(u);
      sl = sl * gin + sampleAt(k + period, 0) * gout;
      sr = sr * gin + sampleAt(k + period, 1) * gout;
    }
    const o = <usize>i << 2;
    store<f32>(l + o, load<f32>(l + o) + sl * g);
    store<f32>(r + o, load<f32>(r + o) + sr * g);
    if (++q == period) {
      q = 0;
      first = false;
    }
  }
}
