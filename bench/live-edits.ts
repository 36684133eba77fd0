// What one live edit costs the audio thread: the worklet answers every state message with
// Engine.apply (dsp/host/engine.ts, called from worklets/engine.worklet.ts), so the time apply
// takes for one edit is time the audio thread cannot render. An AudioWorklet quantum is 2.67 ms at
// 48 kHz, and a phone's hardware buffer is 5-10 ms: an apply that takes longer drops audio there.
//
// Measured in Node, on the same engine the worklet runs, on two published schedules beside the
// repository (../shared/reference/sbagen/examples): SBaGen's chakras program (962 steps) and
// SBaGenX's noiseNN demo (noise spectra). Each edit is made to a copy of the state, as the studio's
// store makes it, and the engine applies the whole new state, as the worklet does today; median
// and worst of 50 edits, the engine warmed by the first apply. The last line reads
//   audio thread per edit: volume X ms, frequency X ms, voice X ms, step X ms, noise spectrum X ms
// Target: every X <= 1 ms. `npx tsx bench/live-edits.ts`; without the examples it says so and exits.

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createNodeEngine } from "../dsp/host/node";
import type { SoundState } from "../dsp/host/model/state";
import { readSbgVoices } from "../dsp/host/sbg/index";

const EXAMPLES = fileURLToPath(new URL("../../shared/reference/sbagen/examples/", import.meta.url));
const CHAKRAS = `${EXAMPLES}sbagen-alsa__basics_prog-chakras-1.sbg`;
const NOISE = `${EXAMPLES}SBaGenX__X_noiseNN-brownian-demo.sbg`;
const EDITS = 50;

function session(path: string): SoundState {
  const read = readSbgVoices(readFileSync(path, "utf8"));
  if (!read.ok) throw new Error(`${path}: ${read.errors.map((e) => e.message).join("; ")}`);
  return read.session;
}

type Edit = (s: SoundState, i: number) => SoundState;

/** Milliseconds Engine.apply takes for each of `EDITS` edits of `state` (median, worst). */
function measure(state: SoundState, edit: Edit): { median: number; worst: number } {
  const engine = createNodeEngine(48000);
  engine.apply(state);
  let current = state;
  const times: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    current = edit(current, i);
    const t = performance.now();
    engine.apply(current);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], worst: times[times.length - 1] };
}

const copy = (s: SoundState): SoundState => structuredClone(s);

const volumeStep: Edit = (s, i) => {
  const next = copy(s);
  next.channels[0].volume = 0.3 + (i % 10) * 0.02;
  return next;
};
const frequency: Edit = (s, i) => {
  const next = copy(s);
  next.channels[0].frequency = 200 + i;
  next.channels[0].enabled = true;
  return next;
};
/** One voice's level in one step (the Voices editor's slider). */
const voiceLevel: Edit = (s, i) => {
  const next = copy(s);
  const steps = next.timeline?.steps ?? [];
  const step = steps[Math.floor(steps.length / 2)];
  const slots = step?.voices ?? next.voices ?? [];
  const v = slots.find((x) => x !== null);
  if (v && "amp" in v) (v as { amp: number }).amp = 5 + (i % 10);
  return next;
};
/** A step added at the end of the timeline (a copy of the last one, a minute later). */
const stepAdded: Edit = (s) => {
  const next = copy(s);
  const steps = next.timeline?.steps;
  if (steps && steps.length > 0) {
    const last = steps[steps.length - 1];
    steps.push({ ...structuredClone(last), at: last.at + 60 });
  }
  return next;
};
/** A noise voice's spectrum changed (a new noiseNN shape, in every step that plays it, as the
 *  Voices editor changes a voice across the session): the engine builds its noise tables. */
const noiseSpectrum: Edit = (s, i) => {
  const next = copy(s);
  const lists = [next.voices ?? [], ...(next.timeline?.steps.map((st) => st.voices ?? []) ?? [])];
  for (const list of lists) {
    const v = list.find((x) => x?.kind === "noise" && Array.isArray((x as { spectrum?: unknown }).spectrum)) as { spectrum: number[] } | undefined;
    if (v) v.spectrum[i % v.spectrum.length] += 0.5;
  }
  return next;
};

const fmt = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

export function liveEdits(): string[] {
  if (!existsSync(CHAKRAS) || !existsSync(NOISE)) return [`bench/live-edits: the published examples are not beside the repository (${EXAMPLES}); nothing measured`];
  const chakras = session(CHAKRAS);
  const noise = session(NOISE);
  const results: [string, { median: number; worst: number }][] = [
    ["volume", measure(chakras, volumeStep)],
    ["frequency", measure(chakras, frequency)],
    ["voice", measure(chakras, voiceLevel)],
    ["step", measure(chakras, stepAdded)],
    ["noise spectrum", measure(noise, noiseSpectrum)],
  ];
  const lines = results.map(([name, r]) => `bench/live-edits: ${name}: median ${fmt(r.median)} ms, worst ${fmt(r.worst)} ms (${EDITS} edits)`);
  lines.push(`audio thread per edit: ${results.map(([name, r]) => `${name} ${fmt(r.median)} ms`).join(", ")}`);
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const line of liveEdits()) console.log(line);
}
