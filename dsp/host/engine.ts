// The only code that knows the wasm ABI. It instantiates a compiled WebAssembly.Module
// (synchronously, so it also works in an AudioWorkletGlobalScope, which has no fetch), applies
// AudioState by diffing it against what the engine already has, and renders planar stereo.
// Used alike by the worklet, the export worker, Node tests, benchmarks and the CLI.

import { effectDef, extrasToArgs } from "./model/catalogue";
// level-rules, not levels: the same values without zod.
import { FADE_IN_MAX_SECONDS, SLEEP_FADE_MAX_SECONDS, balanceGains, type Levels } from "./model/levels";
// Types only from state.ts: the worklet bundle must not pull in zod.
import type { ChannelState, EffectState, SoundState, Waveform } from "./model/state";
// timeline-core has no zod either (the schema is in timeline.ts).
import { compileEffects, compileTimeline, hasTimeline, resolveTimeline } from "./model/timeline";
import { anySoloed, mixerFactor, volumeGain } from "./model/volume";
import type { SoundtrackAudio } from "./model/soundtrack";
import { spectrumNoise } from "./model/noise-spectrum";
import { compileVoices } from "./model/voice-track";
import { compileRecordings, type RecordingClip, usedClips } from "./model/recordings";

const WAVE_INDEX: Record<Waveform, number> = { sine: 0, square: 1, sawtooth: 2, triangle: 3 };

interface Abi {
  memory: WebAssembly.Memory;
  init(sampleRate: number): void;
  maxFrames(): number;
  setChannel(index: number, freq: number, waveform: number, enabled: number, volume: number): void;
  setMaster(gain: number): void;
  setCompressor(enabled: number): void;
  setEffect(index: number, enabled: number, value: number, e1: number, e2: number, e3: number): void;
  timelineClear(): void;
  timelineChannelSegment(index: number, start: number, f0: number, f1: number, g0: number, g1: number, curve: number, waveform: number): void;
  timelineEffectSegment(
    index: number, start: number, enabled: number, v0: number, v1: number, a1: number, b1: number, a2: number, b2: number, a3: number, b3: number, curve: number,
  ): void;
  timelineCommit(voices: number): void;
  voicesClear(): void;
  voiceSegment(slot: number, start: number, kind: number, colour: number, c0: number, c1: number, b0: number, b1: number, a0: number, a1: number): void;
  voiceBell(at: number, freq: number, amp: number): void;
  voiceSegmentShape(duty: number, attack: number, release: number, edge: number): void;
  voiceEnvelopeTable(id: number, points: number): number;
  voiceSpectrumTable(id: number, which: number): number;
  voiceSegmentEnvelope(id: number): void;
  voicesCommit(): void;
  soundtrackBuffer(frames: number): number;
  soundtrackCommit(frames: number, start: number, end: number, fade: number): void;
  recordingsBuffer(frames: number): number;
  recordingsStore(frames: number): void;
  recordingsClear(): void;
  recordingPlace(offset: number, length: number, start: number, period: number, loop: number, gain: number): void;
  start(delayFrames: number, durationFrames: number): number;
  stop(): void;
  isPlaying(): number;
  framesPlayed(): number;
  render(frames: number): number;
  encodePcm16(frames: number): void;
  setDitherSeed(seed: number): void;
  outPcm16(): number;
  outLeft(): number;
  outRight(): number;
  advance(frames: number): void;
  channelPhase(index: number): number;
  setStartFade(frames: number): void;
  setLimiter(enabled: number): void;
  setBalance(left: number, right: number): void;
  setOutputGain(gain: number): void;
  sleepAfter(frames: number, fadeFrames: number): void;
  cancelSleep(): void;
  limiterMinGain(): number;
  limiterGain(): number;
}

export interface StartOptions {
  /** Silence before the sound begins, in seconds (spec: 50 ms). */
  delay?: number;
  /** Seconds of sound after which playback stops by itself; 0 or absent plays until stop(). */
  duration?: number;
}

