// Session timeline automation: the channels' frequencies and levels, and the effects' values,
// follow segments uploaded by the host (dsp/host/schema/timeline.ts compiles a session's steps into
// them). Each segment starts at a frame counted from the sound's first frame and lasts until the
// next one, moving from its start values to its end values along a curve (0 linear, 1 cosine
// ease, 2 exponential: constant octaves per second for frequency, linear for levels).
//
// Channels are exact to the sample: inside a block, a channel that moves is rendered in pieces of
// at most PIECE frames, split at every segment start, with the frequency and level evaluated
// exactly at each piece's ends and moved linearly in between. A linear ramp is therefore exact,
// and an eased or exponential one is within 1e-6 Hz of its curve (the curve's second derivative
// times PIECE^2 / 8). Effects take their values at every block start (BLOCK frames, 5.3 ms at
// 48 kHz) and smooth them as they do any change.
//
// Replacing the timeline while playing (an edit in the studio) blends every channel from where it
// is to the new curve over BLEND_SECONDS, so an edit never clicks.

import { channels, sampleRate } from "./bus";
import { CHANNELS } from "./lib/constants";
import { MAX_CHANNEL_GAIN, MAX_FREQUENCY_HZ, MAX_TIMELINE_SEGMENTS } from "../host/model/limits";
import { setEffect } from "./fx/chain";
import { SILENT, AUTOMATED } from "./osc/channel";

const MAXS: i32 = MAX_TIMELINE_SEGMENTS;
/** Longest stretch of a moving channel between two exact evaluations. */
const PIECE: i32 = 32;
const BLEND_SECONDS: f64 = 0.01;

// Channel c's k-th segment is at index c * MAXS + k.
const sStart = new StaticArray<f64>(CHANNELS * MAXS);
const sF0 = new StaticArray<f64>(CHANNELS * MAXS);
const sF1 = new StaticArray<f64>(CHANNELS * MAXS);
const sG0 = new StaticArray<f32>(CHANNELS * MAXS);
const sG1 = new StaticArray<f32>(CHANNELS * MAXS);
const sCurve = new StaticArray<i32>(CHANNELS * MAXS);
const sWave = new StaticArray<i32>(CHANNELS * MAXS);
const sCount = new StaticArray<i32>(CHANNELS);
const cursor = new StaticArray<i32>(CHANNELS);

/** True while a timeline drives the channels (the host's setChannel is then not used). */
export let timelineActive: bool = false;
/** Channels that sound anywhere in the session: the mixer divides by this while it plays. */
export let timelineVoices: i32 = 1;
/** Some channel sounds somewhere in the session (start() refuses a silent one). */
export let timelineAudible: bool = false;

let blendStart: f64 = 0.0;
let blendEnd: f64 = 0.0;
const blendF = new StaticArray<f64>(CHANNELS);
const blendG = new StaticArray<f32>(CHANNELS);

// ---- effects: one pool, each slot's segments contiguous and in order -------------------------
const FX_MAX: i32 = 4096;
const FX_SLOTS: i32 = 32;
const eStart = new StaticArray<f64>(FX_MAX);
const eOn = new StaticArray<bool>(FX_MAX);
const eCurve = new StaticArray<i32>(FX_MAX);
/** Per segment: value, e1, e2, e3 at its start (a) and end (b): 8 floats. */
const eVals = new StaticArray<f32>(FX_MAX * 8);
let eCount: i32 = 0;
const fxFirst = new StaticArray<i32>(FX_SLOTS);
const fxN = new StaticArray<i32>(FX_SLOTS);
const fxCursor = new StaticArray<i32>(FX_SLOTS);
let lastSlot: i32 = -1;

/** Forgets the timeline: the channels go back to the host's setChannel values. */
export function clearTimeline(): void {
  for (let c = 0; c < CHANNELS; c++) {
    unchecked((sCount[c] = 0));
    unchecked((cursor[c] = 0));
  }
  for (let s = 0; s < FX_SLOTS; s++) unchecked((fxN[s] = 0));
  eCount = 0;
  lastSlot = -1;
  timelineActive = false;
  timelineAudible = false;
}

