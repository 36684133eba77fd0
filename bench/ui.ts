// bench/ui: the studio's live displays on a low-core phone. The real built app on a
// loopback port (temporary DATA_DIR), a Pro account signed in, in headless Chromium as a 390x844
// phone (touch, device pixel ratio 3, an Android user agent: the performance display profile);
// both displays on screen, four effects on (PHONE_EFFECTS), playing. Each window measures the
// frames each display drew per second and the share of wall time the page's main thread was busy
// (DevTools protocol Performance.getMetrics), once with the CPU throttled x4
// (Emulation.setCPUThrottlingRate) and once unthrottled. Figures and rows: bench/ui-rows.ts.
// `npx tsx bench/ui.ts [--quick] [--dist DIR]` prints the rows alone (build the app first: `npm run
// build`; --dist serves another build of the web app, e.g. to compare a change with the one before).

import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { BrowserContextOptions, CDPSession, Page } from "playwright-core";
import { EFFECTS } from "../dsp/host/model/catalogue";
import { launchChromium, startTestApp } from "../tests/e2e/browser";
import { openSignedIn, registerProAccount } from "../tests/e2e/session";
import { fmtRepeats, fmtTarget, fmtValue, num } from "./format";
import { busyPercent, cpuPercent, framesPerSecond, uiRows, worstFramesPerSecond, type FrameReading, type Metrics, type UiWindow } from "./ui-rows";
import type { BenchRow } from "./schema";

/** Four cheap, common effects (bench/fx-cost.ts measures each one's DSP cost). */
export const PHONE_EFFECTS = ["reverb", "chorus", "binaural", "tremolo"] as const;

/** An iPhone-sized Chromium phone: 390x844 CSS px at 3x, touch, a mobile user agent. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36",
};
const VIEWPORT = "390x844 @3x";

/** How long the studio plays: longer than the whole UI bench. */
const PLAY_DURATION = "00:10:00";
const PLAY_SECONDS = 600;

/** CPU throttling rates measured, in order: a low-core phone (x4), then this machine as it is. */
export const RATES = [4, 1] as const;

interface Readings {
  at: number;
  waveform: FrameReading;
  spectrogram: FrameReading;
}

type StudioWindow = {
  __toneStudio: {
    audio: { profile: { name: string; maxFps: number }; waveAnalyser: AnalyserNode | null };
    store: { getState(): { effects: Record<string, { enabled: boolean }>; isPlaying: boolean; duration: number } };
    displayFrames: { waveform: FrameReading; spectrogram: FrameReading };
  };
};

const readFrames = (page: Page): Promise<Readings> =>
  page.evaluate(() => {
    const f = (window as unknown as StudioWindow).__toneStudio.displayFrames;
    return { at: performance.now(), waveform: { ...f.waveform }, spectrogram: { ...f.spectrogram } };
  });

const getMetrics = async (cdp: CDPSession): Promise<Metrics> => (await cdp.send("Performance.getMetrics")).metrics;

/** Signs a fresh Pro account in, turns the effects and the spectrogram on, starts playback and
 *  scrolls both displays into view. Throws when the studio did not get there. */
export async function startStudio(page: Page, app: { url: string; dataDir: string }): Promise<string> {
  await openSignedIn(page, app.url, await registerProAccount(app));
  const name = (id: string) => EFFECTS.find((e) => e.id === id)!.name;
  // The effects are in the studio's Effects tab.
  await page.getByRole("tab", { name: "Effects", exact: true }).click();
  for (const id of PHONE_EFFECTS) {
    const sw = page.getByRole("switch", { name: name(id), exact: true });
    await sw.waitFor();
    await sw.check();
  }
  // Ten minutes: the default 30 s would end playback (and the displays' drawing) mid-window.
  // A phone's transport bar keeps the duration under More: opened for it, closed again so the bar
  // (and its level meter, on screen throughout) stays one line high.
  const more = page.locator(".transport-more");
  if (await more.isVisible()) await more.click();
  const duration = page.getByLabel("Playback duration (HH:MM:SS)");
  await duration.fill(PLAY_DURATION);
  await duration.press("Enter");
  if (await more.isVisible()) await more.click();
  await page.getByRole("button", { name: "Show spectrogram" }).click();
  await page.locator("canvas.spectrogram").waitFor();
  await page.getByRole("button", { name: "Play Audio" }).click();
  await page.getByRole("button", { name: "Stop Audio" }).waitFor();
  await page.locator("section.displays").evaluate((e) => e.scrollIntoView({ block: "center" }));
  const state = await page.evaluate((ids) => {
    const s = (window as unknown as StudioWindow).__toneStudio;
    const st = s.store.getState();
    // (No named helper functions in here: tsx would wrap them in a __name the page lacks.)
    const boxes = ["canvas.waveform", "canvas.spectrogram"].map((sel) => document.querySelector(sel)!.getBoundingClientRect());
    return {
      profile: s.audio.profile.name,
      effectsOn: ids.filter((id) => st.effects[id]?.enabled),
      playing: st.isPlaying,
      duration: st.duration,
      onScreen: boxes.every((r) => r.top >= 0 && r.bottom <= innerHeight && r.width > 0),
    };
  }, [...PHONE_EFFECTS]);
  if (!state.playing || state.duration !== PLAY_SECONDS || state.effectsOn.length !== PHONE_EFFECTS.length || !state.onScreen) {
    throw new Error(`the UI bench could not set the studio up: ${JSON.stringify(state)}`);
  }
  return state.profile;
}