export class Engine {
  readonly sampleRate: number;
  readonly maxFrames: number;
  private readonly abi: Abi;
  private buffer: ArrayBuffer | null = null;
  private left = new Float32Array(0);
  private right = new Float32Array(0);
  private pcm = new Uint8Array(0);
  private readonly lastChannels: string[] = ["", "", "", ""];
  private readonly lastEffects = new Map<string, string>();
  private readonly warned = new Set<string>();
  /** What the uploaded timeline was compiled from ("" = no timeline). */
  private timelineKey = "";
  /** Effects the timeline drives: apply() leaves them alone while it plays. */
  private timelineEffects = new Set<string>();
  /** What the uploaded voices were compiled from ("" = none). */
  private voicesKey = "";
  /** The voice recordings' audio by id (setRecordingClips), what the engine's store holds, and
   *  what its placements were compiled from. */
  private recordingClips = new Map<string, RecordingClip>();
  private storedClips: RecordingClip[] = [];
  private recordingsKey = "";
  private recordingState: Pick<SoundState, "recordings" | "timeline"> | null = null;

  constructor(module: WebAssembly.Module, sampleRate: number) {
    const instance = new WebAssembly.Instance(module, {});
    this.abi = instance.exports as unknown as Abi;
    this.sampleRate = sampleRate;
    this.abi.init(sampleRate);
    this.maxFrames = this.abi.maxFrames();
  }

  /** Gives the engine the soundtrack its mix voices play (null: none; they are then silent). The
   *  audio must be at the engine's rate. */
  setSoundtrack(audio: SoundtrackAudio | null): void {
    if (audio && audio.rate !== this.sampleRate) throw new RangeError(`the soundtrack is at ${audio.rate} Hz, the engine at ${this.sampleRate} Hz`);
    if (!audio || audio.frames === 0) {
      this.abi.soundtrackCommit(0, 0, 0, 0);
      return;
    }
    const at = this.abi.soundtrackBuffer(audio.frames);
    new Int16Array(this.abi.memory.buffer, at, audio.frames * 2).set(audio.pcm.subarray(0, audio.frames * 2));
    this.abi.soundtrackCommit(audio.frames, audio.loopStart, audio.loopEnd, audio.loopFade);
  }

  /** Gives the engine the audio of the account's recordings the session may place (mono 16-bit at
   *  the engine's rate); apply() places them. Replaces the clips given before. */
  setRecordingClips(clips: readonly RecordingClip[]): void {
    for (const c of clips) {
      if (c.rate !== this.sampleRate) throw new RangeError(`the recording is at ${c.rate} Hz, the engine at ${this.sampleRate} Hz`);
    }
    this.recordingClips = new Map(clips.map((c) => [c.id, c]));
    this.recordingsKey = "\u0000"; // place again
    if (this.recordingState) this.applyRecordings(this.recordingState);
  }

  /** Makes room in the engine's recordings store for clips of these lengths, in this order (the
   *  order the session's placements first use them: model/recordings.ts usedClips), and answers
   *  clips whose samples are views of that room. Fill them (a server streams each file straight
   *  in, so no second copy of the audio is ever held), then give them to setRecordingClips, which
   *  then copies nothing. The views are valid until the engine next allocates. */
  reserveRecordingClips(specs: readonly { id: string; frames: number }[]): RecordingClip[] {
    const frames = specs.reduce((n, c) => n + c.frames, 0);
    const at = this.abi.recordingsBuffer(frames);
    let offset = 0;
    const clips = specs.map((c) => {
      const clip = { id: c.id, rate: this.sampleRate, frames: c.frames, pcm: new Int16Array(this.abi.memory.buffer, at + offset * 2, c.frames) };
      offset += c.frames;
      return clip;
    });
    this.abi.recordingsStore(frames);
    this.storedClips = clips;
    return clips;
  }

  /** Writes the clips the state's placements use into the engine (when that set changed) and
   *  places them; no placements, none sounds. */
  private applyRecordings(state: Pick<SoundState, "recordings" | "timeline">): void {
    this.recordingState = { recordings: state.recordings, timeline: state.timeline };
    const placements = state.recordings ?? [];
    const steps = placements.some((p) => p.step !== undefined) ? state.timeline?.steps.map((s) => s.at) : undefined;
    const key = placements.length === 0 ? "" : JSON.stringify([placements, steps ?? null]);
    if (key === this.recordingsKey) return;
    this.recordingsKey = key;
    const abi = this.abi;
    const used = usedClips(placements, this.recordingClips);
    if (used.length !== this.storedClips.length || used.some((c, i) => c !== this.storedClips[i])) {
      const frames = used.reduce((n, c) => n + c.frames, 0);
      const at = abi.recordingsBuffer(frames);
      let offset = 0;
      for (const c of used) {
        new Int16Array(abi.memory.buffer, at + offset * 2, c.frames).set(c.pcm.subarray(0, c.frames));
        offset += c.frames;
      }
      abi.recordingsStore(frames);
      this.storedClips = used;
    }
    abi.recordingsClear();
    for (const p of compileRecordings(placements, used, state.timeline, this.sampleRate)) {
      abi.recordingPlace(p.offset, p.length, p.start, p.period, p.loop ? 1 : 0, p.gain);
    }
  }

