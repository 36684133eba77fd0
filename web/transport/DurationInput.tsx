// Duration input (HH:MM:SS): typed colons kept, digits shift in from the right, committed on
// Enter or when the box loses focus, clamped to 30 s and the user's maximum (rules in duration.ts).

import { useState } from "react";
import { useStore } from "zustand";
import { DURATION_MAX_CHARS, durationHelp, formatDuration, formatDurationInput, parseDuration } from "../state/duration";
import { useStudio } from "../state/studio-context";

export function DurationInput() {
  const store = useStudio();
  const duration = useStore(store, (s) => s.duration);
  const maxDuration = useStore(store, (s) => s.maxDuration);
  // The draft exists while the user types; otherwise the store's duration shows.
  const [draft, setDraft] = useState<string | null>(null);

  const commit = () => {
    if (draft === null) return;
    const seconds = parseDuration(draft);
    store.getState().setDuration(Number.isNaN(seconds) ? duration : seconds);
    setDraft(null);
  };

  return (
    <label className="field duration">
      <span>Duration (HH:MM:SS)</span>
      <input
        type="text"
        inputMode="numeric"
        maxLength={DURATION_MAX_CHARS}
        aria-label="Playback duration (HH:MM:SS)"
        aria-describedby="duration-help"
        value={draft ?? formatDuration(duration)}
        onChange={(e) => setDraft(formatDurationInput(e.target.value))}
        onBlur={commit}
        onKeyDown={(e) => e.key === "Enter" && commit()}
      />
      <small id="duration-help">{durationHelp(maxDuration)}</small>
    </label>
  );
}
