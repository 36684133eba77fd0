// React access to the studio store and the audio client (both created outside React).

import { createContext, useContext } from "react";
import type { StoreApi } from "zustand/vanilla";
import type { AudioClient } from "../audio/audio-client";
import type { StudioStore } from "./studio-store";

export interface StudioContextValue {
  store: StoreApi<StudioStore>;
  audio: AudioClient;
}

export const StudioContext = createContext<StudioContextValue | null>(null);

function useStudioContext(): StudioContextValue {
  const v = useContext(StudioContext);
  if (!v) throw new Error("StudioContext missing");
  return v;
}

export const useStudio = (): StoreApi<StudioStore> => useStudioContext().store;
export const useAudio = (): AudioClient => useStudioContext().audio;
