// Runs a command (`tsx scripts/with-binaries.ts vitest run`) with `ffmpeg` and `ffprobe` callable by
// name: when the system has none on PATH (or TONE_STUDIO_BINARIES=bundled), the ones
// api/platform/binaries.ts finds (FFMPEG_PATH / FFPROBE_PATH, or the npm-shipped copies) are
// symlinked into a temp directory put first on the command's PATH. Tests that spawn "ffmpeg" by
// name then run on a machine that has only Node. Prints one line saying which ones the command gets.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describeBinary, findFfmpeg, findFfprobe } from "../api/platform/binaries";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: tsx scripts/with-binaries.ts <command> [args...]");
  process.exit(2);
}

const found = [findFfmpeg(), findFfprobe()];
console.log(`test programs: ${found.map((b, i) => describeBinary(i === 0 ? "ffmpeg" : "ffprobe", b)).join(" · ")}`);

let shimDir: string | null = null;
const env = { ...process.env };
for (const binary of found) {
  if (!binary || binary.source === "system") continue;
  if (!shimDir) {
    mkdirSync(tmpdir(), { recursive: true });
    shimDir = mkdtempSync(join(tmpdir(), "tone-studio-path-"));
  }
  symlinkSync(binary.path, join(shimDir, binary.name));
}
if (shimDir) env.PATH = [shimDir, env.PATH].filter(Boolean).join(delimiter);

const child = spawn(command, args, { stdio: "inherit", env });
const cleanUp = () => {
  if (shimDir) rmSync(shimDir, { recursive: true, force: true });
};
// The terminal sends Ctrl-C to the whole process group; the child decides, and its exit is ours.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("error", (err) => {
  cleanUp();
  console.error(`could not run ${command}: ${err.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  cleanUp();
  process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
});
