// Plays the headphone check's test signals (signals.ts) through the studio's AudioContext and
// output node (so the page's output analyser hears them). No React. One voice at a time: a new
// test replaces the one playing. Starting a test stops the studio's playback, the demo cards and
// the Quality Test first; starting the studio stops the test.
//
// Graph: buffer source -> splitter -> one gain per ear (the balance, from levels.ts's
// balanceGains, so the level-matching step plays what playback will) -> merger -> a fade gain
// (10 ms out when a test is cut short: the signals' own edges only cover a full play) -> output.

import { createStore, type StoreApi } from "zustand/vanilla";
import { balanceGains } from "../../dsp/host/schema/levels";
import type { AudioClient } from "../audio/audio-client";
import { fadeOutAndStop } from "../audio/fade-out";
import { qualityPlayer } from "../quality/quality-player";
import type { StudioStore } from "../state/studio-store";
import type { TestSignal } from "./signals";

/** The things the check plays. */
export type TestId = "tone1" | "tone2" | "mono" | "polarity" | "balance";

export interface HeadphonePlayerState {
  /** The test playing, or null. */
  playing: TestId | null;
  /** Which announced part of it is sounding (1, 2), or null between and outside parts. */
  part: number | null;
}

const CUT_FADE_S = 0.01;
/** Balance changes glide (time constant) instead of jumping: a slider drag stays click-free. */
const BALANCE_GLIDE_S = 0.02;
/** The studio's engine fades out over 50 ms when stopped; the test waits for it. */
const AFTER_STUDIO_S = 0.06;

interface Voice {
  source: AudioBufferSourceNode;
  left: GainNode;
  right: GainNode;
  fade: GainNode;
  timers: ReturnType<typeof setTimeout>[];
}

export class HeadphonePlayer {
  readonly state: StoreApi<HeadphonePlayerState> = createStore<HeadphonePlayerState>()(() => ({ playing: null, part: null }));
  private voice: Voice | null = null;
  private balance = 0;
  private readonly audio: AudioClient;
  private readonly store: StoreApi<StudioStore>;

  constructor(audio: AudioClient, store: StoreApi<StudioStore>) {
    this.audio = audio;
    this.store = store;
    store.subscribe((s, prev) => {
      if (s.isPlaying && !prev.isPlaying && this.voice) this.stop();
    });
  }

  /** Plays the signal `build` makes at the context's rate; `loop` repeats it until stopped, and
   *  `balance` (dB, levels.ts's sign) scales the ears. Call it from the click or key handler:
   *  the context is created or resumed synchronously, inside the gesture. */
  play(id: TestId, build: (sampleRate: number) => TestSignal, opts: { loop?: boolean; balance?: number } = {}): void {
    const context = this.audio.ensureContext();
    let delay = 0;
    if (this.store.getState().isPlaying) {
      this.audio.stop();
      delay = AFTER_STUDIO_S;
    }
    this.audio.demos.stopAll();
    qualityPlayer(this.audio, this.store).stop();
    this.release();
    this.balance = opts.balance ?? 0;

    const signal = build(context.sampleRate);
    const buffer = new AudioBuffer({ numberOfChannels: 2, length: signal.left.length, sampleRate: signal.sampleRate });
    buffer.copyToChannel(signal.left as Float32Array<ArrayBuffer>, 0);
    buffer.copyToChannel(signal.right as Float32Array<ArrayBuffer>, 1);
    const source = new AudioBufferSourceNode(context, { buffer, loop: opts.loop === true });
    const splitter = new ChannelSplitterNode(context, { numberOfOutputs: 2 });
    const merger = new ChannelMergerNode(context, { numberOfInputs: 2 });
    const g = balanceGains(this.balance);
    const left = new GainNode(context, { gain: g.left });
    const right = new GainNode(context, { gain: g.right });
    const fade = new GainNode(context, { gain: 1 });
    source.connect(splitter);
    splitter.connect(left, 0).connect(merger, 0, 0);
    splitter.connect(right, 1).connect(merger, 0, 1);
    merger.connect(fade).connect(this.audio.output ?? context.destination);

    const start = context.currentTime + delay;
    const voice: Voice = { source, left, right, fade, timers: [] };
    source.onended = () => {
      fade.disconnect();
      if (this.voice !== voice) return;
      this.voice = null;
      this.clearTimers(voice);
      this.state.setState({ playing: null, part: null });
    };
    // The status line follows the parts (tone 1, the gap, tone 2) by the clock they were
    // scheduled on; a loop has no numbered parts.
    if (!opts.loop) {
      signal.parts.forEach((p, i) => {
        const at = (delay + p.start / signal.sampleRate) * 1000;
        const end = (delay + (p.start + p.frames) / signal.sampleRate) * 1000;
        voice.timers.push(setTimeout(() => this.state.setState({ part: i + 1 }), at));
        voice.timers.push(setTimeout(() => this.state.setState({ part: null }), end));
      });
    }
    source.start(start);
    this.voice = voice;
    this.state.setState({ playing: id, part: null });
  }

  /** Changes the balance of what plays now (and of the next play with no balance given). */
  setBalance(db: number): void {
    this.balance = db;
    const v = this.voice;
    if (!v) return;
    const g = balanceGains(db);
    const t = v.left.context.currentTime;
    v.left.gain.setTargetAtTime(g.left, t, BALANCE_GLIDE_S);
    v.right.gain.setTargetAtTime(g.right, t, BALANCE_GLIDE_S);
  }

  stop(): void {
    this.release();
    this.state.setState({ playing: null, part: null });
  }

  private clearTimers(v: Voice): void {
    for (const t of v.timers) clearTimeout(t);
    v.timers.length = 0;
  }

  /** Fades out and drops the voice playing now, if any. */
  private release(): void {
    const v = this.voice;
    if (!v) return;
    this.voice = null;
    this.clearTimers(v);
    fadeOutAndStop(v.fade, v.source, CUT_FADE_S);
  }
}

const players = new WeakMap<AudioClient, HeadphonePlayer>();

/** The page's headphone check player for `audio` (one per audio client). */
export function headphonePlayer(audio: AudioClient, store: StoreApi<StudioStore>): HeadphonePlayer {
  let p = players.get(audio);
  if (!p) players.set(audio, (p = new HeadphonePlayer(audio, store)));
  return p;
}
