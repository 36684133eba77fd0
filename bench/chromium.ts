// Runs engine renders (in a Web Worker) and native OfflineAudioContext graphs in headless
// Chromium, serving the bench page, worker bundle and wasm from memory (no server, no network).

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../tests/e2e/browser";
import type { AudioState } from "../dsp/host/state";

const ORIGIN = "http://bench.localhost";

export interface ChromiumBench {
  /** Seconds of wall time for the engine to render `seconds` of `state` in a worker. */
  engine(state: AudioState, seconds: number): Promise<number>;
  /** Seconds of wall time for an OfflineAudioContext graph (built by `graph` in the page). */
  offline(graph: string, seconds: number): Promise<number>;
  version: string;
  close(): Promise<void>;
}

async function workerBundle(): Promise<string> {
  const out = await build({
    entryPoints: [fileURLToPath(new URL("./browser/engine-worker.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    write: false,
    target: "es2022",
    logLevel: "silent",
  });
  return out.outputFiles[0].text;
}

export async function openChromiumBench(): Promise<ChromiumBench> {
  const browser: Browser = await launchChromium();
  const page: Page = await browser.newPage();
  const worker = await workerBundle();
  const wasm = readFileSync(fileURLToPath(new URL("../dsp/build/engine.wasm", import.meta.url)));
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/worker.js") return route.fulfill({ body: worker, contentType: "text/javascript" });
    if (path === "/engine.wasm") return route.fulfill({ body: wasm, contentType: "application/wasm" });
    return route.fulfill({ body: "<!doctype html><title>bench</title>", contentType: "text/html" });
  });
  await page.goto(`${ORIGIN}/`);
  return {
    version: browser.version(),
    engine: (state, seconds) =>
      page.evaluate(
        async ({ state, seconds }) => {
          const bytes = await (await fetch("/engine.wasm")).arrayBuffer();
          const w = new Worker("/worker.js", { type: "module" });
          const result = await new Promise<{ ms: number }>((resolve, reject) => {
            w.onmessage = (e) => resolve(e.data);
            w.onerror = (e) => reject(new Error(e.message));
            w.postMessage({ wasm: bytes, state, seconds, block: 16384 }, [bytes]);
          });
          w.terminate();
          return result.ms / 1000;
        },
        { state, seconds },
      ),
    offline: (graph, seconds) =>
      page.evaluate(
        async ({ graph, seconds }) => {
          const ctx = new OfflineAudioContext(2, Math.round(seconds * 48000), 48000);
          new Function("ctx", graph)(ctx);
          const t0 = performance.now();
          await ctx.startRendering();
          return (performance.now() - t0) / 1000;
        },
        { graph, seconds },
      ),
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
