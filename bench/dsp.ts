// bench/dsp: DSP throughput of the engine in Node and in Chromium (worker), against Chromium's
// own OfflineAudioContext rendering the same patch, plus the worst 128-frame quantum in Node.
// Every row is repeated in rounds with its yardstick (bench/measure.ts): the Chromium engine rows
// with the OfflineAudioContext of the same patch, the Node rows with the reference synth; the
// rounds come in three passes spread over the bench run.

import { DEFAULT_CHUNK_BYTES, WavRenderer } from "../dsp/host/export/render";
import { createNodeEngine } from "../dsp/host/node";
import type { AudioState } from "../dsp/host/schema/state";
import { BASE_GRAPH, COMPARISON_GRAPH, openChromiumBench } from "./chromium";
import { FS, Passes, REFERENCE_ID, makeRow, oacId, roundsAsync, type RowSpec } from "./measure";
import { allEffectsPatch, basePatch, comparisonPatch, sweepPatch } from "./patches";
import type { NodeYardstick } from "./reference";
import type { BenchResult, BenchRow } from "./schema";
import type { SoundtrackAudio } from "../dsp/host/model/soundtrack";
import type { RecordingClip } from "../dsp/host/model/recordings";

const QUANTUM_BUDGET_US = (128 / FS) * 1e6; // 2667 us

/** A warmed engine on `state`; each call renders `seconds` from a fresh start and returns
 *  x realtime. */
export function nodeRenderer(state: AudioState, soundtrack: SoundtrackAudio | null = null, recordings: readonly RecordingClip[] = []): (seconds: number) => number {
  const e = createNodeEngine(FS);
  e.setSoundtrack(soundtrack);
  e.setRecordingClips(recordings);
  e.apply(state);
  e.start();
  for (let i = 0; i < 50; i++) e.render(16384); // tier-up warm-up
  return (seconds) => {
    const frames = Math.round(seconds * FS);
    e.start();
    const t0 = performance.now();
    for (let done = 0; done < frames; done += 16384) e.render(Math.min(16384, frames - done));
    return seconds / ((performance.now() - t0) / 1000);
  };
}

/** The export pipeline to memory: render, PCM16 with dither (inside the engine) and the copy of
 *  finished file bytes into the caller's two 1 MiB chunk buffers, as the CLI and the worker run it
 *  minus the disk. One engine and one pair of buffers serve every export, as in a long export's
 *  steady state: a fresh wasm memory and fresh buffers per 20 s export made the figure depend on
 *  how fast the kernel hands out zeroed pages (up to 25 % slower in some processes). Each call
 *  returns x realtime. */
export function exportPipeline(state: AudioState): (seconds: number) => number {
  const engine = createNodeEngine(FS);
  const pool = [new Uint8Array(DEFAULT_CHUNK_BYTES), new Uint8Array(DEFAULT_CHUNK_BYTES)];
  pool.forEach((b) => b.fill(1)); // touch every page once
  return (seconds) => {
    const r = new WavRenderer(engine, state, seconds);
    let bytes = 0;
    const t0 = performance.now();
    for (let i = 0, n = -1; n !== 0; i ^= 1) bytes += n = r.read(pool[i]);
    const wall = (performance.now() - t0) / 1000;
    if (bytes !== r.plan.totalBytes) throw new Error(`export wrote ${bytes} of ${r.plan.totalBytes} bytes`);
    return seconds / wall;
  };
}

/** Cost of one 128-frame render call, in us. The same render is replayed `passes` times from
 *  the start; for each quantum the fastest pass is its intrinsic cost (what the engine needs),
 *  the slowest pass includes the machine's own hiccups (preemption, other processes). */
interface QuantumCost {
  worst: number;
  worstRaw: number;
  median: number;
}