function clampF(f: f64): f64 {
  return f != f ? 0.0 : Math.min(Math.max(f, 0.0), MAX_FREQUENCY_HZ);
}
function finite(v: f32): f32 {
  return v - v == 0.0 ? v : <f32>0.0;
}
function clampG(g: f32): f32 {
  return g != g ? <f32>0.0 : Mathf.min(Mathf.max(g, 0.0), <f32>MAX_CHANNEL_GAIN);
}

/** Appends a channel segment; segments of a channel must come in order of start. */
export function addChannelSegment(c: i32, start: f64, f0: f64, f1: f64, g0: f32, g1: f32, curve: i32, wave: i32): void {
  if (c < 0 || c >= CHANNELS) return;
  const k = unchecked(sCount[c]);
  if (k >= MAXS) return;
  const i = c * MAXS + k;
  const s = start != start ? 0.0 : Math.max(0.0, Math.floor(start));
  if (k > 0 && s < unchecked(sStart[i - 1])) return; // out of order: refused
  unchecked((sStart[i] = k == 0 ? 0.0 : s));
  unchecked((sF0[i] = clampF(f0)));
  unchecked((sF1[i] = clampF(f1)));
  unchecked((sG0[i] = clampG(g0)));
  unchecked((sG1[i] = clampG(g1)));
  unchecked((sCurve[i] = curve < 0 || curve > 2 ? 0 : curve));
  unchecked((sWave[i] = wave < 0 || wave > 3 ? 0 : wave));
  unchecked((sCount[c] = k + 1));
}

/** Appends an effect segment (slot = the catalogue's wasm index); a slot's segments must be
 *  uploaded together and in order of start. */
export function addEffectSegment(
  slot: i32, start: f64, on: bool, v0: f32, v1: f32, a1: f32, b1: f32, a2: f32, b2: f32, a3: f32, b3: f32, curve: i32,
): void {
  if (slot < 0 || slot >= FX_SLOTS || eCount >= FX_MAX) return;
  if (slot != lastSlot) {
    if (unchecked(fxN[slot]) > 0) return; // a slot uploaded twice: refused
    unchecked((fxFirst[slot] = eCount));
    lastSlot = slot;
  }
  const i = eCount;
  const k = unchecked(fxN[slot]);
  const s = start != start ? 0.0 : Math.max(0.0, Math.floor(start));
  if (k > 0 && s < unchecked(eStart[i - 1])) return; // out of order: refused
  unchecked((eStart[i] = k == 0 ? 0.0 : s));
  unchecked((eOn[i] = on));
  unchecked((eCurve[i] = curve < 0 || curve > 2 ? 0 : curve));
  const o = i * 8;
  unchecked((eVals[o] = finite(v0)));
  unchecked((eVals[o + 1] = finite(a1)));
  unchecked((eVals[o + 2] = finite(a2)));
  unchecked((eVals[o + 3] = finite(a3)));
  unchecked((eVals[o + 4] = finite(v1)));
  unchecked((eVals[o + 5] = finite(b1)));
  unchecked((eVals[o + 6] = finite(b2)));
  unchecked((eVals[o + 7] = finite(b3)));
  unchecked((fxN[slot] = unchecked(fxN[slot]) + 1));
  eCount++;
}

/** Makes the uploaded timeline the one that plays. `frame` is the next block's first frame;
 *  while playing, every channel blends from its current pitch and level to the new curve. */
export function commitTimeline(voices: i32, frame: f64, playing: bool): void {
  let audible = false;
  let any = false;
  for (let c = 0; c < CHANNELS; c++) {
    unchecked((cursor[c] = 0));
    const n = unchecked(sCount[c]);
    if (n > 0) any = true;
    for (let k = 0; k < n; k++) {
      const i = c * MAXS + k;
      if (unchecked(sG0[i]) > 0.0 || unchecked(sG1[i]) > 0.0) audible = true;
    }
  }
  for (let s = 0; s < FX_SLOTS; s++) unchecked((fxCursor[s] = 0));
  if (playing) {
    for (let c = 0; c < CHANNELS; c++) {
      const ch = unchecked(channels[c]);
      unchecked((blendF[c] = ch.inc * sampleRate));
      unchecked((blendG[c] = ch.gain));
    }
    blendStart = frame;
    blendEnd = frame + Math.round(BLEND_SECONDS * sampleRate);
  } else {
    blendEnd = 0.0;
  }
  timelineActive = any;
  timelineAudible = audible;
  timelineVoices = max(1, voices);
}

