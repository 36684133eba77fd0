// Plays the headphone check's test signals (signals.ts) through the studio's AudioContext and
// output node (so the page's output analyser hears them). No React. One voice at a time: a new
// test replaces the one playing. It is a side sound (web/audio/side-sound.ts): starting a test
// stops the studio's playback, the demo cards and the Quality Test first; starting the studio
// stops the test.
//
// Graph: buffer source -> splitter -> one gain per ear (the balance, from levels.ts's
// balanceGains, so the level-matching step plays what playback will) -> merger -> a fade gain
// (10 ms out when a test is cut short: the signals' own edges only cover a full play) -> output.

import { createStore, type StoreApi } from "zustand/vanilla";
import { balanceGains } from "../../dsp/host/schema/levels";
import type { AudioClient } from "../audio/audio-client";
import { perClient, planarBuffer, startBufferVoice, type BufferVoice, type SideSound } from "../audio/side-sound";
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
  sound: BufferVoice;
  left: GainNode;
  right: GainNode;
  timers: ReturnType<typeof setTimeout>[];
}

export class HeadphonePlayer implements SideSound {
  readonly state: StoreApi<HeadphonePlayerState> = createStore<HeadphonePlayerState>()(() => ({ playing: null, part: null }));
  private voice: Voice | null = null;
  private balance = 0;
  private readonly audio: AudioClient;

  constructor(audio: AudioClient) {
    this.audio = audio;
    audio.sideSounds.add(this);
  }

  sounding(): boolean {
    return this.voice !== null;
  }

  /** Plays the signal `build` makes at the context's rate; `loop` repeats it until stopped, and
   *  `balance` (dB, levels.ts's sign) scales the ears. Call it from the click or key handler:
   *  the context is created or resumed synchronously, inside the gesture. */
  play(id: TestId, build: (sampleRate: number) => TestSignal, opts: { loop?: boolean; balance?: number } = {}): void {
    const context = this.audio.ensureContext();
    const delay = this.audio.sideSounds.claim(this) ? AFTER_STUDIO_S : 0;
    this.release();
    this.balance = opts.balance ?? 0;

    const signal = build(context.sampleRate);
    const splitter = new ChannelSplitterNode(context, { numberOfOutputs: 2 });
    const merger = new ChannelMergerNode(context, { numberOfInputs: 2 });
    const g = balanceGains(this.balance);
    const left = new GainNode(context, { gain: g.left });
    const right = new GainNode(context, { gain: g.right });
    splitter.connect(left, 0).connect(merger, 0, 0);
    splitter.connect(right, 1).connect(merger, 0, 1);

    const sound = startBufferVoice(context, this.audio.output, planarBuffer(signal), {
      at: context.currentTime + delay,
      loop: opts.loop,
      through: { input: splitter, output: merger },
      onEnded: () => {
        if (this.voice !== voice) return;
        this.voice = null;
        this.clearTimers(voice);
        this.state.setState({ playing: null, part: null });
      },
    });
    const voice: Voice = { sound, left, right, timers: [] };
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
    v.sound.release(CUT_FADE_S);
  }
}

/** The page's headphone check player for `audio` (one per audio client). */
export const headphonePlayer = perClient((audio: AudioClient) => new HeadphonePlayer(audio));
