// The studio's "Session timeline" panel: the time axis with the channels' lines and the step
// handles, the selected step's description (a polite live region, so a screen reader hears what a
// key press did), the step editor, the voices (VoicesPanel) and the session's text view with .sbg import and export. Edits go through the pure
// functions of edit.ts into the studio store's timeline; the selection is this panel's own.

import { useEffect, useMemo, useRef, useState } from "react";
import { useStore } from "zustand";
import { resolveTimeline, scheduleEnd } from "../../dsp/host/schema/timeline";
import { announce } from "../a11y/announcer";
import { useStudioGate } from "../account/hooks";
import { useAudio, useStudio } from "../state/studio-context";
import { axisEnd, channelRuns } from "./axis";
import { describeStep } from "./describe";
import { addStep, newStepTime, removeStep, stateAtStep, type Edited } from "./edit";
import {
  ADD_STEP, ADD_STEP_HELP, EMPTY_TIMELINE, LEGEND_LABEL, STEPS_AFTER_END, TIMELINE_HELP, TIMELINE_TITLE, channelName, stepAdded, stepDeleted,
} from "./messages";
import { StepEditor } from "./StepEditor";
import { TimelineText } from "./TimelineText";
import { VoicesPanel } from "./VoicesPanel";
import { formatStepTime } from "./time";
import { CHANNEL_STYLES, TimelineAxis, axisWidth, timeScaleFor } from "./TimelineAxis";
import { usePlayhead } from "./use-playhead";
import "./timeline.css";

/** Width used before the panel has been measured (and by a server-side render). */
const INITIAL_WIDTH = 640;

function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(INITIAL_WIDTH);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.clientWidth) || INITIAL_WIDTH);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export function TimelinePanel() {
  const store = useStudio();
  const audio = useAudio();
  const timeline = useStore(store, (s) => s.timeline);
  const duration = useStore(store, (s) => s.duration);
  const channels = useStore(store, (s) => s.channels);
  const effects = useStore(store, (s) => s.effects);
  const voices = useStore(store, (s) => s.voices);
  const gate = useStudioGate();
  const [selectedRaw, setSelected] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const playheadLine = useRef<SVGLineElement>(null);
  const width = useWidth(frame);

  const steps = timeline?.steps ?? [];
  const selected = steps.length === 0 ? -1 : Math.min(Math.max(0, selectedRaw), steps.length - 1);
  const base = useMemo(() => ({ channels, effects }), [channels, effects]);
  const resolved = useMemo(() => resolveTimeline(base, timeline ?? { steps: [] }), [base, timeline]);
  const stepTimes = useMemo(() => (timeline?.steps ?? []).map((s) => s.at), [timeline]);
  const scale = timeScaleFor(width, axisEnd(duration, timeline), stepTimes);
  const current = usePlayhead(playheadLine, scale, timeline);
  const drawn = useMemo(() => channelRuns(resolved, scale.end).map((runs) => runs.length > 0), [resolved, scale.end]);

  const selectedState = selected >= 0 ? stateAtStep(base, timeline, selected) : null;

  const onEdit = (edit: Edited) => {
    setNotice(null);
    store.getState().setTimeline(edit.timeline);
    setSelected(edit.index);
  };

  const add = () => {
    const at = newStepTime(timeline, audio.playPosition());
    const result = addStep(timeline, at);
    if (!result.ok) {
      setNotice(result.error);
      announce(result.error);
      return;
    }
    onEdit(result);
    announce(stepAdded(result.index, formatStepTime(at)));
  };

  const remove = (index: number) => {
    onEdit(removeStep(timeline, index));
    announce(stepDeleted(index));
  };

  const end = timeline ? scheduleEnd(timeline) : 0;
  return (
    <section className="panel timeline" aria-labelledby="timeline-title">
      <div className="tl-head">
        <h2 id="timeline-title">{TIMELINE_TITLE}</h2>
        <button type="button" className="button primary tl-add" aria-describedby="tl-add-help" onClick={add}>{ADD_STEP}</button>
      </div>
      <p className="help">{TIMELINE_HELP}</p>
      <p id="tl-add-help" className="help">{ADD_STEP_HELP}</p>
      <div className="tl-frame" ref={frame}>
        <TimelineAxis
          timeline={timeline}
          resolved={resolved}
          scale={scale}
          width={axisWidth(scale)}
          selected={selected}
          current={current}
          locked={gate.studioLocked}
          playhead={playheadLine}
          onSelect={setSelected}
          onEdit={onEdit}
        />
      </div>
      <ul className="tl-legend" aria-label={LEGEND_LABEL}>
        {drawn.map((on, i) =>
          on ? (
            <li key={i}>
              <svg width="28" height="8" aria-hidden="true">
                <line x1="0" x2="28" y1="4" y2="4" stroke={CHANNEL_STYLES[i].color} strokeWidth="2.5" strokeDasharray={CHANNEL_STYLES[i].dash || undefined} />
              </svg>
              {channelName(i + 1)}
            </li>
          ) : null,
        )}
      </ul>
      <p className="tl-desc" aria-live="polite" aria-atomic="true">
        {steps.length === 0 ? EMPTY_TIMELINE : describeStep(steps, selected, selectedState!, voices ?? [])}
      </p>
      {end > duration && <p className="help tl-warning">{STEPS_AFTER_END(formatStepTime(duration))}</p>}
      {notice && <p className="form-error" role="alert">{notice}</p>}
      {selected >= 0 && timeline && (
        <StepEditor
          timeline={timeline}
          index={selected}
          state={selectedState!}
          gate={gate}
          playing={selected === current}
          onSelect={setSelected}
          onEdit={onEdit}
          onDelete={() => remove(selected)}
        />
      )}
      <VoicesPanel selected={selected} locked={gate.studioLocked} />
      <TimelineText />
    </section>
  );
}
