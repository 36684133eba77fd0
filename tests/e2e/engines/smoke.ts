// The browser smoke suite every engine runs (tests/e2e/engine-{chromium,firefox,webkit}.e2e.ts,
// one file each so they run side by side): a Pro account's studio plays the four default tones in
// both ears, stops to silence, follows a frequency edit, plays an effect (the binaural beat: the
// ears 10 Hz apart), draws the waveform, exports 30 s as the CLI's exact bytes and 1 hour read
// back (header, size, the tones at its start and end), and imports an .sbg file with the right
// ears. The ears are read from the engine's own output through a ChannelSplitter and two
// AnalyserNodes made in the page. An engine missing on this machine is skipped; the e2e global
// setup says which ones run, one line each (TONE_STUDIO_ENGINES chooses some).

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportPlan } from "../../../dsp/host/export/render";
import { parseWavHeader } from "../../../dsp/host/export/wav";
import { DEFAULT_FREQUENCIES } from "../../../dsp/host/model/state";
import { startTestApp, type TestApp } from "../browser";
import { registerProAccount } from "../session";
import { classifyExportError, HANDOFF_ERROR, memoryErrorMessage, STORAGE_ERROR, STORAGE_UNKNOWN_ERROR, FILE_BUSY_ERROR } from "../../../web/export/messages";
import { PWA_TEXT } from "../../../web/pwa/messages";
import { findEngine, launchEngine, type EngineDriver, type EngineName } from "./drivers";
import { engineErrors, type EngineError } from "./engine-errors";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");
const LABEL: Record<EngineName, string> = { chromium: "Chromium", firefox: "Firefox", webkit: "WebKit" };

/** What one engine measured, for the report line at the end of its file. */
export interface EngineFigures {
  engine: EngineName;
  version: string;
  export30s?: { ms: number; sha: string; sink: string };
  export1h?: { ms: number };
  /** FLAC and MP3 exports: time, and whether this engine's decoder checked the file back. */
  encoded?: Record<string, { ms: number; sha: string; decoded: string }>;
}

// ---- in the page (each function is sent as source: no closures) ------------------------------

/** Marks the element to act on with data-smoke="target": a button, switch or tab by its
 *  accessible name, or a field by its label. Returns whether one was found. */
function markTarget({ kind, name }: { kind: "button" | "switch" | "tab" | "field"; name: string }): boolean {
  for (const el of document.querySelectorAll("[data-smoke]")) el.removeAttribute("data-smoke");
  const visible = (el: Element) => (el as HTMLElement).getClientRects().length > 0;
  const text = (el: Element) => (el.getAttribute("aria-label") ?? el.textContent ?? "").trim();
  let found: Element | undefined;
  if (kind === "field") {
    found = [...document.querySelectorAll("input, select, textarea")].find(
      (el) => el.getAttribute("aria-label") === name || [...((el as HTMLInputElement).labels ?? [])].some((l) => l.textContent?.trim() === name),
    );
  } else {
    const selector = kind === "button" ? "button" : kind === "switch" ? '[role="switch"]' : '[role="tab"]';
    found = [...document.querySelectorAll(selector)].find(
      (el) => (visible(el) || kind === "switch") && text(el) === name && !(el as HTMLButtonElement).disabled && !el.closest("[hidden], fieldset:disabled"),
    );
  }
  found?.scrollIntoView({ block: "center" });
  found?.setAttribute("data-smoke", "target");
  return Boolean(found);
}

/** The level (dB) of each of `freqs` in the left and right ears of the studio's engine output,
 *  and each ear's strongest frequency between 100 Hz and 2 kHz (interpolated). */
