// The engine's ABI: the only functions dsp/host calls. Plain numbers in and out; audio is read
// from the planar output buffers whose addresses outLeft()/outRight() return.

import * as engine from "./engine";
import * as chain from "./fx/chain";
import * as pcm16 from "./pcm16";
import * as pcm24 from "./pcm24";
import * as timeline from "./timeline";
import * as soundtrack from "./soundtrack";
import * as recordings from "./recordings";
import * as voices from "./voices";
import { MAX_FRAMES, BLOCK } from "./lib/constants";

export function init(sampleRate: f64): void {
  engine.init(sampleRate);
}

export function maxFrames(): i32 {
  return MAX_FRAMES;
}

export function blockSize(): i32 {
  return BLOCK;
}

/** waveform: 0 sine, 1 square, 2 sawtooth, 3 triangle. */
export function setChannel(index: i32, freq: f64, waveform: i32, enabled: i32, volume: f32): void {
  engine.setChannel(index, freq, waveform, enabled != 0, volume);
}

export function setMaster(gain: f32): void {
  engine.setMaster(gain);
}

export function setCompressor(enabled: i32): void {
  engine.setCompressor(enabled != 0);
}

export function setEffect(index: i32, enabled: i32, value: f32, e1: f32, e2: f32, e3: f32): void {
  chain.setEffect(index, enabled != 0, value, e1, e2, e3);
}

// ---- session timeline (dsp/host/schema/timeline.ts compiles the segments) ----

/** Forgets the uploaded timeline: the channels follow setChannel again. */
export function timelineClear(): void {
  timeline.clearTimeline();
}

/** Appends channel `index`'s next segment: from frame `start` (of the sound) until the next
 *  segment, f0 -> f1 Hz and level g0 -> g1 (0..1) along `curve` (0 linear, 1 ease, 2 exponential),
 *  waveform as in setChannel. */
export function timelineChannelSegment(index: i32, start: f64, f0: f64, f1: f64, g0: f32, g1: f32, curve: i32, waveform: i32): void {
  timeline.addChannelSegment(index, start, f0, f1, g0, g1, curve, waveform);
}

/** Appends an effect's next segment (index as in setEffect): switched on or off from `start`,
 *  value and extras moving from (v0, a1, a2, a3) to (v1, b1, b2, b3) along `curve`. */
export function timelineEffectSegment(
  index: i32, start: f64, enabled: i32, v0: f32, v1: f32, a1: f32, b1: f32, a2: f32, b2: f32, a3: f32, b3: f32, curve: i32,
): void {
  timeline.addEffectSegment(index, start, enabled != 0, v0, v1, a1, b1, a2, b2, a3, b3, curve);
}

/** Plays the uploaded timeline from the next block (blending from where the channels are when
 *  playing); `voices` is the number of channels that sound anywhere in it. */
export function timelineCommit(voices: i32): void {
  engine.useTimeline(voices);
}

// ---- voices (dsp/host/model/voice-track.ts compiles the segments) ----

/** Forgets the uploaded voices. */
export function voicesClear(): void {
  voices.clearVoices();
}

/** Appends slot `slot`'s next segment (slots in ascending order, each in time order): from frame
 *  `start` until the slot's next segment, a voice of `kind` (0 none, 1 tone, 2 binaural,
 *  3 isochronic, 4 noise, 5 spin, 6 the soundtrack, 7-10 its effects mixpulse, mixam, mixspin,
 *  mixbeat (dsp/host/model/voice-track.ts says what c and b carry for them); `colour` 0 white, 1 pink, 2 brown) whose carrier (or spin width
 *  in microseconds) moves c0 -> c1, beat (or pulse, or spin rate) b0 -> b1 and amp (percent of full
 *  scale) a0 -> a1, linearly. */
export function voiceSegment(slot: i32, start: f64, kind: i32, colour: i32, c0: f64, c1: f64, b0: f64, b1: f64, a0: f64, a1: f64): void {
  voices.addVoiceSegment(slot, start, kind, colour, c0, c1, b0, b1, a0, a1);
}

/** Where to write envelope `id` (`points` f32 levels 0..1 over one cycle); 0 when out of range. */
export function voiceEnvelopeTable(id: i32, points: i32): usize {
  return voices.envelopeTable(id, points);
}

/** The envelope (an id written through voiceEnvelopeTable) of the segment appended last. */
export function voiceSegmentEnvelope(id: i32): void {
  voices.setSegmentEnvelope(id);
}

/** Where to write noiseNN spectrum `id`'s noise table `which` (0 or 1): TABLE_FRAMES (131072) f32. */
export function voiceSpectrumTable(id: i32, which: i32): usize {
  return voices.spectrumTable(id, which);
}

/** mixam's pulse shape for the segment appended last. */
export function voiceSegmentShape(duty: f64, attack: f64, release: f64, edge: i32): void {
  voices.setSegmentShape(duty, attack, release, edge);
}

/** Appends a bell strike at frame `at` (time order): `freq` Hz, `amp` percent of full scale. */
export function voiceBell(at: f64, freq: f64, amp: f64): void {
  voices.addBellStrike(at, freq, amp);
}

