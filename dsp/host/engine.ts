// The only code that knows the wasm ABI. It instantiates a compiled WebAssembly.Module
// (synchronously, so it also works in an AudioWorkletGlobalScope, which has no fetch), loads
// programs (program.ts: what changed in the AudioState, compiled to tables) and renders planar
// stereo. apply() compiles and loads in one go, for the hosts that own their engine.
// Used alike by the worklet, the export worker, Node tests, benchmarks and the CLI.

import { effectDef } from "./model/catalogue";
// level-rules, not levels: the same values without zod.
import { FADE_IN_MAX_SECONDS, SLEEP_FADE_MAX_SECONDS, balanceGains, type Levels } from "./model/levels";
// Types only from state.ts: the worklet bundle must not pull in zod.
import type { SoundState } from "./model/state";
import type { SoundtrackAudio } from "./model/soundtrack";
import { compileRecordings, type RecordingClip, usedClips } from "./model/recordings";
import { ProgramCompiler, ROW, type Program, type TimelineTables, type VoiceTables } from "./program";

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
  encodePcm24(frames: number, dither: number): void;
  outPcm24(): number;
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
  private pcm24 = new Uint8Array(0);
  /** Compiles the states apply() is given (the worklet loads programs compiled on the page). */
  private readonly compiler: ProgramCompiler;
  /** The voice recordings' audio by id (setRecordingClips), what the engine's store holds, and
   *  the placements last loaded. */
  private recordingClips = new Map<string, RecordingClip>();
  private storedClips: RecordingClip[] = [];
  private recordingState: NonNullable<Program["recordings"]> | null = null;

  constructor(module: WebAssembly.Module, sampleRate: number) {
    const instance = new WebAssembly.Instance(module, {});
    this.abi = instance.exports as unknown as Abi;
    this.sampleRate = sampleRate;
    this.abi.init(sampleRate);
    this.maxFrames = this.abi.maxFrames();
    this.compiler = new ProgramCompiler(sampleRate);
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
    if (this.recordingState) this.placeRecordings();
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

  /** Writes the clips the loaded placements use into the engine (when that set changed) and
   *  places them; no placements, none sounds. */
  private placeRecordings(): void {
    const { placements, steps } = this.recordingState ?? { placements: [], steps: null };
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
    for (const p of compileRecordings(placements, used, steps ? { steps } : undefined, this.sampleRate)) {
      abi.recordingPlace(p.offset, p.length, p.start, p.period, p.loop ? 1 : 0, p.gain);
    }
  }

  /** Sends what changed in `state` to the engine: compiles it (program.ts) and loads the result,
   *  both here. Unknown effect ids are ignored with a warning. An effect whose update fails is
   *  switched off (never the whole engine); the ids of such effects are returned so the UI can
   *  show them off too. The worklet gets programs compiled on the page instead (load). */
  apply(state: SoundState): string[] {
    const { program, failed } = this.compiler.compile(state);
    const refused = this.load(program);
    for (const id of refused) this.compiler.forgetEffect(id);
    return [...failed, ...refused];
  }

  /** Copies a compiled program into the engine: only ABI calls and typed-array copies, no
   *  compiling, so it is cheap enough for the audio thread between two blocks. Programs must come
   *  in the order one ProgramCompiler made them. Returns the ids of effects the engine refused
   *  (each is switched off). */
  load(program: Program): string[] {
    const abi = this.abi;
    if (program.voices) this.loadVoices(program.voices);
    if (program.recordings) {
      this.recordingState = program.recordings;
      this.placeRecordings();
    }
    if (program.timeline === "clear") abi.timelineClear();
    else if (program.timeline) this.loadTimeline(program.timeline);
    const c = program.channels;
    if (c) for (let k = 0; k < c.length; k += ROW.channel) abi.setChannel(c[k], c[k + 1], c[k + 2], c[k + 3], c[k + 4]);
    const failed: string[] = [];
    const e = program.effects;
    if (e) {
      for (let k = 0, i = 0; k < e.length; k += ROW.effect, i++) {
        try {
          abi.setEffect(e[k], e[k + 1], e[k + 2], e[k + 3], e[k + 4], e[k + 5]);
        } catch (err) {
          const id = program.effectIds[i];
          console.warn(`Effect ${id} switched off: ${err instanceof Error ? err.message : String(err)}`);
          this.switchOff(id);
          failed.push(id);
        }
      }
    }
    return failed;
  }

  private loadVoices(v: VoiceTables | "clear"): void {
    const abi = this.abi;
    abi.voicesClear();
    if (v !== "clear") {
      for (const s of v.spectra) {
        const at = abi.voiceSpectrumTable(s.id, s.which);
        if (at) new Float32Array(abi.memory.buffer, at, s.table.length).set(s.table);
      }
      for (const env of v.envelopes) {
        const at = abi.voiceEnvelopeTable(env.id, env.table.length);
        if (at) new Float32Array(abi.memory.buffer, at, env.table.length).set(env.table);
      }
      const g = v.segments;
      for (let k = 0; k < g.length; k += ROW.voiceSegment) {
        abi.voiceSegment(g[k], g[k + 1], g[k + 2], g[k + 3], g[k + 4], g[k + 5], g[k + 6], g[k + 7], g[k + 8], g[k + 9]);
        if (g[k + 10] === 1) abi.voiceSegmentShape(g[k + 11], g[k + 12], g[k + 13], g[k + 14]);
        if (g[k + 15] >= 0) abi.voiceSegmentEnvelope(g[k + 15]);
      }
      const b = v.bells;
      for (let k = 0; k < b.length; k += ROW.bell) abi.voiceBell(b[k], b[k + 1], b[k + 2]);
    }
    abi.voicesCommit();
  }

  private loadTimeline(t: TimelineTables): void {
    const abi = this.abi;
    abi.timelineClear();
    const c = t.channels;
    for (let k = 0; k < c.length; k += ROW.timelineChannel) abi.timelineChannelSegment(c[k], c[k + 1], c[k + 2], c[k + 3], c[k + 4], c[k + 5], c[k + 6], c[k + 7]);
    const e = t.effects;
    for (let k = 0; k < e.length; k += ROW.timelineEffect) {
      abi.timelineEffectSegment(e[k], e[k + 1], e[k + 2], e[k + 3], e[k + 4], e[k + 5], e[k + 6], e[k + 7], e[k + 8], e[k + 9], e[k + 10], e[k + 11]);
    }
    abi.timelineCommit(t.voices);
  }

  private switchOff(id: string): void {
    const def = effectDef(id);
    try {
      if (def) this.abi.setEffect(def.wasm, 0, def.default, 0, 0, 0);
    } catch {
      // The engine refused even that: nothing more to do for this effect.
    }
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

  /** Renders `frames` (at most maxFrames) as 24-bit data bytes: interleaved little-endian PCM24
   *  (6 bytes a stereo frame), with the same seeded TPDF dither at 24 bits, or plain rounding
   *  when `dither` is false. The view of wasm memory is reused between calls, like renderPcm16's. */
  renderPcm24(frames: number, dither = true): Uint8Array {
    return this.encodePcm24(this.abi.render(frames), dither);
  }

  /** Converts the first `frames` frames of the last render's output buffers to PCM24 as
   *  renderPcm24 does. */
  encodePcm24(frames: number, dither = true): Uint8Array {
    const n = Math.min(Math.max(0, Math.floor(frames)), this.maxFrames);
    this.abi.encodePcm24(n, dither ? 1 : 0);
    this.refreshViews();
    if (this.pcm24.length !== n * 6) this.pcm24 = new Uint8Array(this.abi.memory.buffer, this.abi.outPcm24(), n * 6);
    return this.pcm24;
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
    this.pcm24 = new Uint8Array(0);
  }
}
