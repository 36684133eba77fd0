// The demo cards' playback (spec/studio.md sections 2 and 4): each card that plays gets its own
// engine (its own AudioWorkletNode, wasm instance and AudioState) on the studio's AudioContext,
// so cards play at the same time, stop independently and never touch the studio's own engine or
// store. Stop fades out in the engine (50 ms), then the card's nodes are torn down. The player
// knows the audio client only through DemoHost, so the client can own it without an import loop.

import { createStore, type StoreApi } from "zustand/vanilla";
import type { Levels } from "../../dsp/host/schema/levels";
import type { AudioState } from "../../dsp/host/schema/state";
import { ProgramPort, type FromWorklet, type ToWorklet } from "../../worklets/protocol";
import { Tickets, type AudioHost } from "./side-sound";

/** Spec 9: demo preset base gain 0.3, against the studio's channel tone gain 0.15 (the engine's
 *  TONE_GAIN, dsp/assembly/lib/constants.ts): a card sounds at twice the engine's tone level. */
export const DEMO_BASE_GAIN = 0.3;
const ENGINE_TONE_GAIN = 0.15;
const START_DELAY = 0.05;
/** The engine's stop fade is 50 ms; the nodes are removed once it is surely over. */
const TEARDOWN_MS = 150;

/** What the demo cards need of the audio client: its context and output, a new engine on the
 *  context, and the listener's levels. */
export interface DemoHost extends AudioHost {
  createEngineNode(context: AudioContext): Promise<AudioWorkletNode>;
  readonly levels: Levels;
}

export interface DemoPlayerState {
  /** Card ids that are playing (or starting). */
  playing: Record<string, boolean>;
}

interface Voice {
  node: AudioWorkletNode;
  gain: GainNode;
}

export class DemoPlayer {
  readonly state: StoreApi<DemoPlayerState> = createStore<DemoPlayerState>()(() => ({ playing: {} }));
  private readonly voices = new Map<string, Voice>();
  /** Taken on every play and stop, so a start that finishes after a stop does not sound. */
  private readonly tickets = new Tickets<string>();
  private readonly client: DemoHost;

  constructor(client: DemoHost) {
    this.client = client;
  }

  isPlaying(id: string): boolean {
    return this.state.getState().playing[id] === true;
  }

  anyPlaying(): boolean {
    return Object.values(this.state.getState().playing).some(Boolean);
  }

  private setPlaying(id: string, on: boolean): void {
    this.state.setState((s) => ({ playing: { ...s.playing, [id]: on } }));
  }

  /** Starts card `id` with `preset` (replacing a sound it already plays). Call it from the click
   *  handler: the context is created or resumed before the first await. Rejects when audio cannot
   *  start; resolves false when the preset has nothing audible. */
  async play(id: string, preset: Pick<AudioState, "channels" | "effects" | "duration">): Promise<boolean> {
    const context = this.client.ensureContext();
    const gen = this.tickets.take(id);
    this.release(id);
    this.setPlaying(id, true);
    try {
      const node = await this.client.createEngineNode(context);
      if (!this.tickets.valid(gen, id)) {
        node.disconnect();
        return false;
      }
      const gain = new GainNode(context, { gain: DEMO_BASE_GAIN / ENGINE_TONE_GAIN });
      node.connect(gain);
      gain.connect(this.client.output ?? context.destination);
      this.voices.set(id, { node, gain });
      const started = new Promise<boolean>((resolve) => {
        node.port.onmessage = (e: MessageEvent<FromWorklet>) => {
          const msg = e.data;
          if (msg.type === "started") resolve(msg.ok);
          else if (msg.type === "ended") this.ended(id, gen);
          else if (msg.type === "error") console.error("Demo card engine error:", msg.message);
        };
      });
      const post = (msg: ToWorklet) => node.port.postMessage(msg);
      new ProgramPort(node.port, context.sampleRate).send({ channels: preset.channels, effects: preset.effects });
      post({ type: "levels", levels: this.client.levels });
      post({ type: "start", id: 1, delay: START_DELAY, duration: preset.duration });
      const ok = await started;
      if (!ok) this.stop(id);
      return ok;
    } catch (err) {
      if (this.tickets.valid(gen, id)) this.setPlaying(id, false);
      throw err;
    }
  }

  /** Fades card `id` out and tears its engine down; other cards and the studio keep playing. */
  stop(id: string): void {
    this.tickets.take(id);
    this.release(id);
    this.setPlaying(id, false);
  }

  stopAll(): void {
    for (const id of Object.keys(this.state.getState().playing)) if (this.isPlaying(id)) this.stop(id);
  }

  /** The card's engine ended by itself (its duration elapsed). */
  private ended(id: string, gen: number): void {
    if (this.tickets.valid(gen, id)) this.stop(id);
  }

  private release(id: string): void {
    const voice = this.voices.get(id);
    if (!voice) return;
    this.voices.delete(id);
    voice.node.port.postMessage({ type: "stop" } satisfies ToWorklet);
    setTimeout(() => {
      voice.node.port.postMessage({ type: "dispose" } satisfies ToWorklet);
      voice.node.port.onmessage = null;
      voice.node.disconnect();
      voice.gain.disconnect();
    }, TEARDOWN_MS);
  }
}
