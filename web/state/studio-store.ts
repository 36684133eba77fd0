// The studio's state: a vanilla zustand store holding the AudioState plus UI-only bits.
// Components edit it through the actions below; the audio client subscribes to it and forwards
// what changed to the engine. Nothing here touches audio.

import { createStore } from "zustand/vanilla";
import {
  defaultAudioState, type AudioState, type ChannelState,
  type EffectState, type Waveform,
} from "../../dsp/host/schema/state";
import { hasTimeline, type Timeline } from "../../dsp/host/schema/timeline";
import type { SoundtrackRef, VoiceSlots } from "../../dsp/host/model/voices";
import type { RecordingPlacement } from "../../dsp/host/model/recordings";
import { clampVolume } from "../../dsp/host/model/volume";
import { DEFAULT_DURATION_SECONDS, MAX_DURATION_SECONDS, MAX_FREQUENCY_HZ, MIN_DURATION_SECONDS } from "../../dsp/host/model/limits";

export interface StudioState extends AudioState {
  isPlaying: boolean;
  /** Last frequency typed per channel, restored when its switch is turned back on. */
  lastTyped: (number | null)[];
  /** Longest allowed duration in seconds (3600; 43200 for unlimited admins, wired later). */
  maxDuration: number;
}

export interface StudioActions {
  setFrequency(id: number, frequency: number): void;
  setWaveform(id: number, waveform: Waveform): void;
  setChannelOn(id: number, on: boolean): void;
  /** The mixer: a channel's volume (0..1, linear; dsp/host/model/volume.ts), mute and solo. */
  setVolume(id: number, volume: number): void;
  setMuted(id: number, muted: boolean): void;
  setSolo(id: number, solo: boolean): void;
  setDuration(seconds: number): void;
  setEffect(id: string, patch: Partial<EffectState>): void;
  setPlaying(playing: boolean): void;
  /** Replaces the session timeline (undefined or no steps: the sound does not change over time). */
  setTimeline(timeline: Timeline | undefined): void;
  /** Replaces the voices at 0:00 (undefined or no slots: none). */
  setVoices(voices: VoiceSlots | undefined): void;
  /** Names the recording the mix voices play (undefined: none). */
  setSoundtrack(soundtrack: SoundtrackRef | undefined): void;
  /** Replaces the voice recordings placed in the session (undefined or none: none). */
  setRecordings(recordings: RecordingPlacement[] | undefined): void;
  load(state: AudioState): void;
}

export type StudioStore = StudioState & StudioActions;

/** Frequency input rule (spec 5): strip everything but digits and dots, NaN -> 0, clamp 0-20000, 2 decimals. */
export function sanitizeFrequency(text: string): number {
  const cleaned = text.replace(/[^0-9.]/g, "");
  const v = Number.parseFloat(cleaned);
  if (!Number.isFinite(v)) return 0;
  return Math.round(Math.min(MAX_FREQUENCY_HZ, Math.max(0, v)) * 100) / 100;
}

export function clampDuration(seconds: number, max = MAX_DURATION_SECONDS): number {
  if (!Number.isFinite(seconds)) return DEFAULT_DURATION_SECONDS;
  return Math.min(max, Math.max(MIN_DURATION_SECONDS, Math.round(seconds)));
}

function updateChannel(channels: ChannelState[], id: number, patch: Partial<ChannelState>): ChannelState[] {
  return channels.map((c) => (c.id === id ? { ...c, ...patch } : c));
}

export function createStudioStore(initial: AudioState = defaultAudioState()) {
  return createStore<StudioStore>()((set, get) => ({
    ...initial,
    isPlaying: false,
    lastTyped: [null, null, null, null],
    maxDuration: MAX_DURATION_SECONDS,
    setFrequency: (id, frequency) => {
      const f = sanitizeFrequency(String(frequency));
      const lastTyped = get().lastTyped.slice();
      if (f > 0) lastTyped[id - 1] = f;
      set({ channels: updateChannel(get().channels, id, { frequency: f }), lastTyped });
    },
    setWaveform: (id, waveform) => set({ channels: updateChannel(get().channels, id, { waveform }) }),
    setChannelOn: (id, on) => {
      // Spec 4: on restores the last typed value or 432; off sets the frequency to 0.
      const frequency = on ? (get().lastTyped[id - 1] ?? 432) : 0;
      set({ channels: updateChannel(get().channels, id, { enabled: on, frequency }) });
    },
    setVolume: (id, volume) => set({ channels: updateChannel(get().channels, id, { volume: clampVolume(volume) }) }),
    setMuted: (id, muted) => set({ channels: updateChannel(get().channels, id, { muted }) }),
    setSolo: (id, solo) => set({ channels: updateChannel(get().channels, id, { solo }) }),
    setDuration: (seconds) => set({ duration: clampDuration(seconds, get().maxDuration) }),
    setEffect: (id, patch) => {
      const current = get().effects[id];
      if (!current) {
        console.warn(`Unknown effect id ignored: ${id}`);
        return;
      }
      set({ effects: { ...get().effects, [id]: { ...current, ...patch } as EffectState } });
    },
    setPlaying: (isPlaying) => set({ isPlaying }),
    setTimeline: (timeline) => set({ timeline: hasTimeline(timeline) ? timeline : undefined }),
    setVoices: (voices) => set({ voices: voices && voices.length > 0 ? voices : undefined }),
    setSoundtrack: (soundtrack) => set({ soundtrack }),
    setRecordings: (recordings) => set({ recordings: recordings && recordings.length > 0 ? recordings : undefined }),
    load: (state) => {
      // A loaded frequency counts as typed: a channel the gate switched off comes back with it.
      const lastTyped = state.channels.map((c, i) => (c.frequency > 0 ? c.frequency : get().lastTyped[i] ?? null));
      set({
        channels: state.channels, effects: state.effects, duration: state.duration, isPlaying: false, lastTyped,
        timeline: hasTimeline(state.timeline) ? state.timeline : undefined,
        voices: state.voices && state.voices.length > 0 ? state.voices : undefined,
        soundtrack: state.soundtrack,
        recordings: state.recordings && state.recordings.length > 0 ? state.recordings : undefined,
      });
    },
  }));
}

export const studioStore = createStudioStore();
