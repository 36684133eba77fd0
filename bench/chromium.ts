// Runs engine renders (in a Web Worker) and native OfflineAudioContext graphs in headless
// Chromium, serving the bench page, worker bundle and wasm from memory (no server, no network).

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../tests/e2e/browser";
import type { AudioState } from "../dsp/host/schema/state";

const ORIGIN = "http://bench.localhost";

export interface EngineSession {
  /** Seconds of wall time for the session's engine to render `seconds` of its patch. */
  render(seconds: number): Promise<number>;
}

export interface ChromiumBench {
  /** A worker holding one warmed engine on `state` (until the browser closes). */
  engine(state: AudioState): Promise<EngineSession>;
  /** Seconds of wall time for an OfflineAudioContext graph (built by `graph` in the page). */
  offline(graph: string, seconds: number): Promise<number>;
  version: string;
  close(): Promise<void>;
}

/** Bundles a TypeScript entry (path relative to bench/) into one ES module string, in memory. */
export async function bundleEntry(entry: string): Promise<string> {
  const out = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    format: "esm",
    write: false,
    target: "es2022",
    logLevel: "silent",
  });
  return out.outputFiles[0].text;
}

/** Wall seconds for Chromium's OfflineAudioContext to render `graph` for `seconds` in `page`
 *  (graph construction is not timed). Also the yardstick of the browser export rows. */
export function offlineRender(page: Page, graph: string, seconds: number): Promise<number> {
  return page.evaluate(
    async ({ graph, seconds }) => {
      const ctx = new OfflineAudioContext(2, Math.round(seconds * 48000), 48000);
      new Function("ctx", graph)(ctx);
      const t0 = performance.now();
      await ctx.startRendering();
      return (performance.now() - t0) / 1000;
    },
    { graph, seconds },
  );
}

type BenchWindow = { benchWorkers: Map<number, Worker>; benchAsk(w: Worker, msg: unknown, transfer?: Transferable[]): Promise<{ ms: number }> };

export async function openChromiumBench(): Promise<ChromiumBench> {
  const browser: Browser = await launchChromium();
  const page: Page = await browser.newPage();
  const worker = await bundleEntry("./browser/engine-worker.ts");
  const wasm = readFileSync(fileURLToPath(new URL("../dsp/build/engine.wasm", import.meta.url)));
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/worker.js") return route.fulfill({ body: worker, contentType: "text/javascript" });
    if (path === "/engine.wasm") return route.fulfill({ body: wasm, contentType: "application/wasm" });
    return route.fulfill({ body: "<!doctype html><title>bench</title>", contentType: "text/html" });
  });
  await page.goto(`${ORIGIN}/`);
  await page.evaluate(() => {
    const w = window as unknown as BenchWindow;
    w.benchWorkers = new Map();
    w.benchAsk = (worker, msg, transfer = []) =>
      new Promise((resolve, reject) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = (e) => reject(new Error(e.message));
        worker.postMessage(msg, transfer);
      });
  });
  let nextId = 0;
  return {
    version: browser.version(),
    engine: async (state) => {
      const id = nextId++;
      await page.evaluate(
        async ({ id, state }) => {
          const w = window as unknown as BenchWindow;
          const bytes = await (await fetch("/engine.wasm")).arrayBuffer();
          const worker = new Worker("/worker.js", { type: "module" });
          w.benchWorkers.set(id, worker);
          await w.benchAsk(worker, { type: "init", wasm: bytes, state, block: 16384 }, [bytes]);
        },
        { id, state },
      );
      return {
        render: (seconds) =>
          page.evaluate(async ({ id, seconds }) => {
            const w = window as unknown as BenchWindow;
            const r = await w.benchAsk(w.benchWorkers.get(id)!, { type: "render", seconds });
            return r.ms / 1000;
          }, { id, seconds }),
      };
    },
    offline: (graph, seconds) => offlineRender(page, graph, seconds),
    close: () => browser.close(),
  };
}

/** The base patch as a native graph: 4 OscillatorNodes -> tone gains 0.15 -> mixer 1/4 ->
 *  master 0.8 -> DynamicsCompressorNode (-24 dB, 12:1, 3 ms, 250 ms) -> destination. */
