// Recordings: the account's voice recordings placed in the session (not the SBaGen voices of
// voices.ts). The host (dsp/host/model/recordings.ts) writes every clip the session places, one
// after the other, into one store of mono 16-bit PCM at the engine's rate, and gives each
// placement as frames: where its (trimmed) audio is in the store, the sound frame it first starts
// at, the period after which it starts again (0: once), and its gain. A loop is a placement whose
// period is its own length, so it plays back to back from its start for as long as the session.
//
// A placement runs on the session's clock like the soundtrack: at sound frame n an occurrence that
// started at frame s is at frame n - s of the clip. When a period is shorter than the clip, the
// next start cuts the occurrence before it. Each occurrence fades in and out over EDGE frames
// (2.5 ms at 48 kHz) so a trim in the middle of a word does not click.
//
// Mixed after the master compressor (master.ts calls mixRecordings in mix.ts): a recording's level
// is its gain on the recording's own full scale, in the live sound and in every export, and the
// tones are not ducked by the voice. The balance, output gain and limiter still apply.

import { MAX_RECORDING_PLACEMENTS } from "../host/model/limits";

/** Frames of the fade at each occurrence's start and end. */
const EDGE: i32 = 120;
const EDGE_SCALE: f32 = 1.0 / <f32>EDGE;
const FROM_I16: f32 = 1.0 / 32768.0;

let data: usize = 0;
let capacity: usize = 0; // bytes
let stored: i32 = 0; // frames written and committed

// Placements (structure of arrays): the placed audio [offset, offset + length) of the store.
const pOffset = new StaticArray<i32>(MAX_RECORDING_PLACEMENTS);
const pLength = new StaticArray<i32>(MAX_RECORDING_PLACEMENTS);
const pStart = new StaticArray<f64>(MAX_RECORDING_PLACEMENTS);
const pPeriod = new StaticArray<f64>(MAX_RECORDING_PLACEMENTS);
const pGain = new StaticArray<f32>(MAX_RECORDING_PLACEMENTS);
/** The gain the placement played at the end of the last block: a new level for the same
 *  placement ramps from it over one block, so changing it while playing does not click. */
const pFrom = new StaticArray<f32>(MAX_RECORDING_PLACEMENTS);
let count: i32 = 0;
/** Placements before the last clear, which the ones placed again may continue. */
let prevCount: i32 = 0;

/** True when a placement with a gain above 0 plays some of the store: the engine may start on the
 *  recordings alone. */
export let recordingsAudible: bool = false;

/** Where the host writes `n` frames of mono int16 (grows the store when needed; when it is the last
 *  block on the heap, it grows in place). Placements are dropped until the next commit. */
export function recordingsBuffer(n: i32): usize {
  const bytes = <usize>max(n, 1) << 1;
  if (bytes > capacity) {
    data = data == 0 ? heap.alloc(bytes) : heap.realloc(data, bytes);
    capacity = bytes;
  }
  stored = 0;
  count = 0;
  prevCount = 0;
  recordingsAudible = false;
  return data;
}

/** The store holds `n` frames from here on (written at recordingsBuffer). */
export function commitRecordingsStore(n: i32): void {
  stored = max(0, min(n, <i32>(capacity >> 1)));
}

/** Forgets the placements (the store stays). */
export function clearPlacements(): void {
  prevCount = count;
  count = 0;
  recordingsAudible = false;
}

/** Appends a placement: frames [offset, offset + length) of the store, first at sound frame
 *  `start` (negative: it started before the sound did, as after a seek), again every `period` frames (0: once; loop != 0: back to back, period = length), at a
 *  linear `gain` (0..16). Out-of-range placements are clipped to the store or dropped. */
export function addPlacement(offset: i32, length: i32, start: f64, period: f64, loop: bool, gain: f32): void {
  if (count >= MAX_RECORDING_PLACEMENTS) return;
  const off = min(max(offset, 0), stored);
  const len = min(max(length, 0), stored - off);
  if (len <= 0 || !(gain > 0.0)) return;
  const per = loop ? <f64>len : period > 0.0 && period == period ? Math.floor(period) : 0.0;
  const at = start == start ? Math.floor(start) : 0.0; // before 0: already under way (a seek)
  const g = Mathf.min(gain, 16.0);
  const same = count < prevCount && pOffset[count] == off && pLength[count] == len && pStart[count] == at && pPeriod[count] == per;
  pFrom[count] = same ? pFrom[count] : g;
  pOffset[count] = off;
  pLength[count] = len;
  pStart[count] = at;
  pPeriod[count] = per;
  pGain[count] = g;
  count++;
  recordingsAudible = true;
}

export function placementCount(): i32 {
  return count;
}

