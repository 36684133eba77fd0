// The timeline editor's edits as pure functions: each takes the store's timeline (undefined when
// the session has no steps) and returns the next one with the edited step's new index, so the
// panel keeps the same step selected after a move re-sorts the list. Steps stay sorted by time;
// a step moved onto another's time goes after it when it moved later and before it when it moved
// earlier (the later of two steps at one time wins). Values are made to fit by the model's own
// schema (dsp/host/schema/timeline.ts), so the editor can store nothing a preset could not load.

import { MAX_DURATION_UNLIMITED_SECONDS, MAX_TIMELINE_STEPS } from "../../dsp/host/model/limits";
import { resolveTimeline, timelineSchema, type Base, type ResolvedStep, type StepChannel, type StepEffect, type Timeline, type TimelineStep } from "../../dsp/host/schema/timeline";
import { TIMELINE_FULL } from "./messages";

/** A new step after the last one lands this far after it. */
export const STEP_GAP_SECONDS = 10;
/** Left / Right move the selected step by this much; with Shift by the large step. */
export const NUDGE_SECONDS = 1;
export const NUDGE_LARGE_SECONDS = 10;

export interface Edited {
  /** undefined when no step is left (the store's "no timeline"). */
  timeline: Timeline | undefined;
  /** The edited step's index after sorting; -1 when none is selected. */
  index: number;
}

export type AddResult = ({ ok: true } & Edited) | { ok: false; error: string };

const stepsOf = (t: Timeline | undefined): TimelineStep[] => t?.steps ?? [];
const wrap = (steps: TimelineStep[]): Timeline | undefined => (steps.length > 0 ? { steps } : undefined);

/** A time the model accepts: 0 to 12 hours, whole milliseconds. */
export function fitTime(seconds: number): number {
  if (!Number.isFinite(seconds)) return 0;
  return Math.round(Math.min(MAX_DURATION_UNLIMITED_SECONDS, Math.max(0, seconds)) * 1000) / 1000;
}

/** The step made to fit by the timeline schema (frequencies clamped and rounded, unknown effect
 *  keys dropped, ...), or null when the schema refuses it (a name over 64 characters). */
function fit(step: TimelineStep): TimelineStep | null {
  const parsed = timelineSchema.safeParse({ steps: [step] });
  return parsed.success ? parsed.data.steps[0] : null;
}

/** Where a step at `at` goes in sorted `steps`: after the steps at the same time, or before them. */
function insertionIndex(steps: readonly TimelineStep[], at: number, afterEqual: boolean): number {
  const i = steps.findIndex((s) => (afterEqual ? s.at > at : s.at >= at));
  return i < 0 ? steps.length : i;
}

function inRange(t: Timeline | undefined, index: number): boolean {
  return Number.isInteger(index) && index >= 0 && index < stepsOf(t).length;
}

/** The time "Add step" uses: the playhead while playing, 0 for the first step, else
 *  STEP_GAP_SECONDS after the last step (at most 12 hours). */
export function newStepTime(t: Timeline | undefined, playhead: number | null): number {
  if (playhead !== null && Number.isFinite(playhead)) return fitTime(Math.round(playhead));
  const steps = stepsOf(t);
  if (steps.length === 0) return 0;
  return fitTime(steps[steps.length - 1].at + STEP_GAP_SECONDS);
}

/** Adds a step (by default one that changes nothing and jumps) at `at`, after any step already
 *  there; refused when the timeline holds MAX_TIMELINE_STEPS. */
export function addStep(t: Timeline | undefined, at: number, init: Omit<Partial<TimelineStep>, "at"> = {}): AddResult {
  const steps = stepsOf(t);
  if (steps.length >= MAX_TIMELINE_STEPS) return { ok: false, error: TIMELINE_FULL };
  const step = fit({ ramp: "hold", ...init, at: fitTime(at) }) ?? { ramp: "hold", at: fitTime(at) };
  const index = insertionIndex(steps, step.at, true);
  return { ok: true, timeline: { steps: [...steps.slice(0, index), step, ...steps.slice(index)] }, index };
}

