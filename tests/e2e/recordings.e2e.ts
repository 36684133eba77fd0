// Voice recordings in real Chromium: a Monthly account records from Chromium's fake microphone
// (--use-fake-device-for-media-stream plays a known tone; --use-fake-ui-for-media-stream answers
// the permission prompt with Allow), saves the take (16-bit WAV through /api/recordings), places it
// at a timeline step at -6 dB, hears it through the studio's analyser at that step and not before,
// and finds it in the exported WAV at the step's time and the set level (a least-squares fit of the
// saved take against the file). A free account sees the plan text instead of the recorder; a
// browser whose microphone is refused gets the refusal text. The panel is keyboard reachable, axe
// clean and fits 390 px.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECORDING_TEXT } from "../../api/rules/recordings";
import { parseWavHeader } from "../../dsp/host/export/wav";
import { defaultAudioState, type AudioState } from "../../dsp/host/schema/state";
import { peakFrequency } from "../unit/dsp/assembly/helpers";
import { settledSpectrum } from "./analyser";
import { axeViolations, CHROMIUM_ARGS, launchChromium, startTestApp, type TestApp, until } from "./browser";
import { openSection } from "./sections";
import { type TestAccount, loadState, openSignedIn, registerAccount, registerProAccount } from "./session";

const FS = 48000;
const STEP_AT = 2; // seconds: the timeline's second step
const LEVEL_DB = -6;

let app: TestApp;
let browser: Browser;
let context: BrowserContext;
let dir: string;
let pro: TestAccount;

/** A quiet 60 Hz tone on channel 1 (an export needs a channel) and a timeline with steps at 0 and
 *  STEP_AT seconds. */
function session(): AudioState {
  const s = defaultAudioState();
  s.channels = s.channels.map((c, i) => (i === 0 ? { ...c, frequency: 60, volume: 0.1 } : { ...c, enabled: false, frequency: 0 }));
  s.timeline = { steps: [{ at: 0, ramp: "hold" }, { at: STEP_AT, ramp: "hold" }] };
  return s;
}


async function openStudio(account: TestAccount, ctx: BrowserContext = context): Promise<Page> {
  const p = await ctx.newPage();
  p.on("pageerror", (e) => console.error("page error:", e.message));
  // The OPFS fallback with a download (no native save dialog in a headless test).
  await p.addInitScript("Object.defineProperty(window, 'showSaveFilePicker', { value: undefined });");
  await openSignedIn(p, app.url, account);
  return p;
}

/** The left channel of a 16-bit WAV as floats, and its header. */
function wavLeft(bytes: Uint8Array): { rate: number; channels: number; left: Float32Array } {
  const info = parseWavHeader(bytes.subarray(0, 4096));
  const v = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset, info.frames * info.blockAlign);
  const left = new Float32Array(info.frames);
  for (let i = 0; i < info.frames; i++) left[i] = v.getInt16(i * info.blockAlign, true) / 32768;
  return { rate: info.sampleRate, channels: info.channels, left };
}

