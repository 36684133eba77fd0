// Play Audio / Stop Audio. Failures show the spec's toast; engine errors are only logged
// (web/transport/toggle-playback.ts, shared with the Space shortcut). The label says what a press does,
// so it carries no aria-pressed (a toggle button whose label changes reads wrongly).

import { useStore } from "zustand";
import { useAudio, useStudio } from "../state/studio-context";
import { PLAYBACK_ERROR, togglePlayback } from "./toggle-playback";

export { PLAYBACK_ERROR };

export function PlayButton() {
  const store = useStudio();
  const audio = useAudio();
  const playing = useStore(store, (s) => s.isPlaying);

  return (
    <button
      type="button"
      className={`play ${playing ? "playing" : ""}`}
      onClick={() => void togglePlayback(store, audio)}
      aria-keyshortcuts="Space"
    >
      {playing ? "Stop Audio" : "Play Audio"}
    </button>
  );
}
