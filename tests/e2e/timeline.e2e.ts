// The session timeline editor in real Chromium, as a free account uses it (channel 1 only): a
// two-step ramp typed into the real inputs (200 Hz at 0:00, 800 Hz at 0:06, linear) is stored
// in the studio's timeline, drawn as a rising line, and heard: the analyser's peak follows the
// schedule upward while it plays; the playhead's step is highlighted. Keyboard: Left and Right
// move the focused step (Shift: 10 s), Delete removes it. A drag moves a step. Axe (every impact
// level) with steps on screen, and screenshots at 1280 and 390 px (.tmp/screenshots/timeline-*.png).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Timeline } from "../../dsp/host/timeline";
import { axeViolations, screenshotPath, startBrowserApp, type BrowserApp } from "./browser";
import { settledSpectrum } from "./analyser";
import { openFreeStudio, openSignedIn, registerProAccount } from "./session";

let run: BrowserApp;
let page: Page;

const panel = () => page.locator("section.timeline");

function storedTimeline(p: Page): Promise<Timeline | undefined> {
  return p.evaluate(() => (window as unknown as { __toneStudio: { store: { getState(): { timeline?: Timeline } } } }).__toneStudio.store.getState().timeline);
}

function playPosition(p: Page): Promise<number | null> {
  return p.evaluate(() => (window as unknown as { __toneStudio: { audio: { playPosition(): number | null } } }).__toneStudio.audio.playPosition());
}

/** The loudest bin's frequency (Hz), refined by a parabola through it and its neighbours. */
async function peakHz(p: Page): Promise<{ hz: number; at: number }> {
  const { bins, binHz } = await settledSpectrum(p);
  const at = (await playPosition(p)) ?? Number.NaN;
  let k = 1;
  for (let i = 2; i < bins.length - 1; i++) if (bins[i] > bins[k]) k = i;
  const [a, b, c] = [bins[k - 1], bins[k], bins[k + 1]];
  const shift = (a - c) / (2 * (a - 2 * b + c));
  return { hz: (k + (Number.isFinite(shift) ? shift : 0)) * binHz, at };
}

/** Types into a step field and commits it with Enter, as a user does. */
async function typeInto(label: string, text: string): Promise<void> {
  const box = panel().getByLabel(label, { exact: true });
  await box.fill(text);
  await box.press("Enter");
}

/** The y coordinates along channel 1's drawn line (SVG y grows downward). */
function lineYs(p: Page): Promise<number[]> {
  return p.evaluate(() => {
    const d = document.querySelector('section.timeline path.tl-line[data-channel="1"]')?.getAttribute("d") ?? "";
    return [...d.matchAll(/[ML]([\d.]+) ([\d.]+)/g)].map((m) => Number(m[2]));
  });
}

beforeAll(async () => {
  run = await startBrowserApp({}, { width: 1280, height: 900 });
  page = run.page;
  await openFreeStudio(page, run.app.url);
  // Channels 2-4 are Pro only: the free studio plays channel 1 alone.
  await panel().getByRole("button", { name: "Add step" }).waitFor();
});

afterAll(() => run?.close());

