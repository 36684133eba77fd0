// --compare: this run against a baseline, row by row, on the machine-independent `relative`
// figure (a row divided by a yardstick measured alongside it), never on absolute times, so a
// slower CI machine does not fail. A row "falls" by X % when its speed is (1 - X/100) of the
// baseline's: relative / baseline for throughputs, baseline / relative for costs. The UI rows
// (kind "ui") and the API load rows (kind "api") have no yardstick: their own values are compared,
// and they never gate; an API row missing from a run is reported, not failed.
// `npx tsx bench/compare.ts current.json baseline.json [--tolerance 10]` compares two saved files.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { pct } from "./format";
import { isAbsoluteKind, parseBenchResult, type BenchResult, type BenchRow } from "./schema";

/** A row gates only when the tolerance is at least this many times its measured ten-run range
 *  (about 4.6 standard deviations for normal noise): noise alone should not fail it. */
export const GATE_MARGIN = 1.5;
export const DEFAULT_TOLERANCE = 10;

export function gates(spreadPercent: number, tolerancePercent: number): boolean {
  return spreadPercent * GATE_MARGIN <= tolerancePercent;
}

export type Status = "ok" | "regressed" | "slower-not-gating" | "improved" | "missing" | "absent" | "incomparable" | "new" | "yardstick";

export interface Verdict {
  id: string;
  name: string;
  kind: BenchRow["kind"];
  /** The baseline's figure: its ten-run median when it has one, else its row's relative. */
  baseline: number | null;
  current: number | null;
  /** Speed change in percent: negative is slower (yardstick rows: their own value's change). */
  changePercent: number | null;
  /** The baseline's measured ten-run spread for this row, when it has one. */
  spreadPercent: number | null;
  gates: boolean;
  status: Status;
  note?: string;
}

export interface Comparison {
  tolerancePercent: number;
  baselineDate: string;
  baselineCommit: string | null;
  verdicts: Verdict[];
  /** Verdicts that make --compare exit non-zero: regressed, missing, incomparable. */
  failures: Verdict[];
  warnings: string[];
}

const FAILING: Status[] = ["regressed", "missing", "incomparable"];

function change(baseline: number, current: number, better: BenchRow["better"]): number | null {
  if (!(baseline > 0 && current > 0)) return null; // a cost measured at or below zero is noise
  return ((better === "higher" ? current / baseline : baseline / current) - 1) * 100;
}

export function compareResults(current: BenchResult, baseline: BenchResult, tolerance?: number): Comparison {
  if (current.mode !== baseline.mode) {
    throw new Error(`This run is ${current.mode} but the baseline is ${baseline.mode}: compare like with like (--quick against a --quick baseline).`);
  }
  const tolerancePercent = tolerance ?? baseline.stability?.tolerancePercent ?? DEFAULT_TOLERANCE;
  if (!(tolerancePercent > 0)) throw new Error(`--tolerance must be a positive percentage, not ${tolerance}`);
  const warnings: string[] = [];
  for (const key of ["cpu", "cores", "node", "chromium"] as const) {
    if (current.machine[key] !== baseline.machine[key]) {
      warnings.push(`${key} differs from the baseline's (${baseline.machine[key]} -> ${current.machine[key]}): the yardsticks may shift too.`);
    }
  }
  if (!baseline.stability) warnings.push("The baseline has no measured spread (not made by bench/spread.ts): every row gates.");
  // A row measured against Chromium's own OfflineAudioContext has another yardstick when the
  // Chromium is another release: its graph's speed moves between releases (the comparison patch's
  // relative read 50 in Chromium 156 and 34 in 150 on one machine, with the same engine), so such
  // a row is reported, never gated, until a baseline is made with that Chromium.
  const otherChromium = chromiumMajor(current.machine.chromium) !== chromiumMajor(baseline.machine.chromium);
  if (otherChromium) {
    warnings.push(`Chromium ${current.machine.chromium ?? "(none)"} is another release than the baseline's ${baseline.machine.chromium ?? "(none)"}: rows measured against its OfflineAudioContext are reported, not gated.`);
  }
  const now = new Map(current.rows.map((r) => [r.id, r]));
  const verdicts: Verdict[] = [];
  for (const b of baseline.rows) {
    const c = now.get(b.id);
    now.delete(b.id);
    const stats = baseline.stability?.rows[b.id];
    const ref = stats?.median ?? b.relative;
    const spreadPercent = stats?.spreadPercent ?? null;
    const v: Verdict = { id: b.id, name: b.name, kind: b.kind, baseline: ref, current: c?.relative ?? null, changePercent: null, spreadPercent, gates: false, status: "ok" };
    if (b.kind === "api" && !c) {
      verdicts.push({ ...v, baseline: stats?.median ?? b.value, current: null, status: "absent", note: "not measured in this run (API rows never gate)" });
      continue;
    }
    if (isAbsoluteKind(b.kind) && c) {
      // The studio's displays in a throttled browser: absolute figures (no yardstick), shown
      // against the baseline's but never gating. Their run-to-run noise is the machine's load.
      const reference = stats?.median ?? b.value;
      const changePercent = change(reference, c.value, b.better);
      const status: Status = changePercent === null ? "ok" : changePercent < -tolerancePercent ? "slower-not-gating" : changePercent > tolerancePercent ? "improved" : "ok";
      verdicts.push({ ...v, baseline: reference, current: c.value, changePercent, status });
      continue;
    }
    if (b.kind === "yardstick" || (b.relative === null && !isAbsoluteKind(b.kind))) {
      // Not this project's code: shown for how fast the machine was, never compared.
      verdicts.push({ ...v, baseline: b.value, current: c?.value ?? null, changePercent: c ? change(b.value, c.value, b.better) : null, status: "yardstick" });
      continue;
    }
    if (!c) {
      verdicts.push({ ...v, status: "missing", note: "row missing from this run" });
      continue;
    }
    if (c.yardstick !== b.yardstick || c.relative === null || ref === null) {
      verdicts.push({ ...v, status: "incomparable", note: `yardstick changed (${b.yardstick} -> ${c.yardstick}): make a new baseline` });
      continue;
    }
    v.gates = !baseline.stability || (spreadPercent !== null && gates(spreadPercent, tolerancePercent));
    if (otherChromium && isChromiumYardstick(b.yardstick)) {
      v.gates = false;
      v.note = "another Chromium release";
    }
    v.changePercent = change(ref, c.relative, b.better);
    if (v.changePercent !== null && v.changePercent < -tolerancePercent) v.status = v.gates ? "regressed" : "slower-not-gating";
    else if (v.changePercent !== null && v.changePercent > tolerancePercent) v.status = "improved";
    verdicts.push(v);
  }
  for (const c of now.values()) {
    verdicts.push({ id: c.id, name: c.name, kind: c.kind, baseline: null, current: isAbsoluteKind(c.kind) ? c.value : c.relative, changePercent: null, spreadPercent: null, gates: false, status: c.kind === "yardstick" ? "yardstick" : "new" });
  }
  return {
    tolerancePercent,
    baselineDate: baseline.date,
    baselineCommit: baseline.commit,
    verdicts,
    failures: verdicts.filter((v) => FAILING.includes(v.status)),
    warnings,
  };
}

