// What one live edit costs the audio thread. The page compiles each new state into a program
// (dsp/host/program.ts: what changed, as typed-array tables) and posts it with its buffers
// transferred; the worklet (worklets/engine.worklet.ts) only loads it (Engine.load) between two
// blocks. An AudioWorklet quantum is 2.67 ms at 48 kHz, and a phone's hardware buffer is 5-10 ms:
// a message that takes longer drops audio there.
//
// Measured in Node, on the same engine the worklet runs, on two published schedules beside the
// repository (../shared/reference/sbagen/examples): SBaGen's chakras program (962 steps) and
// SBaGenX's noiseNN demo (noise spectra). Each edit is made to a copy of the state, as the studio's
// store makes it; the audio thread's cost counts the message's structured clone (transferred) and
// the load; the page's cost (the compile) is printed beside it. Median and worst of 50 edits, the
// engine warmed by the first program. The last line reads
//   audio thread per edit: volume X ms, frequency X ms, voice X ms, step X ms, noise spectrum X ms
// Target: every X <= 1 ms. `npx tsx bench/live-edits.ts`; without the examples it says so and exits.

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createNodeEngine } from "../dsp/host/node";
import { ProgramCompiler, programTransfer } from "../dsp/host/program";
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

interface Cost {
  median: number;
  worst: number;
}

const stats = (times: number[]): Cost => {
  const sorted = [...times].sort((x, y) => x - y);
  return { median: sorted[Math.floor(sorted.length / 2)], worst: sorted[sorted.length - 1] };
};

/** The costs of `EDITS` edits of `state`: on the audio thread (the message's structured clone,
 *  buffers transferred as the studio posts them, counted whole though its first half runs on the
 *  page, then Engine.load) and on the page (ProgramCompiler.compile). */
function measure(state: SoundState, edit: Edit): { audio: Cost; page: Cost } {
  const engine = createNodeEngine(48000);
  const compiler = new ProgramCompiler(48000);
  engine.load(compiler.compile(state).program);
  let current = state;
  const audio: number[] = [];
  const page: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    current = edit(current, i);
    const t0 = performance.now();
    const { program } = compiler.compile(current);
    const t1 = performance.now();
    const received = structuredClone({ type: "program", program }, { transfer: programTransfer(program) });
    engine.load(received.program);
    audio.push(performance.now() - t1);
    page.push(t1 - t0);
  }
  return { audio: stats(audio), page: stats(page) };
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
  const results: [string, { audio: Cost; page: Cost }][] = [
    ["volume", measure(chakras, volumeStep)],
    ["frequency", measure(chakras, frequency)],
    ["voice", measure(chakras, voiceLevel)],
    ["step", measure(chakras, stepAdded)],
    ["noise spectrum", measure(noise, noiseSpectrum)],
  ];
  const lines = results.map(
    ([name, r]) =>
      `bench/live-edits: ${name}: audio thread median ${fmt(r.audio.median)} ms, worst ${fmt(r.audio.worst)} ms; page (compile) median ${fmt(r.page.median)} ms, worst ${fmt(r.page.worst)} ms (${EDITS} edits)`,
  );
  lines.push(`audio thread per edit: ${results.map(([name, r]) => `${name} ${fmt(r.audio.median)} ms`).join(", ")}`);
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const line of liveEdits()) console.log(line);
}
