// Real file-system faults for tests: a small tmpfs that fills up (ENOSPC) or is read-only (EROFS),
// mounted with mount(8) as root or through passwordless sudo; null where neither is allowed, so
// a test can fall back to another real fault (permissions, when not root).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SmallFs {
  /** Makes the file system read-only (writes fail with EROFS). */
  readOnly(): void;
  unmount(): void;
}

const asRoot = (args: string[]) => {
  const root = process.getuid?.() === 0;
  execFileSync(root ? args[0] : "sudo", root ? args.slice(1) : ["-n", ...args], { stdio: "ignore" });
};

/** A tmpfs of `kib` KiB mounted on the existing, empty directory `dir`, or null when not allowed. */
export function mountSmallFs(dir: string, kib: number): SmallFs | null {
  try {
    asRoot(["mount", "-t", "tmpfs", "-o", `size=${kib}k,mode=0777`, "tmpfs", dir]);
  } catch {
    return null;
  }
  let mounted = true;
  return {
    readOnly: () => asRoot(["mount", "-o", "remount,ro", dir]),
    unmount() {
      if (mounted) asRoot(["umount", "-l", dir]);
      mounted = false;
    },
  };
}

export const isRoot = (): boolean => process.getuid?.() === 0;

/** Whether this machine lets the tests mount a small file system (probed once). */
export const canMountSmallFs: boolean = (() => {
  const probe = mkdtempSync(join(tmpdir(), "fs-probe-"));
  const m = mountSmallFs(probe, 64);
  m?.unmount();
  rmdirSync(probe);
  return m !== null;
})();
