// The channel mix: the four channels summed into one mono block at 1/N of the tone gain 0.15
// (N = the channels that sound, the scale smoothed per block), driven by setChannel or, while one
// plays, by the session timeline (timeline.ts); the voices of an SBaGen schedule (voices.ts) added
// in stereo; then the effect chain (fx/chain.ts) on a stereo copy of that block. The master stage (master.ts) asks for one BLOCK-frame block at a time.
// The placed voice recordings (recordings.ts) are mixed next to the voices by mixRecordings, which
// the master stage calls after its compressor so that a recording plays at its own level.

import { channels, initChannels, sampleRate, setSampleRate, activeChannelCount, setToneScale } from "./bus";
import { BLOCK, CHANNELS, TONE_GAIN } from "./lib/constants";
import { GLIDE_SECONDS, MAX_CHANNEL_GAIN, MAX_FREQUENCY_HZ } from "../host/model/limits";
import { Smoothed, blockCoef } from "./lib/smooth";
import { TABLE_BITS, buildTables } from "./osc/wavetable";
import { AUTOMATED, SPECIAL, STEADY } from "./osc/channel";
import { applyEffectsAt, planChannel, rewindTimeline, timelineActive, timelineVoices } from "./timeline";
import { anyEffectRunning, dryMixUnused, initEffects, processEffects, resetEffects } from "./fx/chain";
import { initVoices, renderVoices, rewindVoices, voicesActive } from "./voices";
import { addRecordings, recordingsAudible } from "./recordings";

const mixScale = new Smoothed();
let coef: f32 = 0.0;
let glideFrames: i32 = 240;
const modes = new StaticArray<i32>(CHANNELS);

/** First frame (from the sound's start) of the next block to render. */
export let blockFrame: u64 = 0;

export function initMix(fs: f64): void {
  setSampleRate(fs);
  buildTables();
  initChannels();
  initEffects(fs);
  initVoices();
  coef = blockCoef(fs);
  glideFrames = <i32>Math.round(GLIDE_SECONDS * fs);
  mixScale.jump(0.0);
}

/** Sets channel i (validated: the engine never sees NaN, negative or out-of-range values). While
 *  playing, the pitch glides and the level and mix scale are smoothed; stopped, they jump. */
export function updateChannel(i: i32, freq: f64, waveform: i32, on: bool, volume: f32, playing: bool): void {
  if (i < 0 || i >= CHANNELS) return;
  const f = freq != freq ? 0.0 : Math.min(Math.max(freq, 0.0), MAX_FREQUENCY_HZ);
  const w = waveform < 0 || waveform > 3 ? 0 : waveform;
  const v = volume != volume ? <f32>0.0 : Mathf.min(Mathf.max(volume, 0.0), <f32>MAX_CHANNEL_GAIN);
  channels[i].set(f, w, on, v, sampleRate, playing ? glideFrames : 0);
  const n = activeChannelCount();
  mixScale.target = n > 0 ? TONE_GAIN / <f32>n : mixScale.target;
  if (!playing) {
    channels[i].gain = channels[i].gainTarget;
    mixScale.value = mixScale.target;
  }
}

/** Back to the sound's first frame (part of every start): the channels' clocks, the timeline at
 *  its first step (effects take their 0:00 values before they reset), the effects' memory. */
export function restartMix(): void {
  for (let i = 0; i < CHANNELS; i++) channels[i].reset();
  if (timelineActive) {
    rewindTimeline();
    mixScale.target = TONE_GAIN / <f32>timelineVoices;
    applyEffectsAt(0.0);
  }
  blockFrame = 0;
  mixScale.value = mixScale.target;
  resetEffects();
  rewindVoices();
}

/** Jumps every channel's clock `frames` ahead (exact; used by tests and by seeking exports). */
export function advance(frames: u64): void {
  for (let i = 0; i < CHANNELS; i++) channels[i].advance(frames);
}

