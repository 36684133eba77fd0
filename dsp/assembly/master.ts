// The master stage on each block of the mix (mix.ts): master gain -> compressor -> the placed
// voice recordings (mix.ts mixRecordings) -> per-ear balance and output gain -> true-peak limiter (when on) -> clamp to [-1, 1]. The block to play
// is left in blockL/blockR for the transport (engine.ts). With the limiter on, blocks are rendered
// one ahead of the block being played (the limiter's lookahead, held in aheadL/aheadR), so a
// parameter change then reaches the sound one block (5.3 ms) later.

import { BLOCK, MASTER_GAIN } from "./lib/constants";
import { MAX_OUTPUT_GAIN } from "../host/model/limits";
import { Compressor } from "./lib/dynamics";
import { Limiter, blockPeak } from "./lib/limiter";
import { Smoothed, blockCoef } from "./lib/smooth";
import { mixBlock, mixRecordings } from "./mix";

// `let`: with the limiter on they swap with aheadL/aheadR (no copy) once per block.
export let blockL = new StaticArray<f32>(BLOCK);
export let blockR = new StaticArray<f32>(BLOCK);

const compressor = new Compressor();
const master = new Smoothed();
let coef: f32 = 0.0;

// After the compressor (safe listening levels: the true-peak limiter, balance and output gain).
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

export function initMaster(fs: f64): void {
  compressor.init(fs);
  coef = blockCoef(fs);
  limiter.init(fs);
  master.jump(MASTER_GAIN);
  trimL.jump(1.0);
  trimR.jump(1.0);
}

/** Part of every start: the gains at their targets, the compressor and limiter cleared, nothing
 *  held ahead. */
export function restartMaster(): void {
  master.value = master.target;
  compressor.reset();
  trimL.value = trimL.target;
  trimR.value = trimR.target;
  limiter.reset();
  holding = false;
}

/** The master gain, 0..1: smoothed while playing, set at once when stopped. */
export function setMasterGain(gain: f32, playing: bool): void {
  master.target = gain != gain ? <f32>0.0 : Mathf.min(Mathf.max(gain, 0.0), 1.0);
  if (!playing) master.value = master.target;
}

export function setCompressor(on: bool): void {
  compressor.enabled = on;
}

/** The true-peak limiter on the master (-1 dBTP). Switched while playing, it takes effect at the
 *  next block: on, the engine starts rendering one block ahead; off, it plays the held block out. */
export function setLimiter(on: bool): void {
  limiter.enabled = on;
  compressor.ceiling = on ? LIMITER_HEADROOM : 1.0;
}

/** Per-ear gains (linear, 0..1; dsp/host/schema/levels.ts balanceGains), smoothed while playing. */
export function setBalanceGains(left: f32, right: f32, playing: bool): void {
  balanceL = left != left ? <f32>1.0 : Mathf.min(Mathf.max(left, 0.0), 1.0);
  balanceR = right != right ? <f32>1.0 : Mathf.min(Mathf.max(right, 0.0), 1.0);
  updateTrim(playing);
}

/** A gain after the compressor and before the limiter (loudness-normalised export), 0 to
 *  MAX_OUTPUT_GAIN, smoothed while playing. */
export function setOutputTrim(gain: f32, playing: bool): void {
  outputGain = gain != gain ? <f32>1.0 : Mathf.min(Mathf.max(gain, 0.0), <f32>MAX_OUTPUT_GAIN);
  updateTrim(playing);
}

function updateTrim(playing: bool): void {
  trimL.target = balanceL * outputGain;
  trimR.target = balanceR * outputGain;
  if (!playing) {
    trimL.value = trimL.target;
    trimR.value = trimR.target;
  }
}

/** Lowest gain the limiter has applied since start (1 = it never engaged). */
export function limiterMinGain(): f32 {
  return limiter.minGain;
}

/** The limiter's gain now (1 = not limiting): the transport's gain-reduction meter reads it. */
export function limiterGain(): f32 {
  return limiter.enabled ? limiter.gain : <f32>1.0;
}

/** Mixes the next block into blockL/blockR and runs master gain and compressor on it. */
function renderBlock(): void {
  const l = changetype<usize>(blockL);
  const r = changetype<usize>(blockR);
  const g0 = master.value;
  if (mixBlock(l, r)) {
    compressor.process(l, r, BLOCK, g0, master.step(coef));
  } else {
    // No effects: the channels are mono, so the master stage runs once and writes both sides.
    compressor.processMono(l, r, BLOCK, g0, master.step(coef));
  }
  // The voice recordings at their own level, after the compressor, clamped as the compressor clamps.
  mixRecordings(l, r, compressor.ceiling);
}

/** The next block to play into blockL/blockR: rendered, balance and output gain applied, and,
 *  with the limiter on, limited with the block after it (rendered now and held) as lookahead. */
export function nextBlock(): void {
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