  /** Sends what changed in `state` to the engine. Unknown effect ids are ignored with a warning.
   *  An effect whose update fails is switched off (never the whole engine); the ids of such
   *  effects are returned so the UI can show them off too. */
  apply(state: SoundState): string[] {
    // The timeline is written out once per apply for both keys below: in the worklet this runs on
    // the audio thread for every state message, and a long session's JSON is megabytes.
    const timelineJson = hasTimeline(state.timeline) ? JSON.stringify(state.timeline) : "";
    this.applyVoices(state, timelineJson);
    this.applyRecordings(state);
    const timed = this.applyTimeline(state, timelineJson);
    if (!timed) {
      const solo = anySoloed(state.channels);
      state.channels.slice(0, 4).forEach((c, i) => this.applyChannel(i, c, solo));
    }
    const failed: string[] = [];
    for (const [id, fx] of Object.entries(state.effects)) {
      if (this.timelineEffects.has(id)) continue;
      try {
        this.applyEffect(id, fx);
      } catch (err) {
        console.warn(`Effect ${id} switched off: ${err instanceof Error ? err.message : String(err)}`);
        this.switchOff(id);
        failed.push(id);
      }
    }
    return failed;
  }

  /** Uploads the session's voices when they changed (an SBaGen schedule's sound); clears them when
   *  the state has none. */
  private applyVoices(state: SoundState, timelineJson: string): void {
    // Keyed by what the voices are compiled from (the voices at 0:00 and the timeline, whose steps
    // carry the later voices), so a change elsewhere in the state does not compile them again.
    const hasVoices = (state.voices?.length ?? 0) > 0 || !!state.timeline?.steps.some((s) => s.voices);
    const key = hasVoices ? `${JSON.stringify(state.voices ?? null)}|${timelineJson}` : "";
    if (key === this.voicesKey) return;
    this.voicesKey = key;
    const compiled = key === "" ? null : compileVoices(state, this.sampleRate);
    const abi = this.abi;
    abi.voicesClear();
    if (compiled) {
      compiled.spectra.forEach((spectrum, id) => {
        spectrumNoise(spectrum, this.sampleRate).forEach((table, which) => {
          const at = abi.voiceSpectrumTable(id, which);
          if (at) new Float32Array(abi.memory.buffer, at, table.length).set(table);
        });
      });
      compiled.envelopes.forEach((env, id) => {
        const at = abi.voiceEnvelopeTable(id, env.length);
        if (at) new Float32Array(abi.memory.buffer, at, env.length).set(env);
      });
      compiled.slots.forEach((segs, slot) => {
        for (const s of segs) {
          abi.voiceSegment(slot, s.start, s.kind, s.colour, s.c0, s.c1, s.b0, s.b1, s.a0, s.a1);
          if (s.shape) abi.voiceSegmentShape(...s.shape);
          if (s.envelope !== undefined) abi.voiceSegmentEnvelope(s.envelope);
        }
      });
      for (const b of compiled.bells) abi.voiceBell(b.at, b.freq, b.amp);
    }
    abi.voicesCommit();
  }

