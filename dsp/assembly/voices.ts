// Voices: the sound of an SBaGen schedule (dsp/host/model/voices.ts has the model and its units),
// up to MAX_VOICES slots played beside the four channels and before the effects. The host uploads
// each slot's segments (dsp/host/model/voice-track.ts compiles them from the session's steps): a
// segment holds one kind of voice from its start frame until the slot's next segment, its values
// moving linearly between the two, so slides and fades are exact to the sample. Bells are separate
// strikes that ring out by themselves.
//
// Sines are complex phasors: each sub-block starts from the voice's exact phase (kept in f64 cycles,
// so a 12-hour file never drifts) and rotates four frames at a time in f32x4 at the sub-block's mean
// frequency, which is exactly the integral of a linear slide; nothing is looked up per sample.
// Noise is one shared generator per colour (white, pink, brown), the same in both ears, kept with
// a short history that spinning noise reads with a moving interaural delay.

import { BROWN_LEAK, BROWN_SCALE, PINK_SCALE } from "./lib/noise-colours";
import { sampleRate } from "./bus";
import * as mixFx from "./mix-effects";
import { tapBack } from "./lib/delay/tap";
import { TABLE_SIZE, WAVE_TRIANGLE, tableFor } from "./osc/wavetable";
import { StereoHilbert } from "./lib/mod/hilbert";
import { addSoundtrack } from "./soundtrack";
import { BLOCK, TONE_GAIN } from "./lib/constants";
import { cos2pi, ftz, sin2pi } from "./lib/math";

export const MAX_VOICES: i32 = 32;
/** Segments of all slots together (500 steps, each up to three segments a slot, for 21 slots). */
const MAX_SEGMENTS: i32 = 32768;
/** Bell strikes in a session, and bells ringing at once. */
const MAX_STRIKES: i32 = 4096;
const RINGING: i32 = 16;

// Kinds, as the host codes them (dsp/host/model/voice-track.ts VOICE_CODE).
const OFF: i32 = 0;
const TONE: i32 = 1;
const BINAURAL: i32 = 2;
const ISO: i32 = 3;
const NOISE: i32 = 4;
const SPIN: i32 = 5;
const MIX: i32 = 6;
const MIXPULSE: i32 = 7;
const MIXAM: i32 = 8;
const MIXSPIN: i32 = 9;
const MIXBEAT: i32 = 10;
const NOISEPULSE: i32 = 11;
const NOISEBEAT: i32 = 12;
/** Noise sources: white, pink, brown, then up to MAX_SPECTRA noiseNN spectra read from tables the
 *  host makes (dsp/host/model/noise-spectrum.ts): two of TABLE_FRAMES each, side by side, the
 *  second drifting by DRIFT frames each turn so the sum does not repeat for hours. */
const MAX_SPECTRA: i32 = 4;
const SOURCES: i32 = 3 + MAX_SPECTRA;
const TABLE_FRAMES: i32 = 1 << 17;
const DRIFT: i32 = 7;
const specA = new StaticArray<usize>(MAX_SPECTRA);
const specB = new StaticArray<usize>(MAX_SPECTRA);
let specPos: i64 = 0;
// noisebeat: per slot, a single-sideband shifter per ear (the engine's Hilbert transformer, made
// when such a voice is uploaded), the block's shifted noise, the frame of the block it is for and
// the oscillator's phase at that block's start.
const beatShiftL = new StaticArray<StereoHilbert | null>(MAX_VOICES);
const beatShiftR = new StaticArray<StereoHilbert | null>(MAX_VOICES);
const beatL = new StaticArray<f32>(MAX_VOICES * BLOCK);
const beatR = new StaticArray<f32>(MAX_VOICES * BLOCK);
const beatFrame = new StaticArray<f64>(MAX_VOICES);
const beatPh0 = new StaticArray<f64>(MAX_VOICES);

/** amp 100 (SBaGen's full scale) plays at the channels' full tone level. */
const VOICE_GAIN: f32 = TONE_GAIN / 100.0;
/** Noise of every colour at amp 100 has an RMS 15 dB below a full-scale sine's peak (SBaGen's pink
 *  noise); the generators below all come out at white noise's RMS (1/sqrt 3). */
const NOISE_GAIN: f32 = <f32>(0.17782794 * 1.7320508);
/** Spin: the delay swings at most this many samples either way (SBaGen clamps to 127), read from
 *  noise this many samples old, so both ears read the past. */
const SPIN_MAX: f64 = 127.0;
const SPIN_DELAY: i32 = 128;
const HISTORY: i32 = 256;
/** The isochronic gate (SBaGen+): on while sin(2 pi pulse t) > 0.3, with smoothstep edges. */
const GATE: f32 = 0.3;
/** A bell loses 1/12 of its level every 50 ms. */
const BELL_STEP_SECONDS: f64 = 0.05;
const BELL_FLOOR: f32 = 1e-5;

// ---- the uploaded session ------------------------------------------------------------------------

const segStart = new StaticArray<f64>(MAX_SEGMENTS + 1);
const segKind = new StaticArray<i32>(MAX_SEGMENTS + 1);
const segColour = new StaticArray<i32>(MAX_SEGMENTS + 1);
const segC0 = new StaticArray<f64>(MAX_SEGMENTS + 1);
const segC1 = new StaticArray<f64>(MAX_SEGMENTS + 1);
const segB0 = new StaticArray<f64>(MAX_SEGMENTS + 1);
const segB1 = new StaticArray<f64>(MAX_SEGMENTS + 1);
const segA0 = new StaticArray<f64>(MAX_SEGMENTS + 1);
const segA1 = new StaticArray<f64>(MAX_SEGMENTS + 1);
const segDuty = new StaticArray<f32>(MAX_SEGMENTS + 1);
const segAttack = new StaticArray<f32>(MAX_SEGMENTS + 1);
const segRelease = new StaticArray<f32>(MAX_SEGMENTS + 1);
const segEdge = new StaticArray<i32>(MAX_SEGMENTS + 1);
/** The segment's envelope table (-1: none). */
const segEnv = new StaticArray<i32>(MAX_SEGMENTS + 1);
/** Envelope tables (waveNN, customNN): levels over one beat or pulse cycle, read linearly. */
const MAX_ENVELOPES: i32 = 64;
const ENV_POINTS: i32 = 256;
const envTable = new StaticArray<f32>(MAX_ENVELOPES * ENV_POINTS);
const envLen = new StaticArray<i32>(MAX_ENVELOPES);
let segCount: i32 = 0;
/** A segment outside the pool: a voice fading out after an edit took it away (fadeOld). */
const SCRATCH: i32 = MAX_SEGMENTS;
/** True when a soundtrack voice or effect is uploaded: the mix then renders into its own bus. */
let mixUsed = false;