/** One window of `seconds` at the current throttling: frame counters read once a second. */
async function measureWindow(page: Page, cdp: CDPSession, rate: number, seconds: number, profile: string): Promise<UiWindow> {
  const readings: Readings[] = [await readFrames(page)];
  const m0 = await getMetrics(cdp);
  for (let s = 0; s < seconds; s++) {
    await page.waitForTimeout(1000);
    readings.push(await readFrames(page));
  }
  const m1 = await getMetrics(cdp);
  const first = readings[0];
  const last = readings[readings.length - 1];
  // The frame rate is timed by the frames themselves: a display that stopped drawing before the
  // window ended (playback over, page hidden) would not show in it, so that is an error.
  for (const d of ["waveform", "spectrogram"] as const) {
    if (last.at - last[d].lastAt > 1000) throw new Error(`the ${d} display stopped drawing ${Math.round(last.at - last[d].lastAt)} ms before the end of the ${rate}x window`);
  }
  const display = (d: "waveform" | "spectrogram") => ({
    fps: framesPerSecond(first[d], last[d]),
    frames: last[d].frames - first[d].frames,
    worstSecondFps: worstFramesPerSecond(readings.map((r) => r[d])),
  });
  return {
    cpuThrottlingRate: rate,
    windowSeconds: Math.round(last.at - first.at) / 1000,
    profile,
    waveform: display("waveform"),
    spectrogram: display("spectrogram"),
    busyPercent: busyPercent(m0, m1),
    mainThreadCpuPercent: cpuPercent(m0, m1),
  };
}

export interface UiBench {
  rows: BenchRow[];
  windows: UiWindow[];
}

/** The UI rows: 20 s per window (quick: 5 s), after 2 s (quick: 1.5 s) to settle at each rate.
 *  `distDir` serves another build of the web app (default dist/), to compare two builds. */
export async function uiBench(quick: boolean, { distDir }: { distDir?: string } = {}): Promise<UiBench> {
  const seconds = quick ? 5 : 20;
  const settleMs = quick ? 1500 : 2000;
  const app = await startTestApp({ distDir });
  try {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext(PHONE);
      const page = await context.newPage();
      page.on("pageerror", (e) => console.error("UI bench page error:", e.message));
      const profile = await startStudio(page, app);
      const cdp = await context.newCDPSession(page);
      await cdp.send("Performance.enable");
      const windows: UiWindow[] = [];
      for (const rate of RATES) {
        await cdp.send("Emulation.setCPUThrottlingRate", { rate });
        await page.waitForTimeout(settleMs);
        windows.push(await measureWindow(page, cdp, rate, seconds, profile));
      }
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
      const setup = { viewport: VIEWPORT, effects: PHONE_EFFECTS.join(", ") };
      return { rows: windows.flatMap((w) => uiRows(w, setup)), windows };
    } finally {
      await browser.close();
    }
  } finally {
    await app.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { quick: { type: "boolean", default: false }, dist: { type: "string" } } });
  const { rows } = await uiBench(values.quick, { distDir: values.dist });
  for (const r of rows) {
    const d = r.details ?? {};
    const more = d.worstSecondFps !== undefined ? `worst second ${num(Number(d.worstSecondFps))} fps` : d.mainThreadCpuPercent !== undefined ? `main thread on a CPU ${num(Number(d.mainThreadCpuPercent))} %` : "";
    console.log(`| ${r.name} | ${fmtValue(r)} | ${fmtRepeats(r)} | ${fmtTarget(r)} | ${more} |`);
  }
}
