// Export Video in real Chromium against the real server and its ffmpeg (spec/studio.md
// sections 4-8): every plan exports MP4 (a Monthly account's 1-second export downloads, and the
// count under Export WAV goes from 100 to 99 of 100), a free account sees the button locked with
// the spec's 'Video export requires a Pro subscription...'; an admin with the override's dialog takes the studio's
// duration; a 2-second export goes through the job API (POST /api/video-export/jobs, its status
// polled, the file fetched; never the streaming POST) and arrives as a download named
// swizard-video-*.mp4 that ffprobe reads as H.264 at 1280x720 plus AAC, which Chromium plays; a
// longer export shows the job's percentage, is resumed after a page reload, and Cancel export
// cancels it on the server (DELETE: the job is 'cancelled', ffmpeg is gone, no file is kept), says
// 'Video export cancelled.' and stops polling, and closing the dialog during a job cancels it too;
// a failed job's text shows in the dialog; the spec's messages for no channel, under 1 s, a missing token and an expired
// session (which also clears the stored tokens). The dialog is photographed at 1280 and 390 px wide
// idle and during progress (.tmp/screenshots/video-export-dialog-*.png) and audited with axe-core.

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBinary } from "../../api/platform/binaries";
import { seriousAxeViolations, startBrowserApp, screenshotPath, type BrowserApp } from "./browser";
import { openSignedIn, registerAccount, registerAdminWithOverride, registerProAccount, storedToken, type TestAccount } from "./session";

let run: BrowserApp;
let page: Page;
let admin: TestAccount;
let scratch: string;
const adminEmail = `video-admin-${Date.now()}@example.test`;

const dialog = () => page.getByRole("dialog", { name: "Export Video" });
const durationBox = () => dialog().getByLabel("Duration (HH:MM:SS)");

async function setStudio(p: Page, patch: object): Promise<void> {
  await p.evaluate((patch) => {
    (window as unknown as { __toneStudio: { store: { setState(s: object): void } } }).__toneStudio.store.setState(patch);
  }, patch);
}

/** The API requests the page makes, as "METHOD /path", from now on. */
function recordApi(p: Page): string[] {
  const seen: string[] = [];
  p.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/video-export")) seen.push(`${r.method()} ${url.pathname}`);
  });
  return seen;
}

const JOB_PATH = /^\/api\/video-export\/jobs\/[0-9a-f-]{36}$/;

/** The ffmpeg processes the in-process test server runs (its children), read from /proc like
 *  `pgrep -P <pid> -x ffmpeg` (procps is not on every machine). */
function ffmpegChildren(): string[] {
  const pids: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split at the last ")".
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const ppid = stat.slice(close + 2).split(" ")[1];
    if (comm === "ffmpeg" && ppid === String(process.pid)) pids.push(pid);
  }
  return pids;
}

/** Every file in the server's storage folder, half-written ones included. */
function storedFiles(): string[] {
  const root = join(run.app.dataDir, "files");
  return existsSync(root) ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];
}

/** Opens the studio's Session section when the studio has sections (tabs): Export Video is there. */
async function openSession(p: Page): Promise<void> {
  const tab = p.getByRole("tab", { name: "Session", exact: true });
  if ((await tab.count()) > 0 && (await tab.getAttribute("aria-selected")) !== "true") await tab.click();
}

async function openDialog(): Promise<void> {
  await openSession(page);
  await page.getByRole("button", { name: "Export Video" }).click();
  await dialog().waitFor();
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "video-e2e-"));
  run = await startBrowserApp({ adminEmails: [adminEmail], seedMarketplace: false }, { width: 1280, height: 900 });
  page = run.page;
  admin = await registerAdminWithOverride(run.app, adminEmail);
  await openSignedIn(page, run.app.url, admin);
  await page.getByRole("button", { name: "Export WAV" }).waitFor();
});

