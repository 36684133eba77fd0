// The one animation loop of the displays: a requestAnimationFrame loop throttled to a frame gap,
// which runs only while it has something to show. It stops completely (no rAF callback at all)
// while `running` is false, while the tab is hidden (document.hidden: background tab, locked
// phone screen) and while the element is scrolled out of view, and starts again when all three
// allow. Drawing goes straight to a canvas: the loop never touches React state. Under
// prefers-reduced-motion every display draws at most once a second (web/a11y/reduced-motion.ts).

import { useEffect, useRef, type RefObject } from "react";
import { motionFrameGapMs, useReducedMotion } from "../a11y/reduced-motion";

export interface FrameGate {
  /** True when a frame at `now` (ms) should be drawn; records it as drawn. */
  ready(now: number): boolean;
  /** Forget the last frame: the next one is drawn at once. */
  reset(): void;
}

/** Throttles a ~60 Hz (or 120 Hz) rAF clock to one frame per `gapMs` on average. The remainder
 *  of each gap is carried over, so a 20 ms gap on a 16.7 ms display draws 50 times a second
 *  rather than every other frame (30). After a pause longer than two gaps the schedule restarts
 *  instead of drawing a burst of catch-up frames. */
export function createFrameGate(gapMs: number): FrameGate {
  // Half a millisecond of slack: rAF timestamps jitter, and a frame 0.1 ms early is on time.
  const slack = 0.5;
  let last = Number.NEGATIVE_INFINITY;
  return {
    ready(now) {
      const elapsed = now - last;
      if (elapsed < gapMs - slack) return false;
      last = elapsed > 2 * gapMs ? now : now - Math.max(0, elapsed - gapMs);
      return true;
    },
    reset() {
      last = Number.NEGATIVE_INFINITY;
    },
  };
}

export interface AnimationLoopOptions {
  /** Milliseconds between two drawn frames (see createFrameGate). */
  gapMs: number;
  /** False stops the loop (e.g. playback stopped). */
  running: boolean;
}

/** Calls `draw(now)` at most once per `gapMs` while `running`, the page is visible and
 *  `target` is on screen. `draw` may change between renders; the latest one is called. */
export function useAnimationLoop(
  target: RefObject<Element | null>,
  draw: (now: number) => void,
  { gapMs: displayGapMs, running }: AnimationLoopOptions,
): void {
  const gapMs = motionFrameGapMs(displayGapMs, useReducedMotion());
  const drawRef = useRef(draw);
  useEffect(() => {
    drawRef.current = draw;
  });

  useEffect(() => {
    if (!running) return;
    const gate = createFrameGate(gapMs);
    let raf = 0;
    let onScreen = true;
    const frame = (now: number) => {
      raf = requestAnimationFrame(frame);
      if (gate.ready(now)) drawRef.current(now);
    };
    const update = () => {
      const wanted = onScreen && !document.hidden;
      if (wanted && raf === 0) {
        gate.reset();
        raf = requestAnimationFrame(frame);
      } else if (!wanted && raf !== 0) {
        cancelAnimationFrame(raf);
        raf = 0;
      }
    };
    const observer = typeof IntersectionObserver === "undefined" || !target.current
      ? null
      : new IntersectionObserver((entries) => {
          onScreen = entries.some((e) => e.isIntersecting);
          update();
        });
    if (observer && target.current) observer.observe(target.current);
    document.addEventListener("visibilitychange", update);
    update();
    return () => {
      document.removeEventListener("visibilitychange", update);
      observer?.disconnect();
      cancelAnimationFrame(raf);
      raf = 0;
    };
  }, [gapMs, running, target]);
}
