// The headphone check in real Chromium, for a Pro listener with a 7 Hz binaural beat
// on. What plays is measured on the page's real output node (window.__toneStudio.audio.output),
// split into the two ears by a ChannelSplitter and, as a phone speaker or a mono Bluetooth mode
// would, folded to mono ((L + R) / 2, Web Audio's speaker down-mix), each into its own analyser:
// tone 1 reaches the left ear only and tone 2 the right only; the mono test's second tone is as
// loud as the first in each ear but vanishes in the fold; the polarity test's second tone has one
// ear inverted; the balance turns one ear down by the dB it shows. Answers give the check's
// texts; the mono offers switch the studio's effects and channels (seen in the effects grid and
// the channel cards). Keyboard alone, axe at every impact, screenshots at 1280 and 390 px.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { screenshotPath, startBrowserApp, type BrowserApp } from "./browser";
import { allAxeViolations } from "./a11y-helpers";
import { openSignedIn, registerProAccount } from "./session";
import {
  BINAURAL_IN_MONO, LEFT_RIGHT_RESULTS, MONO_RESULTS, POLARITY_RESULTS, balanceText, playingPart, switchedToIsochronic,
  switchedToMonaural,
} from "../../web/headphone/messages";
import { TEST_LEVEL_DBFS } from "../../web/headphone/signals";
import { openSection } from "./sections";

let run: BrowserApp;
let page: Page;

const opener = (p: Page = page) => p.getByRole("button", { name: "Headphone check", exact: true });
const dialog = (p: Page = page) => p.getByRole("dialog", { name: "Headphone check" });
const group = (name: string) => dialog().getByRole("group", { name });
const status = () => dialog().locator(".hp-status");
const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
const db = (v: number) => 20 * Math.log10(v);

/** Hangs the ears and the mono fold off the page's output node (once per page). */
async function attachEars(p: Page): Promise<void> {
  await p.evaluate(() => {
    const w = window as unknown as { __ears?: unknown; __toneStudio: { audio: { ensureContext(): AudioContext; output: GainNode } } };
    if (w.__ears) return;
    const audio = w.__toneStudio.audio;
    const context = audio.ensureContext();
    const split = new ChannelSplitterNode(context, { numberOfOutputs: 2 });
    const left = new AnalyserNode(context, { fftSize: 2048 });
    const right = new AnalyserNode(context, { fftSize: 2048 });
    const mono = new AnalyserNode(context, { fftSize: 2048, channelCount: 1, channelCountMode: "explicit", channelInterpretation: "speakers" });
    audio.output.connect(split);
    split.connect(left, 0);
    split.connect(right, 1);
    audio.output.connect(mono);
    w.__ears = { left, right, mono };
  });
}

/** The largest sample (linear) each ear and the mono fold carry over the next `ms`. */
function peaks(p: Page, ms: number): Promise<{ left: number; right: number; mono: number }> {
  return p.evaluate(async (ms) => {
    const ears = (window as unknown as { __ears: Record<"left" | "right" | "mono", AnalyserNode> }).__ears;
    const out = { left: 0, right: 0, mono: 0 };
    const buf = new Float32Array(2048);
    const end = performance.now() + ms;
    while (performance.now() < end) {
      for (const k of ["left", "right", "mono"] as const) {
        ears[k].getFloatTimeDomainData(buf);
        for (const v of buf) out[k] = Math.max(out[k], Math.abs(v));
      }
      await new Promise((r) => setTimeout(r, 15));
    }
    return out;
  }, ms);
}

/** Waits until `part` of the test playing is sounding, and a little more (past its edge). */
async function during(part: number): Promise<void> {
  await status().getByText(playingPart(part)).waitFor();
  await page.waitForTimeout(120);
}

async function openCheckAt(step: number): Promise<void> {
  await opener().click();
  await dialog().waitFor();
  for (let i = 0; i < step; i++) await dialog().getByRole("button", { name: "Next" }).click();
}

beforeAll(async () => {
  run = await startBrowserApp({}, { width: 1280, height: 900 });
  page = run.page;
  await page.goto(run.app.url + "/api/health");
  await page.evaluate(() => localStorage.setItem("tone-studio:tutorial", "skipped"));
  await openSignedIn(page, run.app.url, await registerProAccount(run.app));
  await page.getByText("Pro User (59 min max)").waitFor();
  await openSection(page, "Effects");
  await page.getByRole("switch", { name: "Binaural Beat", exact: true }).check();
  await page.getByLabel("Binaural Beat value").fill("7");
  await openSection(page, "Levels & sleep");
});