const slotFirst = new StaticArray<i32>(MAX_VOICES);
const slotCount = new StaticArray<i32>(MAX_VOICES);
const slotCursor = new StaticArray<i32>(MAX_VOICES);
const slotKind = new StaticArray<i32>(MAX_VOICES);
/** Each slot's amp at the end of its last rendered part, and whether its next part starts from it
 *  (after an upload while playing: an edited level glides over at most a block, 5.3 ms). */
const lastAmp = new StaticArray<f32>(MAX_VOICES);
/** Each slot's last rendered voice (carrier or width, beat or pulse or rate, colour), so that a
 *  voice an edit replaces or removes while playing can fade out instead of stopping dead. */
const lastC = new StaticArray<f64>(MAX_VOICES);
const lastB = new StaticArray<f64>(MAX_VOICES);
const lastColour = new StaticArray<i32>(MAX_VOICES);
const glideIn = new StaticArray<bool>(MAX_VOICES);
let lastSlot: i32 = -1;

const strikeAt = new StaticArray<f64>(MAX_STRIKES);
const strikeFreq = new StaticArray<f64>(MAX_STRIKES);
const strikeAmp = new StaticArray<f64>(MAX_STRIKES);
let strikeCount: i32 = 0;
let strikeCursor: i32 = 0;

/** True while uploaded voices play (set by commitVoices). */
export let voicesActive: bool = false;
/** True when some voice or bell sounds somewhere in the session. */
export let voicesAudible: bool = false;
let coloursUsed: i32 = 0; // bit per noise colour

// ---- playing state -------------------------------------------------------------------------------

// Phases in cycles: left (or the only) carrier, right carrier, isochronic pulse, spin.
const phL = new StaticArray<f64>(MAX_VOICES);
const phR = new StaticArray<f64>(MAX_VOICES);
const phP = new StaticArray<f64>(MAX_VOICES);
const phS = new StaticArray<f64>(MAX_VOICES);

const ringPhase = new StaticArray<f64>(RINGING);
const ringInc = new StaticArray<f64>(RINGING);
const ringLevel = new StaticArray<f32>(RINGING);
let bellDecay: f32 = 1.0; // per sample

// Per-block buffers: left-only, right-only and both-ear contributions, and the pulse gate.
const bufL = new StaticArray<f32>(BLOCK);
const bufR = new StaticArray<f32>(BLOCK);
const bufM = new StaticArray<f32>(BLOCK);
// The soundtrack's bus (its effects work on it before it joins the rest).
const busL = new StaticArray<f32>(BLOCK);
const busR = new StaticArray<f32>(BLOCK);
// An enveloped voice's sines at unit gain, before its envelope.
const tmpL = new StaticArray<f32>(BLOCK);
const tmpR = new StaticArray<f32>(BLOCK);

// Noise: per colour, HISTORY old samples then this block's.
const noise = new StaticArray<StaticArray<f32>>(SOURCES);
let rngState: v128 = i32x4.splat(0);
let pinkLo: v128 = f32x4.splat(0.0);
let pinkHi: v128 = f32x4.splat(0.0);
let pinkB6: f32 = 0.0;
let brownY: f32 = 0.0;

export function initVoices(): void {
  for (let c = 0; c < SOURCES; c++) noise[c] = new StaticArray<f32>(HISTORY + BLOCK);
  bellDecay = <f32>Math.pow(11.0 / 12.0, 1.0 / (BELL_STEP_SECONDS * sampleRate));
}

// ---- upload (index.ts) ---------------------------------------------------------------------------

export function clearVoices(): void {
  segCount = 0;
  strikeCount = 0;
  mixUsed = false;
  mixFx.useSpin(false);
  lastSlot = -1;
  for (let s = 0; s < MAX_VOICES; s++) slotCount[s] = 0;
  voicesActive = false;
  voicesAudible = false;
  coloursUsed = 0;
}

/** Appends slot `slot`'s next segment. Slots come in ascending order, each slot's segments in time
 *  order; a segment out of order, or past the pool, is dropped. */
export function addVoiceSegment(slot: i32, start: f64, kind: i32, colour: i32, c0: f64, c1: f64, b0: f64, b1: f64, a0: f64, a1: f64): void {
  if (slot < 0 || slot >= MAX_VOICES || slot < lastSlot || segCount >= MAX_SEGMENTS) return;
  if (slot != lastSlot) {
    slotFirst[slot] = segCount;
    lastSlot = slot;
  } else if (start < segStart[segCount - 1]) {
    return;
  }
  const i = segCount++;
  slotCount[slot]++;
  segStart[i] = start;
  segEnv[i] = -1;
  segKind[i] = kind < OFF || kind > NOISEBEAT ? OFF : kind;
  if (segKind[i] == TONE || segKind[i] == BINAURAL || segKind[i] == ISO) {
    // The waveform (0 sine, or one of the wavetables).
    segColour[i] = colour < 0 || colour > WAVE_TRIANGLE ? 0 : colour;
  } else {
    segColour[i] = colour < 0 || colour >= SOURCES || (colour >= 3 && specA[colour - 3] == 0) ? 1 : colour;
  }
  segC0[i] = finite(c0); segC1[i] = finite(c1);
  segB0[i] = finite(b0); segB1[i] = finite(b1);
  segA0[i] = Math.max(0.0, finite(a0)); segA1[i] = Math.max(0.0, finite(a1));
  if (segKind[i] == NOISEBEAT && beatShiftL[slot] == null) {
    beatShiftL[slot] = new StereoHilbert();
    beatShiftR[slot] = new StereoHilbert();
  }
  if (segKind[i] >= MIX && segKind[i] <= MIXBEAT) {
    mixUsed = true;
    if (segKind[i] == MIXSPIN) mixFx.useSpin(true);
  }
  const sounds = segKind[i] != OFF && (segKind[i] <= MIX || segKind[i] >= NOISEPULSE);
  if (sounds && (segA0[i] > 0.0 || segA1[i] > 0.0)) {
    voicesAudible = true;
    if (segKind[i] == NOISE || segKind[i] == SPIN || segKind[i] >= NOISEPULSE) coloursUsed |= 1 << segColour[i];
  }
}

/** mixam's pulse shape for the segment added last (duty, attack, release: parts of the cycle
 *  and of its on time; edge 0-3). */
export function setSegmentShape(duty: f64, attack: f64, release: f64, edge: i32): void {
  if (segCount == 0) return;
  const i = segCount - 1;
  segDuty[i] = <f32>Math.min(1.0, Math.max(0.0, finite(duty)));
  segAttack[i] = <f32>Math.min(1.0, Math.max(0.0, finite(attack)));
  segRelease[i] = <f32>Math.min(1.0, Math.max(0.0, finite(release)));
  segEdge[i] = min(3, max(0, edge));
}

/** Where to write noiseNN spectrum `id`'s table `which` (0 or 1) of TABLE_FRAMES f32 (0 when out of
 *  range); the tables are made the first time and kept. */
