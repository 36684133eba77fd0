// The HTML report written next to the JSON (out.json -> out.html): one self-contained file (inline
// CSS and SVG, no script, no network) with a bar chart per row (the row against its yardstick,
// e.g. engine vs OfflineAudioContext; a UI row against its target; this run against the baseline
// with its fail line) and the per-effect costs sorted. tests/e2e/bench-report.e2e.ts renders it in Chromium.

import { type Comparison, fmtVerdict, type Verdict } from "./compare";
import { fmtRelative, fmtRepeats, fmtTarget, fmtValue, num, yardstickLabel } from "./format";
import { compareLine, machineLine } from "./report-md";
import { isAbsoluteKind, type BenchResult, type BenchRow } from "./schema";

interface Bar {
  label: string;
  value: number;
  cls: string;
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

const LABEL_W = 300;
const BAR_W = 330;
const ROW_H = 22;

/** Horizontal bars on a shared linear scale from 0; an optional dashed marker (the fail line). */
export function barChart(title: string, bars: Bar[], unit: string, marker?: { value: number; label: string }): string {
  const max = Math.max(...bars.map((b) => b.value), marker?.value ?? 0) || 1;
  const x = (v: number) => (Math.max(0, v) / max) * BAR_W;
  const h = bars.length * ROW_H + (marker ? 18 : 6);
  const rects = bars.map((b, i) => {
    const y = i * ROW_H + 3;
    return (
      `<text x="${LABEL_W - 8}" y="${y + 13}" text-anchor="end">${esc(b.label)}</text>` +
      `<rect class="bar ${b.cls}" x="${LABEL_W}" y="${y}" width="${x(b.value).toFixed(1)}" height="${ROW_H - 6}" data-value="${b.value}"><title>${esc(`${b.label}: ${num(b.value)} ${unit}`)}</title></rect>` +
      `<text x="${LABEL_W + x(b.value) + 6}" y="${y + 13}">${esc(num(b.value))} ${esc(unit)}</text>`
    );
  });
  const mark = marker
    ? `<line class="marker" x1="${LABEL_W + x(marker.value)}" x2="${LABEL_W + x(marker.value)}" y1="0" y2="${h - 14}"/>` +
      `<text class="marker-label" x="${LABEL_W + x(marker.value)}" y="${h - 2}" text-anchor="middle">${esc(marker.label)}</text>`
    : "";
  return (
    `<figure><figcaption>${esc(title)}</figcaption>` +
    `<svg role="img" aria-label="${esc(title)}" width="${LABEL_W + BAR_W + 130}" height="${h}" viewBox="0 0 ${LABEL_W + BAR_W + 130} ${h}">${rects.join("")}${mark}</svg></figure>`
  );
}

/** The number in a target such as ">= 24" or "<= 40"; null when it has none. */
export function targetValue(target: string | undefined): number | null {
  const m = /^\s*[<>]=?\s*(-?[\d.]+)/.exec(target ?? "");
  return m ? Number(m[1]) : null;
}

/** The relative value at which a row fails: baseline * (1 - t) for throughputs, baseline / (1 - t) for costs. */
function failLine(v: Verdict, row: BenchRow, tolerance: number): number {
  const f = 1 - tolerance / 100;
  return row.better === "higher" ? v.baseline! * f : v.baseline! / f;
}

function rowSection(r: BenchRow, v: Verdict | undefined, c: Comparison | null): string {
  const charts: string[] = [];
  const target = isAbsoluteKind(r.kind) ? targetValue(r.target) : null;
  if (target !== null) {
    // A UI row: one measured window against its target.
    charts.push(barChart("This run against its target", [{ label: "this run", value: r.value, cls: r.details?.met === false ? "regressed" : "sample" }], r.unit, { value: target, label: `target ${r.target} ${r.unit}` }));
  } else if (r.better === "higher" && r.yardstickValue !== null && r.yardstick) {
    const title = r.yardstick.startsWith("yardstick/oac-") ? "Engine vs OfflineAudioContext" : `Row vs ${yardstickLabel(r.yardstick)}`;
    const bars = [
      { label: r.kind === "export" ? "export" : "engine", value: r.value, cls: "engine" },
      { label: yardstickLabel(r.yardstick), value: r.yardstickValue, cls: "yardstick" },
    ];
    charts.push(barChart(title, bars, r.unit));
  } else {
    const sorted = [...r.samples].sort((a, b) => (r.better === "higher" ? b - a : a - b));
    const spread = [
      { label: "best", value: sorted[0], cls: "sample" },
      { label: "median", value: sorted[sorted.length >> 1], cls: "sample" },
      { label: "worst", value: sorted[sorted.length - 1], cls: "sample" },
    ];
    charts.push(barChart(`Repeats: best, median and worst of ${r.samples.length}`, spread, r.unit));
  }
  if (v && c && v.baseline !== null && v.current !== null) {
    const unit = r.kind === "yardstick" || isAbsoluteKind(r.kind) ? r.unit : "relative";
    const marker = r.kind === "yardstick" || r.relative === null ? undefined : { value: failLine(v, r, c.tolerancePercent), label: `fails beyond ${c.tolerancePercent} %` };
    charts.push(barChart("This run vs baseline", [{ label: "baseline", value: v.baseline, cls: "baseline" }, { label: "this run", value: v.current, cls: `current ${v.status}` }], unit, marker));
  }
  const facts = [fmtValue(r), fmtRepeats(r), fmtRelative(r.relative, r), r.target ? `target ${fmtTarget(r)}` : "", fmtVerdict(v)].filter(Boolean);
  return (
    `<section class="row ${v?.status ?? ""}" data-row-id="${esc(r.id)}" data-kind="${r.kind}">` +
    `<h3>${esc(r.name)}</h3><p class="facts">${facts.map(esc).join(" · ")}</p>${charts.join("")}</section>`
  );
}

function fxChart(fx: BenchRow[], verdicts: Map<string, Verdict>): string {
  const bars: Bar[] = [];
  for (const r of fx) {
    bars.push({ label: r.name, value: r.value, cls: `fx ${verdicts.get(r.id)?.status ?? ""}` });
    const v = verdicts.get(r.id);
    // The baseline at this run's machine speed: its relative times this run's ns per yardstick frame.
    if (v?.baseline != null && r.relative) bars.push({ label: `${r.name} (baseline)`, value: (v.baseline * r.value) / r.relative, cls: "baseline" });
  }
  return `<section class="fx" data-chart="fx">${barChart("Per-effect cost, most expensive first", bars, "ns/frame")}</section>`;
}

const CSS = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1d2330; max-width: 900px; }
h1 { font-size: 1.5rem; } h2 { margin-top: 2rem; } h3 { font-size: 1rem; margin: 0 0 .2rem; }
.row { border-top: 1px solid #d5d9e0; padding: .8rem 0; }
.facts { margin: 0 0 .4rem; color: #4a5160; }
figure { margin: .3rem 0; } figcaption { font-size: .85rem; color: #4a5160; }
svg text { font-size: 12px; fill: #1d2330; }
.bar.engine, .bar.current, .bar.fx, .bar.sample { fill: #2f6fdb; }
.bar.yardstick, .bar.baseline { fill: #a3abb8; }
.bar.regressed, .bar.missing { fill: #c62828; } .bar.improved { fill: #2e7d32; } .bar.slower-not-gating { fill: #e09a1a; }
.marker { stroke: #c62828; stroke-dasharray: 4 3; } .marker-label { font-size: 11px; fill: #c62828; }
.pass { color: #2e7d32; } .fail { color: #c62828; }
`;

export function htmlReport(result: BenchResult, comparison: Comparison | null): string {
  const verdicts = new Map((comparison?.verdicts ?? []).map((v) => [v.id, v]));
  const main = result.rows.filter((r) => r.kind !== "fx");
  const fx = result.rows.filter((r) => r.kind === "fx").sort((a, b) => b.value - a.value);
  const compare = comparison
    ? `<p class="compare ${comparison.failures.length ? "fail" : "pass"}">${esc(compareLine(comparison).replace(/\*\*/g, "").replace(/`/g, ""))}</p>`
    : "<p>No baseline given (run with --compare baseline.json to compare).</p>";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tone Studio bench, ${esc(result.mode)}, ${esc(result.date.slice(0, 10))}</title><style>${CSS}</style></head>
<body><h1>Tone Studio bench</h1>
<p class="machine">${esc(machineLine(result))}</p>
${compare}
${comparison?.warnings.map((w) => `<p class="warning">${esc(w)}</p>`).join("\n") ?? ""}
<h2>Rows</h2>
${main.map((r) => rowSection(r, verdicts.get(r.id), comparison)).join("\n")}
${fx.length ? `<h2>Per-effect cost</h2>\n${fxChart(fx, verdicts)}\n${fx.map((r) => rowSection(r, verdicts.get(r.id), comparison)).join("\n")}` : ""}
<p>Schema version ${result.schemaVersion}; the fields and yardsticks are described in bench/SCHEMA.md.</p>
</body></html>
`;
}
