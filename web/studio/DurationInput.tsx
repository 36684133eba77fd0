// Duration input (HH:MM:SS): auto-inserted colons, 30 s minimum, 3600 s maximum for normal users.

import { useEffect, useState } from "react";
import { useStore } from "zustand";
import { formatDuration, formatDurationInput, parseDuration } from "./duration";
import { useStudio } from "./studio-context";

export function DurationInput() {
  const store = useStudio();
  const duration = useStore(store, (s) => s.duration);
  const maxDuration = useStore(store, (s) => s.maxDuration);
  const [text, setText] = useState(formatDuration(duration));
  useEffect(() => setText(formatDuration(duration)), [duration]);

  const commit = () => {
    const seconds = parseDuration(text);
    store.getState().setDuration(Number.isNaN(seconds) ? duration : seconds);
    setText(formatDuration(store.getState().duration));
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
        value={text}
        onChange={(e) => setText(formatDurationInput(e.target.value))}
        onBlur={commit}
        onKeyDown={(e) => e.key === "Enter" && commit()}
      />
      <small id="duration-help">Minimum 30 seconds, maximum {formatDuration(maxDuration)}.</small>
    </label>
  );
}
