// The Quality Test's player (no React): mode none, hq or compressed (spec/accounts.md section 2;
// starting one stops the other). The first play renders the studio's current state (5 s through
// the export worker) and keeps it until the state changes; the compressed version is made from
// that render on first use. Switching while one plays continues the other from the same moment,
// so the two can be compared phrase by phrase. The clip plays once, through the studio's output
// (so the page's output analyser hears it). It is a side sound (web/audio/side-sound.ts):
// starting it stops the studio, the demo cards and the headphone check; starting the studio
// stops it.

import { createStore, type StoreApi } from "zustand/vanilla";
import { hasAudibleChannel } from "../../dsp/host/schema/state";
import { announce } from "../a11y/announcer";
import type { AudioClient } from "../audio/audio-client";
import { perClient, planarBuffer, startBufferVoice, Tickets, type BufferVoice, type SideSound } from "../audio/side-sound";
import type { StudioStore } from "../state/studio-store";
import { compress, detectCodec, type CodecInfo } from "./codec";
import type { PlanarAudio } from "./planar";
import { renderClip } from "./render-clip";

export type QualityMode = "none" | "hq" | "compressed";

export interface QualityState {
  mode: QualityMode;
  /** Rendering or encoding: the buttons wait. */
  busy: boolean;
  /** The codec of the compressed version, once known. */
  codec: CodecInfo | null;
  /** What went wrong last, for the panel. */
  problem: string | null;
}

export const NO_CHANNEL_PROBLEM = "Switch on a channel with a frequency above 0 Hz first.";
export const RENDER_PROBLEM = "The quality test could not render. Please try again.";

/** Fades that keep a switch or a stop free of clicks. */
const FADE_S = 0.005;

interface Clip {
  key: string;
  hq: AudioBuffer;
  compressed: AudioBuffer | null;
}

export class QualityPlayer implements SideSound {
  readonly state: StoreApi<QualityState> = createStore<QualityState>()(() => ({ mode: "none", busy: false, codec: null, problem: null }));
  private clip: Clip | null = null;
  private rendered: PlanarAudio | null = null;
  private voice: BufferVoice | null = null;
  /** Taken by every play and stop: a render that finishes late does not start. */
  private readonly tickets = new Tickets();
  private readonly audio: AudioClient;
  private readonly store: StoreApi<StudioStore>;

  constructor(audio: AudioClient, store: StoreApi<StudioStore>) {
    this.audio = audio;
    this.store = store;
    audio.sideSounds.add(this);
  }

  sounding(): boolean {
    return this.state.getState().mode !== "none";
  }

  /** Finds out which codec the compressed version uses (for the panel's text). */
  async prepare(): Promise<CodecInfo> {
    const known = this.state.getState().codec;
    if (known) return known;
    const codec = await detectCodec();
    this.state.setState({ codec });
    return codec;
  }

  /** Plays `mode`, or stops it when it is the one playing. Call it from the click handler. */
  async toggle(mode: Exclude<QualityMode, "none">): Promise<void> {
    if (this.state.getState().mode === mode) this.stop();
    else await this.play(mode);
  }

  async play(mode: Exclude<QualityMode, "none">): Promise<void> {
    const context = this.audio.ensureContext(); // inside the gesture, before any await
    const gen = this.tickets.take();
    const s = this.store.getState();
    if (!hasAudibleChannel(s)) {
      this.state.setState({ problem: NO_CHANNEL_PROBLEM });
      announce(NO_CHANNEL_PROBLEM);
      return;
    }
    this.state.setState({ busy: true, problem: null });
    try {
      const buffer = await this.buffer(mode, s);
      if (!this.tickets.valid(gen)) return;
      // Where the one playing now has got to (it played on while this one was made): the other
      // continues from there.
      const position = this.voice ? context.currentTime - this.voice.origin : 0;
      this.audio.sideSounds.claim(this);
      this.release();
      this.start(context, buffer, position < buffer.duration - 0.05 ? Math.max(0, position) : 0);
      this.state.setState({ mode });
      const codec = this.state.getState().codec;
      announce(mode === "hq" ? "Playing the high-quality render" : `Playing the compressed version${codec ? ` (${codec.name})` : ""}`);
    } catch (err) {
      console.error("Quality test failed:", err);
      if (this.tickets.valid(gen)) {
        this.release();
        this.state.setState({ mode: "none", problem: RENDER_PROBLEM });
        announce(RENDER_PROBLEM);
      }
    } finally {
      if (this.tickets.valid(gen)) this.state.setState({ busy: false });
    }
  }

  stop(): void {
    this.tickets.take();
    const was = this.state.getState().mode;
    this.release();
    this.state.setState({ mode: "none", busy: false });
    if (was !== "none") announce("Quality test stopped");
  }

  private async buffer(mode: Exclude<QualityMode, "none">, s: StudioStore): Promise<AudioBuffer> {
    const key = JSON.stringify({ channels: s.channels, effects: s.effects, timeline: s.timeline, voices: s.voices });
    if (this.clip?.key !== key) {
      this.rendered = await renderClip(s);
      this.clip = { key, hq: planarBuffer(this.rendered), compressed: null };
    }
    const clip = this.clip;
    if (mode === "hq") return clip.hq;
    if (!clip.compressed) {
      const codec = await this.prepare();
      clip.compressed = planarBuffer(await compress(this.rendered!, codec));
    }
    return clip.compressed;
  }

  private start(context: AudioContext, buffer: AudioBuffer, offset: number): void {
    const voice = startBufferVoice(context, this.audio.output, buffer, {
      offset,
      fadeIn: FADE_S,
      onEnded: () => {
        if (this.voice !== voice) return;
        this.voice = null;
        this.state.setState({ mode: "none" });
        announce("Quality test finished");
      },
    });
    this.voice = voice;
  }

  /** Fades out and drops the voice playing now, if any. */
  private release(): void {
    const v = this.voice;
    if (!v) return;
    this.voice = null;
    v.release(FADE_S);
  }
}

/** The page's quality player for `audio` (one per audio client). */
export const qualityPlayer = perClient((audio: AudioClient, store: StoreApi<StudioStore>) => new QualityPlayer(audio, store));
