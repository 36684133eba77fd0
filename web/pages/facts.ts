// The numbers the static pages, the hero and the explanatory blocks quote, derived from the
// constants the engine, the export and the API actually use (dsp/host/model/limits.ts, dsp/host/export/wav.ts,
// dsp/host/model/catalogue.ts, api/rules/plans.ts), so the prose cannot drift from the product.

import { effectDef, EFFECTS } from "../../dsp/host/model/catalogue";
import {
  GLIDE_SECONDS,
  MAX_DURATION_UNLIMITED_SECONDS,
  MAX_FREQUENCY_HZ,
  MIN_DURATION_SECONDS,
} from "../../dsp/host/model/limits";
import { FADE_IN_DEFAULT_SECONDS } from "../../dsp/host/model/levels";
import { WAV_BITS, WAV_BLOCK_ALIGN, WAV_CHANNELS, WAV_SAMPLE_RATE } from "../../dsp/host/export/wav";
import { DEMO_CHANNELS, DEMO_DURATION_MS, DEMO_EFFECTS, durationWords, MAX_DURATION_TEXT, PLAN_EXPORTS, PLANS, STUDIO_CHANNELS } from "../../api/rules/plans";
import { PASSWORD_MIN } from "../../api/rules/passwords";

/** 20000 -> "20,000". */
export function num(n: number): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: 3 });
}

/** "A, B and C". */
export function listText(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export const FACTS = {
  maxFrequency: `${num(MAX_FREQUENCY_HZ)} Hz`,
  channels: STUDIO_CHANNELS.full,
  freeChannels: STUDIO_CHANNELS.free,
  sampleRate: `${num(WAV_SAMPLE_RATE)} Hz`,
  sampleRateKHz: `${WAV_SAMPLE_RATE / 1000} kHz`,
  /** Half the sample rate: the highest frequency a digital signal at that rate can hold. */
  nyquist: `${num(WAV_SAMPLE_RATE / 2)} Hz`,
  /** The oscillators keep every partial below 0.45 of the sample rate (dsp/assembly/osc). */
  partialCeiling: `${num((WAV_SAMPLE_RATE * 0.45) / 1000)} kHz`,
  wavFormat: `${WAV_CHANNELS === 2 ? "stereo" : "mono"}, ${WAV_BITS}-bit PCM`,
  /** Size of one hour of exported WAV in MB, to the nearest 10 (691,200,000 bytes: "about 690"). */
  hourOfWavMB: Math.round((WAV_SAMPLE_RATE * WAV_BLOCK_ALIGN * 3600) / 1e7) * 10,
  glideMs: `${num(GLIDE_SECONDS * 1000)} ms`,
  /** The default fade-in of every start (Safe listening). */
  fadeIn: `${num(FADE_IN_DEFAULT_SECONDS)} s`,
  effectCount: EFFECTS.length,
  minDuration: `${num(MIN_DURATION_SECONDS)} seconds`,
  maxDuration: MAX_DURATION_TEXT,
  maxDurationUnlimited: durationWords(MAX_DURATION_UNLIMITED_SECONDS),
  /** The longest export of a plan and the plan that has it (api/rules/plans.ts PLAN_EXPORTS). */
  longExport: durationWords(PLAN_EXPORTS.commercial.maxSeconds),
  longExportPlan: PLANS.commercial.name,
  /** Exports per plan and period, as the cards say them. */
  exportsText: `${PLAN_EXPORTS.oneDay.quota} with the ${PLANS.oneDay.name}, ${PLAN_EXPORTS.monthly.quota} a month with ${PLANS.monthly.name} and ${PLAN_EXPORTS.commercial.quota} a month with the ${PLANS.commercial.name}`,
  demoMinutes: `${num(DEMO_DURATION_MS / 60_000)} minutes`,
  demoChannels: DEMO_CHANNELS,
  demoEffects: listText(DEMO_EFFECTS.map((id) => effectDef(id)?.name ?? id)),
  passwordMin: PASSWORD_MIN,
  plans: PLANS,
} as const;
