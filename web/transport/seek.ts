// Seeking in a session with a timeline. The engine plays a sound from its first frame, so a seek
// to t plays a sound cut at t: its state at 0:00 is the session's state at t (channels and
// effects evaluated on the ramp they are on, the voices of the last step at or before t), and
// the steps after t come t seconds earlier, ramps and all. Pure functions: the audio client sends
// the cut sound to the engine and counts the playhead from t.

import { evaluateTimeline, hasTimeline, resolveTimeline } from "../../dsp/host/schema/timeline";
import type { SoundState, TimelineStep } from "../../dsp/host/schema/state";

/** `sound` as heard from `seconds` on (the sound itself when there is no timeline or t <= 0). */
export function soundFrom(sound: SoundState, seconds: number): SoundState {
  const timeline = sound.timeline;
  if (!hasTimeline(timeline) || !(seconds > 0)) return sound;
  const steps = resolveTimeline(sound, timeline);
  const at = evaluateTimeline(steps, seconds);
  let voices = sound.voices;
  for (const s of timeline.steps) if (s.at <= seconds && s.voices) voices = s.voices;
  const later: TimelineStep[] = timeline.steps.filter((s) => s.at > seconds).map((s) => ({ ...s, at: s.at - seconds }));
  const label = steps[at.index]?.label;
  const first: TimelineStep = { at: 0, ramp: "hold", ...(label ? { label } : {}) };
  return { channels: at.channels, effects: at.effects, voices, timeline: { steps: [first, ...later] } };
}

/** The name of the step that plays at `seconds`: its label, else "Step n" (1-based), or null
 *  before the first step or without a timeline. */
export function stepNameAt(sound: Pick<SoundState, "timeline">, seconds: number): string | null {
  const steps = sound.timeline?.steps;
  if (!steps || steps.length === 0) return null;
  let index = -1;
  for (let i = 0; i < steps.length; i++) if (steps[i].at <= seconds) index = i;
  if (index < 0) return null;
  return steps[index].label || `Step ${index + 1}`;
}