export function spectrumTable(id: i32, which: i32): usize {
  if (id < 0 || id >= MAX_SPECTRA || which < 0 || which > 1) return 0;
  const tables = which == 0 ? specA : specB;
  if (tables[id] == 0) tables[id] = heap.alloc(<usize>TABLE_FRAMES << 2);
  return tables[id];
}

/** Where to write envelope `id`'s `points` levels (0 when out of range). */
export function envelopeTable(id: i32, points: i32): usize {
  if (id < 0 || id >= MAX_ENVELOPES || points < 2 || points > ENV_POINTS) return 0;
  envLen[id] = points;
  return changetype<usize>(envTable) + (<usize>(id * ENV_POINTS) << 2);
}

/** The envelope of the segment added last (an id given to envelopeTable). */
export function setSegmentEnvelope(id: i32): void {
  if (segCount == 0 || id < 0 || id >= MAX_ENVELOPES || envLen[id] < 2) return;
  segEnv[segCount - 1] = id;
}

/** Appends a bell strike (time order). */
export function addBellStrike(at: f64, freq: f64, amp: f64): void {
  if (strikeCount >= MAX_STRIKES || (strikeCount > 0 && at < strikeAt[strikeCount - 1])) return;
  strikeAt[strikeCount] = at;
  strikeFreq[strikeCount] = finite(freq);
  strikeAmp[strikeCount] = Math.max(0.0, finite(amp));
  if (strikeAmp[strikeCount] > 0.0) voicesAudible = true;
  strikeCount++;
}

/** Plays the uploaded voices: from their first frame at the next start, or, while playing, from
 *  where the sound is (each slot finds its segment again; phases, ringing bells and the noise go
 *  on, so editing a voice while it plays does not click). */
export function commitVoices(): void {
  voicesActive = segCount > 0 || strikeCount > 0;
  for (let s = 0; s < MAX_VOICES; s++) {
    slotCursor[s] = slotFirst[s];
    glideIn[s] = true;
    // A voice sounding now plays one more block, fading out, even when nothing is uploaded.
    if (slotKind[s] != OFF && lastAmp[s] > 0.0) voicesActive = true;
  }
  for (let o = 0; o < MAX_VOICES * 3; o++) rotInc[o] = NaN;
  strikeCursor = 0;
}

/** Back to the session's first frame: every slot at its first segment, phases at 0, no bell
 *  ringing, the noise generators reseeded (the same bytes on every render). */
export function rewindVoices(): void {
  for (let o = 0; o < MAX_VOICES * 3; o++) rotInc[o] = NaN;
  for (let s = 0; s < MAX_VOICES; s++) {
    slotCursor[s] = slotFirst[s];
    slotKind[s] = OFF;
    lastAmp[s] = 0.0;
    glideIn[s] = false;
    phL[s] = 0.0; phR[s] = 0.0; phP[s] = 0.0; phS[s] = 0.0;
  }
  strikeCursor = 0;
  for (let b = 0; b < RINGING; b++) ringLevel[b] = 0.0;
  rngState = i32x4(0x5eed5b6e, 0x2545f491, 0x6a09e667, 0x3c6ef372);
  pinkLo = f32x4.splat(0.0);
  pinkHi = f32x4.splat(0.0);
  pinkB6 = 0.0;
  brownY = 0.0;
  mixFx.resetMixEffects();
  for (let c = 0; c < SOURCES; c++) memory.fill(changetype<usize>(noise[c]), 0, <usize>(HISTORY + BLOCK) << 2);
  specPos = 0;
  for (let s = 0; s < MAX_VOICES; s++) {
    beatFrame[s] = -1.0;
    const hl = beatShiftL[s], hr = beatShiftR[s];
    if (hl) hl.reset();
    if (hr) hr.reset();
  }
}

// @ts-ignore: decorator
@inline
function finite(v: f64): f64 {
  return v - v == 0.0 ? v : 0.0;
}

// ---- rendering -----------------------------------------------------------------------------------

/** Adds the voices' block starting at sound frame `frame` to l and r (BLOCK frames each). */
export function renderVoices(l: usize, r: usize, frame: f64): void {
  const pl = changetype<usize>(bufL), pr = changetype<usize>(bufR), pm = changetype<usize>(bufM);
  memory.fill(pl, 0, <usize>BLOCK << 2);
  memory.fill(pr, 0, <usize>BLOCK << 2);
  memory.fill(pm, 0, <usize>BLOCK << 2);
  if (coloursUsed != 0) makeNoise();
  const bl = changetype<usize>(busL), br = changetype<usize>(busR);
  if (mixUsed) {
    memory.fill(bl, 0, <usize>BLOCK << 2);
    memory.fill(br, 0, <usize>BLOCK << 2);
  }
  for (let s = 0; s < MAX_VOICES; s++) {
    if (slotCount[s] > 0) renderSlot(s, frame, pl, pr, pm);
    else if (slotKind[s] != OFF) {
      // The slot's voice was taken away by an edit while playing: it fades out over this block.
      if (glideIn[s] && lastAmp[s] > 0.0) fadeOld(s, BLOCK, 0, frame, pl, pr, pm);
      slotKind[s] = OFF;
      lastAmp[s] = 0.0;
      glideIn[s] = false;
    }
  }
  if (strikeCount > 0) renderBells(frame, pm);
  if (mixUsed) {
    mixFx.process(bl, br);
    addScaled(pl, bl, BLOCK, 1.0, 1.0);
    addScaled(pr, br, BLOCK, 1.0, 1.0);
  }
  if (segCount == 0 && strikeCount == 0) voicesActive = false; // the last fade-out is done
  for (let i = 0; i < BLOCK; i += 4) {
    const o = <usize>i << 2;
    const m = v128.load(pm + o);
    v128.store(l + o, f32x4.add(v128.load(l + o), f32x4.add(v128.load(pl + o), m)));
    v128.store(r + o, f32x4.add(v128.load(r + o), f32x4.add(v128.load(pr + o), m)));
  }
}