export function channelPhase(i: i32): f64 {
  return <f64>channels[i].phase / 18446744073709551616.0;
}

/** The four channels' gained, interpolated table values for one frame, one per lane. */
// @ts-ignore: decorator
@inline
function frame(t0: usize, t1: usize, t2: usize, t3: usize, p01: v128, p23: v128, g: v128, fracMask: v128, inv31: v128): v128 {
  // Top TABLE_BITS bits index the table; the next 31 bits interpolate.
  const x01 = i64x2.shr_u(p01, 64 - TABLE_BITS);
  const x23 = i64x2.shr_u(p23, 64 - TABLE_BITS);
  const q0 = t0 + (<usize>i64x2.extract_lane(x01, 0) << 2);
  const q1 = t1 + (<usize>i64x2.extract_lane(x01, 1) << 2);
  const q2 = t2 + (<usize>i64x2.extract_lane(x23, 0) << 2);
  const q3 = t3 + (<usize>i64x2.extract_lane(x23, 1) << 2);
  let a = v128.load32_zero(q0);
  a = v128.load32_lane(q1, a, 1);
  a = v128.load32_lane(q2, a, 2);
  a = v128.load32_lane(q3, a, 3);
  let b = v128.load32_zero(q0, 4);
  b = v128.load32_lane(q1, b, 1, 4);
  b = v128.load32_lane(q2, b, 2, 4);
  b = v128.load32_lane(q3, b, 3, 4);
  const f = v128.shuffle<i32>(i64x2.shr_u(p01, 64 - TABLE_BITS - 31), i64x2.shr_u(p23, 64 - TABLE_BITS - 31), 0, 2, 4, 6);
  const frac = f32x4.mul(f32x4.convert_i32x4_s(v128.and(f, fracMask)), inv31);
  return f32x4.mul(f32x4.add(a, f32x4.mul(f32x4.sub(b, a), frac)), g);
}

/** Four steady channels in one pass: one store per sample instead of four read-modify-writes. */
function mixFour(dst: usize, n: i32): void {
  // SIMD across the four channels: phases in two i64x2, gains and interpolation in one f32x4,
  // table reads straight into lanes (load32_lane), one horizontal sum per frame.
  const c0 = channels[0], c1 = channels[1], c2 = channels[2], c3 = channels[3];
  const t0 = c0.table, t1 = c1.table, t2 = c2.table, t3 = c3.table;
  let p01 = i64x2(<i64>c0.phase, <i64>c1.phase);
  let p23 = i64x2(<i64>c2.phase, <i64>c3.phase);
  const i01 = i64x2(<i64>c0.incFixed, <i64>c1.incFixed);
  const i23 = i64x2(<i64>c2.incFixed, <i64>c3.incFixed);
  let g = f32x4(c0.g, c1.g, c2.g, c3.g);
  const gs = f32x4(c0.gStep, c1.gStep, c2.gStep, c3.gStep);
  const fracMask = i32x4.splat(0x7fffffff);
  const inv31 = f32x4.splat(1.0 / 2147483648.0);
  // Four frames per pass: each frame's four channel values form one f32x4; a 4x4 transpose-add
  // turns the four vectors into the four frame sums, stored with one v128.store (n % 4 == 0).
  for (let i = 0; i < n; i += 4) {
    const v0 = frame(t0, t1, t2, t3, p01, p23, g, fracMask, inv31);
    p01 = i64x2.add(p01, i01); p23 = i64x2.add(p23, i23); g = f32x4.add(g, gs);
    const v1 = frame(t0, t1, t2, t3, p01, p23, g, fracMask, inv31);
    p01 = i64x2.add(p01, i01); p23 = i64x2.add(p23, i23); g = f32x4.add(g, gs);
    const v2 = frame(t0, t1, t2, t3, p01, p23, g, fracMask, inv31);
    p01 = i64x2.add(p01, i01); p23 = i64x2.add(p23, i23); g = f32x4.add(g, gs);
    const v3 = frame(t0, t1, t2, t3, p01, p23, g, fracMask, inv31);
    p01 = i64x2.add(p01, i01); p23 = i64x2.add(p23, i23); g = f32x4.add(g, gs);
    const s01 = f32x4.add(v128.shuffle<f32>(v0, v1, 0, 4, 1, 5), v128.shuffle<f32>(v0, v1, 2, 6, 3, 7));
    const s23 = f32x4.add(v128.shuffle<f32>(v2, v3, 0, 4, 1, 5), v128.shuffle<f32>(v2, v3, 2, 6, 3, 7));
    const sum = f32x4.add(v128.shuffle<f32>(s01, s23, 0, 1, 4, 5), v128.shuffle<f32>(s01, s23, 2, 3, 6, 7));
    v128.store(dst + (<usize>i << 2), sum);
  }
  c0.phase = <u64>i64x2.extract_lane(p01, 0);
  c1.phase = <u64>i64x2.extract_lane(p01, 1);
  c2.phase = <u64>i64x2.extract_lane(p23, 0);
  c3.phase = <u64>i64x2.extract_lane(p23, 1);
}