  /** Uploads the session timeline when it (or the state at 0:00) changed; clears it when the state
   *  has none. Returns true while a timeline drives the channels. */
  private applyTimeline(state: SoundState, timelineJson: string): boolean {
    const timeline = state.timeline;
    if (!hasTimeline(timeline)) {
      if (this.timelineKey !== "") {
        this.abi.timelineClear();
        this.timelineKey = "";
        // Back to the state's own values: send every channel and the automated effects again.
        this.lastChannels.fill("");
        for (const id of this.timelineEffects) this.lastEffects.delete(id);
        this.timelineEffects = new Set();
      }
      return false;
    }
    const key = `${JSON.stringify([state.channels, state.effects])}|${timelineJson}`;
    if (key === this.timelineKey) return true;
    this.timelineKey = key;
    const steps = resolveTimeline(state, timeline);
    const compiled = compileTimeline(steps, this.sampleRate);
    const effects = compileEffects(steps, this.sampleRate);
    const abi = this.abi;
    abi.timelineClear();
    compiled.channels.forEach((segs, ch) => {
      for (const s of segs) abi.timelineChannelSegment(ch, s.start, s.f0, s.f1, s.g0, s.g1, s.curve, s.waveform);
    });
    for (const fx of effects) {
      for (const s of fx.segments) {
        abi.timelineEffectSegment(
          fx.slot, s.start, s.enabled ? 1 : 0, s.from[0], s.to[0], s.from[1], s.to[1], s.from[2], s.to[2], s.from[3], s.to[3], s.curve,
        );
      }
    }
    abi.timelineCommit(compiled.voices);
    // Effects the timeline no longer drives get the state's values again.
    const now = new Set(effects.map((e) => e.id));
    for (const id of this.timelineEffects) if (!now.has(id)) this.lastEffects.delete(id);
    this.timelineEffects = now;
    this.lastChannels.fill("");
    return true;
  }

  private switchOff(id: string): void {
    const def = effectDef(id);
    this.lastEffects.delete(id);
    try {
      if (def) this.abi.setEffect(def.wasm, 0, def.default, 0, 0, 0);
    } catch {
      // The engine refused even that: nothing more to do for this effect.
    }
  }

  private applyChannel(i: number, c: ChannelState, anySolo: boolean): void {
    // The mixer's mute and solo silence a channel without switching it off: it still counts in
    // the mix's 1/N, so muting one channel leaves the others as loud as they were.
    const gain = volumeGain(c.volume) * mixerFactor(c, anySolo);
    const key = `${c.frequency}|${c.waveform}|${c.enabled}|${gain}`;
    if (this.lastChannels[i] === key) return;
    this.lastChannels[i] = key;
    const w = WAVE_INDEX[c.waveform] ?? 0;
    this.abi.setChannel(i, c.frequency, w, c.enabled ? 1 : 0, gain);
  }

  private applyEffect(id: string, fx: EffectState): void {
    const def = effectDef(id);
    if (!def) {
      if (!this.warned.has(id)) console.warn(`Unknown effect id ignored: ${id}`);
      this.warned.add(id);
      return;
    }
    if (typeof fx !== "object" || fx === null) throw new Error("effect update must be an object");
    const value = Math.min(def.max, Math.max(def.min, Number.isFinite(fx.value) ? fx.value : def.default));
    const [e1, e2, e3] = extrasToArgs(def, fx);
    const key = `${fx.enabled}|${value}|${e1}|${e2}|${e3}`;
    if (this.lastEffects.get(id) === key) return;
    this.lastEffects.set(id, key);
    this.abi.setEffect(def.wasm, fx.enabled ? 1 : 0, value, e1, e2, e3);
  }

  setMaster(gain: number): void {
    this.abi.setMaster(gain);
  }

  setCompressor(enabled: boolean): void {
    this.abi.setCompressor(enabled ? 1 : 0);
  }

  /** The listener's levels (dsp/host/schema/levels.ts): the fade-in of every start (from the next
   *  start), the true-peak limiter and the per-ear balance. The engine's own default is neutral
   *  (a 5 ms fade-in, no limiter, no balance); every product surface passes the levels. */
  setLevels(levels: Levels): void {
    const fadeIn = Number.isFinite(levels.fadeIn) ? Math.min(FADE_IN_MAX_SECONDS, Math.max(0, levels.fadeIn)) : 0;
    this.abi.setStartFade(Math.max(1, Math.round(fadeIn * this.sampleRate)));
    this.abi.setLimiter(levels.limiter ? 1 : 0);
    const { left, right } = balanceGains(levels.balance);
    this.abi.setBalance(left, right);
  }

