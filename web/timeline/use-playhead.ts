// The timeline's playhead: while the studio plays, an animation-frame loop reads the audio
// client's play position and moves the playhead line straight in the SVG (never through React
// state: STYLE.md's transient updates). Only the step that plays goes through React, and only when
// it changes, so the current step's handle can be highlighted. The line is written only when it
// moves by half a pixel or more: a 40-minute session's playhead changes the DOM a few times a
// second, not sixty.

import { useEffect, useRef, useState, type RefObject } from "react";
import { useStore } from "zustand";
import type { Timeline } from "../../dsp/host/timeline";
import { useAudio, useStudio } from "../studio/studio-context";
import { timeToX, type TimeScale } from "./axis";
import { stepIndexAt } from "./edit";

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
    let frame = 0;
    let lastX = Number.NaN;
    let lastIndex = -2;
    const tick = () => {
      frame = requestAnimationFrame(tick);
      const pos = audio.playPosition();
      if (pos === null) return;
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
    };
    tick();
    return () => {
      cancelAnimationFrame(frame);
      el.setAttribute("visibility", "hidden");
    };
  }, [playing, audio, line]);

  return playing ? current : -1;
}
