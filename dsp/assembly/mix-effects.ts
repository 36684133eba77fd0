// The soundtrack's effects (SBaGenX's mixbeat, mixspin, mixam, mixpulse; the model and their
// meaning are in dsp/host/model/voices.ts). The mix voices add the soundtrack into a bus of their
// own (voices.ts); while the slots render, each effect voice records its values for the block
// (set*); then process() runs the effects over the bus in a fixed order (beat, spin, AM, pulse)
// and voices.ts adds the bus to the output. An effect whose strength is 0 over the block is
// skipped, so a mix voice without effects costs nothing here.

import { sampleRate } from "./bus";
import { BLOCK } from "./lib/constants";
import { tapBack } from "./lib/delay/tap";
import { cos2pi, sin2pi } from "./lib/math";
import { StereoHilbert } from "./lib/mod/hilbert";

/** The isochronic gate (as the voices'): on while sin > 0.3, with smoothstep edges. */
const GATE: f32 = 0.3;
/** mixspin reads the bus this many frames in the past at the centre (it swings up to 127 either
 *  way), so the whole mix is that much late (2.7 ms at 48 kHz) in a session that spins it. */
const SPIN_DELAY: i32 = 128;
const SPIN_MAX: f64 = 127.0;
const HISTORY: i32 = 256;

// Values per effect for this block: parameter p (Hz), second parameter q and strength s, each from
// the block's start (0) to its end (1); `on` says the effect's voice sounds in this block.
let beatOn = false, spinOn = false, amOn = false, pulseOn = false;
let beatP0: f64 = 0, beatP1: f64 = 0, beatS0: f32 = 0, beatS1: f32 = 0;
let spinP0: f64 = 0, spinP1: f64 = 0, spinW0: f64 = 0, spinW1: f64 = 0, spinS0: f32 = 0, spinS1: f32 = 0;
let amP0: f64 = 0, amP1: f64 = 0, amS0: f32 = 0, amS1: f32 = 0, amStart: f64 = 0;
let amPulse = false, amDuty: f32 = 0.5, amAttack: f32 = 0.5, amRelease: f32 = 0.5, amEdge: i32 = 3;
let pulseP0: f64 = 0, pulseP1: f64 = 0, pulseS0: f32 = 0, pulseS1: f32 = 0;

// Running state.
let phBeat: f64 = 0, phSpin: f64 = 0, phAm: f64 = 0, phPulse: f64 = 0;
/** True when some voice of the session spins the mix (the bus is then read SPIN_DELAY late). */
export let spinUsed = false;
const histL = new StaticArray<f32>(HISTORY + BLOCK);
const histR = new StaticArray<f32>(HISTORY + BLOCK);
// mixbeat: one single-sideband shifter per ear (the engine's Hilbert transformer, the frequency
// shifter effect's), and the bus as it was before the shift, for the blend.
const shiftL = new StereoHilbert();
const shiftR = new StereoHilbert();
const wetL = new StaticArray<f32>(BLOCK);
const wetR = new StaticArray<f32>(BLOCK);

export function useSpin(on: bool): void {
  spinUsed = on;
}

export function resetMixEffects(): void {
  phBeat = 0; phSpin = 0; phAm = 0; phPulse = 0;
  memory.fill(changetype<usize>(histL), 0, <usize>(HISTORY + BLOCK) << 2);
  memory.fill(changetype<usize>(histR), 0, <usize>(HISTORY + BLOCK) << 2);
  shiftL.reset();
  shiftR.reset();
  beatOn = spinOn = amOn = pulseOn = false;
}

// ---- values for the block (voices.ts, for each part of an effect's slot) ----------------------------

export function setBeat(first: bool, p0: f64, p1: f64, s0: f32, s1: f32): void {
  if (first || !beatOn) { beatP0 = p0; beatS0 = s0; }
  beatP1 = p1; beatS1 = s1; beatOn = true;
}

export function setSpin(first: bool, w0: f64, w1: f64, p0: f64, p1: f64, s0: f32, s1: f32): void {
  if (first || !spinOn) { spinW0 = w0; spinP0 = p0; spinS0 = s0; }
  spinW1 = w1; spinP1 = p1; spinS1 = s1; spinOn = true;
}

export function setAm(first: bool, start: f64, p0: f64, p1: f64, s0: f32, s1: f32, pulse: bool, duty: f32, attack: f32, release: f32, edge: i32): void {
  if (first || !amOn) { amP0 = p0; amS0 = s0; }
  amP1 = p1; amS1 = s1; amOn = true;
  amStart = start; amPulse = pulse; amDuty = duty; amAttack = attack; amRelease = release; amEdge = edge;
}

export function setPulse(first: bool, p0: f64, p1: f64, s0: f32, s1: f32): void {
  if (first || !pulseOn) { pulseP0 = p0; pulseS0 = s0; }
  pulseP1 = p1; pulseS1 = s1; pulseOn = true;
}

// ---- processing --------------------------------------------------------------------------------------