/** One slot's block: the segments it crosses, each over its own part of the block. */
function renderSlot(s: i32, frame: f64, pl: usize, pr: usize, pm: usize): void {
  const last = slotFirst[s] + slotCount[s] - 1;
  let cur = slotCursor[s];
  let pos = 0;
  while (pos < BLOCK) {
    const at = frame + <f64>pos;
    while (cur < last && segStart[cur + 1] <= at) cur++;
    const start = segStart[cur];
    if (at < start) {
      // Before the slot's first segment: silent until it begins.
      pos = <i32>Math.min(<f64>BLOCK, Math.ceil(start - frame));
      continue;
    }
    const end = cur < last ? segStart[cur + 1] : Infinity;
    const stop = <i32>Math.min(<f64>BLOCK, Math.ceil(end - frame));
    const n = max(1, stop - pos);
    const kind = segKind[cur];
    if (kind != slotKind[s]) {
      // A new kind of voice starts from phase 0, as SBaGen's do, and from silence. After an edit
      // while playing, the voice it replaces fades out over this part instead of stopping dead.
      if (glideIn[s] && slotKind[s] != OFF && lastAmp[s] > 0.0) fadeOld(s, n, pos, at, pl, pr, pm);
      slotKind[s] = kind;
      lastAmp[s] = 0.0;
      phL[s] = 0.0; phR[s] = 0.0; phP[s] = 0.0; phS[s] = 0.0;
    }
    if (kind == OFF) {
      lastAmp[s] = 0.0;
      glideIn[s] = false;
    } else {
      const span = end - start;
      const u0 = span == Infinity ? 0.0 : (at - start) / span;
      const u1 = span == Infinity ? 0.0 : (at + <f64>n - start) / span;
      renderPart(s, cur, kind, u0, u1, n, pos, at, pl, pr, pm);
    }
    pos += n;
  }
  slotCursor[s] = cur;
}

// @ts-ignore: decorator
@inline
function lerp(a: f64, b: f64, u: f64): f64 {
  return a + (b - a) * u;
}

/** Slot s's last voice (its kind, values and level as last rendered) fading to silence over n
 *  frames from pos, through the scratch segment. */
function fadeOld(s: i32, n: i32, pos: i32, at: f64, pl: usize, pr: usize, pm: usize): void {
  const i = SCRATCH;
  segKind[i] = slotKind[s];
  segColour[i] = lastColour[s];
  segC0[i] = lastC[s]; segC1[i] = lastC[s];
  segB0[i] = lastB[s]; segB1[i] = lastB[s];
  segA0[i] = <f64>lastAmp[s]; segA1[i] = 0.0;
  segEnv[i] = -1;
  glideIn[s] = false;
  renderPart(s, i, slotKind[s], 0.0, 1.0, n, pos, at, pl, pr, pm);
  glideIn[s] = true;
}

function renderPart(s: i32, i: i32, kind: i32, u0: f64, u1: f64, n: i32, pos: i32, at: f64, pl: usize, pr: usize, pm: usize): void {
  const fs = sampleRate;
  const c0 = lerp(segC0[i], segC1[i], u0), c1 = lerp(segC0[i], segC1[i], u1);
  const b0 = lerp(segB0[i], segB1[i], u0), b1 = lerp(segB0[i], segB1[i], u1);
  lastC[s] = c1;
  lastB[s] = b1;
  lastColour[s] = segColour[i];
  let g0 = <f32>lerp(segA0[i], segA1[i], u0);
  const g1 = <f32>lerp(segA0[i], segA1[i], u1);
  if (glideIn[s]) {
    g0 = lastAmp[s];
    glideIn[s] = false;
  }
  lastAmp[s] = g1;
  const o = <usize>pos << 2;
  if (kind == MIX) {
    // The soundtrack on the session's clock, at the voice's level, into the soundtrack's bus.
    addSoundtrack(changetype<usize>(busL) + o, changetype<usize>(busR) + o, at, n, g0 * VOICE_GAIN, g1 * VOICE_GAIN);
    return;
  }
  if (kind > MIX && kind <= MIXBEAT) {
    // An effect on the bus: its values for this block (strength = amp / 100).
    const first = pos == 0;
    const s0 = g0 * <f32>0.01, s1 = g1 * <f32>0.01;
    if (kind == MIXPULSE) mixFx.setPulse(first, b0, b1, s0, s1);
    else if (kind == MIXBEAT) mixFx.setBeat(first, b0, b1, s0, s1);
    else if (kind == MIXSPIN) mixFx.setSpin(first, c0, c1, b0, b1, s0, s1);
    else mixFx.setAm(first, c0, b0, b1, s0, s1, segColour[i] == 1, segDuty[i], segAttack[i], segRelease[i], segEdge[i]);
    return;
  }
  if (kind == NOISE || kind == SPIN || kind >= NOISEPULSE) {
    const gain = VOICE_GAIN * NOISE_GAIN;
    const src = changetype<usize>(noise[segColour[i]]) + (<usize>HISTORY << 2) + o;
    if (kind == NOISE) addScaled(pm + o, src, n, g0 * gain, g1 * gain);
    else if (kind == SPIN) phS[s] = addSpin(pl + o, pr + o, src, n, phS[s], (b0 + b1) * 0.5 / fs, c0, c1, g0 * gain, g1 * gain, segEnv[i]);
    else if (kind == NOISEPULSE) noisePulse(s, src, n, (b0 + b1) * 0.5 / fs, g0 * gain, g1 * gain, segEnv[i], pm + o);
    else noiseBeat(s, src, n, pos, at - <f64>pos, (b0 + b1) * 0.5 / fs, g0 * gain, g1 * gain, segEnv[i], pl + o, pr + o);
    return;
  }
  if (g0 == 0.0 && g1 == 0.0) {
    // Silent (a fade's middle, a 0 amp): the clocks still run, so a voice that comes back is in phase.
    advancePhases(s, kind, c0, c1, b0, b1, n);
    return;
  }
  const a0 = g0 * VOICE_GAIN, a1 = g1 * VOICE_GAIN;
  if (segEnv[i] >= 0 && (kind == BINAURAL || kind == ISO)) {
    renderEnveloped(s, i, kind, c0, c1, b0, b1, a0, a1, n, pl + o, pr + o, pm + o);
    return;
  }
  const w = segColour[i];
  if (w != 0) {
    // A square, sawtooth or triangle tone: the band-limited tables, ear by ear.
    const incC = (c0 + c1) * 0.5 / fs, half = (b0 + b1) * 0.25 / fs;
    if (kind == BINAURAL) {
      phL[s] = addWave(pl + o, n, w, phL[s], incC + half, a0, a1, 0.0, 0.0);
      phR[s] = addWave(pr + o, n, w, phR[s], incC - half, a0, a1, 0.0, 0.0);
    } else if (kind == ISO) {
      const pulse = (b0 + b1) * 0.5 / fs;
      phL[s] = addWave(pm + o, n, w, phL[s], incC, a0, a1, pulse, phP[s]);
      phP[s] = wrap(phP[s] + pulse * <f64>n);
    }
    return;
  }
  if (kind == TONE) {
    const inc = (c0 + c1) * 0.5 / fs;
    phL[s] = addSine(pm + o, n, s * 3, phL[s], inc, a0, a1, 0.0, 0.0);
  } else if (kind == BINAURAL) {
    const incL = (c0 + c1 + (b0 + b1) * 0.5) * 0.5 / fs;
    const incR = (c0 + c1 - (b0 + b1) * 0.5) * 0.5 / fs;
    addPair(pl + o, pr + o, n, s, incL, incR, a0, a1);
  } else if (kind == ISO) {
    const inc = (c0 + c1) * 0.5 / fs;
    const pulse = (b0 + b1) * 0.5 / fs;
    phL[s] = addSine(pm + o, n, s * 3, phL[s], inc, a0, a1, pulse, phP[s]);
    phP[s] = wrap(phP[s] + pulse * <f64>n);
  }
}

