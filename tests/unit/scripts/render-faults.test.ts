// `npm run render` onto a disk that fails, run as a child process: a folder that refuses
// writes and a full disk each give one clear line, exit code 1 and no partial file; a file that
// was already there is left as it was. Real faults: a 256 KiB tmpfs, full or remounted read-only,
// where mounting is allowed; otherwise a read-only directory (not root) or /sys (root).
import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { singleTone } from "../dsp/assembly/helpers";
import { canMountSmallFs, isRoot, mountSmallFs, type SmallFs } from "../fs-faults";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");
let root: string;
let preset: string;
let fs: SmallFs | null = null;
const cleanups: (() => void)[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "render-faults-"));
  preset = join(root, "tone.json");
  writeFileSync(preset, JSON.stringify(singleTone(440)));
});
afterEach(() => {
  fs?.unmount();
  fs = null;
  for (const c of cleanups.splice(0)) c();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function render(out: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/render.ts", "--preset", preset, "--duration", "5", "--out", out], { cwd: REPO }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const folder = (name: string) => {
  const dir = join(root, name);
  mkdirSync(dir);
  return dir;
};

describe("npm run render onto a failing disk", () => {
  it("a folder that refuses writes: one clear line, exit 1, no file", async () => {
    const dir = folder("refusing");
    let out = join(dir, "session.wav");
    let reason: string;
    fs = mountSmallFs(dir, 256);
    if (fs) {
      fs.readOnly();
      reason = "the file system is read-only";
    } else if (!isRoot()) {
      chmodSync(dir, 0o555);
      cleanups.push(() => chmodSync(dir, 0o755));
      reason = "permission denied";
    } else {
      out = "/sys/kernel/session.wav"; // root ignores permissions; the kernel refuses new files here
      reason = "permission denied";
    }
    const r = await render(out);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`render: cannot write ${out}: ${reason}.\n`);
    expect(r.stdout).toBe("");
    expect(existsSync(out)).toBe(false);
    if (out.startsWith(dir)) expect(readdirSync(dir)).toEqual([]);
  });

  // Where no small disk can be mounted, the ulimit case in cli.test.ts still fails a write midway.
  it.skipIf(!canMountSmallFs)("a full disk: one clear line, exit 1, no partial file, an earlier file untouched", async () => {
    const dir = folder("full");
    fs = mountSmallFs(dir, 256);
    const out = join(dir, "session.wav");
    writeFileSync(out, "the previous render");
    const r = await render(out); // 960 kB onto 256 KiB
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^render: disk full: Not enough disk space in .+: the file needs 960 kB, \d+ kB is free\. The partial file was removed\.\n$/);
    expect(readdirSync(dir)).toEqual(["session.wav"]);
    expect(readFileSync(out, "utf8")).toBe("the previous render");
  });
});