/** Adds frames [frame, frame + n) of every placement to l and r, each sum clamped to
 *  [-ceiling, ceiling] (the master stage's clamp; only where a recording sounds). */
export function addRecordings(l: usize, r: usize, frame: f64, n: i32, ceiling: f32): void {
  for (let k = 0; k < count; k++) addOne(k, l, r, frame, n, ceiling);
}

function addOne(k: i32, l: usize, r: usize, frame: f64, n: i32, ceiling: f32): void {
  const g0 = pFrom[k];
  if (g0 != pGain[k]) {
    addRamped(k, l, r, frame, n, ceiling, g0);
    pFrom[k] = pGain[k];
    return;
  }
  const len = pLength[k];
  const period = pPeriod[k];
  let t = frame - pStart[k];
  if (t + <f64>n <= 0.0) return;
  let i = 0;
  if (t < 0.0) {
    i = <i32>-t;
    t = 0.0;
  }
  let q: i32;
  if (period > 0.0) q = <i32>(t - Math.floor(t / period) * period);
  else if (t >= <f64>len) return;
  else q = <i32>t;
  const per = <i32>period; // 0: once
  const src = data + (<usize>pOffset[k] << 1);
  const g = pGain[k];
  const edge = min(EDGE, len >> 1);
  while (i < n) {
    if (q < len) {
      const run = min(n - i, len - q);
      addRun(src, q, len, edge, g, l + (<usize>i << 2), r + (<usize>i << 2), run, ceiling);
      i += run;
      q += run;
    } else {
      if (per == 0) return;
      const skip = min(n - i, per - q);
      i += skip;
      q += skip;
    }
    if (per > 0 && q >= per) q -= per;
  }
}

/** addOne for a block whose gain moves from g0 to the placement's gain: frame by frame. */
function addRamped(k: i32, l: usize, r: usize, frame: f64, n: i32, ceiling: f32, g0: f32): void {
  const len = pLength[k];
  const period = pPeriod[k];
  const src = data + (<usize>pOffset[k] << 1);
  const dg = (pGain[k] - g0) / <f32>n;
  const edge = min(EDGE, len >> 1);
  for (let i = 0; i < n; i++) {
    const t = frame + <f64>i - pStart[k];
    if (t < 0.0) continue;
    const q = period > 0.0 ? <i32>(t - Math.floor(t / period) * period) : t < <f64>len ? <i32>t : len;
    if (q < len) addEdge(src, q, len, edge, g0 + dg * <f32>(i + 1), l, r, i, ceiling);
  }
}

/** Adds clip frames [q, q + run) at gain g to l and r (fading over the clip's first and last
 *  `edge` frames). */
// @ts-ignore: decorator
@inline
function addRun(src: usize, q: i32, len: i32, edge: i32, g: f32, l: usize, r: usize, run: i32, ceiling: f32): void {
  let j = 0;
  // The fades, sample by sample; the body four frames at a time.
  while (j < run && (q + j < edge || q + j >= len - edge)) {
    addEdge(src, q + j, len, edge, g, l, r, j, ceiling);
    j++;
  }
  const bodyEnd = min(run, len - edge - q);
  const gv = f32x4.splat(g * FROM_I16);
  const lo = f32x4.splat(-ceiling), hi = f32x4.splat(ceiling);
  for (; j + 4 <= bodyEnd; j += 4) {
    const s = f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(v128.load64_zero(src + (<usize>(q + j) << 1)))), gv);
    const o = <usize>j << 2;
    v128.store(l + o, f32x4.pmin(f32x4.pmax(f32x4.add(v128.load(l + o), s), lo), hi));
    v128.store(r + o, f32x4.pmin(f32x4.pmax(f32x4.add(v128.load(r + o), s), lo), hi));
  }
  for (; j < run; j++) addEdge(src, q + j, len, edge, g, l, r, j, ceiling);
}

// @ts-ignore: decorator
@inline
function addEdge(src: usize, p: i32, len: i32, edge: i32, g: f32, l: usize, r: usize, j: i32, ceiling: f32): void {
  let w: f32 = 1.0;
  if (p < edge) w = <f32>(p + 1) * EDGE_SCALE;
  const tail = len - 1 - p;
  if (tail < edge) w = Mathf.min(w, <f32>(tail + 1) * EDGE_SCALE);
  const s = <f32>load<i16>(src + (<usize>p << 1)) * FROM_I16 * g * w;
  const o = <usize>j << 2;
  store<f32>(l + o, Mathf.min(Mathf.max(load<f32>(l + o) + s, -ceiling), ceiling));
  store<f32>(r + o, Mathf.min(Mathf.max(load<f32>(r + o) + s, -ceiling), ceiling));
}