async function earLevels(freqs: number[]): Promise<{ left: number[]; right: number[]; peakL: number; peakR: number; state: string }> {
  type Ears = { node: AudioNode; l: AnalyserNode; r: AnalyserNode };
  const w = window as unknown as { __toneStudio: { audio: { context: AudioContext; node: AudioWorkletNode } }; __ears?: Ears };
  const { context, node } = w.__toneStudio.audio;
  if (!w.__ears || w.__ears.node !== node) {
    const split = new ChannelSplitterNode(context, { numberOfOutputs: 2 });
    const l = new AnalyserNode(context, { fftSize: 32768, smoothingTimeConstant: 0 });
    const r = new AnalyserNode(context, { fftSize: 32768, smoothingTimeConstant: 0 });
    node.connect(split);
    split.connect(l, 0);
    split.connect(r, 1);
    w.__ears = { node, l, r };
  }
  // A whole analysis window (0.68 s) of what plays now.
  await new Promise((res) => setTimeout(res, 750));
  const binHz = context.sampleRate / 32768;
  const read = (a: AnalyserNode) => {
    const bins = new Float32Array(a.frequencyBinCount);
    a.getFloatFrequencyData(bins);
    const at = (f: number) => Math.max(...[-2, -1, 0, 1, 2].map((d) => bins[Math.round(f / binHz) + d]));
    let k = Math.round(100 / binHz);
    for (let i = k; i < 2000 / binHz; i++) if (bins[i] > bins[k]) k = i;
    const [a0, b0, c0] = [bins[k - 1], bins[k], bins[k + 1]];
    const shift = (0.5 * (a0 - c0)) / (a0 - 2 * b0 + c0 || 1);
    return { levels: freqs.map(at), peak: (k + shift) * binHz };
  };
  const L = read(w.__ears.l);
  const R = read(w.__ears.r);
  return { left: L.levels, right: R.levels, peakL: L.peak, peakR: R.peak, state: context.state };
}

/** Collects the page's uncaught errors, rejections and console.error calls from now on. */
function collectErrors(): void {
  const w = window as unknown as { __pageErrors?: string[] };
  if (w.__pageErrors) return;
  const errors: string[] = (w.__pageErrors = []);
  addEventListener("error", (e) => errors.push(`uncaught: ${e.message}`));
  addEventListener("unhandledrejection", (e) => errors.push(`unhandled rejection: ${String((e as PromiseRejectionEvent).reason)}`));
  const error = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    errors.push(`console.error: ${args.map(String).join(" ")}`);
    error(...args);
  };
}

/** The Media Session's state (what a lock screen shows), or null where there is none. */
function mediaSession(): { state: string; title: string | null } | null {
  if (!("mediaSession" in navigator)) return null;
  return { state: navigator.mediaSession.playbackState, title: navigator.mediaSession.metadata?.title ?? null };
}

/** Peak of the studio's waveform analyser (0 when silent). */
function wavePeak(): number {
  const a = (window as unknown as { __toneStudio: { audio: { waveAnalyser: AnalyserNode | null } } }).__toneStudio.audio.waveAnalyser;
  if (!a) return 0;
  const data = new Float32Array(a.fftSize);
  a.getFloatTimeDomainData(data);
  let m = 0;
  for (const v of data) m = Math.max(m, Math.abs(v));
  return m;
}

/** How many of the waveform canvas's rows hold something other than its background colour: a
 *  flat line covers a few rows, a drawn tone most of the height. */
function waveformRows(): number {
  const c = document.querySelector('canvas[aria-label="Live waveform display"]') as HTMLCanvasElement | null;
  const ctx = c?.getContext("2d");
  if (!c || !ctx) return -1;
  const { data, width, height } = ctx.getImageData(0, 0, c.width, c.height);
  const bg = [data[0], data[1], data[2]];
  let rows = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x += 2) {
      const i = (y * width + x) * 4;
      if (Math.abs(data[i] - bg[0]) + Math.abs(data[i + 1] - bg[1]) + Math.abs(data[i + 2] - bg[2]) > 60) {
        rows++;
        break;
      }
    }
  }
  return rows;
}

/** Keeps the files the page hands over (saveAs clicks a link to an object URL) for the test to
 *  read, instead of letting the browser download them. The Blob itself is kept: the app's
 *  Content-Security-Policy (connect-src) forbids fetching a blob: URL. */
function captureDownloads(): void {
  const w = window as unknown as { __downloads?: { blob: Blob; name: string }[]; __blobs?: Map<string, Blob> };
  if (w.__downloads) return;
  w.__downloads = [];
  const blobs = (w.__blobs = new Map());
  const create = URL.createObjectURL;
  URL.createObjectURL = (obj: Blob | MediaSource) => {
    const url = create(obj);
    if (obj instanceof Blob) blobs.set(url, obj);
    return url;
  };
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    const blob = this.download ? blobs.get(this.href) : undefined;
    if (blob) w.__downloads!.push({ blob, name: this.download });
    else click.call(this);
  };
}

