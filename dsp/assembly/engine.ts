// The engine: the exported API behind index.ts and the transport. The signal path: four channels
// -> mixer (1/N, tone gain 0.15) -> effect chain (mix.ts) -> master gain -> compressor -> per-ear
// balance and output gain -> true-peak limiter (when on) -> clamp to [-1, 1] (master.ts) ->
// transport fade -> planar stereo out (here).
//
// Everything after start() is computed in BLOCK-frame blocks aligned to the sound's first frame,
// and render() copies out of the current block, so the output does not depend on how many frames
// the host asks for at a time. The transport (start delay, fades, auto-stop, sleep) runs per sample
// in the copy-out, which makes every stop exact to the sample. With the limiter on, blocks are
// rendered one ahead of the block being played (the limiter's lookahead), so output frame n is
// still sound frame n; a parameter change then reaches the sound one block (5.3 ms) later.

import { activeChannelCount } from "./bus";
import { BLOCK, MAX_FRAMES, START_FADE_SECONDS, STOP_FADE_SECONDS } from "./lib/constants";
import { restartDither } from "./pcm16";
import { commitTimeline, timelineActive, timelineAudible } from "./timeline";
import { blockFrame, initMix, restartMix, updateChannel } from "./mix";
import { voicesAudible } from "./voices";
import { recordingsAudible } from "./recordings";
import {
  blockL, blockR, initMaster, nextBlock, restartMaster, setBalanceGains, setMasterGain, setOutputTrim,
} from "./master";

export { advance, channelPhase } from "./mix";
export { limiterGain, limiterMinGain, setCompressor, setLimiter } from "./master";

export const outL = new StaticArray<f32>(MAX_FRAMES);
export const outR = new StaticArray<f32>(MAX_FRAMES);

// Transport.
let playing: bool = false;
let delayLeft: i32 = 0;        // silent frames before the sound starts
let played: u64 = 0;           // frames since the sound started
let blockPos: i32 = BLOCK;     // read position in master.ts's blockL/blockR; BLOCK = need a new block
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
  initMix(fs);
  initMaster(fs);
  startFadeFrames = max(1, <i32>Math.round(START_FADE_SECONDS * fs));
  stopFadeFrames = max(1, <i32>Math.round(STOP_FADE_SECONDS * fs));
}

export function setChannel(i: i32, freq: f64, waveform: i32, on: bool, volume: f32): void {
  updateChannel(i, freq, waveform, on, volume, playing);
}

export function setMaster(gain: f32): void {
  setMasterGain(gain, playing);
}

/** Starts playback: `delay` silent frames, then the sound, ending by itself after `duration`
 *  frames of sound (0 = until stop()). Returns false, and stays stopped, when no channel or voice sounds. */
export function start(delay: i32, duration: u64): bool {
  const channelsSound = timelineActive ? timelineAudible : activeChannelCount() > 0;
  if (!channelsSound && !voicesAudible && !recordingsAudible) {
    playing = false;
    return false;
  }
  restartMix();
  restartMaster();
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

/** Fade-in length of every start, in frames (at least 1). */
export function setStartFade(frames: i32): void {
  startFadeFrames = max(1, frames);
}

/** Per-ear gains, linear 0..1 (master.ts). */
export function setBalance(left: f32, right: f32): void {
  setBalanceGains(left, right, playing);
}

/** The gain after the compressor and before the limiter (master.ts). */
export function setOutputGain(gain: f32): void {
  setOutputTrim(gain, playing);
}
