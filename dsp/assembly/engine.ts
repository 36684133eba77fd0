// The signal path: four channels -> mixer (1/N, tone gain 0.15) -> effect chain -> master gain
// -> compressor -> per-ear balance and output gain -> true-peak limiter (when on) -> clamp to
// [-1, 1] -> transport fade -> planar stereo out.
//
// Everything after start() is computed in BLOCK-frame blocks aligned to the sound's first frame,
// and render() copies out of the current block, so the output does not depend on how many frames
// the host asks for at a time. The transport (start delay, fades, auto-stop, sleep) runs per sample
// in the copy-out, which makes every stop exact to the sample. With the limiter on, blocks are
// rendered one ahead of the block being played (the limiter's lookahead), so output frame n is
// still sound frame n; a parameter change then reaches the sound one block (5.3 ms) later.

import { channels, initChannels, sampleRate, setSampleRate, activeChannelCount, setToneScale } from "./bus";
import {
  BLOCK, CHANNELS, MASTER_GAIN, MAX_FRAMES, START_FADE_SECONDS, STOP_FADE_SECONDS, TONE_GAIN,
} from "./lib/constants";
import { GLIDE_SECONDS, MAX_FREQUENCY_HZ, MAX_OUTPUT_GAIN } from "../host/model/limits";
import { Compressor } from "./lib/dynamics";
import { Limiter, blockPeak } from "./lib/limiter";
import { restartDither } from "./pcm16";
import { Smoothed, blockCoef } from "./lib/smooth";
import { TABLE_BITS, buildTables } from "./osc/wavetable";
import { AUTOMATED, SPECIAL, STEADY } from "./osc/channel";
import {
  applyEffectsAt, commitTimeline, planChannel, rewindTimeline, timelineActive, timelineAudible, timelineVoices,
} from "./timeline";
import { anyEffectRunning, dryMixUnused, initEffects, processEffects, resetEffects } from "./fx/chain";

export const outL = new StaticArray<f32>(MAX_FRAMES);
export const outR = new StaticArray<f32>(MAX_FRAMES);

// `let`: with the limiter on they swap with aheadL/aheadR (no copy) once per block.
let blockL = new StaticArray<f32>(BLOCK);
let blockR = new StaticArray<f32>(BLOCK);
let blockPos: i32 = BLOCK; // read position in the current block; BLOCK = need a new block

const compressor = new Compressor();
const master = new Smoothed();
const mixScale = new Smoothed();
let coef: f32 = 0.0;
let glideFrames: i32 = 240;

// Master stage after the compressor (safe listening levels: the true-peak limiter, balance and output gain).
const limiter = new Limiter();
/** How far the compressor may go past 0 dBFS when the limiter follows it (+18 dB): the limiter
 *  sees the overs and brings them down instead of the clamp cutting them. */
const LIMITER_HEADROOM: f32 = 8.0;
const trimL = new Smoothed(); // balance x output gain, per side
const trimR = new Smoothed();
let balanceL: f32 = 1.0;
let balanceR: f32 = 1.0;
let outputGain: f32 = 1.0;
let aheadL = new StaticArray<f32>(BLOCK); // the next block, held as the limiter's lookahead
let aheadR = new StaticArray<f32>(BLOCK);
let holding: bool = false;
let aheadPeak: f32 = 0.0;

// Transport.
let playing: bool = false;
let delayLeft: i32 = 0;        // silent frames before the sound starts
let played: u64 = 0;           // frames since the sound started
let blockFrame: u64 = 0;       // first frame (from the sound's start) of the next block to render
let stopping: bool = false;    // the fade to the stop is under way
let startFadeFrames: i32 = 240;
let stopFadeFrames: i32 = 2400;
// What ends playback (0 = nothing), in frames of sound: the duration, stop(), the sleep timer.
let durationEnd: u64 = 0;
let userEnd: u64 = 0;
let sleepEnd: u64 = 0;
let sleepFade: u64 = 0;
// The earliest of them: stopAt, and where its fade begins (the earliest fade start of them all).
let stopAt: u64 = 0;
let fadeStart: u64 = 0;
let stopShaped: bool = false;
// The transport gain: `fade` moves from fadeFrom to fadeTo over the fade's frames, linearly or by
// smoothstep (fadeShaped); fadeLeft counts the frames still to go (0 = steady at `fade`).
let fade: f32 = 0.0;
let fadeFrom: f32 = 0.0;
let fadeTo: f32 = 0.0;
let fadeLeft: i32 = 0;
let fadeInv: f64 = 0.0;
let fadeShaped: bool = false;

