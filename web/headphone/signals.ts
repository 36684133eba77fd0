// The headphone check's test signals: pure functions that build stereo sample buffers (the shape
// of an AudioBuffer's two channels) for each step, so the properties the check relies on are
// unit-tested in Node: a one-sided tone has exact silence on the other side, the antiphase tone
// sums to zero in mono, the polarity tone's second half has one ear inverted, every edge is a
// 20 ms raised-cosine ramp (no click), and the level is the stated -20 dBFS.
//
// Levels are peak levels of a sine against full scale (AES17: a full-scale sine is 0 dBFS), so
// -20 dBFS is a peak of 0.1: clearly audible, far below anything uncomfortable at a normal
// volume setting, and well under the studio's own tones.

import { balanceGains } from "../../dsp/host/schema/levels";

/** One stereo test signal, with the parts the listener is asked about ("tone 1", "tone 2"). */
export interface TestSignal {
  sampleRate: number;
  left: Float32Array;
  right: Float32Array;
  /** Where each announced part starts and how long it lasts, in frames. */
  parts: readonly { start: number; frames: number }[];
}

/** The level of every test tone: -20 dBFS peak. */
export const TEST_LEVEL_DBFS = -20;
/** Fade-in and fade-out of every tone (raised cosine): long enough that no edge clicks. */
export const EDGE_SECONDS = 0.02;
/** Left / right identification: a mid tone every earbud reproduces well. */
export const LEFT_RIGHT_HZ = 500;
export const LEFT_RIGHT_SECONDS = 1;
/** Mono fold: in-phase reference, then the same tone with the right ear in antiphase. */
export const MONO_FOLD_HZ = 400;
export const MONO_FOLD_SECONDS = 1.2;
/** Polarity: a low tone, where a reversed ear is heard most (it thins out and leaves the centre). */
export const POLARITY_HZ = 90;
export const POLARITY_SECONDS = 1.5;
/** Silence between the two parts of a two-part test. */
export const GAP_SECONDS = 0.5;
/** Level matching: a tone alternating between the ears, each turn this long, looped. */
export const BALANCE_HZ = 1000;
export const BALANCE_TURN_SECONDS = 0.5;

export const dbToGain = (db: number): number => Math.pow(10, db / 20);

/** The raised-cosine gain of frame `i` in a tone of `frames` frames with `edge`-frame edges. */
export function edgeGain(i: number, frames: number, edge: number): number {
  const fromEnd = frames - 1 - i;
  const k = Math.min(i, fromEnd);
  if (k >= edge) return 1;
  if (k < 0) return 0;
  return 0.5 - 0.5 * Math.cos((Math.PI * k) / edge);
}

/** A sine of `hz` lasting `seconds`, peak TEST_LEVEL_DBFS, with raised-cosine edges. */
export function tone(hz: number, seconds: number, sampleRate: number): Float32Array {
  if (!(sampleRate > 0) || !(seconds > 0) || !(hz > 0) || hz >= sampleRate / 2) {
    throw new RangeError(`Cannot build a ${hz} Hz tone of ${seconds} s at ${sampleRate} Hz`);
  }
  const frames = Math.round(seconds * sampleRate);
  const edge = Math.max(1, Math.round(EDGE_SECONDS * sampleRate));
  const amp = dbToGain(TEST_LEVEL_DBFS);
  const w = (2 * Math.PI * hz) / sampleRate;
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i++) out[i] = amp * edgeGain(i, frames, edge) * Math.sin(w * i);
  return out;
}

const negate = (x: Float32Array): Float32Array => x.map((v) => -v);

/** Lays parts out one after the other with GAP_SECONDS of silence between them. */
function sequence(sampleRate: number, pieces: readonly { left: Float32Array; right: Float32Array }[]): TestSignal {
  const gap = Math.round(GAP_SECONDS * sampleRate);
  const total = pieces.reduce((n, p) => n + p.left.length, 0) + gap * (pieces.length - 1);
  const left = new Float32Array(total);
  const right = new Float32Array(total);
  const parts: { start: number; frames: number }[] = [];
  let at = 0;
  for (const p of pieces) {
    left.set(p.left, at);
    right.set(p.right, at);
    parts.push({ start: at, frames: p.left.length });
    at += p.left.length + gap;
  }
  return { sampleRate, left, right, parts };
}

/** Step 1: the tone in one ear only, exact silence in the other. */
export function oneSideTone(side: "left" | "right", sampleRate: number): TestSignal {
  const x = tone(LEFT_RIGHT_HZ, LEFT_RIGHT_SECONDS, sampleRate);
  const silence = new Float32Array(x.length);
  return sequence(sampleRate, [side === "left" ? { left: x, right: silence } : { left: silence, right: x }]);
}

/** Step 2: tone 1 in phase (L = R = x), tone 2 in antiphase (L = x, R = -x). Folded to mono,
 *  (L + R) / 2 keeps tone 1 and cancels tone 2 exactly; in stereo both are equally loud. */
export function monoFoldTest(sampleRate: number): TestSignal {
  const x = tone(MONO_FOLD_HZ, MONO_FOLD_SECONDS, sampleRate);
  return sequence(sampleRate, [{ left: x, right: x }, { left: x, right: negate(x) }]);
}

/** Step 3: a low tone in phase, then with the right ear inverted. Through correctly wired
 *  headphones tone 1 sounds full and centred and tone 2 thin and spread; through a system that
 *  inverts one ear it is the other way round. */
export function polarityTest(sampleRate: number): TestSignal {
  const x = tone(POLARITY_HZ, POLARITY_SECONDS, sampleRate);
  return sequence(sampleRate, [{ left: x, right: x }, { left: x, right: negate(x) }]);
}

/** Step 4: one turn in the left ear, then one in the right, ending in silence so it loops
 *  without a click. The balance is applied on playback (withBalance, or the player's gains). */
export function alternatingTone(sampleRate: number): TestSignal {
  const x = tone(BALANCE_HZ, BALANCE_TURN_SECONDS, sampleRate);
  const silence = new Float32Array(x.length);
  const gap = Math.round(GAP_SECONDS * sampleRate);
  const a = sequence(sampleRate, [{ left: x, right: silence }, { left: silence, right: x }]);
  // A trailing gap as long as the middle one keeps the rhythm even when it loops.
  const left = new Float32Array(a.left.length + gap);
  const right = new Float32Array(a.right.length + gap);
  left.set(a.left);
  right.set(a.right);
  return { ...a, left, right };
}

/** `signal` as playback with `balanceDb` plays it: each ear scaled by balanceGains. */
export function withBalance(signal: TestSignal, balanceDb: number): TestSignal {
  const g = balanceGains(balanceDb);
  return { ...signal, left: signal.left.map((v) => v * g.left), right: signal.right.map((v) => v * g.right) };
}

/** Seconds of audio in `signal`. */
export const signalSeconds = (signal: TestSignal): number => signal.left.length / signal.sampleRate;
