// The page's polite live region (web/a11y/announcer.ts), mounted once by the app frame, and the
// playback announcements: 'Playback started' and 'Playback stopped' whenever the studio starts or
// stops, whoever started it (the button, Space, the lock screen, the duration running out).

import { useEffect } from "react";
import { useStore } from "zustand";
import { useStudio } from "../state/studio-context";
import { announce, announcer } from "./announcer";

export const PLAYBACK_STARTED = "Playback started";
export const PLAYBACK_STOPPED = "Playback stopped";

export function LiveRegion() {
  const message = useStore(announcer.state, (s) => s.message);
  const store = useStudio();

  useEffect(
    () =>
      store.subscribe((s, prev) => {
        if (s.isPlaying !== prev.isPlaying) announce(s.isPlaying ? PLAYBACK_STARTED : PLAYBACK_STOPPED);
      }),
    [store],
  );

  // No role="status": the region is a plain polite live region, so it never competes with the
  // visible status messages that tests and users look up by role.
  return (
    <div id="live-announcer" className="sr-only" aria-live="polite" aria-atomic="true">
      {message}
    </div>
  );
}
