// Shared presets and the random sound in real Chromium against the real server: a Pro user shares
// (the clipboard holds /preset/{id}), the link opens the same channels and effects in a fresh
// context (for a second Pro user; anonymously it loads behind the locked studio); a ?config= link
// loads with its toast and a bad one shows 'Failed to load shared preset' without breaking the
// page; the logo makes a random sound that the analyser hears after Play. Screenshots of the share
// toast at desktop and phone sizes go to .tmp/screenshots/.

import { mkdirSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TIMELINE_STEPS } from "../../dsp/host/model/limits";
import { encodeConfig, MAX_CONFIG_LENGTH, presetData } from "../../dsp/host/schema/preset";
import { defaultAudioState } from "../../dsp/host/schema/state";
import { settledToast, startBrowserApp, storedTimeline, type BrowserApp } from "./browser";
import { openSignedIn, registerProAccount, type TestAccount } from "./session";
import { openSection, openTransportMore } from "./sections";

const SHOTS = ".tmp/screenshots";
const PRO_LABEL = "Pro User (59 min max)";
const LOGO = "Tone Studio: make a random sound";

let run: BrowserApp;
const contexts: BrowserContext[] = [];
/** Two Pro accounts (sign-ups are rate-limited per address): one shares, the other opens links. */
let sharer: TestAccount;
let viewer: TestAccount;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  run = await startBrowserApp();
  sharer = await registerProAccount(run.app);
  viewer = await registerProAccount(run.app);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await run?.close();
});

async function freshPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await run.browser.newContext({ viewport });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: run.app.url });
  contexts.push(context);
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  return page;
}

/** A Pro account signed in on a fresh page at `path`, with its studio unlocked. */
async function proPage(path = "/", viewport?: { width: number; height: number }, account = sharer): Promise<Page> {
  const page = await freshPage(viewport);
  await openSignedIn(page, run.app.url, account, path);
  await page.getByText(PRO_LABEL).waitFor();
  return page;
}

/** The output analyser's loudest frequency, a whole window (250 ms) after asking. */
function heardHz(p: Page): Promise<number> {
  return p.evaluate(async () => {
    const audio = (window as unknown as { __toneStudio: { audio: { outputAnalyser: AnalyserNode; context: AudioContext } } }).__toneStudio.audio;
    const a = audio.outputAnalyser;
    const bins = new Float32Array(a.frequencyBinCount);
    await new Promise((r) => setTimeout(r, 250));
    a.getFloatFrequencyData(bins);
    let k = 1;
    for (let i = 1; i < bins.length; i++) if (bins[i] > bins[k]) k = i;
    return (k * audio.context.sampleRate) / a.fftSize;
  });
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text });

type Studio = { channels: unknown[]; effects: Record<string, { enabled: boolean; value: number }>; duration: number; isPlaying: boolean };
const studioState = (page: Page) =>
  page.evaluate(() => {
    const s = (window as unknown as { __toneStudio: { store: { getState(): Studio } } }).__toneStudio.store.getState();
    return JSON.parse(JSON.stringify({ channels: s.channels, effects: s.effects, duration: s.duration, isPlaying: s.isPlaying })) as Studio;
  });

async function shareAndReadLink(page: Page): Promise<string> {
  await openTransportMore(page);
  await page.getByRole("button", { name: "Share Preset" }).click();
  await toast(page, "Preset shared! Link copied to clipboard").waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(await page.getByLabel("Share link").inputValue()).toBe(link);
  return link;
}