export function init(fs: f64): void {
  setSampleRate(fs);
  buildTables();
  initChannels();
  compressor.init(fs);
  initEffects(fs);
  coef = blockCoef(fs);
  glideFrames = <i32>Math.round(GLIDE_SECONDS * fs);
  startFadeFrames = max(1, <i32>Math.round(START_FADE_SECONDS * fs));
  stopFadeFrames = max(1, <i32>Math.round(STOP_FADE_SECONDS * fs));
  limiter.init(fs);
  master.jump(MASTER_GAIN);
  trimL.jump(1.0);
  trimR.jump(1.0);
  mixScale.jump(0.0);
}

export function setChannel(i: i32, freq: f64, waveform: i32, on: bool, volume: f32): void {
  if (i < 0 || i >= CHANNELS) return;
  // Validate here too: the engine must never see NaN, negative or out-of-range values.
  const f = freq != freq ? 0.0 : Math.min(Math.max(freq, 0.0), MAX_FREQUENCY_HZ);
  const w = waveform < 0 || waveform > 3 ? 0 : waveform;
  const v = volume != volume ? <f32>0.0 : Mathf.min(Mathf.max(volume, 0.0), 1.0);
  channels[i].set(f, w, on, v, sampleRate, playing ? glideFrames : 0);
  const n = activeChannelCount();
  mixScale.target = n > 0 ? TONE_GAIN / <f32>n : mixScale.target;
  if (!playing) {
    channels[i].gain = channels[i].gainTarget;
    mixScale.value = mixScale.target;
  }
}

export function setMaster(gain: f32): void {
  master.target = gain != gain ? <f32>0.0 : Mathf.min(Mathf.max(gain, 0.0), 1.0);
  if (!playing) master.value = master.target;
}

export function setCompressor(on: bool): void {
  compressor.enabled = on;
}

/** Starts playback: `delay` silent frames, then the sound, ending by itself after `duration`
 *  frames of sound (0 = until stop()). Returns false, and stays stopped, when no channel sounds. */
export function start(delay: i32, duration: u64): bool {
  if (timelineActive ? !timelineAudible : activeChannelCount() == 0) {
    playing = false;
    return false;
  }
  for (let i = 0; i < CHANNELS; i++) channels[i].reset();
  if (timelineActive) {
    // The session starts at its first step: effects take their 0:00 values before they reset.
    rewindTimeline();
    mixScale.target = TONE_GAIN / <f32>timelineVoices;
    applyEffectsAt(0.0);
  }
  blockFrame = 0;
  mixScale.value = mixScale.target;
  master.value = master.target;
  compressor.reset();
  resetEffects();
  playing = true;
  stopping = false;
  delayLeft = max(0, delay);
  played = 0;
  durationEnd = duration;
  userEnd = 0;
  sleepEnd = 0;
  updateStop();
  fade = 0.0;
  beginFade(1.0, startFadeFrames, true);
  trimL.value = trimL.target;
  trimR.value = trimR.target;
  limiter.reset();
  holding = false;
  blockPos = BLOCK;
  restartDither();
  return true;
}

/** Fades out over the stop fade (50 ms) from wherever the gain is, then stops. */
export function stop(): void {
  if (!playing) return;
  if (delayLeft > 0) {
    playing = false; // never sounded: nothing to fade
    return;
  }
  userEnd = played + <u64>stopFadeFrames;
  retarget();
}