/** The studio's sound state (what the export renders; the CLI's preset). */
function soundState(): unknown {
  const s = (window as unknown as { __toneStudio: { store: { getState(): Record<string, unknown> } } }).__toneStudio.store.getState();
  const state = { channels: s.channels, effects: s.effects, timeline: s.timeline, voices: s.voices, recordings: s.recordings, duration: s.duration, isPlaying: false };
  // Without the absent fields (WebDriver would send them as null).
  return JSON.parse(JSON.stringify(state));
}

/** Waits for the export's end: "done" with the downloaded file's name, or the error toast's text. */
async function exportOutcome(before: number): Promise<{ done?: string; error?: string }> {
  const w = window as unknown as { __downloads: { name: string }[] };
  for (;;) {
    if (w.__downloads.length > before) return { done: w.__downloads.at(-1)!.name };
    const toast = document.querySelector("[data-sonner-toast][data-type='error']");
    if (toast) return { error: toast.textContent ?? "" };
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** SHA-256, size, header and two stretches of left-channel samples of the last download. */
async function readDownload({ hash, at }: { hash: boolean; at: number[] }) {
  const w = window as unknown as { __downloads: { blob: Blob }[] };
  const { blob } = w.__downloads.at(-1)!;
  const head = new Uint8Array(await blob.slice(0, 80).arrayBuffer());
  const sha = hash ? Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", await blob.arrayBuffer())), (b) => b.toString(16).padStart(2, "0")).join("") : "";
  const stretches: number[][] = [];
  for (const seconds of at) {
    const start = 44 + Math.round(seconds * 48000) * 4;
    const pcm = new Int16Array(await blob.slice(start, start + 16384 * 4).arrayBuffer());
    stretches.push(Array.from({ length: pcm.length / 2 }, (_, i) => pcm[2 * i] / 32767));
  }
  return { size: blob.size, head: Array.from(head), sha, stretches };
}

// ---- in Node ---------------------------------------------------------------------------------

/** Level (dB, relative) of `f` in `x` at 48 kHz, by a Hann-windowed DFT bin at exactly f. */
function toneDb(x: number[], f: number): number {
  let re = 0;
  let im = 0;
  const n = x.length;
  for (let i = 0; i < n; i++) {
    const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
    const ph = (2 * Math.PI * f * i) / 48000;
    re += x[i] * w * Math.cos(ph);
    im -= x[i] * w * Math.sin(ph);
  }
  return 20 * Math.log10((2 * Math.hypot(re, im)) / (n / 2) + 1e-12);
}

const ENGINE_ERRORS_FILE = join(REPO, "tests", "unit", "web", "export", "engine-errors.json");

/** Keeps `errors` as `key`'s entry of tests/unit/web/export/engine-errors.json (with
 *  TONE_STUDIO_WRITE_ENGINE_ERRORS=1, to refresh what the unit tests check against). */
function writeEngineErrors(key: string, errors: EngineError[]): void {
  let all: Record<string, EngineError[]> = {};
  try {
    all = JSON.parse(readFileSync(ENGINE_ERRORS_FILE, "utf8")) as Record<string, EngineError[]>;
  } catch {
    // a new file
  }
  all[key] = errors;
  writeFileSync(ENGINE_ERRORS_FILE, JSON.stringify(Object.fromEntries(Object.entries(all).sort()), null, 2) + "\n");
}

export interface SmokeOptions {
  /** WebKit's ephemeral (private) profile, without OPFS, even where the persistent one runs. */
  ephemeral?: boolean;
  /** Only the exports, the error probes and the page checks (a second profile of the same engine). */
  exportOnly?: boolean;
}

export function defineEngineSmoke(engine: EngineName, { ephemeral = false, exportOnly = false }: SmokeOptions = {}): void {
  const label = LABEL[engine] + (ephemeral ? " (private profile)" : "");
  let found: Awaited<ReturnType<typeof findEngine>> | null = null;
  let app: TestApp;
  let d: EngineDriver;
  let dir: string;
  const figures: EngineFigures = { engine, version: "" };
  const cliCache = new Map<string, Promise<string>>();

  const click = async (kind: "button" | "switch" | "tab", name: string) => {
    const deadline = Date.now() + 15_000;
    while (!(await d.evaluate(markTarget, { kind, name }))) {
      if (Date.now() > deadline) throw new Error(`${label}: no ${kind} "${name}" to click`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await d.click('[data-smoke="target"]');
  };
  const fill = async (name: string, text: string) => {
    if (!(await d.evaluate(markTarget, { kind: "field" as const, name }))) throw new Error(`${label}: no field "${name}"`);
    await d.fill('[data-smoke="target"]', text);
  };
  const waitFor = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeout = 10_000): Promise<T> => {
    const end = Date.now() + timeout;
    for (;;) {
      const v = await read();
      if (ok(v)) return v;
      if (Date.now() > end) throw new Error(`${label}: ${what} (last reading ${JSON.stringify(v)})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const playing = () => d.evaluate(() => (window as unknown as { __toneStudio: { store: { getState(): { isPlaying: boolean } } } }).__toneStudio.store.getState().isPlaying);
  const setDuration = (seconds: number) =>
    d.evaluate((seconds) => (window as unknown as { __toneStudio: { store: { setState(s: object): void } } }).__toneStudio.store.setState({ duration: seconds }), seconds);

  /** The CLI's SHA-256 for the state and duration (scripts/render.ts, the studio's default
   *  levels): a WAV, or a FLAC or MP3 from the studio's own encoders (--encoder wasm). */
  const cliSha = (state: unknown, seconds: number, ext = ".wav", flags: readonly string[] = []): Promise<string> => {
    const key = JSON.stringify([state, seconds, ext, flags]);
    if (!cliCache.has(key)) {
      const preset = join(dir, `preset-${cliCache.size}.json`);
      const out = join(dir, `cli-${cliCache.size}${ext}`);
      writeFileSync(preset, JSON.stringify(state));
      const encoder = ext === ".wav" ? [] : ["--encoder", "wasm"];
      cliCache.set(
        key,
        promisify(execFile)(TSX, ["scripts/render.ts", "--preset", preset, "--duration", String(seconds), "--out", out, ...encoder, ...flags, "--quiet"], { cwd: REPO }).then(() =>
          createHash("sha256").update(readFileSync(out)).digest("hex"),
        ),
      );
    }
    return cliCache.get(key)!;
  };

  /** Chooses `value` in the studio's select labelled `label`, as a person picking from it. */
  const choose = (label: string, value: string) =>
    d.evaluate(
      ([label, value]) => {
        const select = [...document.querySelectorAll("select")].find((el) => el.getAttribute("aria-label") === label || [...el.labels].some((l) => l.textContent?.trim() === label));
        if (!select) return false;
        select.value = value;
        select.dispatchEvent(new Event("change", { bubbles: true }));
        return select.value === value;
      },
      [label, value] as const,
    );
  const chooseFormat = (id: string) => choose("Export format", id);

  const exportWav = async (seconds: number, timeout: number, button = "Export WAV") => {
    await setDuration(seconds);
    await d.evaluate(captureDownloads);
    // Chromium's save picker is a native dialog no test can answer: without it Chromium exports
    // through OPFS as the other engines do (tests/e2e/export.e2e.ts tests the picker's path).
    await d.evaluate(() => {
      Object.defineProperty(window, "showSaveFilePicker", { value: undefined, configurable: true });
    });
    const before = await d.evaluate(() => (window as unknown as { __downloads: unknown[] }).__downloads.length);
    const t0 = Date.now();
    await click("button", button);
    const outcome = await Promise.race([
      d.evaluate(exportOutcome, before),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${label}: no export outcome within ${timeout / 1000} s`)), timeout)),
    ]);
    const ms = Date.now() - t0;
    expect(outcome.error, `${label}: the export failed`).toBeUndefined();
    return ms;
  };

  beforeAll(async () => {
    found = await findEngine(engine);
    // Not here: the global setup has said so in one line (tests/e2e/global-setup.ts).
    if (!found.paths) return;
    dir = mkdtempSync(join(tmpdir(), `engine-${engine}-`));
    app = await startTestApp();
    d = await launchEngine(found, { ephemeral });
    figures.version = d.version;
    const pro = await registerProAccount(app);
    const signIn = async () => {
      await d.goto(`${app.url}/api/health`);
      await d.evaluate(
        ({ token, user }) => {
          for (const key of ["auth_token", "token", "authToken", "jwt_token"]) localStorage.setItem(key, token);
          localStorage.setItem("user_data", JSON.stringify(user));
          localStorage.setItem("tone-studio:tutorial", "completed");
        },
        { token: pro.token, user: pro.user },
      );
    };
    // Once more after a failure: the first page of a fresh WebKit profile once never answered a
    // script on a loaded machine (a WebDriver timeout), and a second navigation did.
    await signIn().catch((err: unknown) => {
      console.warn(`${label}: signing in failed once (${String(err)}); trying again`);
      return signIn();
    });
    await d.goto(`${app.url}/`);
    await d.evaluate(collectErrors);
    // Pro unlocks channels 2-4 once the profile has loaded.
    await waitFor(() => d.evaluate(markTarget, { kind: "switch" as const, name: "Channel 4 on/off" }), Boolean, "the Pro studio did not unlock", 20_000);
  }, 90_000);

  afterAll(async () => {
    await d?.close();
    await app?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (figures.version) console.log(`${label} (${figures.version}): ${JSON.stringify(figures)}`);
  });

  const test = (name: string, fn: () => Promise<void>, timeout = 60_000, always = false) => {
    if (exportOnly && !always) return;
    it(name, async (ctx) => {
      if (!found?.paths) ctx.skip();
      await fn();
    }, timeout);
  };

  describe(`the studio in ${label}`, () => {
    test("plays the four default tones in both ears, and stops to silence", async () => {
      await click("button", "Play Audio");
      await waitFor(playing, Boolean, "did not start playing");
      const ears = await waitFor(
        () => d.evaluate(earLevels, [...DEFAULT_FREQUENCIES, 1000]),
        // (An analyser of a context not yet running writes nothing: 0 dB everywhere; the two ears
        // are read one after the other, a render quantum apart at most, so they agree once the
        // start's fade-in is over.)
        (e) => [e.left, e.right].every((ear) => ear.slice(0, 4).every((v) => v > -60 && v - ear[4] > 30)) && e.left.slice(0, 4).every((v, i) => Math.abs(v - e.right[i]) < 1),
        "the default tones were not heard in both ears",
        15_000,
      );
      for (let i = 0; i < 4; i++) {
        // Each tone well above where no tone plays (1 kHz), equally loud in both ears.
        expect(ears.left[i] - ears.left[4], `${label}: ${DEFAULT_FREQUENCIES[i]} Hz, left`).toBeGreaterThan(30);
        expect(ears.right[i] - ears.right[4], `${label}: ${DEFAULT_FREQUENCIES[i]} Hz, right`).toBeGreaterThan(30);
        expect(Math.abs(ears.left[i] - ears.right[i])).toBeLessThan(1);
      }
      // The lock screen's Media Session says it plays (all three engines have one).
      const session = await waitFor(() => d.evaluate(mediaSession), (m) => m === null || m.state === "playing", "the Media Session did not say playing");
      expect(session, `${label} has a Media Session`).not.toBeNull();
      expect(session!.title).toBeTruthy();
      // The waveform display draws the tone (a trace over many rows), then a flat line (a few).
      expect(await waitFor(() => d.evaluate(waveformRows), (rows) => rows > 20, "the waveform was not drawn")).toBeGreaterThan(20);
      await click("button", "Stop Audio");
      await waitFor(() => d.evaluate(wavePeak), (peak) => peak === 0, "did not stop to silence");
      await waitFor(playing, (p) => !p, "still playing");
      expect(await waitFor(() => d.evaluate(waveformRows), (rows) => rows >= 0 && rows < 8, "the waveform did not go flat")).toBeLessThan(8);
    });

    test("follows a frequency edit and plays an effect: the binaural beat sets the ears 10 Hz apart", async () => {
      for (const i of [2, 3, 4]) await click("switch", `Channel ${i} on/off`);
      await fill("Channel 1 frequency (Hz)", "600");
      await click("button", "Play Audio");
      const edited = await waitFor(() => d.evaluate(earLevels, [600]), (e) => Math.abs(e.peakL - 600) < 2 && Math.abs(e.peakR - 600) < 2, "600 Hz was not heard");
      expect(Math.abs(edited.peakL - edited.peakR)).toBeLessThan(1);

      await click("tab", "Effects");
      await click("switch", "Binaural Beat");
      const beat = await waitFor(() => d.evaluate(earLevels, [600]), (e) => Math.abs(Math.abs(e.peakL - e.peakR) - 10) < 1.5, "the ears did not move 10 Hz apart");
      expect(Math.abs(Math.abs(beat.peakL - beat.peakR) - 10)).toBeLessThan(1.5);
      await click("switch", "Binaural Beat");
      await click("button", "Stop Audio");
      await waitFor(playing, (p) => !p, "still playing");
      await click("tab", "Channels");
      // Back to the four default tones (a channel switched on again starts at 432 Hz).
      for (const i of [2, 3, 4]) await click("switch", `Channel ${i} on/off`);
      for (const [i, f] of DEFAULT_FREQUENCIES.entries()) await fill(`Channel ${i + 1} frequency (Hz)`, String(f));
      const channels = await d.evaluate(() => (window as unknown as { __toneStudio: { store: { getState(): { channels: { frequency: number; enabled: boolean }[] } } } }).__toneStudio.store.getState().channels);
      expect(channels.map((c) => [c.frequency, c.enabled])).toEqual(DEFAULT_FREQUENCIES.map((f) => [f, true]));
    });

    test("exports 30 s of the default tones: the CLI's exact bytes", async () => {
      const state = await d.evaluate(soundState);
      const expected = cliSha(state, 30);
      const ms = await exportWav(30, 60_000);
      const file = await d.evaluate(readDownload, { hash: true, at: [10] });
      expect(file.size).toBe(exportPlan(30).totalBytes);
      expect(parseWavHeader(Uint8Array.from(file.head))).toMatchObject({ formatTag: 1, sampleRate: 48000, channels: 2, bitsPerSample: 16, frames: 30 * 48000 });
      expect(file.sha, `${label}'s 30 s file and the CLI's`).toBe(await expected);
      const sink = await d.evaluate(() =>
        typeof navigator.storage?.getDirectory === "function" ? navigator.storage.getDirectory().then(() => "OPFS", () => "memory (getDirectory refused)") : "memory (no OPFS)",
      );
      figures.export30s = { ms, sha: file.sha, sink };
    }, 90_000, true);

    test("exports 1 hour: the whole file, its header, the four tones at its start and its end", async () => {
      const ms = await exportWav(3600, 240_000);
      figures.export1h = { ms };
      const file = await d.evaluate(readDownload, { hash: false, at: [10, 3590] });
      expect(file.size).toBe(exportPlan(3600).totalBytes);
      expect(parseWavHeader(Uint8Array.from(file.head))).toMatchObject({ sampleRate: 48000, channels: 2, frames: 3600 * 48000 });
      for (const stretch of file.stretches) {
        const off = toneDb(stretch, 1000);
        for (const f of DEFAULT_FREQUENCIES) expect(toneDb(stretch, f) - off, `${label}: ${f} Hz in the 1 h file`).toBeGreaterThan(40);
      }
    }, 300_000, true);

    test("exports 30 s as FLAC, as MP3 and as VBR MP3: the CLI's exact bytes from the same encoders, checked back by the report", async () => {
      const state = await d.evaluate(soundState);
      figures.encoded = {};
      try {
        // The VBR encoder runs in a module worker inside the export worker (a nested worker).
        for (const [id, ext, button, mp3, flags] of [
          ["flac16", ".flac", "Export FLAC", null, []],
          ["mp3", ".mp3", "Export MP3", "cbr:320", []],
          ["mp3", ".mp3", "Export MP3", "vbr:2", ["--mp3-vbr", "2"]],
        ] as const) {
          const expected = cliSha(state, 30, ext, flags);
          expect(await chooseFormat(id), `${label}: no Export format select`).toBe(true);
          if (mp3) expect(await choose("MP3 bitrate", mp3), `${label}: no MP3 bitrate ${mp3}`).toBe(true);
          const ms = await exportWav(30, 90_000, button);
          const file = await d.evaluate(readDownload, { hash: true, at: [] });
          expect(file.sha, `${label}'s 30 s ${ext} and the CLI's`).toBe(await expected);
          const report = await waitFor(
            () => d.evaluate(() => ({
              summary: document.querySelector(".export-report-summary")?.textContent ?? "",
              lines: [...document.querySelectorAll(".export-report-details li")].map((li) => li.textContent ?? ""),
            })),
            (r) => r.summary.length > 0,
            "no export report",
          );
          expect(report.summary, `${label}: ${report.lines.filter((l) => l.startsWith("FAIL")).join(" | ")}`).toMatch(/Verified: (\d+) of \1 checks passed/);
          // Decoded back by this engine's own decoder where it has one, or skipped with a reason.
          const decoded = report.lines.find((l) => l.startsWith("Decoded by ") || l.startsWith("SKIP Not decoded back"));
          expect(decoded, `${label}: the report's decode-back section`).toBeDefined();
          figures.encoded[mp3 === "vbr:2" ? ".mp3 VBR V2" : ext] = { ms, sha: file.sha, decoded: decoded! };
          await click("button", "Dismiss export status");
        }
      } finally {
        await chooseFormat("wav16");
      }
    }, 240_000, true);

    test("gives this engine's real errors the message their name and stage call for", async () => {
      const errors = await d.evaluate(engineErrors);
      const expected: Record<string, string> = {
        QuotaExceededError: STORAGE_ERROR,
        DataCloneError: HANDOFF_ERROR,
        RangeError: memoryErrorMessage(600),
        NotFoundError: FILE_BUSY_ERROR,
        UnknownError: STORAGE_UNKNOWN_ERROR,
      };
      // Every probe but the OPFS ones fails in every engine; the handle clones in Chromium and Firefox.
      expect(errors.map((e) => e.case)).toEqual(expect.arrayContaining(["getRandomValues over 65536 bytes (a quota error)", "structuredClone of a function", "an ArrayBuffer of 2^53 - 1 bytes", "WebAssembly.Memory grown past its maximum"]));
      for (const e of errors) {
        expect(expected[e.name], `${label}: ${e.case} threw ${e.name}: ${e.message}`).toBeDefined();
        expect(classifyExportError({ stage: e.stage, name: e.name, message: e.message }, 600).text, `${label}: ${e.case}`).toBe(expected[e.name]);
      }
      if (process.env.TONE_STUDIO_WRITE_ENGINE_ERRORS) writeEngineErrors(engine + (ephemeral ? "-private" : ""), errors);
    }, 60_000, true);

    test("imports an .sbg file: 300+10 plays 305 Hz in the left ear and 295 Hz in the right", async () => {
      const sbg = join(dir, "beat.sbg");
      writeFileSync(sbg, "beat: 300+10/60\nNOW beat\n");
      await click("tab", "Session");
      await d.upload('[data-testid="sbg-file"]', [sbg]);
      await waitFor(
        () => d.evaluate(() => [...document.querySelectorAll('[role="status"]')].map((el) => el.textContent).join("|")),
        (t) => t.includes("Imported beat.sbg."),
        "the .sbg file was not imported",
      );
      await click("button", "Play Audio");
      const ears = await waitFor(() => d.evaluate(earLevels, [305, 295]), (e) => Math.abs(e.peakL - 305) < 1 && Math.abs(e.peakR - 295) < 1, "the imported beat was not heard");
      expect(Math.abs(ears.peakL - 305)).toBeLessThan(1);
      expect(Math.abs(ears.peakR - 295)).toBeLessThan(1);
      await click("button", "Stop Audio");
    });

    test("the page met no uncaught error, rejection or console.error", async () => {
      expect(await d.evaluate(() => (window as unknown as { __pageErrors: string[] }).__pageErrors)).toEqual([]);
    }, 10_000, true);

    test("a first visit is no update: the service worker takes over and no 'new version' toast shows", async () => {
      // Chromium's driver blocks the service worker (tests/e2e/browser.ts); the others run it.
      if (engine !== "chromium") {
        await waitFor(() => d.evaluate(() => Boolean(navigator.serviceWorker?.controller)), Boolean, "no service worker took over the page", 20_000);
      }
      const toasts = await d.evaluate(() => [...document.querySelectorAll("[data-sonner-toast]")].map((t) => t.textContent ?? ""));
      expect(toasts.filter((t) => t.includes(PWA_TEXT.updateReady.slice(0, 20)))).toEqual([]);
    }, 30_000, true);
  });
}
