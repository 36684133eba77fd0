// The run-to-run spread of the quick bench, and the baseline made from it:
//   npx tsx bench/spread.ts [--runs 10] [--dir .tmp/bench-spread] [--from DIR[,DIR...]]
//                           [--tolerance 15 --out bench/baseline.json]
// Runs `bench/run.ts --quick` as `--runs` separate processes, one after the other, as CI would
// (--from pools the run-N.json files of earlier calls instead), prints per row the min, median and max
// of its machine-independent figure over the runs and which rows gate at each tolerance, and with
// --out writes the baseline: the most typical run (the one closest to every row's median) plus
// the ten-run statistics --compare uses (the median as reference, the spread to decide gating).
// Build the engine first (`npm run build:dsp`; `npm run bench` does it).

import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gates, readBenchFile } from "./compare";
import { num } from "./format";
import { benchResultSchema, isAbsoluteKind, type BenchResult, type BenchRow, type Stability } from "./schema";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** The figure the spread is taken on: `relative`, or the value itself for yardsticks. */
const figure = (r: BenchRow) => r.relative ?? r.value;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Per row id: min, median, max and (max - min) / |median| in percent over the runs. */
export function spreadStats(runs: BenchResult[]): Stability["rows"] {
  const ids = runs[0].rows.map((r) => r.id);
  const out: Stability["rows"] = {};
  for (const id of ids) {
    const xs = runs.map((run) => run.rows.find((r) => r.id === id)).filter((r) => r !== undefined).map(figure);
    if (xs.length !== runs.length) continue; // a row some runs lack has no spread
    const m = median(xs);
    out[id] = { min: Math.min(...xs), median: m, max: Math.max(...xs), spreadPercent: ((Math.max(...xs) - Math.min(...xs)) / (Math.abs(m) || 1)) * 100 };
  }
  return out;
}

/** The run whose rows sit closest to the medians (sum of |log(figure / median)| over compared rows). */
export function mostTypical(runs: BenchResult[], stats: Stability["rows"]): BenchResult {
  const distance = (run: BenchResult) =>
    run.rows.reduce((sum, r) => {
      const s = stats[r.id];
      const x = figure(r);
      // Only rows that can gate count: not the yardsticks, not the UI rows (bench/SCHEMA.md).
      return r.kind === "yardstick" || isAbsoluteKind(r.kind) || !s || !(x > 0 && s.median > 0) ? sum : sum + Math.abs(Math.log(x / s.median));
    }, 0);
  return runs.reduce((a, b) => (distance(b) < distance(a) ? b : a));
}

export function spreadTable(runs: BenchResult[], stats: Stability["rows"], tolerance: number): string {
  const lines = [
    `| row | min | median | max | spread | gates at ${tolerance} % |`,
    "|---|---:|---:|---:|---:|---|",
  ];
  for (const r of runs[0].rows) {
    const s = stats[r.id];
    if (!s) continue;
    const gate = r.kind === "yardstick" ? "yardstick" : isAbsoluteKind(r.kind) ? `never (${r.kind})` : gates(s.spreadPercent, tolerance) ? "yes" : "no";
    lines.push(`| ${r.id} | ${num(s.min)} | ${num(s.median)} | ${num(s.max)} | ${s.spreadPercent.toFixed(1)} % | ${gate} |`);
  }
  return lines.join("\n");
}

function runQuick(file: string): void {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--import", "tsx", "bench/run.ts", "--quick", "--json", file], { cwd: REPO, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`bench run failed (${r.status}):\n${r.stderr}\n${r.stdout.slice(-2000)}`);
  console.log(`  ${file}: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "10" },
      dir: { type: "string", default: ".tmp/bench-spread" },
      from: { type: "string" },
      tolerance: { type: "string" },
      out: { type: "string" },
    },
  });
  const dirs = (values.from ?? values.dir).split(",").map((d) => resolve(REPO, d));
  if (!values.from) {
    mkdirSync(dirs[0], { recursive: true });
    const n = Number(values.runs);
    console.log(`${n} quick bench runs, one after the other:`);
    for (let i = 1; i <= n; i++) runQuick(join(dirs[0], `run-${i}.json`));
  }
  const runs = dirs.flatMap((dir) => readdirSync(dir).filter((f) => /^run-\d+\.json$/.test(f)).map((f) => readBenchFile(join(dir, f))));
  if (runs.length < 2) throw new Error(`need at least two runs in ${dirs.join(", ")}`);
  const stats = spreadStats(runs);
  const compared = Object.entries(stats).filter(([id]) => !id.startsWith("yardstick/") && !id.startsWith("ui/") && !id.startsWith("api/"));
  const durations = runs.map((r) => r.durationSeconds);
  console.log(`\n${runs.length} runs; bench time ${num(Math.min(...durations))} to ${num(Math.max(...durations))} s; load averages at start ${runs.map((r) => r.machine.loadAverage[0].toFixed(1)).join(", ")}`);
  for (const t of [5, 10, 15, 20, 25, 30]) {
    const ok = compared.filter(([, s]) => gates(s.spreadPercent, t)).map(([id]) => id);
    console.log(`tolerance ${t} %: ${ok.length} of ${compared.length} rows gate (${ok.filter((id) => !id.startsWith("fx/")).length} non-fx)`);
  }
  const tolerance = values.tolerance ? Number(values.tolerance) : 15;
  console.log(`\n${spreadTable(runs, stats, tolerance)}`);
  if (values.out) {
    if (!values.tolerance) throw new Error("--out needs the --tolerance chosen from the table above");
    const baseline = benchResultSchema.parse({ ...mostTypical(runs, stats), stability: { runs: runs.length, tolerancePercent: tolerance, rows: stats } });
    writeFileSync(resolve(REPO, values.out), JSON.stringify(baseline, null, 2) + "\n");
    console.log(`\nwrote ${values.out}: run of ${baseline.date}, tolerance ${tolerance} %`);
  }
}
