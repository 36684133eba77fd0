// The audio client: owns the AudioContext, the engine worklet node and the analysers, lives
// outside React, and follows the studio store (every state change is posted to the worklet).
// Spec 4: start resumes a suspended context or recreates a closed one; sound begins after 50 ms;
// stop fades over 50 ms (in the engine); playback ends by itself after the duration.
// The context is created or resumed synchronously inside the gesture that starts sound (the first
// tap on a phone must work). The demo cards run their own engines on the same context; the side
// sounds (the Quality Test, the headphone check) play there one at a time (side-sound.ts).
// The listener's safe levels (web/levels/levels-store.ts) are followed: sent before every start
// (the fade-in) and whenever they change; the sleep timer drives sleep() and cancelSleep().

import wasmUrl from "../../dsp/build/engine.wasm?url";
import workletUrl from "../../worklets/engine.worklet.ts?worker&url";
import { PROCESSOR_NAME, ProgramPort, type FromWorklet, type ToWorklet } from "../../worklets/protocol";
import { hasAudibleChannel, restoreSilentChannels, type SoundState } from "../../dsp/host/schema/state";
import type { StoreApi } from "zustand/vanilla";
import type { StudioStore } from "../state/studio-store";
import { currentDisplayProfile, type DisplayProfile } from "../state/performance-profile";
import { DemoPlayer } from "./demo-player";
import { OutputRoute } from "./media-element-route";
import { SideSounds } from "./side-sound";
import type { Levels } from "../../dsp/host/schema/levels";
import { levelsOf, levelsStore, type LevelsState } from "../levels/levels-store";
import { SILENT_METER, masterGain, transportStore, type TransportState } from "../transport/transport-store";
import { soundFrom } from "../transport/seek";
import { soundtrackStore } from "./soundtrack-store";
import { fetchPlaced, recordingClips, recordingsStore } from "../recordings/store";
import { recordingsFrom } from "../../dsp/host/model/recordings";

const START_DELAY = 0.05;
const REQUEST_TIMEOUT_MS = 3000;

export class AudioClient {
  context: AudioContext | null = null;
  /** The studio's engine node. */
  node: AudioWorkletNode | null = null;
  /** Compiles the studio's state for `node` (one per node). */
  private program: ProgramPort | null = null;
  /** Where every source meets (the studio's engine and the demo cards' engines) on its way to
   *  the speakers. */
  output: GainNode | null = null;
  /** How `output` reaches the speakers (through a media element on iPhones without audioSession). */
  route: OutputRoute | null = null;
  /** What the page plays, all sources mixed: for tests and the developer panel. */
  outputAnalyser: AnalyserNode | null = null;
  /** Waveform display analyser and spectrogram analyser (sizes from the display profile). */
  waveAnalyser: AnalyserNode | null = null;
  spectrumAnalyser: AnalyserNode | null = null;
  readonly profile: DisplayProfile;
  /** The landing section's demo cards, each with its own engine on this client's context. */
  readonly demos: DemoPlayer;
  /** The short sounds played beside the studio: starting one stops the studio, the demo cards
   *  and the others; starting the studio stops them. */
  readonly sideSounds: SideSounds;
  /** Called synchronously whenever sound is about to start, still inside the user's gesture
   *  (mobile browsers only start media from there). */
  readonly onGesture = new Set<() => void>();
  private module: Promise<WebAssembly.Module> | null = null;
  private worklet: Promise<WebAssembly.Module> | null = null;
  private resuming: Promise<void> = Promise.resolve();
  private nextId = 1;
  /** Context time at which the current sound began (start's 50 ms delay included). */
  private soundStart: number | null = null;
  /** Where in the session the current sound began (a seek; 0 from Play). */
  private offset = 0;
  private readonly pending = new Map<number, (ok: boolean) => void>();
  private readonly store: StoreApi<StudioStore>;
  private levelsValue: Levels;

  /** The master volume and the level meter (web/transport/transport-store.ts). */
  readonly transport: StoreApi<TransportState>;

  constructor(
    store: StoreApi<StudioStore>,
    profile: DisplayProfile = currentDisplayProfile(),
    levels: StoreApi<LevelsState> = levelsStore,
    transport: StoreApi<TransportState> = transportStore,
  ) {
    this.store = store;
    this.transport = transport;
    transport.subscribe((t, prev) => {
      if (masterGain(t) !== masterGain(prev)) this.applyMasterGain();
    });
    store.subscribe((s, prev) => {
      if (!s.isPlaying && prev.isPlaying) transport.getState().setMeter(SILENT_METER);
    });
    this.profile = profile;
    this.demos = new DemoPlayer(this);
    this.sideSounds = new SideSounds(this, store);
    this.levelsValue = levelsOf(levels.getState());
    levels.subscribe((l) => this.setLevels(levelsOf(l)));
    soundtrackStore.subscribe((s, prev) => {
      if (s.audio !== prev.audio) this.post({ type: "soundtrack", audio: s.audio });
    });
    // The voice recordings' audio (web/recordings/store.ts): fetched when placed, posted when here.
    recordingsStore.subscribe((s, prev) => {
      if (s.clips !== prev.clips) this.post({ type: "recordings", clips: recordingClips() });
    });
    fetchPlaced((store.getState().recordings ?? []).map((r) => r.id));
    store.subscribe((s, prev) => {
      if (s.recordings !== prev.recordings) fetchPlaced((s.recordings ?? []).map((r) => r.id));
    });
    store.subscribe((s, prev) => {
      if (this.node && (s.channels !== prev.channels || s.effects !== prev.effects || s.timeline !== prev.timeline || s.voices !== prev.voices || s.recordings !== prev.recordings)) {
        this.sendState(s);
      }
    });
  }