function chromiumMajor(version: string | null | undefined): string | null {
  return version?.match(/^(\d+)\./)?.[1] ?? null;
}

/** Rows whose yardstick is Chromium's OfflineAudioContext on a patch (bench/measure.ts oacId). */
function isChromiumYardstick(id: string | null): boolean {
  return id?.startsWith("yardstick/oac-") ?? false;
}

/** Console lines: one per failure, naming the row, then a one-line verdict. */
export function describeComparison(c: Comparison): string {
  const lines = c.warnings.map((w) => `warning: ${w}`);
  for (const f of c.failures) {
    const what = f.status === "regressed" ? `fell ${pct(f.changePercent)} (tolerance ${c.tolerancePercent} %)` : f.note;
    lines.push(`${f.status.toUpperCase()}: ${f.id} (${f.name}): ${what}`);
  }
  const slower = c.verdicts.filter((v) => v.status === "slower-not-gating");
  const noisy = slower.filter((v) => !v.note);
  const otherYardstick = slower.filter((v) => v.note);
  if (noisy.length > 0) lines.push(`slower but too noisy here to gate: ${noisy.map((v) => `${v.id} ${pct(v.changePercent)}`).join(", ")}`);
  if (otherYardstick.length > 0) lines.push(`slower, not gated (${otherYardstick[0].note}): ${otherYardstick.map((v) => `${v.id} ${pct(v.changePercent)}`).join(", ")}`);
  const gating = c.verdicts.filter((v) => v.gates).length;
  lines.push(
    c.failures.length === 0
      ? `compare: ${gating} gating rows within ${c.tolerancePercent} % of the baseline (${c.baselineDate.slice(0, 10)})`
      : `compare: ${c.failures.length} row(s) failed against the baseline (${c.baselineDate.slice(0, 10)}), tolerance ${c.tolerancePercent} %`,
  );
  return lines.join("\n");
}

export function readBenchFile(file: string): BenchResult {
  return parseBenchResult(readFileSync(file, "utf8"), file);
}

/** Measures again while gating rows have fallen: `fallen()` compares what is measured so far,
 *  `again()` takes one more pass of every row (each keeps its best repeat), at most `max` times.
 *  Returns the passes taken. A real slowdown stays below the line; a burst of load that covered
 *  a row's repeats but not its yardstick's is outgrown. */
export async function confirmFalls(fallen: () => Verdict[], again: (fell: Verdict[], pass: number) => Promise<void>, max: number): Promise<number> {
  for (let pass = 1; pass <= max; pass++) {
    const fell = fallen().filter((v) => v.status === "regressed");
    if (fell.length === 0) return pass - 1;
    await again(fell, pass);
  }
  return max;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { tolerance: { type: "string" } } });
  if (positionals.length !== 2) {
    console.error("usage: tsx bench/compare.ts current.json baseline.json [--tolerance 10]");
    process.exit(2);
  }
  try {
    const c = compareResults(readBenchFile(positionals[0]), readBenchFile(positionals[1]), values.tolerance ? Number(values.tolerance) : undefined);
    console.log(describeComparison(c));
    process.exit(c.failures.length > 0 ? 1 : 0);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(2);
  }
}

// ---- a verdict as the reports print it ----

const STATUS_TEXT: Record<Status, string> = {
  ok: "ok",
  regressed: "REGRESSED",
  "slower-not-gating": "slower (not gating: noisy)",
  improved: "faster",
  missing: "MISSING",
  absent: "not measured (never gates)",
  incomparable: "INCOMPARABLE",
  new: "new (not in baseline)",
  yardstick: "yardstick",
};

export function fmtVerdict(v: Verdict | undefined): string {
  if (!v) return "";
  const quiet = v.gates || v.status === "yardstick" || v.status === "slower-not-gating";
  const text = v.status === "slower-not-gating" && v.note ? `slower (not gating: ${v.note})` : STATUS_TEXT[v.status];
  return `${text}${v.changePercent !== null ? ` ${pct(v.changePercent)}` : ""}${quiet ? "" : ", not gating"}`;
}
