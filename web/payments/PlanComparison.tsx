// The free-versus-Pro comparison of /subscribe and the pricing screen, built from the same
// constants the gating uses (channels per level, the effect catalogue, the demo's unlocks).

import { EFFECTS, effectDef } from "../../dsp/host/model/catalogue";
import { DEMO_CHANNELS, DEMO_EFFECTS, durationWords, MAX_DURATION_TEXT, PLAN_EXPORTS, PLANS, STUDIO_CHANNELS } from "../../api/rules/plans";
import { DEMO_MINUTES } from "../demo/countdown";

const demoEffects = DEMO_EFFECTS.map((id) => effectDef(id)?.name ?? id).join(", ");

export const PLAN_COMPARISON_ROWS: readonly [feature: string, free: string, pro: string][] = [
  ["Frequency channels (0-20000 Hz)", String(STUDIO_CHANNELS.free), String(STUDIO_CHANNELS.full)],
  ["Waveforms", "Sine", "Sine, square, sawtooth, triangle"],
  ["Effects", "None", `All ${EFFECTS.length}, layered`],
  [`${DEMO_MINUTES}-minute demo`, `Once: channels 1-${DEMO_CHANNELS}, ${demoEffects}`, "Not needed"],
  ["WAV export and preset sharing", "No", "Yes"],
  ["Billing portal", "No", "Yes"],
  ["Playback and export duration", `Up to ${MAX_DURATION_TEXT}`, `Up to ${MAX_DURATION_TEXT}; ${durationWords(PLAN_EXPORTS.commercial.maxSeconds)} with the ${PLANS.commercial.name}`],
  [
    "Exports",
    "None",
    `${PLAN_EXPORTS.oneDay.quota} with the ${PLANS.oneDay.name}, ${PLAN_EXPORTS.monthly.quota} a month with ${PLANS.monthly.name}, ${PLAN_EXPORTS.commercial.quota} a month with the ${PLANS.commercial.name}`,
  ],
];

export function PlanComparison() {
  return (
    <table className="compare">
      <caption>Free versus Pro</caption>
      <thead>
        <tr><th scope="col">Feature</th><th scope="col">Free</th><th scope="col">Pro</th></tr>
      </thead>
      <tbody>
        {PLAN_COMPARISON_ROWS.map(([feature, free, pro]) => (
          <tr key={feature}><th scope="row">{feature}</th><td>{free}</td><td>{pro}</td></tr>
        ))}
      </tbody>
    </table>
  );
}