  private compile(): Promise<WebAssembly.Module> {
    this.module ??= WebAssembly.compileStreaming(fetch(wasmUrl)).catch((err) => {
      this.module = null;
      throw err;
    });
    return this.module;
  }

  /** The AudioContext, created or resumed right now. Call it synchronously from the click or key
   *  handler that starts sound, before any await: Safari and mobile Chrome only let a context
   *  start inside the gesture, so the first tap on a cold page has to do it. */
  ensureContext(): AudioContext {
    if (!this.context || this.context.state === "closed") {
      const context = new AudioContext({ latencyHint: "interactive", sampleRate: 48000 });
      const output = new GainNode(context);
      const analyser = new AnalyserNode(context, { fftSize: 8192, smoothingTimeConstant: 0 });
      output.gain.value = masterGain(this.transport.getState());
      this.route = new OutputRoute(context, output);
      output.connect(analyser);
      this.context = context;
      this.output = output;
      this.outputAnalyser = analyser;
      this.node = null;
      this.program = null;
      this.worklet = null;
    }
    // "suspended" (autoplay policy, or stopped by the system) or Safari's "interrupted".
    if (this.context.state !== "running") this.resuming = this.context.resume().catch(() => undefined);
    this.route?.play();
    for (const f of this.onGesture) f();
    return this.context;
  }

  /** Resumes a context the system paused (a phone call, the tab coming back) while sound plays. */
  resumeIfInterrupted(): void {
    const c = this.context;
    if (c && c.state !== "running" && c.state !== "closed") this.resuming = c.resume().catch(() => undefined);
  }

  /** A new, independent engine on `context` (its own wasm instance and state). The worklet
   *  module is added once per context and the wasm compiled once per page. */
  async createEngineNode(context: AudioContext): Promise<AudioWorkletNode> {
    this.worklet ??= Promise.all([this.compile(), context.audioWorklet.addModule(workletUrl)])
      .then(([module]) => module)
      .catch((err) => {
        this.worklet = null;
        throw err;
      });
    const module = await this.worklet;
    await this.resuming;
    return new AudioWorkletNode(context, PROCESSOR_NAME, {
      numberOfInputs: 0,
      numberOfOutputs: 1,
      outputChannelCount: [2],
      processorOptions: { module },
    });
  }

  private async ensureGraph(): Promise<AudioWorkletNode> {
    const context = this.ensureContext();
    if (this.node) {
      await this.resuming;
      return this.node;
    }
    const node = await this.createEngineNode(context);
    if (context !== this.context) throw new Error("The audio context was replaced while starting");
    node.port.onmessage = (e: MessageEvent<FromWorklet>) => this.onMessage(e.data);
    this.program = new ProgramPort(node.port, context.sampleRate);
    // The transport's level meter, at the displays' frame rate (no analyser of its own).
    node.port.postMessage({ type: "meter-rate", hz: Math.min(30, this.profile.maxFps) } satisfies ToWorklet);
    const track = soundtrackStore.getState().audio;
    if (track) node.port.postMessage({ type: "soundtrack", audio: track } satisfies ToWorklet);
    const clips = recordingClips();
    if (clips.length > 0) node.port.postMessage({ type: "recordings", clips } satisfies ToWorklet);
    const { waveform, spectrogram } = this.profile;
    const wave = new AnalyserNode(context, { fftSize: waveform.fftSize, smoothingTimeConstant: waveform.smoothing });
    const spectrum = new AnalyserNode(context, {
      fftSize: spectrogram.fftSize,
      smoothingTimeConstant: spectrogram.smoothing,
      minDecibels: spectrogram.minDb,
      maxDecibels: spectrogram.maxDb,
    });
    node.connect(wave);
    node.connect(spectrum);
    node.connect(this.output!);
    this.node = node;
    this.waveAnalyser = wave;
    this.spectrumAnalyser = spectrum;
    return node;
  }

