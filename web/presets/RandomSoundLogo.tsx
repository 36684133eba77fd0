// The header logo: a click makes a random sound for everyone (spec/studio.md sections 2, 4 and 6)
// by editing the studio's state, which the role gate then trims as for any other edit (it unlocks
// nothing). On the studio (/, /app, /preset/{id}) it stays on the page; elsewhere it also takes the
// visitor to the studio at /. Playback stops so the new sound starts with Play; the logo pulses.

import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { toast } from "sonner";
import { useAudio, useStudio } from "../state/studio-context";
import { PRESET_MESSAGES } from "./messages";
import { randomSound } from "./random-sound";
import "./presets.css";

export const LOGO_PULSE_MS = 150;

const isStudioPath = (path: string): boolean => path === "/" || path === "/app" || path.startsWith("/preset/");

export function RandomSoundLogo() {
  const store = useStudio();
  const audio = useAudio();
  const { pathname } = useLocation();
  const [pulsing, setPulsing] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onClick = (e: React.MouseEvent<HTMLAnchorElement>) => {
    // A click that opens a new tab or window is the browser's, not a random sound.
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (isStudioPath(pathname)) e.preventDefault();
    clearTimeout(timer.current);
    setPulsing(true);
    timer.current = setTimeout(() => setPulsing(false), LOGO_PULSE_MS);
    try {
      const sound = randomSound(Math.random);
      if (store.getState().isPlaying) audio.stop();
      store.getState().load({ ...sound, duration: store.getState().duration });
      toast.success(PRESET_MESSAGES.randomDone);
    } catch (err) {
      console.error("Random sound failed:", err);
      toast.error(PRESET_MESSAGES.randomFailed(err instanceof Error ? err.message : String(err)));
    }
  };

  return (
    <Link
      to="/"
      className={pulsing ? "logo logo-pulse" : "logo"}
      aria-label="Tone Studio: make a random sound"
      title="Make a random sound"
      onClick={onClick}
    >
      Tone Studio
    </Link>
  );
}
