// The timeline's time axis (SVG): the four channels' frequencies as lines over the session (log
// frequency scale, ramps drawn with their curve), one handle per step on a lane above them, and
// the playhead. Handles are sliders for assistive technology: focus one to select its step; Left
// and Right move it by NUDGE_SECONDS (Shift: NUDGE_LARGE_SECONDS), Delete or Backspace removes it;
// with a mouse or finger, drag it sideways (it snaps to whole seconds, coarser on long sessions).

import { useEffect, useLayoutEffect, useMemo, useRef, type KeyboardEvent, type PointerEvent, type RefObject } from "react";
import { MAX_DURATION_UNLIMITED_SECONDS } from "../../dsp/host/model/limits";
import type { ResolvedStep, Timeline } from "../../dsp/host/schema/timeline";
import {
  channelRuns, dragSnap, formatHz, frequencyRange, frequencyTicks, frequencyToY, plotWidthForSteps, runsPath, timeTicks, timeToX, xToTime,
  type FrequencyScale, type TimeScale,
} from "./axis";
import { stepValueText } from "./describe";
import { moveStep, nudgeStep, removeStep, NUDGE_LARGE_SECONDS, NUDGE_SECONDS, type Edited } from "./edit";
import { AXIS_LABEL, channelName } from "./messages";
import { formatTickTime } from "./time";

/** Geometry of the drawing in px (the width follows the panel). */
export const AXIS_LAYOUT = { left: 58, right: 18, lane: 14, plotTop: 34, plotHeight: 150, bottom: 26 } as const;
const HANDLE_R = 8;

/** Colour and dash per channel: told apart by both, for colour-blind users. */
export const CHANNEL_STYLES = [
  { color: "#38bdf8", dash: "" },
  { color: "#f472b6", dash: "7 4" },
  { color: "#a3e635", dash: "2 4" },
  { color: "#fbbf24", dash: "10 4 2 4" },
] as const;

/** The time scale for a frame `width` px wide: the plot fills it, or grows wider (and the frame
 *  scrolls) when steps would otherwise sit closer than a handle (plotWidthForSteps). */
export function timeScaleFor(width: number, end: number, stepTimes: readonly number[] = []): TimeScale {
  const fill = width - AXIS_LAYOUT.left - AXIS_LAYOUT.right;
  return { end, x0: AXIS_LAYOUT.left, width: Math.max(40, fill, plotWidthForSteps(stepTimes, end)) };
}

/** The SVG's width for a scale. */
export const axisWidth = (s: TimeScale): number => s.x0 + s.width + AXIS_LAYOUT.right;

interface Props {
  timeline: Timeline | undefined;
  resolved: readonly ResolvedStep[];
  scale: TimeScale;
  /** Total width of the SVG in px. */
  width: number;
  selected: number;
  /** The step that plays (-1: none). */
  current: number;
  /** Nothing can be moved or focused (the studio is locked). */
  locked: boolean;
  playhead: RefObject<SVGLineElement | null>;
  onSelect(index: number): void;
  onEdit(edit: Edited): void;
}

