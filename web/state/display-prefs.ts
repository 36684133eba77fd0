// Display preferences that outlive the studio page: whether the waveform display is shown (the
// developer panel's waveform toggle; on by default). A vanilla zustand store, read by Displays.

import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";

export interface DisplayPrefs {
  waveformVisible: boolean;
  setWaveformVisible(visible: boolean): void;
}

export const displayPrefs = createStore<DisplayPrefs>()((set) => ({
  waveformVisible: true,
  setWaveformVisible: (waveformVisible) => set({ waveformVisible }),
}));

export function useDisplayPrefs<T>(selector: (s: DisplayPrefs) => T): T {
  return useStore(displayPrefs, selector);
}