/** A binaural or isochronic voice with an envelope: its sines at unit gain into the scratch
 *  buffers, then each frame times the gain ramp and the envelope at the beat's (or pulse's) phase,
 *  which slot s keeps in phP. */
function renderEnveloped(s: i32, i: i32, kind: i32, c0: f64, c1: f64, b0: f64, b1: f64, a0: f32, a1: f32, n: i32, dl: usize, dr: usize, dm: usize): void {
  const fs = sampleRate;
  const tl = changetype<usize>(tmpL), tr = changetype<usize>(tmpR);
  memory.fill(tl, 0, <usize>n << 2);
  const w = segColour[i];
  const incL = (c0 + c1 + (b0 + b1) * 0.5) * 0.5 / fs, incR = (c0 + c1 - (b0 + b1) * 0.5) * 0.5 / fs;
  if (kind == BINAURAL) {
    memory.fill(tr, 0, <usize>n << 2);
    if (w != 0) {
      phL[s] = addWave(tl, n, w, phL[s], incL, 1.0, 1.0, 0.0, 0.0);
      phR[s] = addWave(tr, n, w, phR[s], incR, 1.0, 1.0, 0.0, 0.0);
    } else {
      addPair(tl, tr, n, s, incL, incR, 1.0, 1.0);
    }
  } else if (w != 0) {
    phL[s] = addWave(tl, n, w, phL[s], (c0 + c1) * 0.5 / fs, 1.0, 1.0, 0.0, 0.0);
  } else {
    phL[s] = addSine(tl, n, s * 3, phL[s], (c0 + c1) * 0.5 / fs, 1.0, 1.0, 0.0, 0.0);
  }
  const table = changetype<usize>(envTable) + (<usize>(segEnv[i] * ENV_POINTS) << 2);
  const len = envLen[segEnv[i]];
  const inc = (b0 + b1) * 0.5 / fs;
  const gs = (a1 - a0) / <f32>n;
  let ph = phP[s];
  for (let k = 0; k < n; k++) {
    const x = ph * <f64>len;
    const j = <i32>x;
    const f = <f32>(x - <f64>j);
    const e0 = load<f32>(table + (<usize>j << 2));
    const e1 = load<f32>(table + (<usize>(j + 1 == len ? 0 : j + 1) << 2));
    const g = (a0 + gs * <f32>k) * (e0 + (e1 - e0) * f);
    const o = <usize>k << 2;
    if (kind == BINAURAL) {
      store<f32>(dl + o, load<f32>(dl + o) + load<f32>(tl + o) * g);
      store<f32>(dr + o, load<f32>(dr + o) + load<f32>(tr + o) * g);
    } else {
      store<f32>(dm + o, load<f32>(dm + o) + load<f32>(tl + o) * g);
    }
    ph += inc;
    ph -= Math.floor(ph);
  }
  phP[s] = ph;
}

function advancePhases(s: i32, kind: i32, c0: f64, c1: f64, b0: f64, b1: f64, n: i32): void {
  const k = <f64>n * 0.5 / sampleRate;
  if (kind == BINAURAL) {
    phL[s] = wrap(phL[s] + (c0 + c1 + (b0 + b1) * 0.5) * k);
    phR[s] = wrap(phR[s] + (c0 + c1 - (b0 + b1) * 0.5) * k);
    phP[s] = wrap(phP[s] + (b0 + b1) * k);
  } else {
    phL[s] = wrap(phL[s] + (c0 + c1) * k);
    if (kind == ISO) phP[s] = wrap(phP[s] + (b0 + b1) * k);
  }
}

// @ts-ignore: decorator
@inline
function wrap(ph: f64): f64 {
  return ph - Math.floor(ph);
}

// Each oscillator's rotation (w^1..w^3 and w^4, w = e^(i 2 pi inc)) for its last increment: a
// steady voice computes them once, not every block. Oscillator o: slot x 3 + (0 left or only,
// 1 right, 2 pulse).
const rotInc = new StaticArray<f64>(MAX_VOICES * 3);
const rot = new StaticArray<f32>(MAX_VOICES * 3 * 8);
const lanes = new StaticArray<f32>(4);

/** Lane vectors of the phasor at phase `ph` for oscillator `o` turning `inc` cycles a frame:
 *  (Re, Im) of e^(i 2 pi (ph + k inc)), k = 0..3, and the turn by four frames. */
// @ts-ignore: decorator
@inline
function rotation(o: i32, inc: f64): usize {
  const p = changetype<usize>(rot) + (<usize>(o * 8) << 2);
  if (unchecked(rotInc[o]) != inc) {
    unchecked((rotInc[o] = inc));
    store<f32>(p, <f32>cos2pi(inc)); store<f32>(p, <f32>cos2pi(2.0 * inc), 4); store<f32>(p, <f32>cos2pi(3.0 * inc), 8);
    store<f32>(p, <f32>sin2pi(inc), 12); store<f32>(p, <f32>sin2pi(2.0 * inc), 16); store<f32>(p, <f32>sin2pi(3.0 * inc), 20);
    store<f32>(p, <f32>cos2pi(4.0 * inc), 24); store<f32>(p, <f32>sin2pi(4.0 * inc), 28);
  }
  return p;
}

/**
 * Adds n frames of a sine to dst: phase `ph` (cycles) at the first frame, `inc` cycles a frame
 * (oscillator `o`'s rotation), gain moving linearly from a0 (first frame) towards a1 (the frame
 * after the last). With `pulse` above 0 the sine is gated by the isochronic gate at `pulse` cycles
 * a frame from phase `pulsePh` (oscillator o + 2). Returns the phase after the last frame.
 */
