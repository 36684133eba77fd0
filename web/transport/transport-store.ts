// The transport bar's own state, outside the sound: the master (listening) volume and its mute,
// kept in localStorage, and the level meter's latest figures. The meter changes at display rate,
// so components read it through subscribe into refs, never through React state (architecture.md).

import { createStore } from "zustand/vanilla";

const STORAGE_KEY = "tone-studio:master";

export interface MeterFigures {
  /** Linear peak and RMS of both ears since the last reading (0 = silence). */
  peak: number;
  rms: number;
  /** The limiter's lowest gain meanwhile (1 = no gain reduction). */
  gain: number;
}

export interface TransportState {
  /** The master volume, 0..1 (a gain on everything the page plays; exports are not affected). */
  masterVolume: number;
  masterMuted: boolean;
  meter: MeterFigures;
  setMasterVolume(volume: number): void;
  setMasterMuted(muted: boolean): void;
  setMeter(meter: MeterFigures): void;
}

export const SILENT_METER: MeterFigures = { peak: 0, rms: 0, gain: 1 };

function readStored(): { masterVolume: number; masterMuted: boolean } {
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as { volume?: unknown; muted?: unknown } | null;
    const volume = typeof raw?.volume === "number" && raw.volume >= 0 && raw.volume <= 1 ? raw.volume : 1;
    return { masterVolume: volume, masterMuted: raw?.muted === true };
  } catch {
    return { masterVolume: 1, masterMuted: false };
  }
}

function store(s: { masterVolume: number; masterMuted: boolean }): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ volume: s.masterVolume, muted: s.masterMuted }));
  } catch {
    // Storage refused (private mode): the setting lasts for the visit.
  }
}

export function createTransportStore() {
  return createStore<TransportState>()((set, get) => ({
    ...(typeof localStorage === "undefined" ? { masterVolume: 1, masterMuted: false } : readStored()),
    meter: SILENT_METER,
    setMasterVolume: (volume) => {
      set({ masterVolume: Math.min(1, Math.max(0, Number.isFinite(volume) ? volume : 1)) });
      store(get());
    },
    setMasterMuted: (masterMuted) => {
      set({ masterMuted });
      store(get());
    },
    setMeter: (meter) => set({ meter }),
  }));
}

export const transportStore = createTransportStore();

/** The gain the master stage applies: 0 when muted. */
export function masterGain(s: Pick<TransportState, "masterVolume" | "masterMuted">): number {
  return s.masterMuted ? 0 : s.masterVolume;
}

/** dBFS of a linear level (-Infinity for silence). */
export function dbfs(linear: number): number {
  return 20 * Math.log10(linear);
}
