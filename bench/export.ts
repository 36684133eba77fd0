// bench/export: the WAV export end to end.
// - CLI: `scripts/render.ts` renders the base patch for 12 hours (quick: 2 minutes, best of 5)
//   into a temp directory as a child process: wall time, x realtime, MB/s and peak RSS (the CLI's own
//   getrusage via --stats, and /usr/bin/time -v for the whole process when present); ffprobe
//   must read the full duration back; the file is deleted afterwards.
// - Browser: the studio's export worker in headless Chromium writing a 10-minute (quick: 60 s)
//   file into OPFS, through createWritable (the save-picker path, and the OPFS fallback where the
//   browser has it) and a sync access handle (the fallback without it), with its x realtime.
// Targets: 12-hour export < 2 minutes, peak RSS < 150 MB whatever the duration.
// Yardsticks (bench/measure.ts): the CLI rows are divided by the Node reference synth sampled in
// this process between CLI runs, the browser rows by an OfflineAudioContext render of the base
// patch in the same page between exports.

import { execFile, spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { findFfprobe } from "../api/platform/binaries";
import type { Browser, Page } from "playwright-core";
import type { ExportSettings } from "../dsp/host/export/formats";
import { exportPlan } from "../dsp/host/export/render";
import type { AudioState } from "../dsp/host/schema/state";
import { launchChromium } from "../tests/e2e/browser";
import { BASE_GRAPH, bundleEntry, offlineRender } from "./chromium";
import { REFERENCE_ID, best, makeRow, oacId, roundsAsync } from "./measure";
import { basePatch } from "./patches";
import { NodeYardstick } from "./reference";
import type { BenchResult, BenchRow } from "./schema";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const TIME = "/usr/bin/time";
const TARGET_WALL_S = 120;
const TARGET_RSS_MB = 150;

export interface CliExport {
  audioSeconds: number;
  bytes: number;
  /** Whole child process, startup included. */
  wallSeconds: number;
  /** The render loop alone, as the CLI measured it. */
  renderSeconds: number;
  peakRssMB: number;
  /** /usr/bin/time -v's maximum resident set size (null when not installed). */
  timeMaxRssMB: number | null;
  ffprobeDuration: number | null;
}

interface CliStats {
  wallSeconds: number;
  audioSeconds: number;
  bytes: number;
  xRealtime: number;
  mbPerSecond: number;
  maxRssMB: number;
}

/** `scripts/render.ts` with `args` as a child process, under /usr/bin/time -v when present (its
 *  "Maximum resident set size" is the render's own: Linux keeps ru_maxrss across exec, so the
 *  render's getrusage also counts the forked copy of this process, 160-230 MB with a browser
 *  driver loaded). */
export function runCli(args: string[]): Promise<{ stdout: string; stderr: string; code: number; wall: number }> {
  const useTime = existsSync(TIME);
  const node = [process.execPath, "--import", "tsx", "scripts/render.ts", ...args];
  const [cmd, ...argv] = useTime ? [TIME, "-v", ...node] : node;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ stdout, stderr, code: code ?? 1, wall: (performance.now() - t0) / 1000 }));
  });
}

async function ffprobeDuration(file: string): Promise<number | null> {
  const ffprobe = findFfprobe(); // the system's, else the npm-shipped one (api/platform/binaries.ts)
  if (!ffprobe) return null;
  const { stdout } = await promisify(execFile)(ffprobe.path, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]);
  return Number(stdout.trim());
}

