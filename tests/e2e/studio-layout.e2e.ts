// The studio as an instrument, at 1280x900 and 390x844 (signed in, Pro): the transport bar is in
// view and works from every section, the default view holds transport, display and channels
// without scrolling on a desktop, the page stays within two screens (four on a phone), the
// elapsed time advances, and each section is photographed under .tmp/screenshots/.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { axeViolations, launchChromium, screenshotPath, startTestApp, until, type TestApp } from "./browser";
import { openSignedIn, registerProAccount, type TestAccount } from "./session";
import { openTransportMore } from "./sections";

let app: TestApp;
let browser: Browser;
let account: TestAccount;

const SIZES = [
  { name: "desktop", width: 1280, height: 900, screens: 2 },
  { name: "phone", width: 390, height: 844, screens: 4 },
] as const;
const SECTIONS = ["Channels", "Effects", "Session", "Levels & sleep"] as const;

async function openStudio(size: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: size.width, height: size.height } });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(app.url + "/api/health");
  await page.evaluate(() => {
    localStorage.setItem("tone-studio:tutorial", "completed");
    localStorage.removeItem("tone-studio:section");
  });
  await openSignedIn(page, app.url, account);
  await page.getByRole("tab", { name: "Channels" }).waitFor();
  await until(() => page.getByRole("switch", { name: "Channel 4 on/off" }).isEnabled(), (on) => on);
  return page;
}

/** True when the element's box lies inside the viewport. */
function inView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  }, selector);
}

const pageHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchChromium();
  account = await registerProAccount(app);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe.each(SIZES)("studio at $width x $height", (size) => {
  let page: Page;
  beforeAll(async () => {
    page = await openStudio(size);
  });
  afterAll(() => page?.close());

  it("keeps the page within its screens and shows transport, display and channels first", async () => {
    const height = await pageHeight(page);
    console.info(`${size.name}: page ${height} px tall`);
    expect(height).toBeLessThanOrEqual(size.screens * size.height);
    expect(await inView(page, ".transport button.play")).toBe(true);
    if (size.name === "desktop") {
      expect(await inView(page, ".panel.displays canvas")).toBe(true);
      for (let i = 1; i <= 4; i++) expect(await inView(page, `.channel-card:nth-child(${i}) input[type="range"]`)).toBe(true);
    }
    await page.screenshot({ path: screenshotPath(`studio-${size.name}-top.png`) });
  });

  it("plays and stops from every section, scrolled to its end, with the transport in view; the elapsed time advances", async () => {
    for (const name of SECTIONS) {
      await page.getByRole("tab", { name }).click();
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      expect(await inView(page, ".transport button.play"), `Play in view in ${name}`).toBe(true);
      await page.screenshot({ path: screenshotPath(`studio-${size.name}-${name.split(" ")[0].toLowerCase()}.png`) });
      const violations = await axeViolations(page); // every impact level
      expect(violations, `${name}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
      await page.getByRole("button", { name: "Play Audio" }).click();
      await page.getByRole("button", { name: "Stop Audio" }).waitFor();
      const elapsed = page.locator(".transport .time-elapsed");
      const first = await until(() => elapsed.textContent(), (t) => t !== "0:00", { timeout: 4000 });
      expect(first).not.toBe("0:00");
      const later = await until(() => elapsed.textContent(), (t) => t !== first, { timeout: 4000 });
      expect(later).not.toBe(first);
      // Elapsed and remaining add up to the duration (read together in one task of the page).
      const [e, r, d] = await page.evaluate(() => [".transport .time-elapsed", ".transport .time-remaining"].map((q) => document.querySelector(q)!.textContent ?? "").concat(String((window as unknown as { __toneStudio: { store: { getState(): { duration: number } } } }).__toneStudio.store.getState().duration)));
      const secs = (t: string) => t.replace("-", "").split(":").reduce((acc, x) => acc * 60 + Number(x), 0);
      expect(secs(e) + secs(r)).toBe(Number(d));
      // The level meter reads the worklet's figures: peak and RMS in dBFS, gain reduction in dB.
      const meter = await until(() => page.locator(".transport .meter-text").textContent(), (t) => /^Peak -\d/.test(t ?? ""));
      expect(meter).toMatch(/^Peak -\d+\.\d · RMS -\d+\.\d dBFS · GR \d+\.\d dB$/);
      await page.getByRole("button", { name: "Stop Audio" }).click();
      await page.getByRole("button", { name: "Play Audio" }).waitFor();
    }
    await page.getByRole("tab", { name: "Channels" }).click();
  });

  it("the master mute silences the page's output and unmuting brings it back", async () => {
    await openTransportMore(page);
    await page.getByRole("button", { name: "Play Audio" }).click();
    await page.getByRole("button", { name: "Stop Audio" }).waitFor();
    const outputPeak = () =>
      page.evaluate(() => {
        const a = (window as unknown as { __toneStudio: { audio: { outputAnalyser: AnalyserNode } } }).__toneStudio.audio.outputAnalyser;
        const data = new Float32Array(a.fftSize);
        a.getFloatTimeDomainData(data);
        return Math.max(...data.map(Math.abs));
      });
    expect(await until(outputPeak, (p) => p > 0.01)).toBeGreaterThan(0.01);
    await page.screenshot({ path: screenshotPath(`studio-${size.name}-more.png`) });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Mute all" }).click();
    expect(await until(outputPeak, (p) => p < 1e-4)).toBeLessThan(1e-4);
    await page.getByRole("button", { name: "Mute all" }).click();
    expect(await until(outputPeak, (p) => p > 0.01)).toBeGreaterThan(0.01);
    await page.getByRole("button", { name: "Stop Audio" }).click();
    await page.getByRole("button", { name: "Play Audio" }).waitFor();
  });

  it("on a session: the transport names the step that plays and its seek bar jumps the playhead", async () => {
    await page.evaluate(() => {
      const store = (window as unknown as { __toneStudio: { store: { getState(): { setTimeline(t: unknown): void; setDuration(s: number): void } } } }).__toneStudio.store;
      store.getState().setDuration(300);
      store.getState().setTimeline({ steps: [{ at: 0, ramp: "hold", label: "settle" }, { at: 120, ramp: "hold", label: "deep", channels: [{ id: 1, frequency: 300 }] }] });
    });
    const step = page.locator(".transport-step span");
    await page.getByRole("button", { name: "Play Audio" }).click();
    await page.getByRole("button", { name: "Stop Audio" }).waitFor();
    await expect.poll(() => step.textContent()).toBe("settle");
    const seek = page.getByRole("slider", { name: "Seek in the session" });
    await seek.focus();
    // End, then a tenth back (Page Down): 4:30, in the last step with half a minute still to play.
    // (End alone leaves the last second, and the session ends under the checks below.)
    await page.keyboard.press("End");
    await page.keyboard.press("PageDown");
    await expect.poll(() => step.textContent(), { timeout: 5000 }).toBe("deep");
    const elapsed = Number((await page.locator(".transport .time-elapsed").textContent())!.split(":")[0]);
    expect(elapsed).toBeGreaterThanOrEqual(4); // m:ss past 4:00
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Stop Audio" }).click();
    await page.getByRole("button", { name: "Play Audio" }).waitFor();
    await page.evaluate(() => {
      const store = (window as unknown as { __toneStudio: { store: { getState(): { setTimeline(t: unknown): void; setDuration(s: number): void } } } }).__toneStudio.store;
      store.getState().setTimeline(undefined);
      store.getState().setDuration(30);
    });
  });

  it("the tabs follow the keyboard: Right and Left wrap, Home and End, focus moves with the selection", async () => {
    await page.getByRole("tab", { name: "Channels" }).click();
    const selected = () => page.locator('[aria-label="Studio sections"] [role="tab"][aria-selected="true"]').textContent();
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "");
    await page.keyboard.press("ArrowRight");
    expect([await selected(), await focused()]).toEqual(["Effects", "Effects"]);
    await page.keyboard.press("End");
    expect(await selected()).toBe("Levels & sleep");
    await page.keyboard.press("ArrowRight");
    expect(await selected()).toBe("Channels");
    await page.keyboard.press("ArrowLeft");
    expect(await selected()).toBe("Levels & sleep");
    await page.keyboard.press("Home");
    expect([await selected(), await focused()]).toEqual(["Channels", "Channels"]);
  });

  it("remembers the open section across a reload", async () => {
    await page.getByRole("tab", { name: "Effects" }).click();
    await page.reload();
    await expect.poll(() => page.getByRole("tab", { name: "Effects" }).getAttribute("aria-selected")).toBe("true");
    await page.getByRole("tab", { name: "Channels" }).click();
  });
});