afterAll(() => run?.close());

describe("headphone check", () => {
  it("opens from the Levels & sleep section as a modal dialog, on step 1's heading", async () => {
    await page.getByRole("button", { name: "Play Audio" }).click();
    await page.getByRole("button", { name: "Stop Audio" }).waitFor();
    await page.getByRole("region", { name: "Listening checks" }).screenshot({ path: screenshotPath("headphone-opener-1280.png") });
    await opener().click();
    await dialog().waitFor();
    expect(await dialog().evaluate((d) => (d as HTMLDialogElement).open && d.matches(":modal"))).toBe(true);
    expect(await focusedText()).toBe("Step 1 of 4: Left and right");
  });

  it("tone 1 plays in the left ear only (the studio's own playback stops first), tone 2 in the right only", async () => {
    await attachEars(page);
    await dialog().getByRole("button", { name: "Play tone 1" }).click();
    await expect.poll(() => page.locator("button.play").textContent()).toBe("Play Audio"); // the studio stopped
    await during(1);
    expect(await dialog().locator('[data-test="tone1"]').textContent()).toContain("Stop");
    const one = await peaks(page, 450);
    expect(db(one.left)).toBeGreaterThan(TEST_LEVEL_DBFS - 0.5);
    expect(db(one.left)).toBeLessThan(TEST_LEVEL_DBFS + 0.5);
    expect(one.right).toBe(0);
    // It ends by itself and the status line clears.
    await dialog().getByRole("button", { name: "Play tone 1" }).waitFor({ timeout: 3000 });
    expect(await status().textContent()).toBe("");

    await dialog().getByRole("button", { name: "Play tone 2" }).click();
    await during(1);
    const two = await peaks(page, 450);
    expect(one.left).toBeGreaterThan(0.09);
    expect(two.left).toBe(0);
    expect(db(two.right)).toBeGreaterThan(TEST_LEVEL_DBFS - 0.5);
    // Playing tone 1 now replaces tone 2 (never both at once).
    await dialog().getByRole("button", { name: "Play tone 1" }).click();
    await during(1);
    const swap = await peaks(page, 300);
    expect(swap.right).toBe(0);
    expect(swap.left).toBeGreaterThan(0.09);
    await dialog().locator('[data-test="tone1"]').click(); // Stop
    await expect.poll(() => status().textContent()).toBe("");
  });

  it("answers 'swapped' and 'correct' with the check's own words", async () => {
    await group("Where did you hear tone 1?").getByLabel("Right ear").check();
    await group("Where did you hear tone 2?").getByLabel("Left ear").check();
    await dialog().getByText(LEFT_RIGHT_RESULTS.swapped).waitFor();
    await page.screenshot({ path: screenshotPath("headphone-swapped-1280.png") });
    await group("Where did you hear tone 2?").getByLabel("Nothing").check();
    await dialog().getByText(LEFT_RIGHT_RESULTS["right-missing"]).waitFor();
    await group("Where did you hear tone 1?").getByLabel("Left ear").check();
    await group("Where did you hear tone 2?").getByLabel("Right ear").check();
    await dialog().getByText(LEFT_RIGHT_RESULTS.correct).waitFor();
  });

  it("mono test: tone 2 is full in each ear and vanishes in a mono fold; 'quieter' offers the replacements", async () => {
    await dialog().getByRole("button", { name: "Next" }).click();
    expect(await focusedText()).toBe("Step 2 of 4: Mono test");
    await dialog().getByRole("button", { name: "Play tones 1 and 2" }).click();
    await during(1);
    const inPhase = await peaks(page, 400);
    await during(2);
    const anti = await peaks(page, 400);
    for (const p of [inPhase.left, inPhase.right, inPhase.mono, anti.left, anti.right]) expect(db(p)).toBeGreaterThan(TEST_LEVEL_DBFS - 0.5);
    expect(anti.mono).toBeLessThan(1e-6);

    expect(await dialog().getByRole("button", { name: "Use isochronic pulses" }).count()).toBe(0);
    await group("How did tone 2 sound next to tone 1?").getByLabel("Much quieter, or silent").check();
    await dialog().getByText(MONO_RESULTS.mono).waitFor();
    await dialog().getByText(BINAURAL_IN_MONO).waitFor();
    await dialog().getByRole("button", { name: "Use isochronic pulses" }).click();
    await dialog().getByText(switchedToIsochronic(7)).waitFor();
    await page.screenshot({ path: screenshotPath("headphone-mono-1280.png") });
  });

  it("'Use isochronic pulses' shows in the studio at once: binaural off, Isochronic Pulses on at the beat", async () => {
    await page.keyboard.press("Escape");
    await dialog().waitFor({ state: "hidden" });
    await openSection(page, "Effects");
    expect(await page.getByRole("switch", { name: "Binaural Beat", exact: true }).isChecked()).toBe(false);
    const iso = page.getByRole("article", { name: "Isochronic Pulses" });
    expect(await iso.getByRole("switch").isChecked()).toBe(true);
    expect(await iso.getAttribute("data-enabled")).toBe("true");
    expect(await iso.getByText("7.0 Hz").count()).toBe(1);
    await openSection(page, "Levels & sleep");
  });

  it("'Use monaural beats' puts channel 2 at channel 1 + the beat", async () => {
    await openCheckAt(1);
    await group("How did tone 2 sound next to tone 1?").getByLabel("Much quieter, or silent").check();
    await dialog().getByRole("button", { name: "Use monaural beats" }).click();
    await dialog().getByText(switchedToMonaural({ base: 1, baseFrequency: 432, target: 2, frequency: 439 }, 7)).waitFor();
    await page.keyboard.press("Escape");
    expect(await page.getByLabel("Channel 2 frequency (Hz)").inputValue()).toBe("439");
    expect(await page.getByLabel("Channel 1 frequency (Hz)").inputValue()).toBe("432");
  });

  it("polarity: tone 2 has one ear inverted (it cancels in the fold, tone 1 does not); the answers say so", async () => {
    await openCheckAt(2);
    expect(await focusedText()).toBe("Step 3 of 4: Polarity");
    await dialog().getByRole("button", { name: "Play tones 1 and 2" }).click();
    await during(1);
    const first = await peaks(page, 400);
    await during(2);
    const second = await peaks(page, 400);
    expect(db(first.mono)).toBeGreaterThan(TEST_LEVEL_DBFS - 0.5);
    expect(db(second.left)).toBeGreaterThan(TEST_LEVEL_DBFS - 0.5);
    expect(second.mono).toBeLessThan(1e-6);
    await group("Which tone sounded fuller and centred?").getByLabel("Tone 2").check();
    await dialog().getByText(POLARITY_RESULTS.inverted).waitFor();
    await group("Which tone sounded fuller and centred?").getByLabel("Tone 1").check();
    await dialog().getByText(POLARITY_RESULTS.correct).waitFor();
  });

  it("level match: the balance slider turns the left ear down by the dB it shows, while the tone plays", async () => {
    await dialog().getByRole("button", { name: "Next" }).click();
    expect(await focusedText()).toBe("Step 4 of 4: Level match");
    await dialog().getByRole("button", { name: "Play alternating tone" }).click();
    await status().getByText("Playing the alternating tone…").waitFor();
    const even = await peaks(page, 2100);
    expect(Math.abs(db(even.left) - db(even.right))).toBeLessThan(0.2);
    const slider = dialog().getByRole("slider", { name: "Balance" });
    await slider.focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press("ArrowRight"); // 6 x 0.5 dB
    expect(await slider.getAttribute("aria-valuetext")).toBe(balanceText(3));
    await page.waitForTimeout(200); // the gains glide (20 ms time constant)
    const turned = await peaks(page, 2100);
    expect(db(turned.left)).toBeCloseTo(TEST_LEVEL_DBFS - 3, 0);
    expect(db(turned.right)).toBeCloseTo(TEST_LEVEL_DBFS, 0);
    await page.screenshot({ path: screenshotPath("headphone-balance-1280.png") });
  });

  it("ends with every result and 'Check again', which starts over", async () => {
    await dialog().getByRole("button", { name: "Show results" }).click();
    expect(await focusedText()).toBe("Results");
    expect(await status().textContent()).toBe(""); // the loop stopped with the step
    const rows = await dialog().locator(".hp-summary > div").allTextContents();
    // Opened afresh for step 3, so steps 1 and 2 were not answered this time.
    expect(rows).toEqual(["Left and rightNot checked", "Mono testNot checked", "PolarityCorrect", "BalanceLeft 3.0 dB quieter"]);
    await page.screenshot({ path: screenshotPath("headphone-results-1280.png") });
    await dialog().getByRole("button", { name: "Check again" }).click();
    expect(await focusedText()).toBe("Step 1 of 4: Left and right");
    expect(await group("Where did you hear tone 1?").getByRole("radio", { checked: true }).count()).toBe(0);
  });

  it("has no axe violations of any impact, on each step and the results", async () => {
    for (let step = 0; step < 5; step++) {
      const found = await allAxeViolations(page);
      expect(found, `step ${step + 1}: ${JSON.stringify(found, null, 2)}`).toEqual([]);
      if (step === 1) {
        await group("How did tone 2 sound next to tone 1?").getByLabel("Much quieter, or silent").check();
        const offer = await allAxeViolations(page);
        expect(offer, JSON.stringify(offer, null, 2)).toEqual([]);
      }
      await dialog().getByRole("button", { name: step === 3 ? "Show results" : "Next" }).click();
      if (step === 3) break;
    }
    const summary = await allAxeViolations(page);
    expect(summary, JSON.stringify(summary, null, 2)).toEqual([]);
    await dialog().getByRole("button", { name: "Done" }).click();
    await dialog().waitFor({ state: "hidden" });
  });

  it("works from the keyboard alone; Escape stops the tone, closes and returns focus to the opener", async () => {
    // From the section's tab, Tab walks through the Levels & sleep panel to the opener.
    await page.getByRole("tab", { name: "Levels & sleep" }).focus();
    for (let i = 0; i < 30 && (await focusedText()) !== "Headphone check"; i++) await page.keyboard.press("Tab");
    expect(await focusedText()).toBe("Headphone check");
    await page.keyboard.press("Enter");
    await dialog().waitFor();
    expect(await focusedText()).toBe("Step 1 of 4: Left and right");
    await page.keyboard.press("Tab");
    expect(await focusedText()).toContain("Play tone 1");
    await page.keyboard.press("Enter");
    await during(1);
    await page.keyboard.press("Tab"); // into the first answer group
    await page.keyboard.press("Space"); // Left ear
    await page.keyboard.press("Tab"); // Play tone 2
    expect(await focusedText()).toContain("Play tone 2");
    await page.keyboard.press("Tab");
    await page.keyboard.press("ArrowDown"); // Left ear -> Right ear
    await dialog().getByText(LEFT_RIGHT_RESULTS.correct).waitFor();
    await dialog().getByRole("button", { name: "Play tone 1" }).focus();
    await page.keyboard.press("Enter");
    await during(1);
    await page.keyboard.press("Escape");
    await dialog().waitFor({ state: "hidden" });
    expect(await focusedText()).toBe("Headphone check");
    await page.waitForTimeout(100);
    const after = await peaks(page, 300);
    expect(after.left).toBe(0);
  });

  it("fits a 390 px phone", async () => {
    const phone = await run.browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(run.app.url + "/api/health");
    await phone.evaluate(() => localStorage.setItem("tone-studio:tutorial", "skipped"));
    await openSignedIn(phone, run.app.url, await registerProAccount(run.app));
    await openSection(phone, "Levels & sleep");
    await phone.getByRole("region", { name: "Listening checks" }).screenshot({ path: screenshotPath("headphone-opener-390.png") });
    await opener(phone).click();
    await dialog(phone).waitFor();
    await dialog(phone).getByRole("group", { name: "Where did you hear tone 1?" }).getByLabel("Right ear").check();
    await dialog(phone).getByRole("group", { name: "Where did you hear tone 2?" }).getByLabel("Left ear").check();
    await phone.screenshot({ path: screenshotPath("headphone-390.png") });
    const box = await dialog(phone).boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await dialog(phone).evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
    await dialog(phone).getByRole("button", { name: "Next" }).click();
    await dialog(phone).getByRole("group", { name: "How did tone 2 sound next to tone 1?" }).getByLabel("Much quieter, or silent").check();
    await phone.screenshot({ path: screenshotPath("headphone-mono-390.png") });
    for (let i = 0; i < 3; i++) await dialog(phone).getByRole("button", { name: i === 2 ? "Show results" : "Next" }).click();
    await phone.screenshot({ path: screenshotPath("headphone-results-390.png") });
    expect(await dialog(phone).evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
    await phone.close();
  });
});