  private onMessage(msg: FromWorklet): void {
    if (msg.type === "meter") {
      if (this.store.getState().isPlaying) this.transport.getState().setMeter({ peak: msg.peak, rms: msg.rms, gain: msg.gain });
    } else if (msg.type === "started") {
      this.pending.get(msg.id)?.(msg.ok);
      this.pending.delete(msg.id);
    } else if (msg.type === "ended") {
      this.store.getState().setPlaying(false);
    } else if (msg.type === "effect-failed") {
      this.program?.forgetEffect(msg.id);
      this.effectFailed(msg.id);
    } else {
      console.error("Audio engine error:", msg.message); // spec 8: engine errors are only logged
    }
  }

  private effectFailed(id: string): void {
    console.warn(`Effect ${id} failed to update and was switched off`);
    this.store.getState().setEffect(id, { enabled: false });
  }

  /** Compiles what changed in the store's sound and posts it to the studio's engine. */
  private sendState(s: StudioStore): void {
    for (const id of this.program?.send(this.soundOf(s)) ?? []) this.effectFailed(id);
  }

  /** The master volume on the output bus, glided over ~10 ms (no click). */
  private applyMasterGain(): void {
    const output = this.output;
    if (!output) return;
    output.gain.setTargetAtTime(masterGain(this.transport.getState()), output.context.currentTime, 0.01);
  }

  private post(msg: ToWorklet): void {
    this.node?.port.postMessage(msg);
  }

  private request(msg: Omit<Extract<ToWorklet, { type: "start" }>, "id">): Promise<boolean> {
    const id = this.nextId++;
    return new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error("The audio engine did not answer"));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, (ok) => {
        clearTimeout(timer);
        resolve(ok);
      });
      this.post({ ...msg, id });
    });
  }

  /** Starts playback of the store's state. Resolves false (and isPlaying stays false) when no
   *  channel is enabled above 0 Hz; rejects when audio cannot start. */
  async start(): Promise<boolean> {
    const s = this.store.getState();
    if (!hasAudibleChannel(s)) {
      s.setPlaying(false);
      return false;
    }
    const channels = restoreSilentChannels(s.channels);
    if (channels.some((c, i) => c !== s.channels[i])) this.store.setState({ channels });
    const node = await this.ensureGraph();
    const state = this.store.getState();
    this.offset = 0;
    this.sendState(state);
    const posted = node.context.currentTime;
    node.port.postMessage({ type: "levels", levels: this.levelsValue } satisfies ToWorklet);
    const ok = await this.request({ type: "start", delay: START_DELAY, duration: state.duration });
    this.soundStart = ok ? posted + START_DELAY : null;
    state.setPlaying(ok);
    return ok;
  }

  stop(): void {
    this.post({ type: "stop" });
    this.store.getState().setPlaying(false);
  }

  /** Seconds since the sound started (the timeline's playhead), or null when nothing plays. */
  playPosition(): number | null {
    if (this.soundStart === null || !this.context || !this.store.getState().isPlaying) return null;
    return this.offset + Math.max(0, this.context.currentTime - this.soundStart);
  }

  /** What the engine plays of the store's state: from the seek position on (seek.ts). */
  private soundOf(s: StudioStore): SoundState {
    const sound: SoundState = { channels: s.channels, effects: s.effects, timeline: s.timeline, voices: s.voices, recordings: s.recordings };
    return this.offset > 0 ? { ...soundFrom(sound, this.offset), recordings: recordingsFrom(s.recordings, s.timeline, this.offset) } : sound;
  }

  /** Jumps the playing session to `seconds` (the transport's seek bar): the sound from there on
   *  starts afresh (with the listener's fade-in) and ends at the same time as before. */
  async seek(seconds: number): Promise<void> {
    const s = this.store.getState();
    const node = this.node;
    if (!s.isPlaying || !node) return;
    this.offset = Math.min(Math.max(0, seconds), Math.max(0, s.duration - 1));
    this.sendState(s);
    const posted = node.context.currentTime;
    const ok = await this.request({ type: "start", delay: 0, duration: s.duration - this.offset });
    this.soundStart = ok ? posted : null;
    if (!ok) s.setPlaying(false);
  }

  /** The listener's levels, for every engine this client starts (the demo cards' too). */
  get levels(): Levels {
    return this.levelsValue;
  }

  /** New levels: the limiter and balance apply at once (smoothed), the fade-in from the next start. */
  setLevels(levels: Levels): void {
    this.levelsValue = levels;
    this.post({ type: "levels", levels });
  }

  /** The sleep timer: playback stops `afterSeconds` from now after a fade of `fadeSeconds`, and
   *  ends through the usual "ended" path. Ignored when nothing plays. */
  sleep(afterSeconds: number, fadeSeconds: number): void {
    this.post({ type: "sleep", after: afterSeconds, fade: fadeSeconds });
  }

  cancelSleep(): void {
    this.post({ type: "cancel-sleep" });
  }

  async toggle(): Promise<void> {
    if (this.store.getState().isPlaying) this.stop();
    else await this.start();
  }
}