function addSine(dst: usize, n: i32, o: i32, ph: f64, inc: f64, a0: f32, a1: f32, pulse: f64, pulsePh: f64): f64 {
  // Four frames a pass: the lanes hold z w^k (k = 0..3) and all turn by w^4; Im is the sine.
  const w = rotation(o, inc);
  const re = <f32>cos2pi(ph), im = <f32>sin2pi(ph);
  const wr = f32x4(1.0, load<f32>(w), load<f32>(w, 4), load<f32>(w, 8));
  const wi = f32x4(0.0, load<f32>(w, 12), load<f32>(w, 16), load<f32>(w, 20));
  let zr = f32x4.sub(f32x4.mul(f32x4.splat(re), wr), f32x4.mul(f32x4.splat(im), wi));
  let zi = f32x4.add(f32x4.mul(f32x4.splat(im), wr), f32x4.mul(f32x4.splat(re), wi));
  const w4r = f32x4.splat(load<f32>(w, 24)), w4i = f32x4.splat(load<f32>(w, 28));
  const gs = (a1 - a0) / <f32>n;
  let g = f32x4.add(f32x4.splat(a0), f32x4.mul(f32x4(0.0, 1.0, 2.0, 3.0), f32x4.splat(gs)));
  const g4 = f32x4.splat(4.0 * gs);
  const whole = n & ~3;
  if (pulse > 0.0) {
    const q = rotation(o + 2, pulse);
    const pre = <f32>cos2pi(pulsePh), pim = <f32>sin2pi(pulsePh);
    const qr = f32x4(1.0, load<f32>(q), load<f32>(q, 4), load<f32>(q, 8));
    const qi = f32x4(0.0, load<f32>(q, 12), load<f32>(q, 16), load<f32>(q, 20));
    let pr = f32x4.sub(f32x4.mul(f32x4.splat(pre), qr), f32x4.mul(f32x4.splat(pim), qi));
    let pi = f32x4.add(f32x4.mul(f32x4.splat(pim), qr), f32x4.mul(f32x4.splat(pre), qi));
    const q4r = f32x4.splat(load<f32>(q, 24)), q4i = f32x4.splat(load<f32>(q, 28));
    const gate = f32x4.splat(GATE), gateScale = f32x4.splat(1.0 / (1.0 - GATE));
    const zero = f32x4.splat(0.0), three = f32x4.splat(3.0), two = f32x4.splat(2.0);
    for (let i = 0; i <= n; i += 4) {
      // The gate: smoothstep of (sin - 0.3) / 0.7 where the pulse's sine is above 0.3.
      const u = f32x4.max(zero, f32x4.mul(f32x4.sub(pi, gate), gateScale));
      const v = f32x4.mul(f32x4.mul(zi, f32x4.mul(f32x4.mul(u, u), f32x4.sub(three, f32x4.mul(two, u)))), g);
      if (i == whole) {
        addLanes(dst + (<usize>i << 2), v, n - whole);
        break;
      }
      const d = dst + (<usize>i << 2);
      v128.store(d, f32x4.add(v128.load(d), v));
      g = f32x4.add(g, g4);
      const nr = f32x4.sub(f32x4.mul(zr, w4r), f32x4.mul(zi, w4i));
      zi = f32x4.add(f32x4.mul(zr, w4i), f32x4.mul(zi, w4r));
      zr = nr;
      const np = f32x4.sub(f32x4.mul(pr, q4r), f32x4.mul(pi, q4i));
      pi = f32x4.add(f32x4.mul(pr, q4i), f32x4.mul(pi, q4r));
      pr = np;
    }
  } else {
    for (let i = 0; i < whole; i += 4) {
      const d = dst + (<usize>i << 2);
      v128.store(d, f32x4.add(v128.load(d), f32x4.mul(zi, g)));
      g = f32x4.add(g, g4);
      const nr = f32x4.sub(f32x4.mul(zr, w4r), f32x4.mul(zi, w4i));
      zi = f32x4.add(f32x4.mul(zr, w4i), f32x4.mul(zi, w4r));
      zr = nr;
    }
    if (whole < n) addLanes(dst + (<usize>whole << 2), f32x4.mul(zi, g), n - whole);
  }
  return wrap(ph + inc * <f64>n);
}

/** Adds n frames of wavetable waveform w (band-limited for |inc|) to dst from phase ph, inc cycles a
 *  frame, gain a0 -> a1, gated like addSine when pulse is above 0. Returns the phase after. */
function addWave(dst: usize, n: i32, w: i32, ph: f64, inc: f64, a0: f32, a1: f32, pulse: f64, pulsePh: f64): f64 {
  const table = tableFor(w, Math.abs(inc));
  const gs = (a1 - a0) / <f32>n;
  let p = ph, pp = pulsePh;
  for (let k = 0; k < n; k++) {
    const x = p * <f64>TABLE_SIZE;
    const j = <i32>x;
    const f = <f32>(x - <f64>j);
    const a = load<f32>(table + (<usize>j << 2)), b = load<f32>(table + (<usize>(j + 1) << 2));
    let g = a0 + gs * <f32>k;
    if (pulse > 0.0) {
      g *= isoGate(pp);
      pp += pulse;
    }
    const o = <usize>k << 2;
    store<f32>(dst + o, load<f32>(dst + o) + (a + (b - a) * f) * g);
    p += inc;
    p -= Math.floor(p);
  }
  return p;
}

/** A binaural pair: slot s's left sine (phL, incL) to dl and right sine (phR, incR) to dr, both at
 *  the same gain ramp, in one pass (as addSine, twice over). */
function addPair(dl: usize, dr: usize, n: i32, s: i32, incL: f64, incR: f64, a0: f32, a1: f32): void {
  const w = rotation(s * 3, incL), v = rotation(s * 3 + 1, incR);
  const lph = unchecked(phL[s]), rph = unchecked(phR[s]);
  const lre = <f32>cos2pi(lph), lim = <f32>sin2pi(lph), rre = <f32>cos2pi(rph), rim = <f32>sin2pi(rph);
  const awr = f32x4(1.0, load<f32>(w), load<f32>(w, 4), load<f32>(w, 8));
  const awi = f32x4(0.0, load<f32>(w, 12), load<f32>(w, 16), load<f32>(w, 20));
  const bwr = f32x4(1.0, load<f32>(v), load<f32>(v, 4), load<f32>(v, 8));
  const bwi = f32x4(0.0, load<f32>(v, 12), load<f32>(v, 16), load<f32>(v, 20));
  let ar = f32x4.sub(f32x4.mul(f32x4.splat(lre), awr), f32x4.mul(f32x4.splat(lim), awi));
  let ai = f32x4.add(f32x4.mul(f32x4.splat(lim), awr), f32x4.mul(f32x4.splat(lre), awi));
  let br = f32x4.sub(f32x4.mul(f32x4.splat(rre), bwr), f32x4.mul(f32x4.splat(rim), bwi));
  let bi = f32x4.add(f32x4.mul(f32x4.splat(rim), bwr), f32x4.mul(f32x4.splat(rre), bwi));
  const a4r = f32x4.splat(load<f32>(w, 24)), a4i = f32x4.splat(load<f32>(w, 28));
  const b4r = f32x4.splat(load<f32>(v, 24)), b4i = f32x4.splat(load<f32>(v, 28));
  const gs = (a1 - a0) / <f32>n;
  let g = f32x4.add(f32x4.splat(a0), f32x4.mul(f32x4(0.0, 1.0, 2.0, 3.0), f32x4.splat(gs)));
  const g4 = f32x4.splat(4.0 * gs);
  const whole = n & ~3;
  for (let i = 0; i < whole; i += 4) {
    const o = <usize>i << 2;
    v128.store(dl + o, f32x4.add(v128.load(dl + o), f32x4.mul(ai, g)));
    v128.store(dr + o, f32x4.add(v128.load(dr + o), f32x4.mul(bi, g)));
    g = f32x4.add(g, g4);
    const nar = f32x4.sub(f32x4.mul(ar, a4r), f32x4.mul(ai, a4i));
    ai = f32x4.add(f32x4.mul(ar, a4i), f32x4.mul(ai, a4r));
    ar = nar;
    const nbr = f32x4.sub(f32x4.mul(br, b4r), f32x4.mul(bi, b4i));
    bi = f32x4.add(f32x4.mul(br, b4i), f32x4.mul(bi, b4r));
    br = nbr;
  }
  if (whole < n) {
    addLanes(dl + (<usize>whole << 2), f32x4.mul(ai, g), n - whole);
    addLanes(dr + (<usize>whole << 2), f32x4.mul(bi, g), n - whole);
  }
  unchecked((phL[s] = wrap(lph + incL * <f64>n)));
  unchecked((phR[s] = wrap(rph + incR * <f64>n)));
}