describe("shared presets in Chromium", () => {
  it("a Pro user shares; the copied link opens the same channels and effects in a fresh context", async () => {
    const page = await proPage();
    await openSection(page, "Channels");
    await page.getByLabel("Channel 1 frequency (Hz)").fill("123.45");
    await page.getByLabel("Channel 2 waveform").selectOption("square");
    await page.getByRole("switch", { name: "Channel 3 on/off" }).uncheck();
    await page.getByLabel("Channel 4 frequency (Hz)").fill("7.83");
    await openSection(page, "Effects");
    await page.getByRole("switch", { name: "Ring Mod", exact: true }).check();
    await page.getByLabel("Ring Mod value").fill("40");
    await page.getByRole("switch", { name: "Noise", exact: true }).check();
    await page.getByLabel("Noise type").selectOption("pink");
    const shared = await studioState(page);

    const link = await shareAndReadLink(page);
    expect(link).toMatch(new RegExp(`^${run.app.url}/preset/[A-Za-z0-9_-]{22}$`));
    await settledToast(page, "Preset shared! Link copied to clipboard"); // its entry animation over
    await page.screenshot({ path: `${SHOTS}/share-toast-desktop.png` });

    // Another Pro user opens it: everything as shared.
    const other = await proPage(new URL(link).pathname, undefined, viewer);
    await toast(other, "Preset loaded successfully!").waitFor();
    await expect.poll(() => other.getByLabel("Channel 1 frequency (Hz)").inputValue()).toBe("123.45");
    await openSection(other, "Channels");
    expect(await other.getByLabel("Channel 2 waveform").inputValue()).toBe("square");
    expect(await other.getByRole("switch", { name: "Channel 3 on/off" }).isChecked()).toBe(false);
    expect(await other.getByLabel("Channel 4 frequency (Hz)").inputValue()).toBe("7.83");
    await openSection(other, "Effects");
    expect(await other.getByRole("switch", { name: "Ring Mod", exact: true }).isChecked()).toBe(true);
    expect(await other.getByLabel("Ring Mod value").inputValue()).toBe("40");
    expect(await other.getByLabel("Noise type").inputValue()).toBe("pink");
    const opened = await studioState(other);
    expect(opened.channels).toEqual(shared.channels);
    expect(opened.effects).toEqual(shared.effects);

    // Anonymously the link loads too, behind the locked studio.
    const anonymous = await freshPage();
    await anonymous.goto(link);
    await toast(anonymous, "Preset loaded successfully!").waitFor();
    expect(await anonymous.getByRole("button", { name: "Share Preset" }).isDisabled()).toBe(true);
  });

  it("a long session (500 steps from an .sbg file, over 64 KiB) is shared and opens whole; 60 of them open as a ?config= link", async () => {
    const page = await proPage();
    const clock = (s: number) => [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, "0")).join(":");
    const tones = Array.from({ length: MAX_TIMELINE_STEPS }, (_, i) => `t${i}: ${100 + i}/50`);
    const times = Array.from({ length: MAX_TIMELINE_STEPS }, (_, i) => `NOW+${clock(i * 7)} == t${i}`);
    const sbg = [...tones, "", ...times, ""].join("\n");
    await openSection(page, "Session");
    const timeline = page.locator("section.timeline");
    await timeline.locator('input[type="file"]').setInputFiles({ name: "long.sbg", mimeType: "text/plain", buffer: Buffer.from(sbg) });
    await expect.poll(() => timeline.getByRole("status").textContent()).toBe("Imported long.sbg.");
    const built = (await storedTimeline(page))?.steps;
    expect(built).toHaveLength(MAX_TIMELINE_STEPS);
    expect(JSON.stringify(built).length).toBeGreaterThan(64 * 1024);
    await timeline.screenshot({ path: `${SHOTS}/timeline-500-steps-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await timeline.screenshot({ path: `${SHOTS}/timeline-500-steps-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    const link = await shareAndReadLink(page);
    const other = await proPage(new URL(link).pathname, undefined, viewer);
    await toast(other, "Preset loaded successfully!").waitFor();
    expect((await storedTimeline(other))?.steps).toEqual(built);

    // Its first 60 steps as a ?config= link: a URL past Node's default 16 KiB request head, within
    // the longest config the studio reads.
    const steps = built!.slice(0, 60);
    const config = encodeConfig({ ...presetData(defaultAudioState()), timeline: { steps } });
    expect(config.length).toBeGreaterThan(32 * 1024);
    expect(config.length).toBeLessThanOrEqual(MAX_CONFIG_LENGTH);
    const linked = await proPage(`/?config=${config}`, undefined, viewer);
    await toast(linked, "Preset loaded from shared link!").waitFor();
    expect((await storedTimeline(linked))?.steps).toEqual(steps);
  });

  it("the share toast on a phone", async () => {
    const page = await proPage("/", { width: 390, height: 844 });
    const link = await shareAndReadLink(page);
    expect(link).toContain("/preset/");
    await settledToast(page, "Preset shared! Link copied to clipboard");
    await page.screenshot({ path: `${SHOTS}/share-toast-phone.png` });
  });

  it("a ?config= link loads its state with 'Preset loaded from shared link!'", async () => {
    const state = presetData(defaultAudioState());
    state.channels = state.channels.map((c) => (c.id === 1 ? { ...c, frequency: 1000, waveform: "triangle" } : { ...c, enabled: false, frequency: 0 }));
    state.effects.tremolo = { enabled: true, value: 8 };
    state.duration = 600;
    const page = await proPage(`/?config=${encodeConfig(state)}`);
    await toast(page, "Preset loaded from shared link!").waitFor();
    await expect.poll(() => page.getByLabel("Channel 1 frequency (Hz)").inputValue()).toBe("1000");
    await openSection(page, "Channels");
    expect(await page.getByLabel("Channel 1 waveform").inputValue()).toBe("triangle");
    await openSection(page, "Effects");
    expect(await page.getByRole("switch", { name: "Tremolo", exact: true }).isChecked()).toBe(true);
    const loaded = await studioState(page);
    expect(loaded.channels).toEqual(state.channels);
    expect(loaded.duration).toBe(600);
  });

  it("a ?config= link carries the session timeline, and playback follows its ramp", async () => {
    const state = presetData(defaultAudioState());
    state.channels = state.channels.map((c) => (c.id === 1 ? { ...c, frequency: 300 } : { ...c, enabled: false, frequency: 0 }));
    state.timeline = { steps: [{ at: 3, ramp: "linear", channels: [{ id: 1, frequency: 1500 }] }] };
    const page = await proPage(`/?config=${encodeConfig(state)}`);
    await toast(page, "Preset loaded from shared link!").waitFor();
    expect(await storedTimeline(page)).toEqual(state.timeline);
    await page.getByRole("button", { name: "Play Audio" }).click();
    await page.getByRole("button", { name: "Stop Audio" }).waitFor();
    const heard: number[] = [];
    const started = Date.now();
    while (Date.now() - started < 3500) heard.push(await heardHz(page));
    await page.getByRole("button", { name: "Stop Audio" }).click();
    // The analyser's peak climbs from about 300 Hz towards 1500 Hz as the ramp plays.
    expect(heard[0]).toBeLessThan(700);
    expect(heard[heard.length - 1]).toBeGreaterThan(1200);
    const rises = heard.slice(1).filter((f, i) => f >= heard[i]).length;
    expect(rises / (heard.length - 1)).toBeGreaterThan(0.8);
  });

  it("a bad ?config= shows 'Failed to load shared preset' and the studio still works; a missing id says so", async () => {
    const page = await proPage("/?config=%25%25not-base64!!");
    await toast(page, "Failed to load shared preset").waitFor();
    await openSection(page, "Channels");
    await page.getByLabel("Channel 1 frequency (Hz)").fill("440");
    expect(await page.getByLabel("Channel 1 frequency (Hz)").inputValue()).toBe("440");

    await page.goto(`${run.app.url}/?config=${btoa(JSON.stringify({ channels: [], effects: {}, duration: 0 }))}`);
    await toast(page, "Failed to load shared preset").waitFor();

    await page.goto(`${run.app.url}/preset/AAAAAAAAAAAAAAAAAAAAAA`);
    await toast(page, "This preset has expired or was not found").waitFor();
    await page.getByRole("button", { name: "Play Audio" }).waitFor();
  });

  it("the logo makes a random sound (and pulses) that the analyser hears after Play", async () => {
    const page = await proPage();
    const before = await studioState(page);
    // Record the logo's classes: the pulse lasts 150 ms.
    await page.evaluate(() => {
      const logo = document.querySelector(".logo")!;
      const seen: string[] = [];
      (window as unknown as { __logoClasses: string[] }).__logoClasses = seen;
      new MutationObserver(() => seen.push(logo.className)).observe(logo, { attributes: true, attributeFilter: ["class"] });
    });
    await page.getByRole("link", { name: LOGO }).click();
    await toast(page, "Random sound generated! Press play to listen.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await expect.poll(() => page.evaluate(() => (window as unknown as { __logoClasses: string[] }).__logoClasses.length)).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (window as unknown as { __logoClasses: string[] }).__logoClasses)).toEqual(["logo logo-pulse", "logo"]);

    const after = await studioState(page);
    expect(after.channels).not.toEqual(before.channels);
    const on = Object.values(after.effects).filter((fx) => fx.enabled).length;
    expect(on).toBeGreaterThanOrEqual(1);
    expect(on).toBeLessThanOrEqual(4);
    expect(after.duration).toBe(before.duration);

    await page.getByRole("button", { name: "Play Audio" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
    // Gates, pulses and drop-outs come and go: the loudest sample over 1.5 s. Random sounds peak at
    // about -26 to -15 dBFS; silence would be 0.
    const peak = await page.evaluate(async () => {
      const a = (window as unknown as { __toneStudio: { audio: { waveAnalyser: AnalyserNode } } }).__toneStudio.audio.waveAnalyser;
      const data = new Float32Array(a.fftSize);
      let max = 0;
      for (let i = 0; i < 30; i++) {
        await new Promise((r) => setTimeout(r, 50));
        a.getFloatTimeDomainData(data);
        for (const v of data) max = Math.max(max, Math.abs(v));
      }
      return max;
    });
    expect(peak, JSON.stringify(after.channels)).toBeGreaterThan(0.01); // -40 dBFS

    // A second click while playing stops the sound: the toast asks for Play.
    await page.getByRole("link", { name: LOGO }).click();
    await expect.poll(() => page.getByRole("button", { name: "Play Audio" }).count()).toBe(1);
    expect((await studioState(page)).isPlaying).toBe(false);
  });

  it("away from the studio the logo goes to / with a new random sound; anonymous visitors may use it", async () => {
    const page = await freshPage();
    await page.goto(`${run.app.url}/science`);
    await page.getByRole("link", { name: LOGO }).click();
    await toast(page, "Random sound generated! Press play to listen.").waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/");
    await page.getByRole("heading", { name: "Frequencies" }).waitFor();
  });
});