/** Plays the uploaded voices from the next start. */
export function voicesCommit(): void {
  voices.commitVoices();
}

// ---- the soundtrack (dsp/host/soundtrack decodes it) ----

/** Where to write `frames` frames of the soundtrack, interleaved stereo int16. */
export function soundtrackBuffer(frames: i32): usize {
  return soundtrack.soundtrackBuffer(frames);
}

/** Plays the written soundtrack under the mix voices, looping over [start, end) with `fade`
 *  frames of cross-fade; frames = 0 removes it. */
export function soundtrackCommit(frames: i32, start: i32, end: i32, fade: i32): void {
  soundtrack.commitSoundtrack(frames, start, end, fade);
}

// ---- voice recordings (dsp/host/model/recordings.ts compiles the placements) ----

/** Where to write `frames` frames of mono int16: every placed recording, one after the other.
 *  Drops the placements until they are placed again (recordingPlace). */
export function recordingsBuffer(frames: i32): usize {
  return recordings.recordingsBuffer(frames);
}

/** The store holds the `frames` frames written at recordingsBuffer. */
export function recordingsStore(frames: i32): void {
  recordings.commitRecordingsStore(frames);
}

/** Forgets the placements (the written audio stays). */
export function recordingsClear(): void {
  recordings.clearPlacements();
}

/** Places frames [offset, offset + length) of the store at sound frame `start`, again every
 *  `period` frames (0: once), or back to back when `loop` is 1, at linear `gain`. */
export function recordingPlace(offset: i32, length: i32, start: f64, period: f64, loop: i32, gain: f32): void {
  recordings.addPlacement(offset, length, start, period, loop != 0, gain);
}

/** duration in frames as f64 (exact up to 2^53); 0 plays until stop(). Returns 1 if started. */
export function start(delayFrames: i32, durationFrames: f64): i32 {
  return engine.start(delayFrames, <u64>Math.max(0.0, durationFrames)) ? 1 : 0;
}

export function stop(): void {
  engine.stop();
}

export function isPlaying(): i32 {
  return engine.isPlaying() ? 1 : 0;
}

export function framesPlayed(): f64 {
  return <f64>engine.framesPlayed();
}

export function render(frames: i32): i32 {
  return engine.render(frames);
}

/** Converts the first `frames` frames of outLeft()/outRight() (the last render) to outPcm16() as
 *  interleaved little-endian PCM16 with seeded TPDF dither: the WAV export's data bytes. */
export function encodePcm16(frames: i32): void {
  const n = min(max(frames, 0), MAX_FRAMES);
  pcm16.encodePcm16(changetype<usize>(engine.outL), changetype<usize>(engine.outR), n);
}

/** Seeds the export dither; the bytes then depend only on the seed and each frame's position. */
export function setDitherSeed(seed: u32): void {
  pcm16.setDitherSeed(seed);
}

export function outPcm16(): usize {
  return changetype<usize>(pcm16.pcmOut);
}

/** As encodePcm16, to outPcm24() as interleaved little-endian 24-bit samples (3 bytes each), with
 *  the same seeded TPDF dither at 24 bits when `dither` is 1, plain rounding when 0. */
export function encodePcm24(frames: i32, dither: i32): void {
  const n = min(max(frames, 0), MAX_FRAMES);
  pcm24.encodePcm24(changetype<usize>(engine.outL), changetype<usize>(engine.outR), n, dither != 0);
}

export function outPcm24(): usize {
  return changetype<usize>(pcm24.pcm24Out);
}

export function outLeft(): usize {
  return changetype<usize>(engine.outL);
}

export function outRight(): usize {
  return changetype<usize>(engine.outR);
}

export function advance(frames: f64): void {
  engine.advance(<u64>Math.max(0.0, frames));
}

export function channelPhase(index: i32): f64 {
  return engine.channelPhase(index);
}

// ---- Safe levels and the sleep timer ----

/** Fade-in length of every start, in frames (smoothstep from silence). */
export function setStartFade(frames: i32): void {
  engine.setStartFade(frames);
}

/** The true-peak limiter on the master (-1 dBTP): 1 on, 0 off. */
export function setLimiter(enabled: i32): void {
  engine.setLimiter(enabled != 0);
}

/** Per-ear gains, linear 0..1. */
export function setBalance(left: f32, right: f32): void {
  engine.setBalance(left, right);
}

/** Gain after the compressor, before the limiter (loudness-normalised export), linear 0..16. */
export function setOutputGain(gain: f32): void {
  engine.setOutputGain(gain);
}

/** Stops playback `frames` output frames from now after a fade of `fadeFrames` (f64: exact up to
 *  2^53) that reaches silence at the stop. */
export function sleepAfter(frames: f64, fadeFrames: f64): void {
  engine.sleepAfter(<u64>Math.max(0.0, frames), <u64>Math.max(0.0, fadeFrames));
}

export function cancelSleep(): void {
  engine.cancelSleep();
}

/** Lowest gain the limiter applied since start (1 = it never engaged). */
export function limiterMinGain(): f32 {
  return engine.limiterMinGain();
}

/** The limiter's gain now (1 when off or not limiting): the level meter's gain reduction. */
export function limiterGain(): f32 {
  return engine.limiterGain();
}