/** dst[k] += v[k] for the first `count` lanes (1 to 3: a segment that ends inside a block). */
function addLanes(dst: usize, v: v128, count: i32): void {
  const t = changetype<usize>(lanes);
  v128.store(t, v);
  for (let k = 0; k < count; k++) {
    const d = dst + (<usize>k << 2);
    store<f32>(d, load<f32>(d) + load<f32>(t + (<usize>k << 2)));
  }
}

/** dst += src x gain (gain linear from g0 to g1 over n frames). */
function addScaled(dst: usize, src: usize, n: i32, g0: f32, g1: f32): void {
  const gs = (g1 - g0) / <f32>n;
  let g = f32x4.add(f32x4.splat(g0), f32x4.mul(f32x4(0.0, 1.0, 2.0, 3.0), f32x4.splat(gs)));
  const g4 = f32x4.splat(4.0 * gs);
  const whole = n & ~3;
  for (let i = 0; i < whole; i += 4) {
    const o = <usize>i << 2;
    v128.store(dst + o, f32x4.add(v128.load(dst + o), f32x4.mul(v128.load(src + o), g)));
    g = f32x4.add(g, g4);
  }
  for (let i = whole; i < n; i++) {
    const o = <usize>i << 2;
    store<f32>(dst + o, load<f32>(dst + o) + load<f32>(src + o) * (g0 + gs * <f32>i));
  }
}

/**
 * Spinning noise: left reads the noise SPIN_DELAY - d samples old, right SPIN_DELAY + d, with
 * d = width (microseconds, moving from w0 to w1) x sin(2 pi phase), linearly interpolated between
 * samples. Returns the spin's phase after the last frame.
 */
function addSpin(dl: usize, dr: usize, src: usize, n: i32, ph: f64, inc: f64, w0: f64, w1: f64, g0: f32, g1: f32, path: i32): f64 {
  const perUs = sampleRate * 1e-6;
  const gs = (g1 - g0) / <f32>n;
  // The swing's sine by a phasor, one frame at a time (or a spinNN path read at the turn's phase).
  let re = cos2pi(ph), im = sin2pi(ph);
  const wr = cos2pi(inc), wi = sin2pi(inc);
  const ws = (w1 - w0) / <f64>n;
  for (let i = 0; i < n; i++) {
    const width = Math.min(SPIN_MAX, Math.max(0.0, (w0 + ws * <f64>i) * perUs));
    const d = width * (path >= 0 ? <f64>envAt(path, wrap(ph + inc * <f64>i)) : im);
    const g = g0 + gs * <f32>i;
    const o = <usize>i << 2;
    store<f32>(dl + o, load<f32>(dl + o) + tapBack(src + o, <f64>SPIN_DELAY - d) * g);
    store<f32>(dr + o, load<f32>(dr + o) + tapBack(src + o, <f64>SPIN_DELAY + d) * g);
    const nr = re * wr - im * wi;
    im = re * wi + im * wr;
    re = nr;
  }
  return wrap(ph + inc * <f64>n);
}

/** Envelope (or path) table `id` at cycle phase ph (0..1), read linearly. */
function envAt(id: i32, ph: f64): f32 {
  const len = envLen[id];
  const table = changetype<usize>(envTable) + (<usize>(id * ENV_POINTS) << 2);
  const x = ph * <f64>len;
  const j = min(<i32>x, len - 1);
  const f = <f32>(x - <f64>j);
  const a = load<f32>(table + (<usize>j << 2));
  const b = load<f32>(table + (<usize>(j + 1 == len ? 0 : j + 1) << 2));
  return a + (b - a) * f;
}

/** The isochronic gate (SBaGen+'s) at cycle phase ph. */
// @ts-ignore: decorator
@inline
function isoGate(ph: f64): f32 {
  const u = max<f32>(0.0, (<f32>sin2pi(ph) - GATE) / (<f32>1.0 - GATE));
  return u * u * (<f32>3.0 - <f32>2.0 * u);
}

/** noisepulse: the noise gated at the pulse (phase in phP) by the isochronic gate or an envelope. */
function noisePulse(s: i32, src: usize, n: i32, inc: f64, g0: f32, g1: f32, env: i32, dm: usize): void {
  const gs = (g1 - g0) / <f32>n;
  let ph = phP[s];
  for (let k = 0; k < n; k++) {
    const o = <usize>k << 2;
    const gate = env >= 0 ? envAt(env, ph) : isoGate(ph);
    store<f32>(dm + o, load<f32>(dm + o) + load<f32>(src + o) * (g0 + gs * <f32>k) * gate);
    ph = wrap(ph + inc);
  }
  phP[s] = ph;
}

/** noisebeat: the noise shifted up by beat/2 in the left ear and down in the right (both ears hear
 *  the same noise), the whole block shifted at the slot's first part in it (the beat as it is
 *  there); with an envelope, each frame moves between the plain noise (0) and the shifted (1)
 *  over the beat. The oscillator's phase (beat/2) is in phP. */
