// Plain-language descriptions of timeline steps: the live description of the selected step (read
// by screen readers, shown under the axis for everyone) and the handles' value text.

import { EFFECTS } from "../../dsp/host/model/catalogue";
import type { Voice, VoiceSlots } from "../../dsp/host/model/voices";
import type { ResolvedStep, TimelineStep } from "../../dsp/host/schema/timeline";
import { formatEffectValue } from "../effects/EffectCard";
import { formatHz } from "./axis";
import { NO_STEP_SELECTED, RAMP_SHORT, SILENCE, channelName, stepName } from "./messages";
import { formatStepTime } from "./time";

/** A voice as SBaGen writes it, in words: "binaural 200 Hz beat 10 Hz 50 %". */
export function describeVoice(v: Voice): string {
  switch (v.kind) {
    case "tone":
      return `tone ${formatHz(v.carrier)} ${v.amp} %`;
    case "binaural":
      return `binaural ${formatHz(v.carrier)} beat ${v.beat} Hz ${v.amp} %`;
    case "isochronic":
      return `isochronic ${formatHz(v.carrier)} pulse ${v.pulse} Hz ${v.amp} %`;
    case "noise":
      return `${v.colour} noise ${v.amp} %`;
    case "spin":
      return `spinning ${v.colour} noise ${v.width} us ${v.rate} Hz ${v.amp} %`;
    case "bell":
      return `bell ${formatHz(v.carrier)} ${v.amp} %`;
    case "mix":
      return `soundtrack ${v.amp} %`;
    case "mixpulse":
      return `soundtrack pulse ${v.pulse} Hz ${v.amp} %`;
    case "mixam":
      return `soundtrack amplitude modulation ${v.rate} Hz ${v.amp} %`;
    case "mixspin":
      return `spinning soundtrack ${v.width} us ${v.rate} Hz ${v.amp} %`;
    case "mixbeat":
      return `soundtrack beat ${v.beat} Hz ${v.amp} %`;
    case "noisepulse":
      return `pulsed noise ${v.pulse} Hz ${v.amp} %`;
    case "noisebeat":
      return `beating noise ${v.beat} Hz ${v.amp} %`;
  }
}

/** What plays at a step: the sounding channels ("channel 1 800 Hz", the waveform when it is not a
 *  sine), the voices that sound and the effects that are on with their values; "silence" when
 *  nothing sounds. Imported steps set every value, so what plays says more than what the step
 *  sets. */
export function describePlaying(state: Pick<ResolvedStep, "channels" | "effects">, voices: VoiceSlots = []): string {
  const parts = [
    ...voices.filter((v): v is Voice => v !== null && v.amp > 0).map(describeVoice),
    ...state.channels
      .filter((c) => c.enabled && c.frequency > 0 && c.volume > 0)
      .map((c) => `${channelName(c.id).toLowerCase()} ${formatHz(c.frequency)}${c.waveform === "sine" ? "" : ` ${c.waveform}`}`),
    ...EFFECTS.filter((d) => state.effects[d.id]?.enabled).map((d) => `${d.name} ${formatEffectValue(d, state.effects[d.id].value)}`),
  ];
  return parts.length > 0 ? parts.join("; ") : SILENCE;
}

/** The handle's value text: "00:00:06, linear ramp". A step at 0 starts the session: no ramp. */
export function stepValueText(step: TimelineStep): string {
  const time = formatStepTime(step.at);
  return step.at > 0 ? `${time}, ${RAMP_SHORT[step.ramp]}` : time;
}

/** "Step 2 of 3 (descent) at 00:00:06, linear ramp: channel 1 800 Hz." with what plays once the
 *  step is reached (`state`: stateAtStep). */
export function describeStep(
  steps: readonly TimelineStep[],
  index: number,
  state: Pick<ResolvedStep, "channels" | "effects">,
  baseVoices: VoiceSlots = [],
): string {
  const step = steps[index];
  if (!step) return NO_STEP_SELECTED;
  const name = step.label ? ` (${step.label})` : "";
  // The voices playing from this step: its own set, else the last one set before it.
  const voices = steps.slice(0, index + 1).reverse().find((s) => s.voices)?.voices ?? baseVoices;
  return `${stepName(index, steps.length)}${name} at ${stepValueText(step)}: ${describePlaying(state, voices)}.`;
}
