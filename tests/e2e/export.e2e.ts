// Export WAV in real Chromium. showSaveFilePicker is served by an Origin Private File System
// handle (injected before the app loads), so the file the worker writes can be read back in the
// page: its progress bar goes from 10 to 100, its header and spectrum are right, and its SHA-256
// equals the CLI's file for the same preset and duration. Cancel midway leaves no file; without a
// picker the OPFS fallback downloads the same bytes, and so does the in-memory fallback without
// OPFS (refused, with what works, over the device's memory limit); no enabled channel gives the
// spec's alert.
// The studio is signed in as a Pro user (an active subscription row in the test server's database);
// a free user sees the button locked. Each export counts against the plan (POST /api/exports): the
// line under the button goes from 100 to 99 of 100, and at 0 the export is refused with the
// upgrade path before anything is written.

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportPlan } from "../../dsp/host/export/render";
import { parseWavHeader } from "../../dsp/host/export/wav";
import { peakFrequency, singleTone } from "../unit/dsp/assembly/helpers";
import { launchChromium, startTestApp, type TestApp } from "./browser";
import { type TestAccount, loadState, openSignedIn, registerAccount, registerProAccount } from "./session";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");
const TONE = 1000;
const STATE = singleTone(TONE, "sine");

let app: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dir: string;
let pro: TestAccount;

// The stand-in save picker accepts the suggested name, as a person pressing Save does; when a file
// of that name exists (two exports within one second suggest the same name) it answers as a
// person who declines to replace it: with a new name ("name (1).wav"), never the existing file.
const PICKER_SCRIPT = `
  window.showSaveFilePicker = async (options) => {
    const root = await navigator.storage.getDirectory();
    const wanted = (options && options.suggestedName) || "export.wav";
    let name = wanted;
    for (let i = 1; ; i++) {
      try { await root.getFileHandle(name); } catch { break; }
      name = wanted.replace(/\\.wav$/, " (" + i + ").wav");
    }
    return root.getFileHandle(name, { create: true });
  };
  window.__progressSeen = [];
  new MutationObserver(() => {
    const bar = document.querySelector('[role="progressbar"]');
    if (bar) window.__progressSeen.push(Number(bar.getAttribute("aria-valuenow")));
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] });
`;

async function openStudio(withPicker: boolean, account: TestAccount = pro, extraScript = ""): Promise<Page> {
  const p = await context.newPage();
  p.on("pageerror", (e) => console.error("page error:", e.message));
  // Chromium has a real picker (a native dialog): replace it with OPFS, or remove it for the fallback.
  await p.addInitScript(withPicker ? PICKER_SCRIPT : "Object.defineProperty(window, 'showSaveFilePicker', { value: undefined });");
  if (extraScript) await p.addInitScript(extraScript);
  await openSignedIn(p, app.url, account);
  await p.getByRole("button", { name: "Export WAV" }).waitFor();
  return p;
}


interface OpfsFile {
  name: string;
  size: number;
}

async function opfsFiles(p: Page): Promise<OpfsFile[]> {
  return p.evaluate(async () => {
    const out: { name: string; size: number }[] = [];
    const walk = async (dir: FileSystemDirectoryHandle, prefix: string) => {
      for await (const [name, h] of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries()) {
        if (h.kind === "file") out.push({ name: prefix + name, size: (await (h as FileSystemFileHandle).getFile()).size });
        else await walk(h as FileSystemDirectoryHandle, `${prefix}${name}/`);
      }
    };
    await walk(await navigator.storage.getDirectory(), "");
    return out;
  });
}