/** Back to the first segments (on start). */
export function rewindTimeline(): void {
  for (let c = 0; c < CHANNELS; c++) unchecked((cursor[c] = 0));
  for (let s = 0; s < FX_SLOTS; s++) unchecked((fxCursor[s] = 0));
  blendEnd = 0.0;
}

// ---- evaluation ---------------------------------------------------------------------------------

// @ts-ignore: decorator
@inline
function shapeOf(curve: i32, u: f64): f64 {
  return curve == 1 ? 0.5 - 0.5 * Math.cos(Math.PI * u) : u;
}

// @ts-ignore: decorator
@inline
function segEnd(c: i32, k: i32): f64 {
  return k + 1 < unchecked(sCount[c]) ? unchecked(sStart[c * MAXS + k + 1]) : Infinity;
}

function fAt(c: i32, k: i32, frame: f64): f64 {
  const i = c * MAXS + k;
  const f0 = unchecked(sF0[i]);
  const f1 = unchecked(sF1[i]);
  let f = f0;
  const end = segEnd(c, k);
  if (f0 != f1 && end < Infinity) {
    const s = unchecked(sStart[i]);
    const u = Math.min(Math.max((frame - s) / (end - s), 0.0), 1.0);
    const curve = unchecked(sCurve[i]);
    if (u >= 1.0) f = f1;
    else if (curve == 2 && f0 > 0.0 && f1 > 0.0) f = f0 * Math.pow(f1 / f0, u);
    else f = f0 + (f1 - f0) * shapeOf(curve, u);
  }
  if (frame < blendEnd) {
    const x = (frame - blendStart) / (blendEnd - blendStart);
    f = unchecked(blendF[c]) + (f - unchecked(blendF[c])) * x;
  }
  return f;
}

function gAt(c: i32, k: i32, frame: f64): f32 {
  const i = c * MAXS + k;
  const g0 = unchecked(sG0[i]);
  const g1 = unchecked(sG1[i]);
  let g = g0;
  const end = segEnd(c, k);
  if (g0 != g1 && end < Infinity) {
    const s = unchecked(sStart[i]);
    const u = Math.min(Math.max((frame - s) / (end - s), 0.0), 1.0);
    const curve = unchecked(sCurve[i]);
    g = u >= 1.0 ? g1 : g0 + (g1 - g0) * <f32>shapeOf(curve == 2 ? 0 : curve, u);
  }
  if (frame < blendEnd) {
    const x = <f32>((frame - blendStart) / (blendEnd - blendStart));
    g = unchecked(blendG[c]) + (g - unchecked(blendG[c])) * x;
  }
  return g;
}

/** Plans channel c's block of n frames starting at `frame` (mixer scale s0 -> s1 across it) and
 *  returns its render mode: the channel's steady path when nothing moves, else AUTOMATED with
 *  the pieces filled in. */