/** Moves step `index` to time `at` (clamped to 0..12 h), re-sorting. */
export function moveStep(t: Timeline | undefined, index: number, at: number): Edited {
  if (!inRange(t, index)) return { timeline: t, index: -1 };
  const steps = stepsOf(t);
  const step = steps[index];
  const to = fitTime(at);
  if (to === step.at) return { timeline: t, index };
  const rest = [...steps.slice(0, index), ...steps.slice(index + 1)];
  const at2 = insertionIndex(rest, to, to > step.at);
  return { timeline: { steps: [...rest.slice(0, at2), { ...step, at: to }, ...rest.slice(at2)] }, index: at2 };
}

/** Moves step `index` by `delta` seconds (the keyboard's Left and Right). */
export function nudgeStep(t: Timeline | undefined, index: number, delta: number): Edited {
  if (!inRange(t, index)) return { timeline: t, index: -1 };
  return moveStep(t, index, stepsOf(t)[index].at + delta);
}

function replaceStep(t: Timeline | undefined, index: number, make: (s: TimelineStep) => TimelineStep): Edited {
  if (!inRange(t, index)) return { timeline: t, index: -1 };
  const steps = stepsOf(t).slice();
  const step = fit(make(steps[index]));
  if (!step) return { timeline: t, index };
  steps[index] = step;
  return { timeline: { steps }, index };
}

/** Changes a step's time, ramp or name (an empty name removes it). */
export function updateStep(t: Timeline | undefined, index: number, patch: Partial<Pick<TimelineStep, "at" | "ramp" | "label">>): Edited {
  const { at, ...rest } = patch;
  let out = replaceStep(t, index, (s) => {
    const next: TimelineStep = { ...s, ...rest };
    if (next.label !== undefined && next.label.trim() === "") delete next.label;
    return next;
  });
  if (at !== undefined && out.index >= 0) out = moveStep(out.timeline, out.index, at);
  return out;
}

/** Sets some of channel `id`'s values at step `index` (the rest stay as the steps before left them). */
export function setStepChannel(t: Timeline | undefined, index: number, id: number, patch: Omit<Partial<StepChannel>, "id">): Edited {
  return replaceStep(t, index, (s) => {
    const channels = (s.channels ?? []).filter((c) => c.id !== id);
    const current = s.channels?.find((c) => c.id === id) ?? { id };
    channels.push({ ...current, ...patch, id });
    return { ...s, channels: channels.sort((a, b) => a.id - b.id) };
  });
}

/** Drops every change step `index` makes to channel `id`. */
export function clearStepChannel(t: Timeline | undefined, index: number, id: number): Edited {
  return replaceStep(t, index, (s) => {
    const channels = (s.channels ?? []).filter((c) => c.id !== id);
    const next: TimelineStep = { ...s, channels };
    if (channels.length === 0) delete next.channels;
    return next;
  });
}

/** Sets some of effect `id`'s values (switch, value, extras) at step `index`. */
export function setStepEffect(t: Timeline | undefined, index: number, id: string, patch: StepEffect): Edited {
  return replaceStep(t, index, (s) => ({ ...s, effects: { ...s.effects, [id]: { ...s.effects?.[id], ...patch } } }));
}

/** Drops every change step `index` makes to effect `id`. */
export function clearStepEffect(t: Timeline | undefined, index: number, id: string): Edited {
  return replaceStep(t, index, (s) => {
    const effects = { ...s.effects };
    delete effects[id];
    const next: TimelineStep = { ...s, effects };
    if (Object.keys(effects).length === 0) delete next.effects;
    return next;
  });
}

/** Removes step `index`; the selection moves to the step that took its place (or the new last). */
export function removeStep(t: Timeline | undefined, index: number): Edited {
  if (!inRange(t, index)) return { timeline: t, index: -1 };
  const steps = stepsOf(t).filter((_, i) => i !== index);
  return { timeline: wrap(steps), index: Math.min(index, steps.length - 1) };
}

/** The step that sets what plays at `seconds`: the last one at or before it, -1 before the first. */
export function stepIndexAt(t: Timeline | undefined, seconds: number): number {
  const steps = stepsOf(t);
  let found = -1;
  for (let i = 0; i < steps.length && steps[i].at <= seconds; i++) found = i;
  return found;
}

/** The full state step `index` leaves playing (the session's own state with every change up to
 *  and including it): what the editor's fields show for values the step does not set itself. */
export function stateAtStep(base: Base, t: Timeline | undefined, index: number): ResolvedStep {
  const steps = stepsOf(t).slice(0, Math.max(0, index + 1));
  const resolved = resolveTimeline(base, { steps });
  return resolved[resolved.length - 1];
}