/** The sleep timer: playback stops `frames` output frames from now, after a smoothstep fade of
 *  `fadeFrames` that reaches silence exactly at the last frame (a fade longer than the time left
 *  starts now). Replaces an earlier sleep; a sooner duration end or stop() still wins. */
export function sleepAfter(frames: u64, fadeFrames: u64): void {
  if (!playing) return;
  const wait = <u64>max(0, delayLeft); // output frames before the sound starts count too
  const sound = frames > wait ? frames - wait : 1;
  sleepEnd = played + sound;
  sleepFade = fadeFrames < sound ? fadeFrames : sound;
  retarget();
}

/** Cancels the sleep timer; a sleep fade under way rises back over the start fade. */
export function cancelSleep(): void {
  if (sleepEnd == 0) return;
  sleepEnd = 0;
  retarget();
}

function considerEnd(end: u64, len: u64, shaped: bool, first: bool): bool {
  if (end == 0) return first;
  const start = end > len ? end - len : 0;
  if (first || end < stopAt) stopAt = end;
  if (first || start < fadeStart) {
    fadeStart = start;
    stopShaped = shaped;
  }
  return false;
}

/** stopAt and fadeStart from the duration, stop() and the sleep timer. */
function updateStop(): void {
  stopAt = 0;
  fadeStart = 0;
  stopShaped = false;
  let first = considerEnd(durationEnd, <u64>stopFadeFrames, false, true);
  first = considerEnd(userEnd, <u64>stopFadeFrames, false, first);
  considerEnd(sleepEnd, sleepFade, true, first);
}

/** After an end changed while playing: a fade under way is aimed at the new end, or, when no end
 *  is near any more (a cancelled sleep), turned back up. A fade not yet begun starts in render(). */
function retarget(): void {
  const before = stopAt;
  updateStop();
  if (!stopping) return;
  if (stopAt == 0 || fadeStart > played) {
    stopping = false;
    beginFade(1.0, startFadeFrames, true);
  } else if (stopAt != before) {
    beginFade(0.0, <i32>min<u64>(stopAt - played, <u64>i32.MAX_VALUE), stopShaped);
  }
}

/** Starts moving the transport gain from where it is to `target` over `frames` frames. */
function beginFade(target: f32, frames: i32, shaped: bool): void {
  const n = max(1, frames);
  fadeFrom = fade;
  fadeTo = target;
  fadeLeft = n;
  fadeInv = 1.0 / <f64>n;
  fadeShaped = shaped;
}

/** Makes the uploaded timeline (timeline.ts) the one that plays, from the next block. */
export function useTimeline(voices: i32): void {
  commitTimeline(voices, <f64>blockFrame, playing && delayLeft == 0);
}

export function isPlaying(): bool {
  return playing;
}

export function framesPlayed(): u64 {
  return played;
}

/** Jumps every channel's clock `frames` ahead (exact; used by tests and by seeking exports). */
export function advance(frames: u64): void {
  for (let i = 0; i < CHANNELS; i++) channels[i].advance(frames);
}

export function channelPhase(i: i32): f64 {
  return <f64>channels[i].phase / 18446744073709551616.0;
}

const modes = new StaticArray<i32>(CHANNELS);

/** Four steady channels in one pass: one store per sample instead of four read-modify-writes. */
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