/** The next block: the channels mixed into l, then the effect chain on l and a copy in r.
 *  Returns false when no effect runs: l alone holds the block (mono) and r is left as it was. */
export function mixBlock(l: usize, r: usize): bool {
  const voicesAt = <f64>blockFrame;
  const s0 = mixScale.value;
  if (timelineActive) mixScale.target = TONE_GAIN / <f32>timelineVoices;
  const s1 = mixScale.step(coef);
  setToneScale(s1);
  let steady = 0;
  if (timelineActive) {
    // The session timeline drives the channels (to the sample) and the automated effects.
    const at = <f64>blockFrame;
    applyEffectsAt(at);
    for (let i = 0; i < CHANNELS; i++) {
      modes[i] = planChannel(i, at, BLOCK, s0, s1);
      if (modes[i] == STEADY) steady++;
    }
  } else {
    for (let i = 0; i < CHANNELS; i++) {
      modes[i] = channels[i].begin(BLOCK, s0, s1, coef);
      if (modes[i] == STEADY) steady++;
    }
  }
  blockFrame += <u64>BLOCK;
  if (steady == CHANNELS && dryMixUnused() && !voicesActive) {
    // The first effect re-synthesises the channels: keep the clocks exact, skip the mix.
    for (let i = 0; i < CHANNELS; i++) channels[i].advance(<u64>BLOCK);
  } else if (steady == CHANNELS) {
    mixFour(l, BLOCK); // the common case: all four channels sounding steadily
  } else {
    memory.fill(l, 0, <usize>BLOCK << 2);
    for (let i = 0; i < CHANNELS; i++) if (modes[i] == STEADY) channels[i].renderSteady(l, BLOCK);
  }
  for (let i = 0; i < CHANNELS; i++) {
    if (modes[i] == SPECIAL) channels[i].renderSpecial(l, BLOCK);
    else if (modes[i] == AUTOMATED) channels[i].renderAutomated(l, BLOCK);
  }
  if (voicesActive) {
    // The voices are stereo: the block is from here on, the effects take it as it is.
    memory.copy(r, l, <usize>BLOCK << 2);
    renderVoices(l, r, voicesAt);
    if (anyEffectRunning()) processEffects(l, r, BLOCK, coef);
    return true;
  }
  if (!anyEffectRunning()) return false;
  memory.copy(r, l, <usize>BLOCK << 2);
  processEffects(l, r, BLOCK, coef);
  return true;
}

/** Adds the placed recordings (recordings.ts) to the block mixBlock made last, in stereo, clamped
 *  to [-ceiling, ceiling] where they sound. master.ts calls it after the compressor. */
export function mixRecordings(l: usize, r: usize, ceiling: f32): void {
  if (recordingsAudible) addRecordings(l, r, <f64>(blockFrame - <u64>BLOCK), BLOCK, ceiling);
}