export function TimelineAxis({ timeline, resolved, scale, width, selected, current, locked, playhead, onSelect, onEdit }: Props) {
  const steps = timeline?.steps ?? [];
  const { plotTop, plotHeight, lane, bottom } = AXIS_LAYOUT;
  const height = plotTop + plotHeight + bottom;
  const runs = useMemo(() => channelRuns(resolved, scale.end), [resolved, scale.end]);
  const fscale: FrequencyScale = useMemo(() => {
    const all = runs.flatMap((chan) => chan.flatMap((run) => run.map((p) => p.f)));
    return { ...frequencyRange(all), y0: plotTop, height: plotHeight };
  }, [runs, plotTop, plotHeight]);

  const handles = useRef<(SVGGElement | null)[]>([]);
  const refocus = useRef(false);
  const drag = useRef<{ index: number; pointer: number } | null>(null);
  // Latest timeline for the pointer handlers, which outlive a render during a drag.
  const latest = useRef(timeline);
  useEffect(() => {
    latest.current = timeline;
  });

  useLayoutEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    handles.current[selected]?.focus();
  });

  const editAndFocus = (edit: Edited) => {
    refocus.current = true;
    onEdit(edit);
  };

  const onKey = (e: KeyboardEvent<SVGGElement>, index: number) => {
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      const step = e.shiftKey ? NUDGE_LARGE_SECONDS : NUDGE_SECONDS;
      editAndFocus(nudgeStep(latest.current, index, e.key === "ArrowLeft" ? -step : step));
    } else if (e.key === "Delete" || e.key === "Backspace") {
      editAndFocus(removeStep(latest.current, index));
    } else {
      return;
    }
    e.preventDefault();
  };

  const timeAt = (e: PointerEvent<SVGGElement>): number => {
    const rect = (e.currentTarget.ownerSVGElement ?? e.currentTarget).getBoundingClientRect();
    const snap = dragSnap(scale);
    return Math.round(xToTime(e.clientX - rect.left, scale) / snap) * snap;
  };

  const onPointerDown = (e: PointerEvent<SVGGElement>, index: number) => {
    if (locked || e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { index, pointer: e.pointerId };
    onSelect(index);
  };

  const onPointerMove = (e: PointerEvent<SVGGElement>) => {
    const d = drag.current;
    if (!d || d.pointer !== e.pointerId) return;
    const edit = moveStep(latest.current, d.index, timeAt(e));
    if (edit.timeline === latest.current) return;
    d.index = edit.index;
    onEdit(edit);
  };

  const endDrag = (e: PointerEvent<SVGGElement>) => {
    if (drag.current?.pointer !== e.pointerId) return;
    drag.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };

  const ticksT = timeTicks(scale);
  const ticksF = frequencyTicks(fscale);
  const plotBottom = plotTop + plotHeight;
  return (
    <svg className="tl-axis" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="group" aria-label={AXIS_LABEL}>
      <g aria-hidden="true">
        <rect className="tl-plot" x={scale.x0} y={plotTop} width={scale.width} height={plotHeight} />
        {ticksF.map((f) => (
          <g key={`f${f}`}>
            <line className="tl-grid" x1={scale.x0} x2={scale.x0 + scale.width} y1={frequencyToY(f, fscale)} y2={frequencyToY(f, fscale)} />
            <text className="tl-tick" x={scale.x0 - 6} y={frequencyToY(f, fscale)} textAnchor="end" dominantBaseline="middle">{formatHz(f)}</text>
          </g>
        ))}
        {ticksT.map((t) => (
          <g key={`t${t}`}>
            <line className="tl-grid" x1={timeToX(t, scale)} x2={timeToX(t, scale)} y1={plotTop} y2={plotBottom} />
            <text className="tl-tick" x={timeToX(t, scale)} y={plotBottom + 16} textAnchor="middle">{formatTickTime(t)}</text>
          </g>
        ))}
        {runs.map((chan, i) =>
          chan.length > 0 ? (
            <path
              key={`c${i}`}
              className="tl-line"
              data-channel={i + 1}
              d={runsPath(chan, scale, fscale)}
              stroke={CHANNEL_STYLES[i].color}
              strokeDasharray={CHANNEL_STYLES[i].dash || undefined}
            >
              <title>{channelName(i + 1)}</title>
            </path>
          ) : null,
        )}
        {steps.map((s, i) => (
          <line
            key={`g${i}`}
            className="tl-guide"
            data-selected={i === selected}
            data-current={i === current}
            x1={timeToX(s.at, scale)}
            x2={timeToX(s.at, scale)}
            y1={lane + HANDLE_R}
            y2={plotBottom}
          />
        ))}
        <line ref={playhead} className="tl-playhead" x1={scale.x0} x2={scale.x0} y1={lane - HANDLE_R} y2={plotBottom} visibility="hidden" />
      </g>
      {steps.map((s, i) => (
        <g
          key={`h${i}`}
          ref={(el) => {
            handles.current[i] = el;
          }}
          className="tl-handle"
          role="slider"
          tabIndex={locked ? -1 : 0}
          aria-label={`Step ${i + 1}${s.label ? ` (${s.label})` : ""}`}
          aria-valuemin={0}
          aria-valuemax={MAX_DURATION_UNLIMITED_SECONDS}
          aria-valuenow={s.at}
          aria-valuetext={stepValueText(s)}
          aria-disabled={locked || undefined}
          data-selected={i === selected}
          data-current={i === current}
          transform={`translate(${timeToX(s.at, scale).toFixed(1)} ${lane})`}
          onFocus={() => onSelect(i)}
          onKeyDown={(e) => onKey(e, i)}
          onPointerDown={(e) => onPointerDown(e, i)}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
        >
          <circle className="tl-hit" r={HANDLE_R + 8} />
          <circle className="tl-knob" r={HANDLE_R} />
        </g>
      ))}
    </svg>
  );
}