const rms = (x: Float32Array) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / Math.max(1, x.length));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "recordings-e2e-"));
  app = await startTestApp();
  browser = await launchChromium([...CHROMIUM_ARGS, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]);
  context = await browser.newContext({ acceptDownloads: true });
  pro = await registerProAccount(app);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("Recordings in Chromium", () => {
  it("records the fake microphone, places the take at a step, plays it and exports it at the set level", async () => {
    const page = await openStudio(pro);
    await page.getByRole("button", { name: "Export WAV", disabled: false }).waitFor();
    await loadState(page, session(), 8);
    await openSection(page, "Session");
    const panel = page.getByTestId("recordings-panel");
    await panel.getByRole("heading", { name: "Recordings", exact: true }).waitFor();
    // The prompt is explained before anything asks for the microphone.
    await panel.getByText("your browser asks whether this site may use your microphone").waitFor();

    // Record about 3 seconds from the keyboard: Record is reachable with Tab and pressed with Enter.
    const record = panel.getByRole("button", { name: "Record" });
    await record.focus();
    await page.keyboard.press("Enter");
    await panel.getByRole("timer").waitFor();
    await until(() => panel.getByRole("timer").textContent(), (t) => /Recording 0:0[3-9]/.test(t ?? ""), { timeout: 15_000 });
    await panel.getByRole("button", { name: "Stop recording" }).click();
    await panel.getByTestId("rec-take").waitFor();
    const onTake = await axeViolations(page, { include: '[data-testid="recordings-panel"]' });
    expect(onTake, JSON.stringify(onTake, null, 2)).toEqual([]);
    await panel.getByRole("textbox", { name: "Name" }).fill("Fake mic take");
    await panel.getByRole("button", { name: "Save to my recordings" }).click();
    await panel.getByText("Fake mic take").waitFor();

    // What was saved: a 16-bit mono WAV at 48 kHz; its tone is the fake device's.
    const list = (await (await fetch(`${app.url}/api/recordings`, { headers: { Authorization: `Bearer ${pro.token}` } })).json()) as { recordings: { id: string; duration: number }[] };
    expect(list.recordings).toHaveLength(1);
    const { id, duration } = list.recordings[0];
    expect(duration).toBeGreaterThan(2.5);
    const saved = new Uint8Array(await (await fetch(`${app.url}/api/recordings/${id}/audio`, { headers: { Authorization: `Bearer ${pro.token}` } })).arrayBuffer());
    const take = wavLeft(saved);
    expect(take).toMatchObject({ rate: FS, channels: 1 });
    expect(rms(take.left)).toBeGreaterThan(0.001);
    const toneHz = peakFrequency(take.left, FS, 1 << 18, 100, 8000);
    console.log(`fake microphone: ${toneHz.toFixed(1)} Hz, take RMS ${(20 * Math.log10(rms(take.left))).toFixed(1)} dBFS, ${duration.toFixed(2)} s`);

    // Place it at the second step, at -6 dB.
    await panel.getByRole("button", { name: "Place in session: Fake mic take" }).click();
    const placed = panel.getByTestId("rec-placement-0");
    await placed.getByTestId("rec-p0-when").selectOption("step");
    await placed.getByTestId("rec-p0-step").selectOption({ label: `Step 2 at 0:0${STEP_AT}` });
    const db = placed.getByTestId("rec-p0-db");
    await db.fill(String(LEVEL_DB));
    await db.press("Enter");
    await until(() => placed.getByTestId("rec-p0-percent").inputValue(), (v) => v === "50.1");
    const stored = await page.evaluate(() => (window as unknown as { __toneStudio: { store: { getState(): { recordings?: unknown[] } } } }).__toneStudio.store.getState().recordings);
    expect(stored).toEqual([{ id, name: "Fake mic take", trimStart: 0, trimEnd: 0, gainDb: LEVEL_DB, at: 0, every: 0, loop: false, step: 1 }]);
    // axe, every impact level, on the panel with a saved recording and a placement at a step.
    const found = await axeViolations(page, { include: '[data-testid="recordings-panel"]' });
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);

    // Play: the tone is heard from the step on, and not before it.
    const bin = async () => {
      const s = await settledSpectrum(page);
      const k = Math.round(toneHz / s.binHz);
      return Math.max(s.bins[k - 1], s.bins[k], s.bins[k + 1]);
    };
    await page.getByRole("button", { name: /^Play/ }).first().click();
    await page.waitForFunction(() => (window as unknown as { __toneStudio: { audio: { playPosition(): number | null } } }).__toneStudio.audio.playPosition() !== null);
    const position = () => page.evaluate(() => (window as unknown as { __toneStudio: { audio: { playPosition(): number | null } } }).__toneStudio.audio.playPosition() ?? 0);
    await until(position, (t) => t > 0.7, { timeout: 10_000 });
    const before = await bin();
    await until(position, (t) => t > STEP_AT + 0.8, { timeout: 10_000 });
    // Read until the take is heard: on a loaded machine the audio clock lags the play position.
    const during = await until(bin, (db) => db - before > 20, { timeout: 10_000, interval: 200 });
    console.log(`analyser at ${toneHz.toFixed(0)} Hz: ${before.toFixed(1)} dB before the step, ${during.toFixed(1)} dB after it`);
    expect(during - before).toBeGreaterThan(20);
    await page.getByRole("button", { name: /^Stop/ }).first().click();

    // Export WAV: the take is in the file from the step on, at -6 dB.
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 60_000 }), page.getByRole("button", { name: "Export WAV" }).click()]);
    const file = join(dir, "export.wav");
    await download.saveAs(file);
    const out = wavLeft(new Uint8Array(readFileSync(file)));
    const x = take.left.subarray(0, Math.min(take.left.length, out.left.length - STEP_AT * FS));
    const y = out.left.subarray(STEP_AT * FS, STEP_AT * FS + x.length);
    let xy = 0, xx = 0;
    for (let i = 0; i < x.length; i++) {
      xy += x[i] * y[i];
      xx += x[i] * x[i];
    }
    const gainDb = 20 * Math.log10(xy / xx);
    console.log(`in the export: ${gainDb.toFixed(2)} dB (set ${LEVEL_DB} dB)`);
    // Within 0.1 dB: the fit also picks up a little of the quiet 60 Hz channel and the dither
    // (-6.00 and -5.97 dB measured).
    expect(Math.abs(gainDb - LEVEL_DB)).toBeLessThan(0.1);
    // Before the step the take is not there: the same fit a second earlier finds nothing.
    const early = out.left.subarray((STEP_AT - 1) * FS, (STEP_AT - 1) * FS + Math.min(x.length, FS));
    let exy = 0, exx = 0;
    for (let i = 0; i < early.length; i++) {
      exy += x[i] * early[i];
      exx += x[i] * x[i];
    }
    expect(Math.abs(exy / exx)).toBeLessThan(0.05);
    await page.close();
  });

  it("shares a ticked recording with a preset: the link's listener fetches its audio, an unticked one is not shared", async () => {
    const page = await openStudio(pro);
    await page.getByRole("button", { name: "Export WAV", disabled: false }).waitFor();
    await openSection(page, "Session");
    const panel = page.getByTestId("recordings-panel");
    // The placement from the first test is not in this fresh page's session: place the take twice,
    // tick the first for sharing.
    const place = panel.getByRole("button", { name: "Place in session: Fake mic take" });
    await place.click();
    await place.click();
    await panel.getByTestId("rec-placement-1").waitFor();
    await panel.getByTestId("rec-placement-0").getByRole("checkbox", { name: "Include in shared presets" }).check();
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/presets/user") && r.request().method() === "POST"),
      page.getByRole("button", { name: "Share Preset" }).first().click(),
    ]);
    expect(created.status()).toBe(201);
    const presetId = ((await created.json()) as { id: string }).id;
    const sent = (created.request().postDataJSON() as { data: { recordings?: { shared?: boolean }[] } }).data.recordings;
    expect(sent?.map((r) => r.shared)).toEqual([true]);
    await page.close();

    // Another Monthly account opens the link: the recording's audio comes through the preset.
    const listener = await registerProAccount(app);
    const other = await browser.newContext();
    try {
      const p = await other.newPage();
      await p.addInitScript("Object.defineProperty(window, 'showSaveFilePicker', { value: undefined });");
      const audio = p.waitForResponse((r) => r.url().includes(`/audio?preset=${presetId}`), { timeout: 20_000 });
      await openSignedIn(p, app.url, listener, `/preset/${presetId}`);
      expect((await audio).status()).toBe(200);
      await openSection(p, "Session");
      await p.getByTestId("rec-placement-0").waitFor();
      expect(await p.getByTestId("rec-placement-1").count()).toBe(0);
      await p.getByTestId("rec-placement-0").getByRole("button", { name: /^Listen: Fake mic take/ }).waitFor();
      expect(await p.getByTestId("rec-placement-0").getByRole("button", { name: /^Listen: Fake mic take/ }).isDisabled()).toBe(false);
    } finally {
      await other.close();
    }
  });

  it("fits a 390 px phone", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await openStudio(pro, phone);
      await page.getByRole("tab", { name: "Session", exact: true }).waitFor();
      await openSection(page, "Session");
      const panel = page.getByTestId("recordings-panel");
      await panel.getByRole("button", { name: "Record" }).waitFor();
      await panel.getByRole("button", { name: /^Place in session/ }).first().waitFor();
      await panel.getByRole("button", { name: /^Place in session/ }).first().click();
      await panel.getByTestId("rec-placement-0").waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      const box = await panel.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
  });

  it("is reached with Tab from the Session tab: Record, then the saved recording's buttons", async () => {
    const page = await openStudio(pro);
    await page.getByRole("button", { name: "Export WAV", disabled: false }).waitFor();
    await openSection(page, "Session");
    await page.getByTestId("recordings-panel").getByRole("button", { name: /^Place in session/ }).first().waitFor();
    await page.getByRole("tab", { name: "Session", exact: true }).focus();
    const seen: string[] = [];
    for (let i = 0; i < 200 && !seen.includes("Place in session: Fake mic take"); i++) {
      await page.keyboard.press("Tab");
      seen.push(await page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent?.trim() ?? ""));
    }
    expect(seen).toContain("Record");
    expect(seen.indexOf("Place in session: Fake mic take")).toBeGreaterThan(seen.indexOf("Record"));
    await page.close();
  });

  it("shows a free account the plan text instead of the recorder", async () => {
    const free = await registerAccount(app.url);
    const page = await openStudio(free);
    await page.getByRole("tab", { name: "Session", exact: true }).waitFor();
    await openSection(page, "Session");
    const panel = page.getByTestId("recordings-panel");
    await panel.getByTestId("recordings-locked").waitFor();
    expect(await panel.getByTestId("recordings-locked").textContent()).toBe(RECORDING_TEXT.needsPlan);
    expect(await panel.getByRole("button", { name: "Record" }).count()).toBe(0);
    await page.close();
  });

  it("says so clearly when the microphone is refused", async () => {
    const refusing = await browser.newContext();
    try {
      const page = await openStudio(pro, refusing);
      await page.evaluate(() => {
        navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
      });
      await openSection(page, "Session");
      const panel = page.getByTestId("recordings-panel");
      await panel.getByRole("button", { name: "Record" }).click();
      const alert = panel.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toContain("Microphone access was refused");
      await page.evaluate(() => {
        navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Requested device not found", "NotFoundError"));
      });
      await panel.getByRole("button", { name: "Record" }).click();
      await until(() => alert.textContent(), (t) => (t ?? "").includes("No microphone was found"));
    } finally {
      await refusing.close();
    }
  });
});