describe("session timeline editor", () => {
  it("builds a two-step linear ramp from typed values, stores it and draws it rising", async () => {
    await expect.poll(() => panel().locator(".tl-desc").textContent()).toBe("No steps yet: the sound stays as set above for the whole session.");
    await panel().getByRole("button", { name: "Add step" }).click();
    await typeInto("Step channel 1 frequency (Hz)", "200");
    await panel().getByRole("button", { name: "Add step" }).click();
    await typeInto("Time (HH:MM:SS)", "0:00:06");
    await panel().getByLabel("From the step before").selectOption({ label: "Linear ramp" });
    await typeInto("Step channel 1 frequency (Hz)", "800");

    expect(await storedTimeline(page)).toEqual({
      steps: [
        { at: 0, ramp: "hold", channels: [{ id: 1, frequency: 200 }] },
        { at: 6, ramp: "linear", channels: [{ id: 1, frequency: 800 }] },
      ],
    });
    expect(await panel().locator(".tl-desc").textContent()).toBe("Step 2 of 2 at 00:00:06, linear ramp: channel 1 800 Hz.");
    expect(await panel().getByRole("slider", { name: "Step 2" }).getAttribute("aria-valuetext")).toBe("00:00:06, linear ramp");

    // The line starts low and rises through the ramp, then holds.
    const ys = await lineYs(page);
    expect(ys.length).toBeGreaterThan(30);
    const ramp = ys.slice(0, 33);
    for (let i = 1; i < ramp.length; i++) expect(ramp[i]).toBeLessThan(ramp[i - 1]);
    expect(ys.at(-1)).toBe(ys.at(-2));
  });

  it("plays the ramp: the analyser's peak follows the schedule upward, the current step is highlighted", async () => {
    await page.getByRole("button", { name: "Play Audio" }).click();
    try {
      await hearRamp();
    } finally {
      if (await page.getByRole("button", { name: "Stop Audio" }).count()) await page.getByRole("button", { name: "Stop Audio" }).click();
    }
    await expect.poll(() => panel().locator('.tl-handle[data-current="true"]').count()).toBe(0);
  });

  async function hearRamp(): Promise<void> {
    await expect.poll(() => page.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
    await page.waitForTimeout(600);
    const early = await peakHz(page);
    await expect.poll(() => panel().locator('.tl-handle[data-current="true"]').getAttribute("aria-label")).toBe("Step 1");
    await page.waitForTimeout(2500);
    const late = await peakHz(page);
    // The peak was read over the 300 ms before `at`: compare with the schedule there.
    const expected = (t: number) => 200 + (600 * Math.min(6, Math.max(0, t - 0.15))) / 6;
    expect(late.hz).toBeGreaterThan(early.hz + 150);
    expect(Math.abs(early.hz - expected(early.at))).toBeLessThan(40);
    expect(Math.abs(late.hz - expected(late.at))).toBeLessThan(40);
    await page.waitForTimeout(Math.max(0, (6.5 - ((await playPosition(page)) ?? 0)) * 1000));
    const top = await peakHz(page);
    expect(Math.abs(top.hz - 800)).toBeLessThan(10);
    await expect.poll(() => panel().locator('.tl-handle[data-current="true"]').getAttribute("aria-label")).toBe("Step 2");
    expect(await panel().locator(".tl-playhead").getAttribute("visibility")).toBe("visible");
  }

  it("moves the focused step with Left and Right (Shift: 10 s), and Delete removes it", async () => {
    const handle = panel().getByRole("slider", { name: "Step 2" });
    await handle.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("ArrowLeft");
    expect((await storedTimeline(page))!.steps.map((s) => s.at)).toEqual([0, 16]);
    expect(await handle.getAttribute("aria-valuetext")).toBe("00:00:16, linear ramp");
    expect(await panel().locator(".tl-desc").textContent()).toBe("Step 2 of 2 at 00:00:16, linear ramp: channel 1 800 Hz.");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Step 2");
    // Step 2 moved left past step 1 re-sorts: focus follows the moved step.
    await page.keyboard.press("Shift+ArrowLeft");
    await page.keyboard.press("Shift+ArrowLeft");
    expect((await storedTimeline(page))!.steps).toEqual([
      { at: 0, ramp: "linear", channels: [{ id: 1, frequency: 800 }] },
      { at: 0, ramp: "hold", channels: [{ id: 1, frequency: 200 }] },
    ]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Step 1");
    await page.keyboard.press("Shift+ArrowRight");
    expect((await storedTimeline(page))!.steps.map((s) => s.at)).toEqual([0, 10]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Step 2");

    await page.keyboard.press("Delete");
    expect(await storedTimeline(page)).toEqual({ steps: [{ at: 0, ramp: "hold", channels: [{ id: 1, frequency: 200 }] }] });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Step 1");
    expect(await panel().locator(".tl-desc").textContent()).toBe("Step 1 of 1 at 00:00:00: channel 1 200 Hz.");
  });

  it("moves a step by dragging its handle", async () => {
    await panel().getByRole("button", { name: "Add step" }).click();
    expect((await storedTimeline(page))!.steps.map((s) => s.at)).toEqual([0, 10]);
    const box = (await panel().getByRole("slider", { name: "Step 2" }).boundingBox())!;
    const plot = (await panel().locator(".tl-plot").boundingBox())!;
    const x = (t: number) => plot.x + (plot.width * t) / 30; // the axis runs to the 30 s duration
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(x(15), box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(x(20), box.y + 40, { steps: 5 });
    await page.mouse.up();
    expect((await storedTimeline(page))!.steps.map((s) => s.at)).toEqual([0, 20]);
    expect(await panel().getByLabel("Time (HH:MM:SS)").inputValue()).toBe("00:00:20");
  });

  it("shows a typed time's error and keeps the step where it was", async () => {
    await typeInto("Time (HH:MM:SS)", "1:75");
    expect(await panel().getByRole("alert").textContent()).toBe("Enter the time as HH:MM:SS, for example 00:40:00.");
    expect(await panel().getByLabel("Time (HH:MM:SS)").getAttribute("aria-invalid")).toBe("true");
    expect((await storedTimeline(page))!.steps.map((s) => s.at)).toEqual([0, 20]);
    await typeInto("Time (HH:MM:SS)", "25");
    expect(await panel().getByRole("alert").count()).toBe(0);
    expect((await storedTimeline(page))!.steps.map((s) => s.at)).toEqual([0, 25]);
  });

  it("adds an effect change from the list with its value", async () => {
    const list = panel().getByLabel("Effect to change");
    // Free accounts have no effects: every one is offered, marked Pro and disabled.
    expect(await list.locator("option").first().textContent()).toBe("Binaural Beat (Pro)");
    expect(await panel().getByRole("button", { name: "Add effect change" }).isDisabled()).toBe(true);
  });

  it("for a Pro account: adds binaural, isochronic and noise changes with their values, and drops one again", async () => {
    const pro = await run.browser.newPage({ viewport: { width: 1280, height: 900 } });
    pro.on("pageerror", (e) => console.error("page error:", e.message));
    await openSignedIn(pro, run.app.url, await registerProAccount(run.app));
    const box = pro.locator("section.timeline");
    await expect.poll(() => box.getByRole("button", { name: "Add step" }).isEnabled()).toBe(true);
    await box.getByRole("button", { name: "Add step" }).click();
    await box.getByRole("button", { name: "Add step" }).click();
    const list = box.getByLabel("Effect to change");
    expect((await list.locator("option").allTextContents()).slice(0, 3)).toEqual(["Binaural Beat", "Isochronic Pulses", "Noise"]);
    await box.getByRole("button", { name: "Add effect change" }).click(); // the first: Binaural Beat
    const beat = box.getByLabel("Step Binaural Beat value (Hz)", { exact: true });
    await beat.fill("4");
    await beat.press("Enter");
    await list.selectOption({ label: "Noise" });
    await box.getByRole("button", { name: "Add effect change" }).click();
    await box.getByLabel("Step Noise type", { exact: true }).selectOption("pink");
    await list.selectOption({ label: "Isochronic Pulses" });
    await box.getByRole("button", { name: "Add effect change" }).click();
    await box.getByRole("switch", { name: "Step Isochronic Pulses on/off" }).uncheck();
    expect((await storedTimeline(pro))!.steps[1]).toEqual({
      at: 10,
      ramp: "hold",
      effects: {
        binaural: { enabled: true, value: 4 },
        noise: { enabled: true, value: 20, type: "pink" },
        isoPulses: { enabled: false, value: 6 },
      },
    });
    expect(await box.locator(".tl-desc").textContent()).toBe(
      "Step 2 of 2 at 00:00:10, jump: Binaural Beat on, 4.0 Hz; Noise on, 20 %, type pink; Isochronic Pulses off, 6.0 Hz.",
    );
    await box.getByRole("button", { name: "Keep Noise from before" }).click();
    expect(Object.keys((await storedTimeline(pro))!.steps[1].effects!)).toEqual(["binaural", "isoPulses"]);
    expect(await axeViolations(pro, { include: "section.timeline" })).toEqual([]);
    await box.screenshot({ path: screenshotPath("timeline-pro-1280.png") });
    await pro.close();
  });

  it("passes axe at every impact level and fits a 1280 px screen and a 390 px phone", async () => {
    expect(await axeViolations(page, { include: "section.timeline" })).toEqual([]);
    await panel().screenshot({ path: screenshotPath("timeline-1280.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.querySelector(".tl-axis")!.getBoundingClientRect().width)).toBeLessThan(390);
    const layout = await page.evaluate(() => {
      const p = document.querySelector("section.timeline")!.getBoundingClientRect();
      const svg = document.querySelector(".tl-axis")!.getBoundingClientRect();
      return { page: document.documentElement.scrollWidth, panel: [p.left, p.right], svg: [svg.left, svg.right] };
    });
    expect(layout.page).toBeLessThanOrEqual(390);
    expect(layout.svg[0]).toBeGreaterThanOrEqual(layout.panel[0]);
    expect(layout.svg[1]).toBeLessThanOrEqual(layout.panel[1]);
    expect(await axeViolations(page, { include: "section.timeline" })).toEqual([]);
    await panel().screenshot({ path: screenshotPath("timeline-390.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