export function planChannel(c: i32, frame: f64, n: i32, s0: f32, s1: f32): i32 {
  const ch = unchecked(channels[c]);
  const count = unchecked(sCount[c]);
  if (count == 0) return ch.timelineSteady(0.0, 0.0, 0.0, 0, n, s0, s1);
  let k = unchecked(cursor[c]);
  while (k + 1 < count && unchecked(sStart[c * MAXS + k + 1]) <= frame) k++;
  unchecked((cursor[c] = k));
  const i = c * MAXS + k;
  const last = frame + <f64>n;
  const still = unchecked(sF0[i]) == unchecked(sF1[i]) && unchecked(sG0[i]) == unchecked(sG1[i]);
  if (still && segEnd(c, k) >= last && frame >= blendEnd) {
    const f = unchecked(sF0[i]);
    return ch.timelineSteady(f, f / sampleRate, unchecked(sG0[i]), unchecked(sWave[i]), n, s0, s1);
  }
  // Pieces: split at every PIECE frames, at segment starts and at the blend's end.
  let pos = 0;
  let kk = k;
  let p = 0;
  let maxInc: f64 = 0.0;
  let maxG: f32 = 0.0;
  const invFs = 1.0 / sampleRate;
  const sStep = (s1 - s0) / <f32>n;
  let wave = unchecked(sWave[i]);
  while (pos < n) {
    const at = frame + <f64>pos;
    while (kk + 1 < count && unchecked(sStart[c * MAXS + kk + 1]) <= at) kk++;
    let stop = min(pos + PIECE, n);
    const e = segEnd(c, kk);
    if (e < frame + <f64>stop) stop = <i32>(e - frame);
    if (at < blendEnd && blendEnd < frame + <f64>stop) stop = <i32>(blendEnd - frame);
    const to = frame + <f64>stop;
    const fa = fAt(c, kk, at);
    const fb = fAt(c, kk, to);
    const ga = gAt(c, kk, at) * (s0 + sStep * <f32>pos);
    const gb = gAt(c, kk, to) * (s0 + sStep * <f32>stop);
    ch.setPiece(p, stop - pos, fa * invFs, fb * invFs, ga, gb);
    maxInc = Math.max(maxInc, Math.max(fa, fb) * invFs);
    maxG = Mathf.max(maxG, Mathf.max(ga, gb));
    wave = unchecked(sWave[c * MAXS + kk]);
    p++;
    pos = stop;
  }
  unchecked((cursor[c] = k));
  // What the effects that follow the channels read: the pitch in the middle of the block.
  const mid = frame + <f64>(n >> 1);
  let km = k;
  while (km + 1 < count && unchecked(sStart[c * MAXS + km + 1]) <= mid) km++;
  const incEnd = fAt(c, kk, last) * invFs;
  const gEnd = gAt(c, kk, last);
  return ch.timelineAutomated(p, fAt(c, km, mid), incEnd, gEnd, wave, maxInc, maxG, n) ? AUTOMATED : SILENT;
}

/** Sets every automated effect to its value at `frame` (the start of the next block). */
export function applyEffectsAt(frame: f64): void {
  if (eCount == 0) return;
  for (let slot = 0; slot < FX_SLOTS; slot++) {
    const n = unchecked(fxN[slot]);
    if (n == 0) continue;
    const first = unchecked(fxFirst[slot]);
    let k = unchecked(fxCursor[slot]);
    while (k + 1 < n && unchecked(eStart[first + k + 1]) <= frame) k++;
    unchecked((fxCursor[slot] = k));
    const i = first + k;
    const s = unchecked(eStart[i]);
    const end = k + 1 < n ? unchecked(eStart[i + 1]) : Infinity;
    const u = end < Infinity ? Math.min(Math.max((frame - s) / (end - s), 0.0), 1.0) : 0.0;
    const curve = unchecked(eCurve[i]);
    const o = i * 8;
    setEffect(
      slot, unchecked(eOn[i]),
      interp(curve, unchecked(eVals[o]), unchecked(eVals[o + 4]), u),
      interp(curve, unchecked(eVals[o + 1]), unchecked(eVals[o + 5]), u),
      interp(curve, unchecked(eVals[o + 2]), unchecked(eVals[o + 6]), u),
      interp(curve, unchecked(eVals[o + 3]), unchecked(eVals[o + 7]), u),
    );
  }
}

function interp(curve: i32, a: f32, b: f32, u: f64): f32 {
  if (a == b) return a;
  if (curve == 2 && a > 0.0 && b > 0.0) return <f32>(<f64>a * Math.pow(<f64>b / <f64>a, u));
  return <f32>(<f64>a + (<f64>b - <f64>a) * shapeOf(curve, u));
}

/** Effect slots the timeline drives. */
export function effectAutomated(slot: i32): bool {
  return slot >= 0 && slot < FX_SLOTS && unchecked(fxN[slot]) > 0;
}