  /** The sleep timer: playback stops `afterSeconds` from now, fading to silence over the last
   *  `fadeSeconds` (a fade longer than the time left starts at once). Only while playing. */
  sleep(afterSeconds: number, fadeSeconds: number): void {
    if (!Number.isFinite(afterSeconds) || afterSeconds < 0) throw new RangeError(`Invalid sleep time: ${afterSeconds}`);
    if (!Number.isFinite(fadeSeconds) || fadeSeconds < 0 || fadeSeconds > SLEEP_FADE_MAX_SECONDS) {
      throw new RangeError(`Invalid sleep fade: ${fadeSeconds} (0 to ${SLEEP_FADE_MAX_SECONDS} s)`);
    }
    this.abi.sleepAfter(Math.round(afterSeconds * this.sampleRate), Math.round(fadeSeconds * this.sampleRate));
  }

  cancelSleep(): void {
    this.abi.cancelSleep();
  }

  /** A linear gain after the compressor and before the limiter (loudness-normalised export);
   *  the engine takes 0 to 16 (+24 dB). */
  setOutputGain(gain: number): void {
    if (!Number.isFinite(gain) || gain < 0) throw new RangeError(`Invalid output gain: ${gain}`);
    this.abi.setOutputGain(gain);
  }

  /** The lowest gain the limiter applied since the last start (1: it never engaged). */
  get limiterMinGain(): number {
    return this.abi.limiterMinGain();
  }

  /** The limiter's gain now (1 when off or not limiting), for a gain-reduction meter. */
  get limiterGain(): number {
    return this.abi.limiterGain();
  }

  /** Starts playback; false (and nothing sounds) when no channel is enabled above 0 Hz. */
  start(options: StartOptions = {}): boolean {
    const delay = Math.round((options.delay ?? 0) * this.sampleRate);
    const duration = Math.round((options.duration ?? 0) * this.sampleRate);
    return this.abi.start(delay, duration) === 1;
  }

  stop(): void {
    this.abi.stop();
  }

  get playing(): boolean {
    return this.abi.isPlaying() === 1;
  }

  get framesPlayed(): number {
    return this.abi.framesPlayed();
  }

  /** Renders `frames` (at most maxFrames) and returns views of the engine's output buffers.
   *  The views are reused between calls: copy the data out before the next render. */
  render(frames: number): { left: Float32Array; right: Float32Array } {
    const n = this.abi.render(frames);
    this.refreshViews();
    if (this.left.length !== n) {
      this.left = new Float32Array(this.abi.memory.buffer, this.abi.outLeft(), n);
      this.right = new Float32Array(this.abi.memory.buffer, this.abi.outRight(), n);
    }
    return { left: this.left, right: this.right };
  }

  /** Seeds the dither of renderPcm16 (an export's bytes depend only on the state, the seed and
   *  the frame count). */
  setDitherSeed(seed: number): void {
    this.abi.setDitherSeed(seed >>> 0);
  }

  /** Renders `frames` (at most maxFrames) as the WAV data bytes: interleaved little-endian PCM16
   *  with TPDF dither, converted inside the engine. The returned view of wasm memory is reused
   *  between calls: write or copy it before the next render. */
  renderPcm16(frames: number): Uint8Array {
    return this.encodePcm16(this.abi.render(frames));
  }

  /** Converts the first `frames` frames of the last render's output buffers (the views render()
   *  returned, which a caller may also have written) to PCM16 as renderPcm16 does. */
  encodePcm16(frames: number): Uint8Array {
    const n = Math.min(Math.max(0, Math.floor(frames)), this.maxFrames);
    this.abi.encodePcm16(n);
    this.refreshViews();
    if (this.pcm.length !== n * 4) this.pcm = new Uint8Array(this.abi.memory.buffer, this.abi.outPcm16(), n * 4);
    return this.pcm;
  }

  /** Jumps every channel's clock ahead without rendering (exact for a steady pitch). */
  advance(frames: number): void {
    this.abi.advance(frames);
  }

  /** A channel's oscillator phase in cycles, [0, 1). */
  channelPhase(index: number): number {
    return this.abi.channelPhase(index);
  }

  private refreshViews(): void {
    // Views are remade only when wasm memory has grown (its buffer is then replaced).
    if (this.buffer === this.abi.memory.buffer) return;
    this.buffer = this.abi.memory.buffer;
    this.left = new Float32Array(0);
    this.right = new Float32Array(0);
    this.pcm = new Uint8Array(0);
  }
}