/** Runs this block's effects over the bus (BLOCK frames at l and r) and forgets the block's values. */
export function process(l: usize, r: usize): void {
  const fs = sampleRate;
  const inv = <f32>1.0 / <f32>BLOCK;
  // Frequency shift, one ear up and the other down by beat/2 (the oscillator turns at beat/2).
  if (beatOn && (beatS0 > 0 || beatS1 > 0)) {
    const inc = (beatP0 + beatP1) * 0.25 / fs;
    blendShifted(l, shiftL, phBeat, inc, beatS0, (beatS1 - beatS0) * inv, changetype<usize>(wetL));
    blendShifted(r, shiftR, wrap(-phBeat), -inc, beatS0, (beatS1 - beatS0) * inv, changetype<usize>(wetR));
    phBeat = wrap(phBeat + inc * <f64>BLOCK);
  } else if (beatOn) {
    phBeat = wrap(phBeat + (beatP0 + beatP1) * 0.25 / fs * <f64>BLOCK);
  }
  if (spinUsed) spin(l, r);
  if (amOn) {
    const inc = (amP0 + amP1) * 0.5 / fs;
    if (amS0 > 0 || amS1 > 0) {
      let ph = phAm;
      const ds = (amS1 - amS0) * inv;
      for (let i = 0; i < BLOCK; i++) {
        const depth = amS0 + ds * <f32>i;
        const g = <f32>1.0 - depth + depth * amEnvelope(wrap(ph + amStart));
        scale(l, r, i, g);
        ph += inc;
      }
    }
    phAm = wrap(phAm + inc * <f64>BLOCK);
  }
  if (pulseOn) {
    const inc = (pulseP0 + pulseP1) * 0.5 / fs;
    if (pulseS0 > 0 || pulseS1 > 0) {
      let ph = phPulse;
      const ds = (pulseS1 - pulseS0) * inv;
      for (let i = 0; i < BLOCK; i++) {
        const depth = pulseS0 + ds * <f32>i;
        const u = max<f32>(0.0, (<f32>sin2pi(ph) - GATE) / (<f32>1.0 - GATE));
        const gate = u * u * (<f32>3.0 - <f32>2.0 * u);
        scale(l, r, i, <f32>1.0 - depth + depth * gate);
        ph += inc;
      }
    }
    phPulse = wrap(phPulse + inc * <f64>BLOCK);
  }
  beatOn = spinOn = amOn = pulseOn = false;
}

// @ts-ignore: decorator
@inline
function scale(l: usize, r: usize, i: i32, g: f32): void {
  const o = <usize>i << 2;
  store<f32>(l + o, load<f32>(l + o) * g);
  store<f32>(r + o, load<f32>(r + o) * g);
}

// @ts-ignore: decorator
@inline
function wrap(ph: f64): f64 {
  return ph - Math.floor(ph);
}

/** mixam's envelope (0..1) at cycle phase p: a raised cosine from 0 at p = 0, or SBaGenX's pulse. */
function amEnvelope(p: f64): f32 {
  if (!amPulse) return <f32>(0.5 - 0.5 * cos2pi(p));
  const d = <f64>amDuty;
  if (d <= 0.0 || p >= d) return 0.0;
  const u = p / d;
  if (u < <f64>amAttack) return edge(<f32>(u / <f64>amAttack));
  if (u > 1.0 - <f64>amRelease) return edge(<f32>((1.0 - u) / <f64>amRelease));
  return 1.0;
}

function edge(x: f32): f32 {
  if (amEdge <= 0) return x > 0.0 ? 1.0 : 0.0;
  if (amEdge == 1) return x;
  if (amEdge == 2) return x * x * (<f32>3.0 - <f32>2.0 * x);
  return x * x * x * (x * (x * <f32>6.0 - <f32>15.0) + <f32>10.0);
}

/** One ear's frequency shift, blended: out = x + (shifted - x) s, s moving linearly over the block. */
function blendShifted(p: usize, h: StereoHilbert, ph: f64, inc: f64, s0: f32, ds: f32, wet: usize): void {
  memory.copy(wet, p, <usize>BLOCK << 2);
  h.shift(wet, wet, BLOCK, ph, inc, true);
  for (let i = 0; i < BLOCK; i++) {
    const o = <usize>i << 2;
    const x = load<f32>(p + o);
    store<f32>(p + o, x + (load<f32>(wet + o) - x) * (s0 + ds * <f32>i));
  }
}

/** The bus, SPIN_DELAY frames late; where mixspin sounds, the left ear reads d frames earlier and
 *  the right d later (d = width x sin of the spin's phase), blended with the centre by strength. */
function spin(l: usize, r: usize): void {
  const keep = <usize>HISTORY << 2;
  const hl = changetype<usize>(histL), hr = changetype<usize>(histR);
  memory.copy(hl, hl + (<usize>BLOCK << 2), keep);
  memory.copy(hr, hr + (<usize>BLOCK << 2), keep);
  memory.copy(hl + keep, l, <usize>BLOCK << 2);
  memory.copy(hr + keep, r, <usize>BLOCK << 2);
  const on = spinOn && (spinS0 > 0 || spinS1 > 0);
  const inv = 1.0 / <f64>BLOCK;
  const inc = (spinP0 + spinP1) * 0.5 / sampleRate;
  const perUs = sampleRate * 1e-6;
  let ph = phSpin;
  for (let i = 0; i < BLOCK; i++) {
    const o = <usize>i << 2;
    const pl = hl + keep + o, pr = hr + keep + o;
    const cl = load<f32>(pl - (<usize>SPIN_DELAY << 2)), cr = load<f32>(pr - (<usize>SPIN_DELAY << 2));
    if (on) {
      const u = <f64>i * inv;
      const width = Math.min(SPIN_MAX, Math.max(0.0, (spinW0 + (spinW1 - spinW0) * u) * perUs));
      const d = width * sin2pi(ph);
      const s = <f32>(<f64>spinS0 + <f64>(spinS1 - spinS0) * u);
      store<f32>(l + o, cl + (tapBack(pl, <f64>SPIN_DELAY - d) - cl) * s);
      store<f32>(r + o, cr + (tapBack(pr, <f64>SPIN_DELAY + d) - cr) * s);
    } else {
      store<f32>(l + o, cl);
      store<f32>(r + o, cr);
    }
    ph += inc;
  }
  phSpin = wrap(phSpin + inc * <f64>BLOCK);
}