export function quantumCost(state: AudioState, seconds: number, passes = 5): QuantumCost {
  const n = Math.round((seconds * FS) / 128);
  const bestUs = new Float64Array(n).fill(Infinity);
  let worstRaw = 0;
  // One engine, restarted per pass (start() resets it: every pass renders the same samples), so
  // JS and wasm tier-up happen once, in pass 0, which is not counted.
  const e = createNodeEngine(FS);
  e.apply(state);
  for (let pass = 0; pass <= passes; pass++) {
    e.start();
    for (let i = 0; i < n; i++) {
      // performance.now() allocates nothing (hrtime.bigint() would, and its GC shows up as a slow quantum).
      const t = performance.now();
      e.render(128);
      const us = (performance.now() - t) * 1000;
      if (pass === 0) continue;
      worstRaw = Math.max(worstRaw, us);
      bestUs[i] = Math.min(bestUs[i], us);
    }
  }
  const sorted = Float64Array.from(bestUs).sort();
  return { worst: sorted[n - 1], worstRaw, median: sorted[n >> 1] };
}

export interface NodeBench {
  /** One pass of every Node row's repeats (bench/run.ts runs three, spread over the bench). */
  pass(): void;
  rows(): BenchRow[];
}

/** The Node rows: engine throughput (base patch, all 30 effects), the export pipeline to memory and
 *  the worst quanta. Quick: short repeats (6-8 ms each), 7 rounds per pass, so that some fall
 *  between other processes' time slices even on a busy 2-core machine. Full: 10 minutes of audio
 *  per repeat, one per pass: best of 3. */
export function nodeBench(quick: boolean, yard: NodeYardstick): NodeBench {
  const n = quick ? 7 : 1;
  const seconds = quick ? 20 : 600;
  const allSeconds = quick ? 2 : 600;
  const quantumSeconds = quick ? 5 : 30;
  const base = basePatch();
  const all = allEffectsPatch();
  const baseRender = nodeRenderer(base);
  const allRender = nodeRenderer(all);
  const sweepRender = nodeRenderer(sweepPatch());
  const pipeline = exportPipeline(base);
  pipeline(60); // tier-up warm-up of the pipeline's JavaScript
  const passes = new Passes(yard.sample);
  passes.add("base", [() => baseRender(seconds)]);
  passes.add("pipeline", [() => pipeline(seconds)]);
  passes.add("all", [() => allRender(allSeconds)]);
  passes.add("sweep", [() => sweepRender(seconds)]);
  const quanta = { base: [] as QuantumCost[], all: [] as QuantumCost[] };
  passes.add("quantum-base", [() => quanta.base.push(quantumCost(base, quantumSeconds))]);
  passes.add("quantum-all", [() => quanta.all.push(quantumCost(all, quantumSeconds))]);
  const node = { yardstick: REFERENCE_ID, unit: "x realtime", better: "higher" as const };
  const row = (key: string, spec: RowSpec) => makeRow(spec, passes.get(key).samples[0], passes.get(key).yard);
  const quantumRow = (key: "base" | "all", label: string, target: string) => {
    const runs = quanta[key];
    const bestRun = runs.reduce((a, b) => (b.worst < a.worst ? b : a));
    const spec: RowSpec = {
      id: `dsp/quantum/${key === "all" ? "all-effects" : "base"}`,
      kind: "dsp",
      name: `worst 128-frame quantum, ${label}, engine in Node`,
      unit: "us",
      better: "lower",
      audioSeconds: quantumSeconds,
      yardstick: REFERENCE_ID,
      target: `${target} of 2667 us`,
      details: {
        percentOfBudget: (bestRun.worst / QUANTUM_BUDGET_US) * 100,
        medianUs: bestRun.median,
        slowestCallInclMachineNoiseUs: Math.max(...runs.map((r) => r.worstRaw)),
      },
    };
    return makeRow(spec, runs.map((r) => r.worst), passes.get(`quantum-${key}`).yard);
  };
  return {
    pass: () => passes.pass(n),
    rows: () => [
      row("base", { ...node, id: "dsp/node/base", kind: "dsp", name: "base patch, engine in Node", audioSeconds: seconds }),
      row("pipeline", {
        ...node,
        id: "export/node/pipeline",
        kind: "export",
        name: "base patch, export pipeline to memory in Node (render + PCM16 + dither + copy)",
        audioSeconds: seconds,
        target: ">= 2500",
      }),
      // All 30 effects: a 12-hour export must take under 4 minutes (200x realtime) on one core.
      row("all", { ...node, id: "dsp/node/all-effects", kind: "dsp", name: "all 30 effects on, engine in Node", audioSeconds: allSeconds, target: ">= 200" }),
      // A session timeline moving all four channels at once: the per-sample ramp path everywhere.
      row("sweep", { ...node, id: "dsp/node/sweep", kind: "dsp", name: "base patch, all four channels ramping (timeline), engine in Node", audioSeconds: seconds, target: ">= 200" }),
      quantumRow("base", "base patch", "< 2 %"),
      quantumRow("all", "all 30 effects", "< 10 %"),
    ],
  };
}

