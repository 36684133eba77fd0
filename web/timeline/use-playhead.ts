// The timeline's playhead: while the studio plays and the axis is on screen in a visible tab, a
// 10 Hz timer reads the audio client's play position and moves the playhead line straight in the
// SVG (never through React state: STYLE.md's transient updates). No animation frames: a line that
// moves a pixel every few seconds does not need sixty updates a second, and the page's frame work
// stays with the displays (which stop when out of view). Only the step that plays goes through
// React, and only when it changes, so the current step's handle can be highlighted. The line is
// written only when it moves by half a pixel or more.

import { useEffect, useRef, useState, type RefObject } from "react";
import { useStore } from "zustand";
import type { Timeline } from "../../dsp/host/schema/timeline";
import { useAudio, useStudio } from "../state/studio-context";
import { timeToX, type TimeScale } from "./axis";
import { stepIndexAt } from "./edit";

/** How often the playhead moves while it is on screen. */
const PLAYHEAD_INTERVAL_MS = 100;

/** Returns the index of the step that plays (-1 when nothing plays or before the first step). */
export function usePlayhead(line: RefObject<SVGLineElement | null>, scale: TimeScale, timeline: Timeline | undefined): number {
  const store = useStudio();
  const audio = useAudio();
  const playing = useStore(store, (s) => s.isPlaying);
  const [current, setCurrent] = useState(-1);
  // The loop reads the latest scale and steps without restarting on every edit.
  const latest = useRef({ scale, timeline });
  useEffect(() => {
    latest.current = { scale, timeline };
  });

  useEffect(() => {
    const el = line.current;
    if (!playing || !el) {
      el?.setAttribute("visibility", "hidden");
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastX = Number.NaN;
    let lastIndex = -2;
    let onScreen = true;
    const tick = () => {
      timer = undefined;
      const pos = audio.playPosition();
      if (pos !== null) {
        const { scale: s, timeline: t } = latest.current;
        const x = timeToX(pos, s);
        if (!(Math.abs(x - lastX) < 0.5)) {
          lastX = x;
          el.setAttribute("x1", x.toFixed(1));
          el.setAttribute("x2", x.toFixed(1));
          el.setAttribute("visibility", "visible");
        }
        const index = stepIndexAt(t, pos);
        if (index !== lastIndex) {
          lastIndex = index;
          setCurrent(index);
        }
      }
      schedule();
    };
    const schedule = () => {
      const run = onScreen && document.visibilityState !== "hidden";
      if (run && timer === undefined) timer = setTimeout(tick, PLAYHEAD_INTERVAL_MS);
      if (!run && timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
    };
    const svg = el.ownerSVGElement;
    const observer =
      typeof IntersectionObserver === "undefined" || !svg
        ? null
        : new IntersectionObserver((entries) => {
            onScreen = entries.some((e) => e.isIntersecting);
            schedule();
          });
    if (observer && svg) observer.observe(svg);
    document.addEventListener("visibilitychange", schedule);
    tick();
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      observer?.disconnect();
      document.removeEventListener("visibilitychange", schedule);
      el.setAttribute("visibility", "hidden");
    };
  }, [playing, audio, line]);

  return playing ? current : -1;
}