async function cliExport(state: AudioState, seconds: number): Promise<CliExport> {
  const dir = mkdtempSync(join(tmpdir(), "export-bench-"));
  try {
    const preset = join(dir, "base.json");
    const out = join(dir, "session.wav");
    writeFileSync(preset, JSON.stringify(state));
    const r = await runCli(["--preset", preset, "--duration", String(seconds), "--out", out, "--stats", "--quiet"]);
    if (r.code !== 0) throw new Error(`render failed (${r.code}): ${r.stderr.trim()}`);
    const statsLine = r.stdout.split("\n").find((l) => l.startsWith("RENDER_STATS "));
    if (!statsLine) throw new Error(`render printed no stats: ${r.stdout}`);
    const stats = JSON.parse(statsLine.slice("RENDER_STATS ".length)) as CliStats;
    const timeRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
    const bytes = statSync(out).size;
    if (bytes !== exportPlan(seconds).totalBytes) throw new Error(`render wrote ${bytes} bytes, expected ${exportPlan(seconds).totalBytes}`);
    return {
      audioSeconds: seconds,
      bytes,
      wallSeconds: r.wall,
      renderSeconds: stats.wallSeconds,
      peakRssMB: stats.maxRssMB,
      timeMaxRssMB: timeRss ? Number(timeRss[1]) / 1024 : null,
      ffprobeDuration: await ffprobeDuration(out),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SINKS = [
  ["picker", "create-writable", "createWritable (save picker; OPFS where the sync handle is refused)"],
  ["opfs-sync", "opfs-sync", "OPFS sync access handle (the OPFS download path's first choice)"],
] as const;

/** The built export worker (dist/assets/export.worker-*.js): the bundle the app ships, with its
 *  chunks and workers beside it (the encoders, the VBR encoder's worker and its .wasm). */
function builtExportWorker(): string {
  const assets = join(REPO, "dist", "assets");
  const name = existsSync(assets) ? readdirSync(assets).find((f) => /^export\.worker-[\w-]+\.js$/.test(f)) : undefined;
  if (!name) throw new Error("No export worker in dist/assets: run `npm run build` first (npm run bench does).");
  return `/assets/${name}`;
}

const CONTENT_TYPES: Record<string, string> = { ".js": "text/javascript", ".wasm": "application/wasm" };

/** A page of `browser` on a loopback HTTP server of its own that serves the studio's built export
 *  worker from dist/ (`npm run build`) and the bench page script; bench/export-formats.ts exports
 *  every format through it. A real server, not page.route: the VBR encoder's worker is started by
 *  the export worker, and a nested worker's requests do not pass through Playwright's routing.
 *  The server closes with the page. */
export async function openExportPage(browser: Pick<Browser, "newPage">): Promise<Page> {
  const worker = builtExportWorker();
  const pageScript = await bundleEntry("./browser/export-page.ts");
  const wasm = readFileSync(join(REPO, "dsp/build/engine.wasm"));
  const html = `<!doctype html><title>export bench</title><script>window.__exportWorker = ${JSON.stringify(worker)};</script><script type="module" src="/page.js"></script>`;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const send = (status: number, body: string | Buffer, type: string) => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    if (path === "/page.js") return send(200, pageScript, "text/javascript");
    if (path === "/engine.wasm") return send(200, wasm, "application/wasm");
    if (/^\/assets\/[\w.-]+$/.test(path)) {
      const file = join(REPO, "dist", path);
      if (!existsSync(file)) return send(404, "not found", "text/plain");
      return send(200, readFileSync(file), CONTENT_TYPES[extname(path)] ?? "application/octet-stream");
    }
    return send(200, html, "text/html");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const page = await browser.newPage();
  page.on("close", () => server.close());
  // localhost: a secure context, so OPFS is there.
  await page.goto(`http://localhost:${port}/`);
  await page.waitForFunction(() => "runExportBench" in window);
  return page;
}

export interface PageExport {
  ms: number;
  status: string;
  size: number;
  failure?: string;
}

/** One export of `seconds` of `state` in the page's export worker into an OPFS file (removed
 *  afterwards); throws when it did not finish. */
export async function exportInPage(page: Page, state: AudioState, seconds: number, sink: "picker" | "opfs-sync", settings?: ExportSettings): Promise<PageExport> {
  const r = await page.evaluate(
    ({ state, seconds, sink, settings }) =>
      (window as unknown as { runExportBench(s: unknown, n: number, k: string, f?: unknown): Promise<PageExport> }).runExportBench(state, seconds, sink, settings),
    { state, seconds, sink, settings },
  );
  if (r.status !== "done") throw new Error(`browser export (${sink}, ${settings?.format ?? "wav16"}) gave ${r.status}${r.failure ? `: ${r.failure}` : ""}`);
  return r;
}

async function browserRows(state: AudioState, seconds: number, n: number): Promise<BenchRow[]> {
  const browser = await launchChromium();
  try {
    const page = await openExportPage(browser);
    const bytes = exportPlan(seconds).totalBytes;
    const exportOnce = async (sink: (typeof SINKS)[number][0]) => {
      const r = await exportInPage(page, state, seconds, sink);
      if (r.size !== bytes) throw new Error(`browser export (${sink}) wrote ${r.size} bytes, expected ${bytes}`);
      return seconds / (r.ms / 1000);
    };
    await exportOnce("picker"); // warm-up: first worker start, first OPFS file
    const oacSeconds = 10; // about 35 ms: the OfflineAudioContext yardstick between exports
    const [oac, ...sinks] = await roundsAsync(n, [
      async () => oacSeconds / (await offlineRender(page, BASE_GRAPH, oacSeconds)),
      ...SINKS.map(([sink]) => () => exportOnce(sink)),
    ]);
    return SINKS.map(([, id, label], k) =>
      makeRow(
        {
          id: `export/chromium/${id}`,
          kind: "export",
          name: `export worker in Chromium, ${label}`,
          unit: "x realtime",
          better: "higher",
          audioSeconds: seconds,
          yardstick: oacId("base"),
          details: { mbPerSecond: (best(sinks[k], "higher") * bytes) / seconds / 1e6 },
        },
        sinks[k],
        oac,
      ),
    );
  } finally {
    await browser.close();
  }
}

export interface ExportBench {
  rows: BenchRow[];
  cli: CliExport;
  checks: BenchResult["checks"];
}

export async function runExport(quick: boolean, yard: NodeYardstick): Promise<ExportBench> {
  const state = basePatch();
  const cliSeconds = quick ? 120 : 43200;
  // The full 12-hour export writes 8.3 GB: once. The 2-minute one is mostly process start-up.
  const runs: CliExport[] = [];
  const [yardSamples] = await roundsAsync(quick ? 5 : 1, [
    async () => yard.sample(),
    async () => {
      runs.push(await cliExport(state, cliSeconds));
      return 0;
    },
  ]);
  const cli = runs.reduce((a, b) => (b.wallSeconds < a.wallSeconds ? b : a));
  const cliRow = makeRow(
    {
      id: "export/cli",
      kind: "export",
      name: `CLI render to disk (${quick ? "2 min" : "12 h"}, ${cli.bytes > 0xffffffff ? "RF64" : "WAV"}), whole process`,
      unit: "x realtime",
      better: "higher",
      audioSeconds: cliSeconds,
      yardstick: REFERENCE_ID,
      details: {
        bytes: cli.bytes,
        wallSeconds: cli.wallSeconds,
        renderSeconds: cli.renderSeconds,
        mbPerSecond: cli.bytes / 1e6 / cli.wallSeconds,
        peakRssMB: cli.peakRssMB,
        timeMaxRssMB: cli.timeMaxRssMB,
        ffprobeDuration: cli.ffprobeDuration,
      },
    },
    runs.map((r) => cliSeconds / r.wallSeconds),
    yardSamples,
  );
  const browser = await browserRows(state, quick ? 60 : 600, quick ? 11 : 3);
  const peakRss = Math.max(...runs.map((r) => Math.max(r.peakRssMB, r.timeMaxRssMB ?? 0)));
  return {
    rows: [cliRow, ...browser],
    cli,
    checks: [
      { name: `12-hour CLI export under ${TARGET_WALL_S} s`, ok: quick ? null : cli.wallSeconds < TARGET_WALL_S },
      { name: `CLI export peak RSS under ${TARGET_RSS_MB} MB`, ok: peakRss < TARGET_RSS_MB },
    ],
  };
}

/** The CLI line bench/run.ts prints under its tables. */
export function describeCli(c: CliExport): string {
  return (
    `CLI: ${c.bytes.toLocaleString("en-US")} bytes; render loop ${c.renderSeconds.toFixed(1)} s of ${c.wallSeconds.toFixed(1)} s wall; ` +
    `peak RSS ${c.peakRssMB.toFixed(0)} MB (getrusage)` +
    (c.timeMaxRssMB !== null ? `, ${c.timeMaxRssMB.toFixed(0)} MB (/usr/bin/time)` : "") +
    `; ffprobe duration ${c.ffprobeDuration ?? "n/a"} s`
  );
}

// Run on its own: `tsx bench/export.ts [--quick]`.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await runExport(process.argv.includes("--quick"), await NodeYardstick.create());
  for (const r of result.rows) console.log(`${r.name}: ${r.value.toFixed(0)} ${r.unit} (best of ${r.samples.length})`);
  console.log(describeCli(result.cli));
}