export interface ChromiumRows {
  /** One pass of both patches' rounds (bench/run.ts runs three, spread over the bench). */
  pass(): Promise<void>;
  rows(): BenchRow[];
  checks(): BenchResult["checks"];
  version: string;
  close(): Promise<void>;
}

/** The Chromium rows: each patch's engine in a worker, alternating with Chromium's own
 *  OfflineAudioContext on the same patch (so both see the same load). Quick: 9 rounds per pass;
 *  the engine renders 120 s (base) or 40 s (comparison) per repeat, about 33 ms either way (the
 *  page's clock ticks in 0.1 ms), OfflineAudioContext 10 s or 2 s, about 35 and 70 ms. Full:
 *  10 minutes for both, one round per pass: best of 3. */
export async function chromiumBench(quick: boolean): Promise<ChromiumRows> {
  const n = quick ? 9 : 1;
  const patches = [
    { id: "base", label: "base patch", state: basePatch(), graph: BASE_GRAPH, seconds: quick ? 120 : 600, oacSeconds: quick ? 10 : 600 },
    { id: "comparison", label: "comparison patch", state: comparisonPatch(), graph: COMPARISON_GRAPH, seconds: quick ? 40 : 600, oacSeconds: quick ? 2 : 600 },
  ];
  const chrome = await openChromiumBench();
  try {
    const sessions = await Promise.all(patches.map((p) => chrome.engine(p.state)));
    const engineXr = patches.map(() => [] as number[]);
    const oacXr = patches.map(() => [] as number[]);
    const rows = () =>
      patches.flatMap((p, k) => {
        const common = { unit: "x realtime", better: "higher" as const };
        return [
          makeRow({ ...common, id: `dsp/chromium/${p.id}`, kind: "dsp", name: `${p.label}, engine in Chromium worker`, audioSeconds: p.seconds, yardstick: oacId(p.id), target: "relative >= 10" }, engineXr[k], oacXr[k]),
          makeRow({ ...common, id: oacId(p.id), kind: "yardstick", name: `${p.label}, Chromium OfflineAudioContext`, audioSeconds: p.oacSeconds, yardstick: null }, oacXr[k], null),
        ];
      });
    return {
      version: chrome.version,
      pass: async () => {
        for (const [k, p] of patches.entries()) {
          const [engineWall, oacWall] = await roundsAsync(n, [() => sessions[k].render(p.seconds), () => chrome.offline(p.graph, p.oacSeconds)]);
          engineXr[k].push(...engineWall.map((w) => p.seconds / w));
          oacXr[k].push(...oacWall.map((w) => p.oacSeconds / w));
        }
      },
      rows,
      checks: () =>
        rows()
          .filter((r) => r.kind === "dsp")
          .map((r) => ({ name: `${r.name} faster than OfflineAudioContext`, ok: (r.relative ?? 0) > 1 })),
      close: () => chrome.close(),
    };
  } catch (err) {
    await chrome.close();
    throw err;
  }
}
