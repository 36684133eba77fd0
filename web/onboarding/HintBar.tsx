// The studio's hint bar (timing and texts in hints.ts): one hint at a time, changing every 5 s,
// paused while the pointer or keyboard focus is on it; Dismiss hides it for the visit, and starts
// drawing attention after 10 s (a short pulse, or a solid highlight under reduced motion). Not a
// live region: a message changing every 5 s would interrupt a screen reader all the time; the
// hints are plain text to read when one gets there. Signed-in visitors only, and out of the way
// while the tutorial is open.

import { useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import { useStudioGate } from "../account/hooks";
import { HINTS_DISMISSED_KEY, HintRotation, STUDIO_HINTS } from "./hints";
import { tutorialAvailable } from "./tutorial";
import { tutorialStore } from "./tutorial-store";
import "./onboarding.css";

function readDismissed(): boolean {
  try {
    return sessionStorage.getItem(HINTS_DISMISSED_KEY) === "1";
  } catch {
    return false;
  }
}

function rememberDismissed(): void {
  try {
    sessionStorage.setItem(HINTS_DISMISSED_KEY, "1");
  } catch {
    // Blocked storage: dismissed until the page reloads.
  }
}

function Hints({ onDismiss }: { onDismiss(): void }) {
  const [index, setIndex] = useState(0);
  const [attention, setAttention] = useState(false);
  const rotation = useRef<HintRotation | null>(null);

  useEffect(() => {
    const r = new HintRotation(STUDIO_HINTS.length, { onIndex: setIndex, onAttention: () => setAttention(true) });
    rotation.current = r;
    r.start();
    return () => r.stop();
  }, []);

  return (
    <aside
      className="hint-bar"
      aria-label="Hints"
      onMouseEnter={() => rotation.current?.pause()}
      onMouseLeave={() => rotation.current?.resume()}
      onFocus={() => rotation.current?.pause()}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) rotation.current?.resume();
      }}
    >
      <span className="hint-label">Hint</span>
      <p className="hint-text" data-index={index}>{STUDIO_HINTS[index]}</p>
      <button type="button" className="hint-dismiss" data-attention={attention} aria-label="Dismiss hints" onClick={onDismiss}>
        Dismiss
      </button>
    </aside>
  );
}

export function HintBar() {
  const level = useStudioGate().level;
  const tutorialOpen = useStore(tutorialStore, (s) => s.status === "open");
  const [dismissed, setDismissed] = useState(readDismissed);
  if (dismissed || !tutorialAvailable(level) || tutorialOpen) return null;
  return (
    <Hints
      onDismiss={() => {
        rememberDismissed();
        setDismissed(true);
      }}
    />
  );
}
