// Play Audio / Stop Audio. Failures show the spec's toast; engine errors are only logged.

import { useState } from "react";
import { toast } from "sonner";
import { useStore } from "zustand";
import { useAudio, useStudio } from "./studio-context";

export const PLAYBACK_ERROR = "❌ Failed to toggle playback. Please try again.";

export function PlayButton() {
  const store = useStudio();
  const audio = useAudio();
  const playing = useStore(store, (s) => s.isPlaying);
  const [busy, setBusy] = useState(false);

  const onClick = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await audio.toggle();
    } catch (err) {
      console.error(err);
      store.getState().setPlaying(false);
      toast.error(PLAYBACK_ERROR);
    } finally {
      setBusy(false);
    }
  };

  return (
    <button type="button" className={`play ${playing ? "playing" : ""}`} onClick={onClick} aria-pressed={playing}>
      {playing ? "Stop Audio" : "Play Audio"}
    </button>
  );
}