function renderBlock(): void {
  const l = changetype<usize>(blockL);
  const r = changetype<usize>(blockR);
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
  if (steady == CHANNELS && dryMixUnused()) {
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
  const g0 = master.value;
  if (anyEffectRunning()) {
    memory.copy(r, l, <usize>BLOCK << 2);
    processEffects(l, r, BLOCK, coef);
    compressor.process(l, r, BLOCK, g0, master.step(coef));
  } else {
    // No effects: the channels are mono, so the master stage runs once and writes both sides.
    compressor.processMono(l, r, BLOCK, g0, master.step(coef));
  }
}

/** Renders `frames` (<= MAX_FRAMES) into outL/outR. Returns the frames written. */
export function render(frames: i32): i32 {
  const n = min(max(frames, 0), MAX_FRAMES);
  const dl = changetype<usize>(outL);
  const dr = changetype<usize>(outR);
  let pos = 0;
  while (pos < n) {
    if (!playing) {
      memory.fill(dl + (<usize>pos << 2), 0, <usize>(n - pos) << 2);
      memory.fill(dr + (<usize>pos << 2), 0, <usize>(n - pos) << 2);
      break;
    }
    if (delayLeft > 0) {
      const k = min(delayLeft, n - pos);
      memory.fill(dl + (<usize>pos << 2), 0, <usize>k << 2);
      memory.fill(dr + (<usize>pos << 2), 0, <usize>k << 2);
      delayLeft -= k;
      pos += k;
      continue;
    }
    if (blockPos == BLOCK) {
      nextBlock();
      blockPos = 0;
    }
    let k = min(BLOCK - blockPos, n - pos);
    if (stopAt > 0) {
      // Begin the fade-out so it lands on silence exactly at stopAt.
      if (!stopping && played >= fadeStart) {
        stopping = true;
        beginFade(0.0, <i32>min<u64>(stopAt - played, <u64>i32.MAX_VALUE), stopShaped);
      }
      const left = stopAt - played;
      if (<u64>k > left) k = <i32>left;
      if (!stopping && played + <u64>k > fadeStart) k = <i32>(fadeStart - played);
    }
    copyOut(dl, dr, pos, k);
    pos += k;
    blockPos += k;
    played += <u64>k;
    if (stopAt > 0 && played >= stopAt) {
      playing = false;
      fade = 0.0;
      fadeLeft = 0;
    }
  }
  return n;
}

function copyOut(dl: usize, dr: usize, pos: i32, k: i32): void {
  const sl = changetype<usize>(blockL) + (<usize>blockPos << 2);
  const sr = changetype<usize>(blockR) + (<usize>blockPos << 2);
  const ol = dl + (<usize>pos << 2);
  const or = dr + (<usize>pos << 2);
  if (fadeLeft == 0 && fade == 1.0) {
    // Steady: the block is already clamped by the master stage.
    memory.copy(ol, sl, <usize>k << 2);
    memory.copy(or, sr, <usize>k << 2);
    return;
  }
  let f = fade;
  let left = fadeLeft;
  const from = <f64>fadeFrom;
  const span = <f64>fadeTo - from;
  for (let i = 0; i < k; i++) {
    if (left > 0) {
      // Progress from the frames left (exact: the last frame of a fade is exactly fadeTo).
      left--;
      const p = 1.0 - <f64>left * fadeInv;
      f = <f32>(from + span * (fadeShaped ? p * p * (3.0 - 2.0 * p) : p));
    }
    const o = <usize>i << 2;
    store<f32>(ol + o, load<f32>(sl + o) * f);
    store<f32>(or + o, load<f32>(sr + o) * f);
  }
  fade = f;
  fadeLeft = left;
}

// ---- master stage after the compressor ----

/** The next block to play into blockL/blockR: rendered, balance and output gain applied, and,
 *  with the limiter on, limited with the block after it (rendered now and held) as lookahead. */
function nextBlock(): void {
  if (limiter.enabled) {
    if (!holding) {
      renderBlock();
      trim();
      aheadPeak = blockPeak(changetype<usize>(blockL), changetype<usize>(blockR), BLOCK);
      swapAhead();
      holding = true;
    }
    renderBlock();
    trim();
    const peak = aheadPeak;
    aheadPeak = blockPeak(changetype<usize>(blockL), changetype<usize>(blockR), BLOCK);
    swapAhead(); // blockL/R: the block to play; aheadL/R: the one just rendered
    limiter.process(
      changetype<usize>(blockL), changetype<usize>(blockR), peak,
      changetype<usize>(aheadL), changetype<usize>(aheadR), aheadPeak,
    );
  } else if (holding) {
    // The limiter was switched off: play the held block (clamped) before rendering again.
    swapAhead();
    holding = false;
    clampBlock(changetype<usize>(blockL));
    clampBlock(changetype<usize>(blockR));
  } else {
    renderBlock();
    trim();
  }
}

function swapAhead(): void {
  const l = blockL;
  const r = blockR;
  blockL = aheadL;
  blockR = aheadR;
  aheadL = l;
  aheadR = r;
}

/** Balance x output gain on the block just rendered, ramped over the block like the master gain.
 *  At unity (the default) the block is not touched. Without the limiter this is where a gain above
 *  1 is clamped; with it, the limiter clamps. */
function trim(): void {
  const l0 = trimL.value;
  const r0 = trimR.value;
  const l1 = trimL.step(coef);
  const r1 = trimR.step(coef);
  if (l0 == 1.0 && l1 == 1.0 && r0 == 1.0 && r1 == 1.0) return;
  const clamp = !limiter.enabled;
  scaleBlock(changetype<usize>(blockL), l0, l1, clamp);
  scaleBlock(changetype<usize>(blockR), r0, r1, clamp);
}

function scaleBlock(p: usize, g0: f32, g1: f32, clamp: bool): void {
  const step = (g1 - g0) / <f32>BLOCK;
  let g = f32x4(g0, g0 + step, g0 + 2.0 * step, g0 + 3.0 * step);
  const inc = f32x4.splat(4.0 * step);
  const lo = f32x4.splat(clamp ? -1.0 : -LIMITER_HEADROOM);
  const hi = f32x4.splat(clamp ? 1.0 : LIMITER_HEADROOM);
  for (let i = 0; i < BLOCK; i += 4) {
    const o = <usize>i << 2;
    v128.store(p + o, f32x4.pmin(f32x4.pmax(f32x4.mul(v128.load(p + o), g), lo), hi));
    g = f32x4.add(g, inc);
  }
}

function clampBlock(p: usize): void {
  const lo = f32x4.splat(-1.0);
  const hi = f32x4.splat(1.0);
  for (let i = 0; i < BLOCK; i += 4) {
    const o = <usize>i << 2;
    v128.store(p + o, f32x4.pmin(f32x4.pmax(v128.load(p + o), lo), hi));
  }
}

function updateTrim(): void {
  trimL.target = balanceL * outputGain;
  trimR.target = balanceR * outputGain;
  if (!playing) {
    trimL.value = trimL.target;
    trimR.value = trimR.target;
  }
}

/** Fade-in length of every start, in frames (at least 1). */
export function setStartFade(frames: i32): void {
  startFadeFrames = max(1, frames);
}

/** The true-peak limiter on the master (-1 dBTP). Switched while playing, it takes effect at the
 *  next block: on, the engine starts rendering one block ahead; off, it plays the held block out. */
export function setLimiter(on: bool): void {
  limiter.enabled = on;
  compressor.ceiling = on ? LIMITER_HEADROOM : 1.0;
}

/** Per-ear gains (linear, 0..1; dsp/host/schema/levels.ts balanceGains), smoothed. */
export function setBalance(left: f32, right: f32): void {
  balanceL = left != left ? <f32>1.0 : Mathf.min(Mathf.max(left, 0.0), 1.0);
  balanceR = right != right ? <f32>1.0 : Mathf.min(Mathf.max(right, 0.0), 1.0);
  updateTrim();
}

/** A gain after the compressor and before the limiter (loudness-normalised export), 0 to
 *  MAX_OUTPUT_GAIN. */
export function setOutputGain(gain: f32): void {
  outputGain = gain != gain ? <f32>1.0 : Mathf.min(Mathf.max(gain, 0.0), <f32>MAX_OUTPUT_GAIN);
  updateTrim();
}

/** Lowest gain the limiter has applied since start (1 = it never engaged). */
export function limiterMinGain(): f32 {
  return limiter.minGain;
}
