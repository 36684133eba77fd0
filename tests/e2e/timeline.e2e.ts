// The session timeline editor in real Chromium, as a free account uses it (channel 1 only): a
// two-step ramp typed into the real inputs (200 Hz at 0:00, 800 Hz at 0:06, linear) is stored
// in the studio's timeline, drawn as a rising line, and heard: the analyser's peak follows the
// schedule upward while it plays; the playhead's step is highlighted. Keyboard: Left and Right
// move the focused step (Shift: 10 s), Delete removes it. A drag moves a step. Axe (every impact
// level) with steps on screen, and screenshots at 1280 and 390 px (.tmp/screenshots/timeline-*.png).
// The text view: the session as .sbg text, edited text applied (errors by line, nothing applied),
// editor and text in step both ways; .sbg import from a file and export as a download.

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { SBG_NOT_TEXT } from "../../dsp/host/sbg/index";
import { axeViolations, screenshotPath, startBrowserApp, storedTimeline, type BrowserApp } from "./browser";
import { settledSpectrum } from "./analyser";
import { openFreeStudio, openSignedIn, registerProAccount } from "./session";
import { openSection } from "./sections";

let run: BrowserApp;
let page: Page;

const panel = () => page.locator("section.timeline");

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
  await openSection(page, "Session");
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
    await panel().locator(".tl-frame").screenshot({ path: screenshotPath("timeline-playing.png") });
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

  it("for a free account: every effect in the list is marked Pro and none can be added", async () => {
    const list = panel().getByLabel("Effect to change");
    // Free accounts have no effects: every one is offered, marked Pro and disabled.
    expect(await list.locator("option").first().textContent()).toBe("Binaural Beat (Pro)");
    expect(await panel().getByRole("button", { name: "Add effect change" }).isDisabled()).toBe(true);
  });

  it("for a Pro account: adds binaural, isochronic and noise changes with their values, and drops one again", async () => {
    const pro = await run.browser.newPage({ viewport: { width: 1280, height: 900 } });
    pro.on("pageerror", (e) => console.error("page error:", e.message));
    await openSignedIn(pro, run.app.url, await registerProAccount(run.app));
    await openSection(pro, "Session");
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
      "Step 2 of 2 at 00:00:10, jump: channel 1 432 Hz; channel 2 528 Hz; channel 3 639 Hz; channel 4 741 Hz; Noise 20 %; Binaural Beat 4.0 Hz.",
    );
    await box.getByRole("button", { name: "Keep Noise from before" }).click();
    expect(Object.keys((await storedTimeline(pro))!.steps[1].effects!)).toEqual(["binaural", "isoPulses"]);
    expect(await axeViolations(pro, { include: "section.timeline" })).toEqual([]);
    await box.screenshot({ path: screenshotPath("timeline-pro-1280.png") });
    await pro.close();
  });

  it("text view: applies typed .sbg text, follows the editor, and round-trips text -> session -> text", async () => {
    const program = ["-SE", "-F 10", "", "low: 200/50", "high: 800/50", "", "NOW == low ->", "NOW+00:00:06 == high", "NOW+00:00:30 == high", ""].join("\n");
    await panel().locator("summary", { hasText: "Session as text (.sbg)" }).click();
    const box = panel().getByLabel("Session as text (.sbg)", { exact: true });
    await box.fill(program);
    // The view has opened (its toggle event comes after the box shows) and holds the typed text.
    await expect.poll(() => panel().locator("details").first().evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await expect.poll(() => box.inputValue()).toBe(program);
    await panel().getByRole("button", { name: "Apply text" }).click();
    expect(await panel().getByRole("status").textContent()).toBe("Text applied to the session.");
    const steps = (await storedTimeline(page))!.steps;
    expect(steps.map((s) => [s.at, s.ramp, s.label, s.channels?.[0].frequency])).toEqual([[0, "hold", "low", 200], [6, "linear", "high", 800]]);
    // The text the studio writes for that session is the text applied: a fixed point.
    const written = await box.inputValue();
    expect(written).toBe(["## Session exported from the tone studio", "## 00:00:30, 2 steps", "", program].join("\n"));
    await panel().getByRole("button", { name: "Apply text" }).click();
    expect(await box.inputValue()).toBe(written);
    expect((await storedTimeline(page))!.steps).toEqual(steps);

    // Editor -> text: step 2's frequency typed in the editor shows in the text.
    await panel().getByRole("slider", { name: "Step 2 (high)" }).focus();
    await typeInto("Step channel 1 frequency (Hz)", "600");
    expect(await box.inputValue()).toContain("high: 600/50");
    expect(await panel().locator(".tl-desc").textContent()).toBe("Step 2 of 2 (high) at 00:00:06, linear ramp: channel 1 600 Hz.");
  });

  it("text view: text with errors is listed by line and nothing is applied", async () => {
    const before = await storedTimeline(page);
    const box = panel().getByLabel("Session as text (.sbg)", { exact: true });
    await box.fill("low: 200/50\nNOW == low\nNOW+00:01 == nowhere\n");
    await panel().getByRole("button", { name: "Apply text" }).click();
    expect(await panel().getByRole("status").textContent()).toBe("Not applied: the text has errors.");
    const error = panel().getByRole("button", { name: "Line 3: 'nowhere' is not defined above" });
    expect(await error.count()).toBe(1);
    expect(await storedTimeline(page)).toEqual(before);
    expect(await box.getAttribute("aria-invalid")).toBe("true");
    await error.click(); // selects line 3 in the box
    expect(await box.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd))).toBe("NOW+00:01 == nowhere");
    await panel().getByRole("button", { name: "Reset text" }).click();
    expect(await box.inputValue()).toContain("high: 600/50");
    expect(await panel().getByRole("button", { name: /^Line 3/ }).count()).toBe(0);
  });

  it("imports an .sbg file (errors by line for a bad one) and exports the session as .sbg", async () => {
    const input = panel().locator('input[type="file"]');
    // With the text view closed, as a person importing a file first finds it: the import opens it
    // and its errors must show (they were once hidden when the view had been closed).
    const view = panel().locator("details").filter({ has: page.locator("summary", { hasText: "Session as text (.sbg)" }) });
    if (await view.evaluate((d) => (d as HTMLDetailsElement).open)) await view.locator("summary").click();
    expect(await view.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    const bad = "alpha: 200+10/40\nNOW alpha\n+00:10 == beta\n";
    await input.setInputFiles({ name: "bad.sbg", mimeType: "text/plain", buffer: Buffer.from(bad) });
    await expect.poll(() => panel().getByRole("status").textContent()).toBe("bad.sbg was not imported: it has errors.");
    expect(await panel().getByLabel("Session as text (.sbg)", { exact: true }).inputValue()).toBe(bad);
    expect((await storedTimeline(page))!.steps[1].label).toBe("high");

    // The wrong file (a WAV, whose header holds NULs): one error, and its bytes stay out of the box.
    const wav = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVEfmt "), Buffer.alloc(2000)]);
    await input.setInputFiles({ name: "tone.wav", mimeType: "audio/wav", buffer: wav });
    await expect.poll(() => panel().getByRole("status").textContent()).toBe("tone.wav was not imported: it has errors.");
    expect(await panel().locator(".tl-issues li").allTextContents()).toEqual([SBG_NOT_TEXT]);
    expect(await panel().getByLabel("Session as text (.sbg)", { exact: true }).inputValue()).not.toContain("RIFF");
    expect(await panel().getByLabel("Session as text (.sbg)", { exact: true }).getAttribute("aria-invalid")).toBeNull(); // the box's text is not at fault
    await panel().locator(".tl-text").screenshot({ path: screenshotPath("timeline-wrong-file-1280.png") });

    const descent = ["theta-start: 150-14/60", "theta-end: 150-4/60", "", "NOW theta-start ->", "NOW+00:00:20 theta-end", ""].join("\n");
    await input.setInputFiles({ name: "descent.sbg", mimeType: "text/plain", buffer: Buffer.from(descent) });
    await expect.poll(() => panel().getByRole("status").textContent()).toBe("Imported descent.sbg.");
    const steps = (await storedTimeline(page))!.steps;
    expect(steps.map((s) => [s.at, s.label, s.effects?.binaural?.value])).toEqual([[0, "theta-start", 14], [20, "theta-end", 4]]);
    expect(steps[1].ramp).not.toBe("hold");

    const [download] = await Promise.all([page.waitForEvent("download"), panel().getByRole("button", { name: "Export .sbg file" }).click()]);
    expect(download.suggestedFilename()).toBe("session.sbg");
    const saved = readFileSync((await download.path())!, "utf8");
    expect(saved).toBe(await panel().getByLabel("Session as text (.sbg)", { exact: true }).inputValue());
    // A free account's gate leaves the binaural beat (Pro only) out of the steps it plays, so the
    // exported session is the plain 150 Hz tone the free studio plays.
    expect(saved).toContain("theta-start: 150/60");
    expect(saved).not.toContain("150-14");
  });

  it("passes axe at every impact level and fits a 1280 px screen and a 390 px phone", async () => {
    expect(await axeViolations(page, { include: "section.timeline" })).toEqual([]);
    await panel().screenshot({ path: screenshotPath("timeline-1280.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    // The imported session's steps (0:00 and 0:20 of 5:20) would sit 20 px apart on a phone's axis:
    // the axis grows to keep them a handle apart, and only its frame scrolls, never the page.
    await expect.poll(() => page.evaluate(() => document.querySelector(".tl-frame")!.getBoundingClientRect().width)).toBeLessThan(390);
    const layout = await page.evaluate(() => {
      const p = document.querySelector("section.timeline")!.getBoundingClientRect();
      const frame = document.querySelector(".tl-frame")!;
      const f = frame.getBoundingClientRect();
      const knobs = [...document.querySelectorAll(".tl-knob")].map((k) => k.getBoundingClientRect().left);
      return { page: document.documentElement.scrollWidth, panel: [p.left, p.right], frame: [f.left, f.right], scrolls: frame.scrollWidth > frame.clientWidth, knobs };
    });
    expect(layout.page).toBeLessThanOrEqual(390);
    expect(layout.frame[0]).toBeGreaterThanOrEqual(layout.panel[0]);
    expect(layout.frame[1]).toBeLessThanOrEqual(layout.panel[1]);
    expect(layout.scrolls).toBe(true);
    expect(layout.knobs[1] - layout.knobs[0]).toBeGreaterThanOrEqual(27.5);
    expect(await axeViolations(page, { include: "section.timeline" })).toEqual([]);
    await panel().screenshot({ path: screenshotPath("timeline-390.png") });
    await panel().locator(".tl-frame").screenshot({ path: screenshotPath("timeline-390-axis.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
