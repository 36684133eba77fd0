// The bench's HTML report (bench/report-html.ts) rendered in real Chromium from a file, with every
// network request refused: the committed baseline's rows as "this run", compared against a copy in
// which one row was 20 % faster. Every row renders as a section with its name and visible bars;
// the engine-vs-OfflineAudioContext bars are in proportion; the regressed row is marked and named
// in the summary line; the per-effect costs are drawn most expensive first.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareResults } from "../../bench/compare";
import { htmlReport } from "../../bench/report-html";
import { parseBenchResult, type BenchResult } from "../../bench/schema";
import { launchChromium } from "./browser";

const BASELINE = fileURLToPath(new URL("../../bench/baseline.json", import.meta.url));
const REGRESSED = "dsp/chromium/comparison";

let browser: Browser;
let page: Page;
let dir: string;
let current: BenchResult;
const requests: string[] = [];

beforeAll(async () => {
  current = parseBenchResult(readFileSync(BASELINE, "utf8"), "bench/baseline.json");
  const baseline = structuredClone(current);
  // This run 20 % slower than the baseline on one row, equal on every other.
  for (const r of current.rows) baseline.stability!.rows[r.id].median = r.relative ?? r.value;
  baseline.stability!.rows[REGRESSED].median /= 0.8;
  const html = htmlReport(current, compareResults(current, baseline));
  dir = mkdtempSync(join(tmpdir(), "bench-report-"));
  const file = join(dir, "results.html");
  writeFileSync(file, html);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.route("**/*", (route) => {
    if (route.request().url().startsWith("file://")) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  await page.goto(`file://${file}`);
});

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("bench HTML report in Chromium", () => {
  it("renders a section with visible bars for every row, fetching nothing", async () => {
    const sections = await page.$$eval("section.row", (els) =>
      els.map((el) => ({
        id: el.getAttribute("data-row-id"),
        title: el.querySelector("h3")?.textContent,
        bars: [...el.querySelectorAll("rect.bar")].map((r) => r.getBoundingClientRect().width),
      })),
    );
    expect(sections.map((s) => s.id)).toEqual([...current.rows.filter((r) => r.kind !== "fx"), ...current.rows.filter((r) => r.kind === "fx").sort((a, b) => b.value - a.value)].map((r) => r.id));
    for (const s of sections) {
      const row = current.rows.find((r) => r.id === s.id)!;
      expect(s.title).toBe(row.name);
      // Each section draws the row against its yardstick (or its repeats) and against the baseline.
      expect(s.bars.length, s.id!).toBeGreaterThanOrEqual(4);
      if (row.value > 0) expect(Math.max(...s.bars), s.id!).toBeGreaterThan(20);
    }
    expect(requests).toEqual([]);
  });

  it("draws engine and OfflineAudioContext bars in proportion to their x realtime", async () => {
    const row = current.rows.find((r) => r.id === "dsp/chromium/base")!;
    const [engine, oac] = await page.$$eval('section[data-row-id="dsp/chromium/base"] figure:first-of-type rect.bar', (els) => els.map((e) => e.getBoundingClientRect().width));
    expect(await page.locator('section[data-row-id="dsp/chromium/base"] figcaption').first().textContent()).toBe("Engine vs OfflineAudioContext");
    expect(engine / oac).toBeCloseTo(row.value / row.yardstickValue!, 0);
  });

  it("marks the regressed row and names it in the summary", async () => {
    expect(await page.locator("p.compare").textContent()).toMatch(new RegExp(`^Compare: FAIL: ${REGRESSED} -20\\.0 %`));
    const section = page.locator(`section[data-row-id="${REGRESSED}"]`);
    expect(await section.getAttribute("class")).toContain("regressed");
    expect(await section.locator(".facts").textContent()).toContain("REGRESSED -20.0 %");
    // Its "this run" bar is red and left of the dashed fail line.
    const bar = section.locator("rect.bar.current");
    expect(await bar.evaluate((e) => getComputedStyle(e).fill)).toBe("rgb(198, 40, 40)");
    const line = await section.locator("line.marker").boundingBox();
    const box = await bar.boundingBox();
    expect(box!.x + box!.width).toBeLessThan(line!.x);
  });

  it("draws the per-effect costs most expensive first", async () => {
    const values = await page.$$eval('section[data-chart="fx"] rect.bar.fx', (els) => els.map((e) => Number(e.getAttribute("data-value"))));
    expect(values).toHaveLength(current.rows.filter((r) => r.kind === "fx").length);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    const widths = await page.$$eval('section[data-chart="fx"] rect.bar.fx', (els) => els.map((e) => e.getBoundingClientRect().width));
    expect(widths[0]).toBeGreaterThan(200);
  });
});