/** SHA-256, size, the first 80 bytes and 65536 left-channel samples from 2 s in, read in the page. */
async function readOpfsFile(p: Page, name: string) {
  return p.evaluate(async (name) => {
    const file = await (await (await navigator.storage.getDirectory()).getFileHandle(name)).getFile();
    const buf = await file.arrayBuffer();
    const hash = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", buf)), (b) => b.toString(16).padStart(2, "0")).join("");
    const pcm = new Int16Array(buf, 44 + 2 * 48000 * 4, 65536 * 2);
    return {
      size: file.size,
      sha: hash,
      head: Array.from(new Uint8Array(buf, 0, 80)),
      left: Array.from({ length: 65536 }, (_, i) => pcm[2 * i] / 32767),
    };
  }, name);
}

async function cliSha(seconds: number): Promise<string> {
  const preset = join(dir, "preset.json");
  const out = join(dir, `cli-${seconds}.wav`);
  writeFileSync(preset, JSON.stringify(STATE));
  await promisify(execFile)(TSX, ["scripts/render.ts", "--preset", preset, "--duration", String(seconds), "--out", out], { cwd: REPO });
  return createHash("sha256").update(readFileSync(out)).digest("hex");
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "export-e2e-"));
  app = await startTestApp();
  browser = await launchChromium();
  context = await browser.newContext({ acceptDownloads: true });
  pro = await registerProAccount(app);
  page = await openStudio(true);
  // The studio unlocks once the profile (with the subscription) has loaded.
  await page.getByRole("button", { name: "Export WAV", disabled: false }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("Export WAV in Chromium", () => {
  it("streams a 10 s file through the save picker: progress 10 -> 100, right header and FFT, same bytes as the CLI", async () => {
    const expectedSha = cliSha(10);
    await loadState(page, STATE, 10);
    // The plan's count (Monthly: 100 a period) beside the button goes down by one.
    await page.getByText("100 of 100 exports left this period").waitFor();
    await page.getByRole("button", { name: "Export WAV" }).click();
    const done = page.getByRole("status").filter({ hasText: "Export complete:" });
    await done.waitFor({ timeout: 30_000 });
    const name = (await done.textContent())!.replace("Export complete:", "").trim();
    expect(name).toMatch(/^swizard-audio-\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.wav$/);

    const seen = await page.evaluate(() => (window as unknown as { __progressSeen: number[] }).__progressSeen);
    expect(seen[0]).toBe(10);
    expect(seen.at(-1)).toBe(100);
    expect(seen.every((v, i) => i === 0 || v >= seen[i - 1])).toBe(true);
    expect(await page.getByRole("progressbar", { name: "WAV export progress" }).getAttribute("aria-valuenow")).toBe("100");

    const file = await readOpfsFile(page, name);
    expect(file.size).toBe(exportPlan(10).totalBytes);
    const info = parseWavHeader(Uint8Array.from(file.head));
    expect(info).toMatchObject({ container: "RIFF", formatTag: 1, sampleRate: 48000, channels: 2, bitsPerSample: 16, frames: 480000, dataOffset: 44 });
    expect(Math.abs(peakFrequency(Float32Array.from(file.left)) - TONE)).toBeLessThan(0.5);
    expect(file.sha).toBe(await expectedSha);
    // No swap or partial files next to it.
    expect((await opfsFiles(page)).map((f) => f.name)).toEqual([name]);
    await page.getByText("99 of 100 exports left this period").waitFor();
  });

  it("Cancel midway removes the partial file and leaves the studio usable", async () => {
    const before = await opfsFiles(page);
    await loadState(page, STATE, 3600);
    await page.getByRole("button", { name: "Export WAV" }).click();
    const bar = page.getByRole("progressbar", { name: "WAV export progress" });
    await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(20);
    expect(Number(await bar.getAttribute("aria-valuenow"))).toBeLessThan(90);
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Export WAV" }).waitFor({ timeout: 10_000 });
    expect(await bar.count()).toBe(0);

    const after = await opfsFiles(page);
    const total = exportPlan(3600).totalBytes;
    expect(after.filter((f) => f.size === total)).toEqual([]);
    expect(after).toEqual(before);

    // The studio still plays, and exports again.
    await page.getByRole("button", { name: "Play Audio" }).click();
    await page.getByRole("button", { name: "Stop Audio" }).waitFor();
    await page.getByRole("button", { name: "Stop Audio" }).click();
    await page.getByRole("button", { name: "Play Audio" }).waitFor();
  });

  it("without a save picker, writes to OPFS and downloads the same bytes", async () => {
    const p = await openStudio(false);
    try {
      expect(await p.evaluate(() => typeof (window as { showSaveFilePicker?: unknown }).showSaveFilePicker)).toBe("undefined");
      await loadState(p, STATE, 10);
      const [download] = await Promise.all([p.waitForEvent("download", { timeout: 30_000 }), p.getByRole("button", { name: "Export WAV" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^swizard-audio-.*\.wav$/);
      const saved = join(dir, "downloaded.wav");
      await download.saveAs(saved);
      expect(createHash("sha256").update(readFileSync(saved)).digest("hex")).toBe(await cliSha(10));
      // The OPFS copy stays until the next export starts (the download reads it from disk).
      const files = await opfsFiles(p);
      expect(files).toContainEqual({ name: `exports/${download.suggestedFilename()}`, size: exportPlan(10).totalBytes });
    } finally {
      await p.close();
    }
  });

  it("without OPFS (as in private browsing), keeps the file in memory and downloads the same bytes", async () => {
    // No save picker, and no getDirectory in the page, as where a browser gives the page no OPFS.
    const p = await openStudio(false, pro, "Object.defineProperty(StorageManager.prototype, 'getDirectory', { value: undefined });");
    try {
      await loadState(p, STATE, 10);
      const [download] = await Promise.all([p.waitForEvent("download", { timeout: 30_000 }), p.getByRole("button", { name: "Export WAV" }).click()]);
      const saved = join(dir, "memory.wav");
      await download.saveAs(saved);
      expect(createHash("sha256").update(readFileSync(saved)).digest("hex")).toBe(await cliSha(10));
      await p.getByText(`WAV downloaded: ${download.suggestedFilename()}`).waitFor();
    } finally {
      await p.close();
    }
  });

  it("where the page has OPFS but the worker cannot open its file, the worker falls back to memory: the same bytes", async () => {
    const p = await openStudio(false);
    try {
      // The export worker's script, served with its getDirectory refused as WebKit's private
      // profile refuses it (UnknownError), before the bundle runs.
      await p.route(/\/assets\/export\.worker-[\w-]+\.js$/, async (route) => {
        const res = await route.fetch();
        const refuse = 'StorageManager.prototype.getDirectory = () => Promise.reject(new DOMException("The operation failed for an unknown transient reason (e.g. out of memory).", "UnknownError"));\n';
        await route.fulfill({ response: res, body: refuse + (await res.text()) });
      });
      await loadState(p, STATE, 10);
      const [download] = await Promise.all([p.waitForEvent("download", { timeout: 30_000 }), p.getByRole("button", { name: "Export WAV" }).click()]);
      const saved = join(dir, "worker-memory.wav");
      await download.saveAs(saved);
      expect(createHash("sha256").update(readFileSync(saved)).digest("hex")).toBe(await cliSha(10));
      // Nothing left in the OPFS folder the page had prepared (the worker never wrote there).
      expect((await opfsFiles(p)).filter((f) => f.name.startsWith("exports/") && f.size > 0)).toEqual([]);
    } finally {
      await p.close();
    }
  });

  it("without OPFS, an export over the device's memory limit is refused before it starts, saying what works", async () => {
    // No Storage API at all (navigator.storage undefined, as in an embedded web view), on a device
    // reporting 0.25 GiB of memory: the in-memory limit is 256 MiB, about 23 minutes.
    const p = await openStudio(
      false,
      pro,
      "Object.defineProperty(Navigator.prototype, 'storage', { get: () => undefined }); Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 0.25 });",
    );
    try {
      await loadState(p, STATE, 3600);
      const count = p.getByText(/^\d+ of 100 exports left this period$/);
      const before = await count.textContent();
      await p.getByRole("button", { name: "Export WAV", disabled: false }).click();
      await p
        .locator("[data-sonner-toast]", {
          hasText:
            "This browser gives the page no disk to write the file to (no Origin Private File System, as in private browsing), so the export has to fit in memory: up to 00:23:18 on this device. Export 00:23:18 or less, or use Chrome, Edge, Firefox or Safari outside private browsing for a longer file.",
        })
        .waitFor();
      expect(await p.getByRole("progressbar").count()).toBe(0);
      // Refused before anything is counted against the plan.
      expect(await count.textContent()).toBe(before);
    } finally {
      await p.close();
    }
  });

  it("reports too little storage with the spec's message and writes nothing", async () => {
    // The OPFS fallback checks navigator.storage.estimate() first: report a 1 MB quota.
    const p = await openStudio(false, pro, "navigator.storage.estimate = async () => ({ quota: 1000000, usage: 0 });");
    try {
      await loadState(p, STATE, 600);
      await p.getByRole("button", { name: "Export WAV", disabled: false }).click();
      await p.locator("[data-sonner-toast]", { hasText: "Export failed due to storage limits. Free up disk space and try again." }).waitFor();
      await p.getByRole("button", { name: "Export WAV", disabled: false }).waitFor();
      expect(await p.getByRole("progressbar").count()).toBe(0);
      expect((await opfsFiles(p)).filter((f) => f.name.startsWith("exports/"))).toEqual([]);
    } finally {
      await p.close();
    }
  });

  it("locks the button for a free user", async () => {
    const p = await openStudio(true, await registerAccount(app.url));
    try {
      await p.getByText("Free User (59 min max)").waitFor();
      expect(await p.getByRole("button", { name: "Export WAV" }).isDisabled()).toBe(true);
      expect(await p.getByRole("button", { name: /Pro Only.*WAV export/ }).count()).toBe(1);
    } finally {
      await p.close();
    }
  });

  it("at 0 exports left the export is refused with the upgrade path, and nothing is written", async () => {
    const spent = await registerProAccount(app);
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${app.url}/api/exports`, { method: "POST", headers: { Authorization: `Bearer ${spent.token}`, "Content-Type": "application/json" }, body: JSON.stringify({ kind: "wav", durationSeconds: 30 }) });
      expect(res.status).toBe(200);
    }
    const p = await openStudio(false, spent);
    try {
      await p.getByText("0 of 100 exports left this period").waitFor();
      await loadState(p, STATE, 10);
      await p.getByRole("button", { name: "Export WAV", disabled: false }).click();
      await p.locator("[data-sonner-toast]", { hasText: /^You have used all 100 exports of this billing period; they start again on \d{4}-\d\d-\d\d\. Upgrade to the Commercial License for 200 exports a month\.$/ }).waitFor();
      await p.getByRole("button", { name: "Export WAV", disabled: false }).waitFor();
      expect(await p.getByRole("progressbar").count()).toBe(0);
      expect((await opfsFiles(p)).filter((f) => f.name.startsWith("exports/"))).toEqual([]);
    } finally {
      await p.close();
    }
  });

  it("alerts when no channel is enabled", async () => {
    const silent = { ...STATE, channels: STATE.channels.map((c) => ({ ...c, enabled: false })) };
    await loadState(page, silent, 30);
    const dialog = new Promise<{ type: string; message: string }>((resolve) =>
      page.once("dialog", (d) => {
        resolve({ type: d.type(), message: d.message() });
        void d.dismiss();
      }),
    );
    await page.getByRole("button", { name: "Export WAV" }).click();
    expect(await dialog).toEqual({ type: "alert", message: "Please enable at least one frequency channel before exporting." });
    expect(await page.getByRole("progressbar").count()).toBe(0);
  });
});
