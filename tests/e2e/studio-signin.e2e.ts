// The studio as an anonymous visitor sees it, in real Chromium against the real server: every
// channel and effect card shows 'Pro Only' (channel 1 included) under the sign-in card.

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EFFECTS } from "../../dsp/host/catalogue";
import { launchChromium, startTestApp, type TestApp } from "./browser";

const PRO_ONLY = "🔒 Pro Only";

let app: TestApp;
let browser: Browser;
let page: Page;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The 'Pro Only' lock that covers the whole card of `feature` ("Channel 1", "Ring Mod"): its
 *  name reads "🔒 Pro Only: Channel 1. View Pro plans" (the waveform's own lock names the
 *  waveform choice instead). */
const lockOf = (feature: string) =>
  page.getByRole("button", { name: new RegExp(`^${escape(PRO_ONLY)}\\s*: ${escape(feature)}\\. View Pro plans$`) });

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on("pageerror", (e) => console.error("page error:", e.message));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("the studio for anonymous visitors", () => {
  it("shows 'Pro Only' on all 4 channel cards and all 30 effect cards", async () => {
    await page.goto(app.url + "/");
    await page.getByRole("heading", { name: "Sign in to start creating" }).waitFor();
    expect(EFFECTS.length).toBe(30);
    expect(await page.locator(".channel-card").count()).toBe(4);
    expect(await page.locator(".effect-card").count()).toBe(EFFECTS.length);
    for (const feature of [1, 2, 3, 4].map((i) => `Channel ${i}`).concat(EFFECTS.map((fx) => fx.name))) {
      expect(await lockOf(feature).count(), feature).toBe(1);
    }
    for (const i of [1, 2, 3, 4]) {
      expect(await page.getByRole("switch", { name: `Channel ${i} on/off` }).isChecked()).toBe(false);
      expect(await page.getByLabel(`Channel ${i} frequency (Hz)`).isDisabled()).toBe(true);
    }
  });
});
