// The Markdown summary and the HTML report written beside the JSON, and the ten-run statistics of
// bench/spread.ts that a baseline carries. (The HTML is also rendered in Chromium by
// tests/e2e/bench-report.e2e.ts.)

import { describe, expect, it } from "vitest";
import { compareResults } from "../../../bench/compare";
import { htmlReport } from "../../../bench/report-html";
import { markdownReport } from "../../../bench/report-md";
import { mostTypical, spreadStats } from "../../../bench/spread";
import { fixture } from "./fixture";

describe("Markdown summary", () => {
  it("puts a failed compare first, naming the row, then every row and the effects by cost", () => {
    const current = fixture({ scale: { "dsp/chromium/base": 0.8 } });
    const md = markdownReport(current, compareResults(current, fixture(), 10));
    const lines = md.split("\n");
    expect(lines[0]).toBe("## Tone Studio bench");
    expect(md).toContain("**Compare: FAIL**: `dsp/chromium/base` -20.0 % against the baseline of 2026-11-23 (abc1234), tolerance 10 %.");
    expect(md).toMatch(/\| base patch, engine in Chromium worker \| 2880 x realtime \| best of 2, spread 2.8 % \| 10.3x OfflineAudioContext \(base patch\) \| 12.9 \| REGRESSED -20.0 % \|/);
    expect(md.indexOf("| Reverb |")).toBeLessThan(md.indexOf("| Gate |"));
    expect(md).toContain("Test CPU, 2 cores, linux/x64, Node v20.20.2, Chromium 156.0.8078.79");
  });

  it("says so when the compare passes, and has no baseline columns without one", () => {
    expect(markdownReport(fixture(), compareResults(fixture(), fixture(), 10))).toContain("**Compare: pass**: 4 gating rows within the baseline");
    const alone = markdownReport(fixture(), null);
    expect(alone).not.toContain("Compare");
    expect(alone).toContain("| row | this run | repeats | machine-independent |\n");
  });
});

describe("HTML report", () => {
  it("is one self-contained file: a section per row, no script, nothing fetched", () => {
    const html = htmlReport(fixture(), compareResults(fixture(), fixture(), 10));
    expect(html.match(/<section class="row/g)).toHaveLength(fixture().rows.length);
    expect(html).not.toMatch(/<script|<link|src=|url\(/);
  });
});

describe("bench/spread statistics", () => {
  it("takes each row's min, median, max and spread over the runs, and picks the most typical run", () => {
    const runs = [0.9, 1, 1.05].map((s) => fixture({ scale: { "dsp/node/base": s, "fx/reverb": s } }));
    const stats = spreadStats(runs);
    const base = runs[1].rows.find((r) => r.id === "dsp/node/base")!.relative!;
    expect(stats["dsp/node/base"].median).toBeCloseTo(base, 12);
    expect(stats["dsp/node/base"].spreadPercent).toBeCloseTo(15, 9);
    expect(stats["dsp/chromium/base"].spreadPercent).toBe(0);
    expect(mostTypical(runs, stats)).toBe(runs[1]);
  });
});
