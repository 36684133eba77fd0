// The Markdown summary written next to the JSON (out.json -> out.md): made for a CI step summary
// ($GITHUB_STEP_SUMMARY), readable in a terminal too. Failures first, then every row, then the
// per-effect costs sorted.

import { type Comparison, fmtVerdict, type Verdict } from "./compare";
import { fmtRelative, fmtRepeats, fmtTarget, fmtValue, num, pct } from "./format";
import { isAbsoluteKind, type BenchResult, type BenchRow } from "./schema";

const cell = (s: string) => s.replace(/\|/g, "\\|");

export function machineLine(r: BenchResult): string {
  const m = r.machine;
  return (
    `${r.mode} run, ${r.date.slice(0, 16).replace("T", " ")} UTC, commit ${r.commit ?? "unknown"}, ${r.durationSeconds.toFixed(0)} s; ` +
    `${m.cpu}, ${m.cores} cores, ${m.platform}/${m.arch}, Node ${m.node}, Chromium ${m.chromium}, load average ${m.loadAverage.map((x) => x.toFixed(2)).join(" ")}`
  );
}

export function compareLine(c: Comparison): string {
  const base = `baseline of ${c.baselineDate.slice(0, 10)}${c.baselineCommit ? ` (${c.baselineCommit})` : ""}, tolerance ${c.tolerancePercent} %`;
  if (c.failures.length === 0) return `**Compare: pass**: ${c.verdicts.filter((v) => v.gates).length} gating rows within the ${base}.`;
  return `**Compare: FAIL**: ${c.failures.map((f) => `\`${f.id}\` ${f.status === "regressed" ? pct(f.changePercent) : f.status}`).join(", ")} against the ${base}.`;
}

function rowTable(rows: BenchRow[], verdicts: Map<string, Verdict>, compared: boolean): string[] {
  const head = compared ? "| row | this run | repeats | machine-independent | baseline | vs baseline |" : "| row | this run | repeats | machine-independent |";
  const lines = [head, compared ? "|---|---:|---|---|---:|---|" : "|---|---:|---|---|"];
  for (const r of rows) {
    const v = verdicts.get(r.id);
    // UI rows carry no machine-independent figure: their target and verdict go in its place.
    const relative = isAbsoluteKind(r.kind) ? `${fmtRelative(r.relative, r)}; target ${fmtTarget(r)}` : fmtRelative(r.relative, r);
    const cells = [cell(r.name), fmtValue(r), fmtRepeats(r), cell(relative)];
    if (compared) cells.push(v?.baseline != null ? (r.kind === "yardstick" || isAbsoluteKind(r.kind) ? fmtValue({ value: v.baseline, unit: r.unit }) : num(v.baseline)) : "", fmtVerdict(v));
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines;
}

export function markdownReport(result: BenchResult, comparison: Comparison | null): string {
  const verdicts = new Map((comparison?.verdicts ?? []).map((v) => [v.id, v]));
  const out = [`## Tone Studio bench`, "", machineLine(result), ""];
  if (comparison) {
    out.push(compareLine(comparison), "");
    for (const w of comparison.warnings) out.push(`> ${w}`);
    const missing = comparison.verdicts.filter((v) => v.status === "missing" || v.status === "incomparable");
    for (const v of missing) out.push(`- \`${v.id}\` ${v.status}: ${v.note}`);
    if (comparison.warnings.length + missing.length > 0) out.push("");
  }
  const failed = result.checks.filter((c) => c.ok === false);
  out.push(failed.length === 0 ? "Checks: all met." : `Checks failed: ${failed.map((c) => c.name).join("; ")}.`, "");
  const main = result.rows.filter((r) => r.kind !== "fx");
  out.push(...rowTable(main, verdicts, comparison !== null), "");
  const fx = result.rows.filter((r) => r.kind === "fx").sort((a, b) => b.value - a.value);
  if (fx.length > 0) {
    out.push("### Per-effect cost (ns per frame each effect adds to the base patch in Node, most expensive first)", "");
    out.push(...rowTable(fx, verdicts, comparison !== null), "");
  }
  out.push(
    "Machine-independent figures divide each row by a yardstick measured in the same run (see bench/SCHEMA.md); " +
      "--compare uses only those. A row that is not gating is too noisy on the baseline's machine for this tolerance; " +
      "the UI rows (the studio's displays in Chromium, throttled like a phone) are absolute figures and never gate.",
  );
  return out.join("\n") + "\n";
}
