// On an iPhone without navigator.audioSession (before Safari 16.4), the studio's output must reach
// the speakers through a media element so that the ring/silent switch does not mute it: with an
// iPhone's user agent (Chromium has no navigator.audioSession), Play starts an <audio> element
// fed by a MediaStream of the output, and the sound is there. On the desktop nothing changes.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startBrowserApp, type BrowserApp } from "./browser";
import { openFreeStudio } from "./session";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 16_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.2 Mobile/15E148 Safari/604.1";

let run: BrowserApp;
beforeAll(async () => {
  run = await startBrowserApp();
});
afterAll(async () => {
  await run?.close();
});

type Route = { element: HTMLAudioElement | null } | null;

function routeState(page: Page) {
  return page.evaluate(() => {
    const audio = (window as unknown as { __toneStudio: { audio: { route: Route; outputAnalyser: AnalyserNode } } }).__toneStudio.audio;
    const el = audio.route?.element ?? null;
    const stream = el?.srcObject instanceof MediaStream ? el.srcObject : null;
    const bins = new Float32Array(audio.outputAnalyser.frequencyBinCount);
    audio.outputAnalyser.getFloatFrequencyData(bins);
    return {
      element: el !== null,
      paused: el?.paused ?? null,
      liveTracks: stream ? stream.getAudioTracks().filter((t) => t.readyState === "live").length : 0,
      loudest: Math.max(...bins),
    };
  });
}

async function studioOn(userAgent?: string): Promise<Page> {
  const context = await run.browser.newContext({ viewport: { width: 390, height: 844 }, ...(userAgent ? { userAgent } : {}) });
  const page = await context.newPage();
  await openFreeStudio(page, run.app.url);
  await page.getByRole("button", { name: "Play Audio" }).click();
  await page.getByRole("button", { name: "Stop Audio" }).waitFor();
  return page;
}

describe("the iPhone output route", () => {
  it("plays through a media element fed by the output's stream on an iPhone", async () => {
    const page = await studioOn(IPHONE);
    await expect.poll(async () => (await routeState(page)).paused, { timeout: 5000 }).toBe(false);
    const state = await routeState(page);
    expect(state.element).toBe(true);
    expect(state.liveTracks).toBe(1);
    await expect.poll(async () => (await routeState(page)).loudest, { timeout: 5000 }).toBeGreaterThan(-40);
    await page.context().close();
  });

  it("goes straight to the speakers elsewhere", async () => {
    const page = await studioOn();
    const state = await routeState(page);
    expect(state.element).toBe(false);
    await expect.poll(async () => (await routeState(page)).loudest, { timeout: 5000 }).toBeGreaterThan(-40);
    await page.context().close();
  });
});
