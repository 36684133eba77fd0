// The audio client: owns the AudioContext, the engine worklet node and the analysers, lives
// outside React, and follows the studio store (every state change is posted to the worklet).
// Spec 4: start resumes a suspended context or recreates a closed one; sound begins after 50 ms;
// stop fades over 50 ms (in the engine); playback ends by itself after the duration.

import wasmUrl from "../../dsp/build/engine.wasm?url";
import workletUrl from "../../worklets/engine.worklet.ts?worker&url";
import { PROCESSOR_NAME, type FromWorklet, type ToWorklet } from "../../worklets/protocol";
import { hasAudibleChannel, restoreSilentChannels } from "../../dsp/host/state";
import type { StoreApi } from "zustand/vanilla";
import type { StudioStore } from "../state/studio-store";

const START_DELAY = 0.05;
const REQUEST_TIMEOUT_MS = 3000;

export class AudioClient {
  context: AudioContext | null = null;
  node: AudioWorkletNode | null = null;
  /** Waveform display analyser (2048, smoothing 0.8) and spectrogram analyser (1024, 0.7). */
  waveAnalyser: AnalyserNode | null = null;
  spectrumAnalyser: AnalyserNode | null = null;
  private module: Promise<WebAssembly.Module> | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (ok: boolean) => void>();
  private readonly store: StoreApi<StudioStore>;

  constructor(store: StoreApi<StudioStore>) {
    this.store = store;
    store.subscribe((s, prev) => {
      if (this.node && (s.channels !== prev.channels || s.effects !== prev.effects)) {
        this.post({ type: "state", state: { channels: s.channels, effects: s.effects } });
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

  private async ensureGraph(): Promise<AudioWorkletNode> {
    if (this.context && this.context.state !== "closed" && this.node) {
      if (this.context.state === "suspended") await this.context.resume();
      return this.node;
    }
    const module = await this.compile();
    const context = new AudioContext({ latencyHint: "interactive", sampleRate: 48000 });
    await context.audioWorklet.addModule(workletUrl);
    const node = new AudioWorkletNode(context, PROCESSOR_NAME, {
      numberOfInputs: 0,
      numberOfOutputs: 1,
      outputChannelCount: [2],
      processorOptions: { module },
    });
    node.port.onmessage = (e: MessageEvent<FromWorklet>) => this.onMessage(e.data);
    const wave = new AnalyserNode(context, { fftSize: 2048, smoothingTimeConstant: 0.8 });
    const spectrum = new AnalyserNode(context, { fftSize: 1024, smoothingTimeConstant: 0.7 });
    node.connect(wave);
    node.connect(spectrum);
    node.connect(context.destination);
    this.context = context;
    this.node = node;
    this.waveAnalyser = wave;
    this.spectrumAnalyser = spectrum;
    if (context.state === "suspended") await context.resume();
    return node;
  }

  private onMessage(msg: FromWorklet): void {
    if (msg.type === "started") {
      this.pending.get(msg.id)?.(msg.ok);
      this.pending.delete(msg.id);
    } else if (msg.type === "ended") {
      this.store.getState().setPlaying(false);
    } else if (msg.type === "effect-failed") {
      console.warn(`Effect ${msg.id} failed to update and was switched off`);
      this.store.getState().setEffect(msg.id, { enabled: false });
    } else {
      console.error("Audio engine error:", msg.message); // spec 8: engine errors are only logged
    }
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
    node.port.postMessage({ type: "state", state: { channels: state.channels, effects: state.effects } } satisfies ToWorklet);
    const ok = await this.request({ type: "start", delay: START_DELAY, duration: state.duration });
    state.setPlaying(ok);
    return ok;
  }

  stop(): void {
    this.post({ type: "stop" });
    this.store.getState().setPlaying(false);
  }

  async toggle(): Promise<void> {
    if (this.store.getState().isPlaying) this.stop();
    else await this.start();
  }
}
