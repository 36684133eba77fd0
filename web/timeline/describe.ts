// Plain-language descriptions of timeline steps: the live description of the selected step (read
// by screen readers, shown under the axis for everyone) and the handles' value text.

import { effectDef } from "../../dsp/host/catalogue";
import type { StepChannel, StepEffect, TimelineStep } from "../../dsp/host/timeline";
import { formatEffectValue } from "../studio/EffectCard";
import { formatHz } from "./axis";
import { NO_STEP_SELECTED, RAMP_SHORT, channelName, stepName } from "./messages";
import { formatStepTime } from "./time";

function channelChange(c: StepChannel): string {
  const parts: string[] = [];
  if (c.enabled === false) parts.push("off");
  else if (c.enabled === true) parts.push("on");
  if (c.frequency !== undefined) parts.push(formatHz(c.frequency));
  if (c.volume !== undefined) parts.push(`volume ${Math.round(c.volume * 100)} %`);
  if (c.waveform !== undefined) parts.push(c.waveform);
  return `${channelName(c.id).toLowerCase()} ${parts.join(", ")}`;
}

function effectChange(id: string, fx: StepEffect): string {
  const def = effectDef(id);
  if (!def) return id;
  const parts: string[] = [];
  if (fx.enabled !== undefined) parts.push(fx.enabled ? "on" : "off");
  if (typeof fx.value === "number") parts.push(formatEffectValue(def, fx.value));
  for (const x of def.extras) if (fx[x.key] !== undefined) parts.push(`${x.label.toLowerCase()} ${String(fx[x.key])}`);
  return `${def.name} ${parts.join(", ")}`;
}

/** What a step changes: "channel 1 800 Hz; Binaural Beat on, 4.0 Hz", or "no changes". */
export function describeChanges(step: TimelineStep): string {
  const parts = [
    ...(step.channels ?? []).filter((c) => Object.keys(c).length > 1).map(channelChange),
    ...Object.entries(step.effects ?? {}).map(([id, fx]) => effectChange(id, fx)),
  ];
  return parts.length > 0 ? parts.join("; ") : "no changes";
}

/** The handle's value text: "00:00:06, linear ramp". A step at 0 starts the session: no ramp. */
export function stepValueText(step: TimelineStep): string {
  const time = formatStepTime(step.at);
  return step.at > 0 ? `${time}, ${RAMP_SHORT[step.ramp]}` : time;
}

/** "Step 2 of 3 (descent) at 00:00:06, linear ramp: channel 1 800 Hz." */
export function describeStep(steps: readonly TimelineStep[], index: number): string {
  const step = steps[index];
  if (!step) return NO_STEP_SELECTED;
  const name = step.label ? ` (${step.label})` : "";
  return `${stepName(index, steps.length)}${name} at ${stepValueText(step)}: ${describeChanges(step)}.`;
}
