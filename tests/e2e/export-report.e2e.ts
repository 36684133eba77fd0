// The export report in the studio, in real Chromium: after Export WAV (here the OPFS fallback,
// which downloads the file), the panel under the finished export says what was verified on the
// rendered audio: 440 Hz with a 10 Hz binaural beat gives 435 Hz in the left ear, 445 Hz in the
// right and a 10 Hz beat in the start, middle and end windows, no clipping. Save report downloads
// the same text the CLI writes. Photographed at 1280 and 390 px (.tmp/screenshots/export-report-*.png)
// and audited with axe-core with the details open.

import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AudioState } from "../../dsp/host/schema/state";
import { parseWavHeader } from "../../dsp/host/export/wav";
import { peakFrequency, singleTone } from "../unit/dsp/assembly/helpers";
import { axeViolations, launchChromium, screenshotPath, startTestApp, type TestApp } from "./browser";
import { openSignedIn, registerProAccount } from "./session";
import { openSection, openTransportMore } from "./sections";

let app: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const STATE: AudioState = singleTone(440);
STATE.effects.binaural = { enabled: true, value: 10 };

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchChromium();
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  const pro = await registerProAccount(app);
  page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  // No save picker: the export goes through OPFS and downloads, the path every browser has.
  await page.addInitScript("Object.defineProperty(window, 'showSaveFilePicker', { value: undefined });");
  await openSignedIn(page, app.url, pro);
  await page.getByRole("button", { name: "Export WAV", disabled: false }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("Export report in the studio", () => {
  it("shows what was verified after an export: ears at 435 and 445 Hz, beat 10 Hz, no clipping", async () => {
    await page.evaluate((state) => {
      const { store } = (window as unknown as { __toneStudio: { store: { getState(): { load(s: unknown): void }; setState(s: object): void } } }).__toneStudio;
      store.getState().load(state);
      store.setState({ duration: 8 });
    }, STATE);
    const wav = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export WAV" }).click();
    await page.getByRole("status").filter({ hasText: "Export complete:" }).waitFor({ timeout: 30_000 });
    expect((await wav).suggestedFilename()).toMatch(/^swizard-audio-.*\.wav$/);

    const panel = page.getByRole("region", { name: "Export report" });
    await panel.waitFor();
    // Three windows x (left, right, beat) and the clipping check.
    await expect.poll(() => panel.locator(".export-report-summary").textContent()).toContain("Verified: 10 of 10 checks passed.");
    expect(await panel.getByRole("list", { name: "Failed checks" }).count()).toBe(0);

    await panel.getByText("What was verified").click();
    const lines = await panel.locator(".export-report-details li").allTextContents();
    const tones = lines.filter((l) => /Channel 1/.test(l));
    expect(tones).toHaveLength(9);
    for (const [ear, hz] of [["left ear", "435"], ["right ear", "445"]]) {
      const mine = tones.filter((l) => l.includes(ear));
      expect(mine).toHaveLength(3);
      for (const l of mine) expect(l).toMatch(new RegExp(`^PASS Channel 1 ${ear}: expected ${hz}\\.000 Hz, measured ${hz}\\.0[01]\\d Hz`));
    }
    const beats = tones.filter((l) => l.includes("beat (right - left)"));
    for (const l of beats) expect(l).toMatch(/^PASS Channel 1 beat \(right - left\): expected 10\.000 Hz, measured (10\.0[0-1]|9\.99)\d Hz/);
    expect(lines).toContain("PASS Clipping: 0 samples at or beyond full scale");

    await page.screenshot({ path: screenshotPath("export-report-1280.png"), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await openTransportMore(page); // a phone's transport bar keeps Export WAV, and its report, under More
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath("export-report-390.png") });
    // Nothing in the panel sticks out of a phone's width.
    const overflow = await panel.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await panel.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Save report: the CLI's text, named after the WAV.
    const saved = page.waitForEvent("download");
    await panel.getByRole("button", { name: "Save report" }).click();
    const download = await saved;
    expect(download.suggestedFilename()).toMatch(/^swizard-audio-.*-report\.txt$/);
    const text = readFileSync((await download.path())!, "utf8");
    expect(text).toMatch(/^Export report: Verified: 10 of 10 checks passed\./);
    expect(text).toContain("\nFrequencies:\n");
    expect(text.match(/^ {4}PASS Channel 1 left ear: expected 435\.000 Hz/gm)).toHaveLength(3);

    // Dismiss clears the progress and the report.
    await page.getByRole("button", { name: "Dismiss export status" }).click();
    expect(await panel.count()).toBe(0);
  });

  it("an imported .sbg schedule exports to a WAV whose spectrum follows the schedule at chosen times", async () => {
    // A 10 s slide from 300 to 600 Hz, then 600 Hz held; -E ends the session at its last line.
    const sbg = ["-SE", "low: 300/50", "high: 600/50", "NOW low ->", "NOW+00:00:10 high", "NOW+00:00:20 high", ""].join("\n");
    await openSection(page, "Session");
    const timeline = page.locator("section.timeline");
    await timeline.locator('input[type="file"]').setInputFiles({ name: "slide.sbg", mimeType: "text/plain", buffer: Buffer.from(sbg) });
    await expect.poll(() => timeline.getByRole("status").textContent()).toBe("Imported slide.sbg.");
    const wav = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export WAV" }).click();
    await page.getByRole("status").filter({ hasText: "Export complete:" }).waitFor({ timeout: 30_000 });
    const bytes = new Uint8Array(readFileSync((await (await wav).path())!));
    const info = parseWavHeader(bytes);
    const pcm = new Int16Array(bytes.buffer, bytes.byteOffset + info.dataOffset, info.frames * 2);
    /** The loudest frequency of the left channel in 8192 samples (0.17 s) centred on `t`. */
    const heardAt = (t: number) => {
      const start = Math.round(t * 48000) - 4096;
      return peakFrequency(Float32Array.from({ length: 8192 }, (_, i) => pcm[2 * (start + i)] / 32768), 48000, 8192);
    };
    for (const [t, hz] of [[3, 390], [5, 450], [8, 540], [15, 600]] as const) expect(Math.abs(heardAt(t) - hz)).toBeLessThan(3);
    // The report checked the same schedule (the steps' clicks and each window's expected pitch).
    const panel = page.getByRole("region", { name: "Export report" });
    await expect.poll(() => panel.locator(".export-report-summary").textContent()).toMatch(/Verified: (\d+) of \1 checks passed\./);
  });
});