afterAll(async () => {
  await run?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("Export Video", () => {
  it("a Pro (Monthly) user exports an MP4 too, and the plan's count goes down by one", async () => {
    const p = await run.browser.newPage();
    await openSignedIn(p, run.app.url, await registerProAccount(run.app));
    await p.getByText("100 of 100 exports left this period").waitFor();
    await setStudio(p, { duration: 1 });
    await openSession(p);
    await p.getByRole("button", { name: "Export Video" }).click();
    const proDialog = p.getByRole("dialog", { name: "Export Video" });
    const [download] = await Promise.all([
      p.waitForEvent("download", { timeout: 60_000 }),
      proDialog.getByRole("button", { name: "Export", exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^swizard-video-.*\.mp4$/);
    await p.getByText("99 of 100 exports left this period").waitFor();
    await p.close();
  });

  it("a free user sees Export Video locked with the spec's text", async () => {
    const p = await run.browser.newPage();
    await openSignedIn(p, run.app.url, await registerAccount(run.app.url));
    await openSession(p);
    const button = p.getByRole("button", { name: "Export Video" });
    await button.waitFor();
    expect(await button.isDisabled()).toBe(true);
    await p.getByText("Video export requires a Pro subscription. Upgrade now to create videos!").waitFor();
    expect(await p.getByText("exports left this period").count()).toBe(0);
    await p.close();
  });

  it("an admin with the override opens the dialog with the studio's duration (photographed at 1280 and 390 px)", async () => {
    await setStudio(page, { duration: 2 });
    await openDialog();
    expect(await durationBox().inputValue()).toBe("00:00:02");
    await expect.poll(() => dialog().getByText("matches 59 min limit").count()).toBe(1);
    expect(await dialog().getByRole("radio", { name: "Black", exact: true }).isChecked()).toBe(true);
    expect(await dialog().getByRole("radio", { name: /720p/ }).isChecked()).toBe(true);
    await page.screenshot({ path: screenshotPath("video-export-dialog-1280.png") });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: screenshotPath("video-export-dialog-390.png") });
    // At phone width the dialog fits the screen: no horizontal overflow, Export reachable.
    const box = (await dialog().boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await expect.poll(() => dialog().getByRole("button", { name: "Export", exact: true }).isVisible()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("exports 2 s with the waveform through the job API: a download named swizard-video-*.mp4 holding H.264 1280x720 and AAC", async () => {
    await dialog().getByRole("radio", { name: "Black with waveform" }).check();
    const seen = recordApi(page);
    const posted: { levels?: unknown }[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/api/video-export/jobs") posted.push(r.postDataJSON() as { levels?: unknown });
    });
    // Every text the status line shows, in order.
    await page.evaluate(() => {
      const texts: string[] = [];
      (window as unknown as { __videoStatus: string[] }).__videoStatus = texts;
      const status = document.querySelector(".video-dialog [role=status]")!;
      new MutationObserver(() => {
        const t = status.textContent ?? "";
        if (t && texts.at(-1) !== t) texts.push(t);
      }).observe(status, { childList: true, subtree: true, characterData: true });
    });
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 60_000 }),
      dialog().getByRole("button", { name: "Export", exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^swizard-video-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.mp4$/);
    const file = join(scratch, download.suggestedFilename());
    await download.saveAs(file);
    const probe = JSON.parse(
      execFileSync(requireBinary("ffprobe").path, ["-v", "error", "-show_entries", "stream=codec_type,codec_name,width,height,duration", "-of", "json", file]).toString(),
    ) as { streams: { codec_type: string; codec_name: string; width?: number; height?: number; duration: string }[] };
    const video = probe.streams.find((s) => s.codec_type === "video")!;
    const audio = probe.streams.find((s) => s.codec_type === "audio")!;
    expect(video).toMatchObject({ codec_name: "h264", width: 1280, height: 720 });
    expect(audio.codec_name).toBe("aac");
    expect(Math.abs(Number(audio.duration) - 2)).toBeLessThan(0.1);
    await page.getByText("Video exported successfully! Check your downloads.").waitFor();
    expect(await dialog().count()).toBe(0);

    // The job path: queued, polled, then the file; the streaming POST is not used.
    expect(seen[0]).toBe("POST /api/video-export/jobs");
    // The sound carries the listener's levels (Safe listening: the defaults here).
    expect(posted[0]?.levels).toEqual({ fadeIn: 2, limiter: true, balance: 0 });
    expect(seen.filter((r) => r.startsWith("GET ") && JOB_PATH.test(r.slice(4))).length).toBeGreaterThanOrEqual(1);
    expect(seen.at(-1)).toMatch(/^GET \/api\/video-export\/jobs\/[0-9a-f-]{36}\/file$/);
    expect(seen).not.toContain("POST /api/video-export");
    const texts = await page.evaluate(() => (window as unknown as { __videoStatus: string[] }).__videoStatus);
    expect(texts[0]).toBe("Starting the export…");
    expect(texts.some((t) => t.startsWith("Receiving video…"))).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem("video_export_job"))).toBeNull();

    // The fragmented MP4 plays in the browser: a <video> reads its size and length.
    const played = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const v = document.createElement("video");
      v.muted = true;
      v.src = URL.createObjectURL(new Blob([bytes], { type: "video/mp4" }));
      await new Promise((ok, fail) => {
        v.onloadeddata = ok;
        v.onerror = () => fail(new Error(`video error ${v.error?.code}`));
      });
      return { width: v.videoWidth, height: v.videoHeight, duration: v.duration };
    }, readFileSync(file).toString("base64"));
    expect(played).toMatchObject({ width: 1280, height: 720 });
    expect(Math.abs(played.duration - 2)).toBeLessThan(0.1);
  });

  it("a longer export shows the job's percentage (photographed at 1280 and 390 px), resumes after a reload, and Cancel export cancels it (photographed too)", async () => {
    // Long enough to be still encoding after the reload (the cancel ends it).
    await setStudio(page, { duration: 120 });
    const filesBefore = storedFiles().sort();
    await openDialog();
    await dialog().getByRole("radio", { name: "Black with waveform" }).check();
    await dialog().getByRole("button", { name: "Export", exact: true }).click();
    const status = dialog().getByRole("status");
    await expect.poll(() => status.textContent(), { timeout: 60_000, interval: 100 }).toMatch(/^Rendering and encoding… [1-9]\d?%$/);
    expect(await dialog().getByRole("button", { name: "Cancel export" }).isVisible()).toBe(true);
    expect(Number(await dialog().getByRole("progressbar", { name: "Video export progress" }).getAttribute("value"))).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath("video-export-dialog-progress-1280.png") });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: screenshotPath("video-export-dialog-progress-390.png") });
    const box = (await dialog().boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });

    // A reload: the tab remembers the job, the dialog opens on it and polls it again (no new job).
    const job = JSON.parse((await page.evaluate(() => sessionStorage.getItem("video_export_job")))!) as { id: string };
    const seen = recordApi(page);
    await page.reload();
    await dialog().waitFor({ timeout: 30_000 });
    await expect.poll(() => status.textContent(), { timeout: 30_000, interval: 100 }).toMatch(/^Rendering and encoding… \d+%$/);
    expect(seen).toContain(`GET /api/video-export/jobs/${job.id}`);
    expect(seen.filter((r) => r.startsWith("POST"))).toEqual([]);

    // Cancel export: the job is cancelled on the server (its ffmpeg stops, no file is kept), the
    // dialog stays open saying so, the job is forgotten, and no more status requests go out.
    expect(ffmpegChildren()).toHaveLength(1);
    await dialog().getByRole("button", { name: "Cancel export" }).click();
    await expect.poll(() => status.textContent(), { timeout: 5_000, interval: 50 }).toBe("Video export cancelled.");
    expect(await dialog().getByRole("progressbar").count()).toBe(0);
    expect(await dialog().getByRole("button", { name: "Export", exact: true }).isEnabled()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem("video_export_job"))).toBeNull();
    await page.screenshot({ path: screenshotPath("video-export-dialog-cancelled-1280.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: screenshotPath("video-export-dialog-cancelled-390.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(() => seen.includes(`DELETE /api/video-export/jobs/${job.id}`), { timeout: 5_000 }).toBe(true);
    const res = await fetch(`${run.app.url}/api/video-export/jobs/${job.id}`, { headers: { Authorization: `Bearer ${admin.token}` } });
    expect(((await res.json()) as { state: string }).state).toBe("cancelled");
    await expect.poll(() => ffmpegChildren(), { timeout: 2_000, interval: 50 }).toEqual([]);
    // Storage holds what it held before this export (the earlier test's video): no partial file.
    await expect.poll(() => storedFiles().sort(), { timeout: 2_000 }).toEqual(filesBefore);
    const polls = seen.length;
    await page.waitForTimeout(2_500);
    expect(seen.length).toBe(polls);
    await dialog().getByRole("button", { name: "Cancel", exact: true }).click();
    expect(await dialog().count()).toBe(0);
    // Opened again, the dialog starts afresh rather than on the forgotten job.
    await openDialog();
    expect(await dialog().getByRole("button", { name: "Export", exact: true }).isEnabled()).toBe(true);
    expect(await dialog().getByRole("progressbar").count()).toBe(0);
    // Closing the dialog (Escape) while a job runs cancels it as well.
    await dialog().getByRole("button", { name: "Export", exact: true }).click();
    await expect.poll(() => status.textContent(), { timeout: 60_000, interval: 100 }).toMatch(/^Rendering and encoding… \d+%$/);
    const second = JSON.parse((await page.evaluate(() => sessionStorage.getItem("video_export_job")))!) as { id: string };
    await page.keyboard.press("Escape");
    expect(await dialog().count()).toBe(0);
    await expect.poll(() => seen.includes(`DELETE /api/video-export/jobs/${second.id}`), { timeout: 5_000 }).toBe(true);
    await expect.poll(() => ffmpegChildren(), { timeout: 2_000, interval: 50 }).toEqual([]);
    const after = await fetch(`${run.app.url}/api/video-export/jobs/${second.id}`, { headers: { Authorization: `Bearer ${admin.token}` } });
    expect(((await after.json()) as { state: string }).state).toBe("cancelled");
    expect(await page.evaluate(() => sessionStorage.getItem("video_export_job"))).toBeNull();
    await setStudio(page, { duration: 2 });
  });

  it("the spec's messages for under 1 second and for no enabled frequency", async () => {
    await openDialog();
    await durationBox().fill("0");
    await dialog().getByRole("button", { name: "Export", exact: true }).click();
    expect(await dialog().getByRole("alert").textContent()).toBe("Please set a duration of at least 1 second");

    await durationBox().fill("3");
    const channels = await page.evaluate(() =>
      (window as unknown as { __toneStudio: { store: { getState(): { channels: { enabled: boolean }[] } } } }).__toneStudio.store
        .getState()
        .channels.map((c) => ({ ...c, enabled: false })),
    );
    await setStudio(page, { channels });
    await dialog().getByRole("button", { name: "Export", exact: true }).click();
    expect(await dialog().getByRole("alert").textContent()).toBe("Please enable at least one frequency before exporting video");
    await dialog().getByRole("button", { name: "Cancel" }).click();
    expect(await dialog().count()).toBe(0);
    await setStudio(page, { channels: channels.map((c) => ({ ...c, enabled: true })) });
  });

  it("a job that fails shows its own text in the dialog, which stays open for another try", async () => {
    // The real job is queued; its status is answered as a failed job (the server's own shape).
    const failure = "Video export failed: the video encoder stopped unexpectedly";
    await page.route("**/api/video-export/jobs/*", (route) =>
      route.fulfill({ json: { id: route.request().url().split("/").at(-1), state: "failed", progress: 0.4, error: failure, expiresAt: null } }),
    );
    try {
      await openDialog();
      await dialog().getByRole("button", { name: "Export", exact: true }).click();
      await dialog().getByRole("alert").filter({ hasText: failure }).waitFor({ timeout: 30_000 });
      expect(await dialog().getByRole("alert").textContent()).toBe(failure);
      expect(await dialog().getByRole("button", { name: "Export", exact: true }).isEnabled()).toBe(true);
      expect(await page.evaluate(() => sessionStorage.getItem("video_export_job"))).toBeNull();
      await dialog().getByRole("button", { name: "Cancel", exact: true }).click();
    } finally {
      await page.unroute("**/api/video-export/jobs/*");
    }
  });

  it("without a stored token: 'Authentication required. Please log in again.'", async () => {
    await openDialog();
    await page.evaluate(() => {
      for (const key of ["auth_token", "token", "authToken", "jwt_token"]) localStorage.removeItem(key);
    });
    await dialog().getByRole("button", { name: "Export", exact: true }).click();
    expect(await dialog().getByRole("alert").textContent()).toBe("Authentication required. Please log in again.");
    await page.keyboard.press("Escape");
    expect(await dialog().count()).toBe(0);
    await page.evaluate((token) => {
      for (const key of ["auth_token", "token", "authToken", "jwt_token"]) localStorage.setItem(key, token);
    }, admin.token);
  });

  it("an expired session: 'Authentication expired…', and the stored tokens are cleared", async () => {
    await openDialog();
    // The session dies on the server (signed out elsewhere) while the studio still shows it.
    const out = await fetch(`${run.app.url}/api/auth/logout`, { method: "POST", headers: { Authorization: `Bearer ${admin.token}`, "Content-Type": "application/json" }, body: "{}" });
    expect(out.ok).toBe(true);
    await dialog().getByRole("button", { name: "Export", exact: true }).click();
    await page.getByText("Authentication expired. Please log in again and retry video export.").waitFor();
    expect(await storedToken(page)).toBeNull();
    expect(await page.evaluate(() => ["token", "authToken", "jwt_token", "user_data"].map((k) => localStorage.getItem(k)))).toEqual([null, null, null, null]);
    await expect.poll(() => page.getByRole("button", { name: "Export Video" }).count()).toBe(0);
  });
});