export const BASE_GRAPH = `
  const comp = new DynamicsCompressorNode(ctx, { threshold: -24, ratio: 12, attack: 0.003, release: 0.25, knee: 30 });
  const master = new GainNode(ctx, { gain: 0.8 });
  const mixer = new GainNode(ctx, { gain: 0.25 });
  mixer.connect(master).connect(comp).connect(ctx.destination);
  [["sine", 432], ["square", 528], ["sawtooth", 639], ["triangle", 741]].forEach(([type, frequency]) => {
    const o = new OscillatorNode(ctx, { type, frequency });
    o.connect(new GainNode(ctx, { gain: 0.15 })).connect(mixer);
    o.start();
  });
  return { mixer, master, comp };
`;

/** The comparison patch as a native graph: the base patch, then a phaser (8 all-pass
 *  BiquadFilters swept by an LFO), a chorus (3 LFO-modulated DelayNodes), a tremolo (an LFO on a
 *  GainNode), a ping-pong delay (two cross-fed DelayNodes, 0.25 s / 0.375 s) and a reverb
 *  (ConvolverNode with a 2 s stereo noise impulse response). */
export const COMPARISON_GRAPH = BASE_GRAPH.replace("mixer.connect(master).connect(comp).connect(ctx.destination);", `
  const lfo = (hz, depth, target) => {
    const o = new OscillatorNode(ctx, { frequency: hz });
    const g = new GainNode(ctx, { gain: depth });
    o.connect(g).connect(target);
    o.start();
  };
  let node = mixer;
  const phaserLfoGain = new GainNode(ctx, { gain: 600 });
  const phaserLfo = new OscillatorNode(ctx, { frequency: 2 });
  phaserLfo.connect(phaserLfoGain);
  phaserLfo.start();
  for (let i = 0; i < 8; i++) {
    const ap = new BiquadFilterNode(ctx, { type: "allpass", frequency: 1000, Q: 0.7 });
    phaserLfoGain.connect(ap.frequency);
    node.connect(ap);
    node = ap;
  }
  const chorusOut = new GainNode(ctx, { gain: 1 });
  node.connect(chorusOut);
  for (let i = 0; i < 3; i++) {
    const d = new DelayNode(ctx, { delayTime: 0.015 + i * 0.005, maxDelayTime: 0.05 });
    lfo(0.3 + i * 0.2, 0.002, d.delayTime);
    const g = new GainNode(ctx, { gain: 0.3 });
    node.connect(d).connect(g).connect(chorusOut);
  }
  const trem = new GainNode(ctx, { gain: 0.75 });
  lfo(4, 0.25, trem.gain);
  chorusOut.connect(trem);
  const dl = new DelayNode(ctx, { delayTime: 0.25, maxDelayTime: 2 });
  const dr = new DelayNode(ctx, { delayTime: 0.375, maxDelayTime: 3 });
  const fbl = new GainNode(ctx, { gain: 0.4 });
  const fbr = new GainNode(ctx, { gain: 0.4 });
  const merger = new ChannelMergerNode(ctx, { numberOfInputs: 2 });
  trem.connect(dl);
  dl.connect(fbl).connect(dr);
  dr.connect(fbr).connect(dl);
  dl.connect(merger, 0, 0);
  dr.connect(merger, 0, 1);
  const wet = new GainNode(ctx, { gain: 0.5 });
  merger.connect(wet);
  const sum = new GainNode(ctx, { gain: 1 });
  trem.connect(sum);
  wet.connect(sum);
  const ir = ctx.createBuffer(2, ctx.sampleRate * 2, ctx.sampleRate);
  for (let c = 0; c < 2; c++) {
    const d = ir.getChannelData(c);
    let seed = 12345 + c;
    for (let i = 0; i < d.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      d[i] = ((seed / 4294967296) * 2 - 1) * Math.exp((-6.9 * i) / d.length);
    }
  }
  const conv = new ConvolverNode(ctx, { buffer: ir });
  const rev = new GainNode(ctx, { gain: 0.3 });
  sum.connect(conv).connect(rev).connect(master);
  sum.connect(master);
  master.connect(comp).connect(ctx.destination);
`);