function noiseBeat(s: i32, src: usize, n: i32, pos: i32, blockFrame: f64, inc: f64, g0: f32, g1: f32, env: i32, dl: usize, dr: usize): void {
  const half = inc * 0.5;
  const bl = changetype<usize>(beatL) + (<usize>(s * BLOCK) << 2), br = changetype<usize>(beatR) + (<usize>(s * BLOCK) << 2);
  if (beatFrame[s] != blockFrame) {
    const block = src - (<usize>pos << 2);
    memory.copy(bl, block, <usize>BLOCK << 2);
    memory.copy(br, block, <usize>BLOCK << 2);
    const ph0 = phP[s];
    beatShiftL[s]!.shift(bl, bl, BLOCK, ph0, half, true);
    beatShiftR[s]!.shift(br, br, BLOCK, wrap(-ph0), -half, true);
    beatFrame[s] = blockFrame;
    beatPh0[s] = ph0;
    phP[s] = wrap(ph0 + half * <f64>BLOCK);
  }
  const gs = (g1 - g0) / <f32>n;
  for (let k = 0; k < n; k++) {
    const o = <usize>k << 2, q = <usize>(pos + k) << 2;
    let left = load<f32>(bl + q), right = load<f32>(br + q);
    if (env >= 0) {
      // The envelope runs over the whole beat (twice the oscillator's turn).
      const x = load<f32>(src + o);
      const e = envAt(env, wrap((beatPh0[s] + half * <f64>(pos + k)) * 2.0));
      left = x + (left - x) * e;
      right = x + (right - x) * e;
    }
    const g = g0 + gs * <f32>k;
    store<f32>(dl + o, load<f32>(dl + o) + left * g);
    store<f32>(dr + o, load<f32>(dr + o) + right * g);
  }
}


/** This block's noise for every colour in use, after the kept history. White noise comes from
 *  four xorshift32 streams side by side (four samples a step); pink from Paul Kellet's refined
 *  filter (as the noise effect's, dsp/assembly/fx/noise.ts) with its six one-pole sections in two
 *  f32x4 lanes; brown from a leaky integrator. */
function makeNoise(): void {
  const keep = <usize>HISTORY << 2;
  for (let c = 0; c < SOURCES; c++) {
    if (c >= 3 && (coloursUsed & (1 << c)) == 0) continue;
    const p = changetype<usize>(noise[c]);
    memory.copy(p, p + (<usize>BLOCK << 2), keep);
  }
  for (let id = 0; id < MAX_SPECTRA; id++) {
    if ((coloursUsed & (1 << (3 + id))) == 0 || specA[id] == 0 || specB[id] == 0) continue;
    const out = changetype<usize>(noise[3 + id]) + keep;
    const ta = specA[id], tb = specB[id];
    for (let i = 0; i < BLOCK; i++) {
      const pos = specPos + <i64>i;
      const ka = <i32>(pos % <i64>TABLE_FRAMES);
      const kb = <i32>((pos + (pos / <i64>TABLE_FRAMES) * <i64>DRIFT) % <i64>TABLE_FRAMES);
      store<f32>(out + (<usize>i << 2), (load<f32>(ta + (<usize>ka << 2)) + load<f32>(tb + (<usize>kb << 2))) * <f32>0.70710678);
    }
  }
  specPos += <i64>BLOCK;
  const pw = changetype<usize>(noise[0]) + keep;
  const pp = changetype<usize>(noise[1]) + keep;
  const pbr = changetype<usize>(noise[2]) + keep;
  let x4 = rngState;
  const scale = f32x4.splat(1.0 / 2147483648.0);
  for (let i = 0; i < BLOCK; i += 4) {
    x4 = v128.xor(x4, i32x4.shl(x4, 13));
    x4 = v128.xor(x4, i32x4.shr_u(x4, 17));
    x4 = v128.xor(x4, i32x4.shl(x4, 5));
    v128.store(pw + (<usize>i << 2), f32x4.mul(f32x4.convert_i32x4_s(x4), scale));
  }
  rngState = x4;
  if ((coloursUsed & 2) != 0) {
    let lo = pinkLo, hi = pinkHi, b6 = pinkB6;
    const klo = f32x4(0.99886, 0.99332, 0.969, 0.8665), clo = f32x4(0.0555179, 0.0750759, 0.153852, 0.3104856);
    const khi = f32x4(0.55, -0.7616, 0.0, 0.0), chi = f32x4(0.5329522, -0.016898, 0.0, 0.0);
    for (let i = 0; i < BLOCK; i++) {
      const o = <usize>i << 2;
      const x = load<f32>(pw + o);
      const xv = f32x4.splat(x);
      lo = f32x4.add(f32x4.mul(klo, lo), f32x4.mul(clo, xv));
      hi = f32x4.add(f32x4.mul(khi, hi), f32x4.mul(chi, xv));
      const t = f32x4.add(lo, hi);
      const u = f32x4.add(t, v128.shuffle<f32>(t, t, 2, 3, 0, 1));
      const sum = f32x4.extract_lane(u, 0) + f32x4.extract_lane(u, 1);
      store<f32>(pp + o, (sum + b6 + x * 0.5362) * PINK_SCALE);
      b6 = x * 0.115926;
    }
    pinkLo = lo; // fed white noise every sample: never a denormal tail

    pinkHi = hi;
    pinkB6 = ftz(b6);
  }
  if ((coloursUsed & 4) != 0) {
    let y = brownY;
    for (let i = 0; i < BLOCK; i++) {
      const o = <usize>i << 2;
      y = BROWN_LEAK * y + load<f32>(pw + o);
      store<f32>(pbr + o, y * BROWN_SCALE);
    }
    brownY = ftz(y);
  }
}

/** Strikes that fall in this block start ringing at their frame; every ringing bell decays. */
function renderBells(frame: f64, pm: usize): void {
  for (let b = 0; b < RINGING; b++) if (ringLevel[b] > 0.0) ringFrom(b, 0, pm);
  const end = frame + <f64>BLOCK;
  // Strikes before this block (after an upload while playing) are past: not struck late.
  while (strikeCursor < strikeCount && strikeAt[strikeCursor] < frame) strikeCursor++;
  while (strikeCursor < strikeCount && strikeAt[strikeCursor] < end) {
    const at = Math.max(0.0, strikeAt[strikeCursor] - frame);
    startBell(strikeFreq[strikeCursor], <f32>strikeAmp[strikeCursor] * VOICE_GAIN, <i32>Math.floor(at), pm);
    strikeCursor++;
  }
}

function startBell(freq: f64, level: f32, offset: i32, pm: usize): void {
  // A free place, or the quietest bell's.
  let slot = 0;
  for (let b = 1; b < RINGING; b++) if (ringLevel[b] < ringLevel[slot]) slot = b;
  ringPhase[slot] = 0.0;
  ringInc[slot] = freq / sampleRate;
  ringLevel[slot] = level;
  // The strike's own block from its frame on; later blocks as the others ring.
  ringFrom(slot, offset, pm);
}

function ringFrom(b: i32, from: i32, pm: usize): void {
  let level = ringLevel[b];
  let ph = ringPhase[b];
  const inc = ringInc[b];
  for (let i = from; i < BLOCK; i++) {
    const o = <usize>i << 2;
    store<f32>(pm + o, load<f32>(pm + o) + <f32>sin2pi(ph) * level);
    ph += inc;
    level *= bellDecay;
  }
  ringPhase[b] = wrap(ph);
  ringLevel[b] = level < BELL_FLOOR ? 0.0 : level;
}
