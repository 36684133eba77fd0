// Duration input (HH:MM:SS): auto-inserted colons, 30 s minimum, 3600 s maximum for normal users.

import { useState } from "react";
import { useStore } from "zustand";
import { formatDuration, formatDurationInput, parseDuration } from "./duration";
import { useStudio } from "./studio-context";

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
        maxLength={8}
        aria-label="Playback duration (HH:MM:SS)"
        aria-describedby="duration-help"
        value={draft ?? formatDuration(duration)}
        onChange={(e) => setDraft(formatDurationInput(e.target.value))}
        onBlur={commit}
        onKeyDown={(e) => e.key === "Enter" && commit()}
      />
      <small id="duration-help">Minimum 30 seconds, maximum {formatDuration(maxDuration)}.</small>
    </label>
  );
}
