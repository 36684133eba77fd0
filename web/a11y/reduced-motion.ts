// prefers-reduced-motion, honoured by everything that moves: the live displays redraw once a
// second instead of 33-50 times (a still picture that refreshes, not an animation), the hint bar's
// attention pulse and the tutorial's highlight are static, spinners stop (CSS), and "Show me"
// scrolls jump instead of gliding.

import { useSyncExternalStore } from "react";

export const REDUCED_MOTION_QUERY = "(prefers-reduced-motion: reduce)";
/** The displays' frame gap when reduced motion is asked for. */
export const REDUCED_MOTION_FRAME_GAP_MS = 1000;

function query(): MediaQueryList | null {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" ? window.matchMedia(REDUCED_MOTION_QUERY) : null;
}

export function prefersReducedMotion(): boolean {
  return query()?.matches ?? false;
}

function subscribe(onChange: () => void): () => void {
  const q = query();
  q?.addEventListener("change", onChange);
  return () => q?.removeEventListener("change", onChange);
}

/** Follows the system setting live (it can change while the page is open). */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}

/** A display's frame gap under the motion preference: at least a second when reduced. */
export function motionFrameGapMs(gapMs: number, reduced: boolean): number {
  return reduced ? Math.max(gapMs, REDUCED_MOTION_FRAME_GAP_MS) : gapMs;
}
