// The one animation loop of the displays: a requestAnimationFrame loop throttled to a frame gap,
// which runs only while it has something to show. It stops completely (no rAF callback at all)
// while `running` is false, while the tab is hidden (document.hidden: background tab, locked
// phone screen) and while the element is scrolled out of view, and starts again when all three
// allow. Drawing goes straight to a canvas: the loop never touches React state. Under
// prefers-reduced-motion every display draws at most once a second (web/a11y/reduced-motion.ts).
//
// Both displays draw from one loop, which sleeps on a timer between drawn frames and asks for
// animation frames only around the refresh the next draw falls on; displays with the same frame
// gap draw on the same animation frame. Every animation frame asked for costs the browser a
// frame's work (style, layout, paint, intersection checks) even when nothing is drawn, and every
// frame in which a canvas changed costs a commit of the layer tree: the loop first asked on every
// refresh, 2.5 animation frames per drawn one at 24 fps on a 60 Hz screen (the UI bench,
// bench/ui.ts, measured the cost).

import { useEffect, useRef, type RefObject } from "react";
import { motionFrameGapMs, useReducedMotion } from "../a11y/reduced-motion";

export interface FrameGate {
  /** True when a frame at `now` (ms) should be drawn; records it as drawn. */
  ready(now: number): boolean;
  /** Milliseconds from `now` until a frame would be ready (0 or less: it is). */
  dueIn(now: number): number;
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
    dueIn(now) {
      return last + gapMs - slack - now;
    },
    reset() {
      last = Number.NEGATIVE_INFINITY;
    },
  };
}

/** What the loop needs from the browser; a test passes a simulated screen and clock. */
export interface LoopClock {
  /** performance.now(). */
  now(): number;
  requestFrame(callback: (frameTime: number) => void): number;
  cancelFrame(id: number): void;
  setTimer(callback: () => void, ms: number): ReturnType<typeof setTimeout>;
  clearTimer(id: ReturnType<typeof setTimeout>): void;
}

const browserClock: LoopClock = {
  now: () => performance.now(),
  requestFrame: (cb) => requestAnimationFrame(cb),
  cancelFrame: (id) => cancelAnimationFrame(id),
  setTimer: (cb, ms) => setTimeout(cb, ms),
  clearTimer: (id) => clearTimeout(id),
};

export interface FrameScheduler {
  /** Calls `draw(now)` on animation frames at most once per `gapMs` (createFrameGate) until the
   *  returned function is called. Draws with the same gap share one gate, so they land on the
   *  same animation frame and the browser composites one frame for all of them, not one each. */
  add(gapMs: number, draw: (now: number) => void): () => void;
}

/** The refresh period the loop aims its wake-ups with (a 60 Hz screen). On a faster screen it
 *  wakes up to a few refreshes early and asks for a frame on each until one is due. */
export const AIM_REFRESH_MS = 1000 / 60;

/** The displays' one loop. Each animation frame is judged by its own timestamp, as a plain rAF
 *  loop would (so frames land on the same refreshes: 2, 3, 2, 3 refreshes apart at 24 fps on a
 *  60 Hz screen). Between draws it sleeps on a timer until half a refresh before the refresh the
 *  next draw falls on, then asks for animation frames until it draws. Waking exactly when the
 *  draw was due asked for a single frame, but Chromium often ran it in the refresh already under
 *  way, a refresh early, then the next draw came a refresh late: 1 and 3 refreshes apart, a visible
 *  stutter in the spectrogram's scroll. This way about one frame in two is asked for twice (1.5
 *  frames per draw, against 2.5 for a rAF on every refresh). With nothing to draw it asks for
 *  nothing at all. */
export function createFrameScheduler(clock: LoopClock = browserClock): FrameScheduler {
  const groups = new Map<number, { gate: FrameGate; draws: Set<(now: number) => void> }>();
  let raf = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    if (raf !== 0) clock.cancelFrame(raf);
    if (timer !== undefined) clock.clearTimer(timer);
    raf = 0;
    timer = undefined;
  };
  const frame = (now: number) => {
    raf = 0;
    try {
      for (const g of groups.values()) if (g.gate.ready(now)) for (const draw of g.draws) draw(now);
    } finally {
      // (A draw that throws must not end the loop.) A draw may have removed every display.
      if (groups.size > 0 && raf === 0 && timer === undefined) {
        const dueIn = Math.min(...[...groups.values()].map((g) => g.gate.dueIn(now)));
        // The refresh the next draw falls on, counted from this frame's (on the refresh grid).
        const target = now + Math.ceil(dueIn / AIM_REFRESH_MS) * AIM_REFRESH_MS;
        const sleep = Math.floor(target - AIM_REFRESH_MS / 2 - clock.now());
        if (sleep > 0) timer = clock.setTimer(wake, sleep);
        else raf = clock.requestFrame(frame);
      }
    }
  };
  const wake = () => {
    timer = undefined;
    raf = clock.requestFrame(frame);
  };
  return {
    add(gapMs, draw) {
      let group = groups.get(gapMs);
      if (!group) {
        group = { gate: createFrameGate(gapMs), draws: new Set() };
        groups.set(gapMs, group);
        // A new gate draws at once: cut a sleep short.
        if (timer !== undefined) cancel();
      }
      group.draws.add(draw);
      if (raf === 0 && timer === undefined) raf = clock.requestFrame(frame);
      const g = group;
      return () => {
        g.draws.delete(draw);
        if (g.draws.size === 0 && groups.get(gapMs) === g) groups.delete(gapMs);
        if (groups.size === 0) cancel();
      };
    },
  };
}

let shared: FrameScheduler | null = null;

export interface AnimationLoopOptions {
  /** Milliseconds between two drawn frames (see createFrameGate). */
  gapMs: number;
  /** False stops the loop (e.g. playback stopped). */
  running: boolean;
}

/** Calls `draw(now)` at most once per `gapMs` while `running`, the page is visible and
 *  `target` is on screen, from the displays' shared loop (createFrameScheduler). `draw` may
 *  change between renders; the latest one is called. */
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
    let remove: (() => void) | null = null;
    let onScreen = true;
    const update = () => {
      const wanted = onScreen && !document.hidden;
      if (wanted && !remove) {
        shared ??= createFrameScheduler();
        remove = shared.add(gapMs, (now) => drawRef.current(now));
      } else if (!wanted && remove) {
        remove();
        remove = null;
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
      remove?.();
      remove = null;
    };
  }, [gapMs, running, target]);
}
