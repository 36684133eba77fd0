// Runs once before the e2e files (vitest runs it for each project; the second call only checks):
// finds the programs they drive (api/platform/binaries.ts: the system's, else the ones shipped in
// npm packages), unpacks the bundled Chromium once so that parallel workers do not race to do it,
// and prints one line saying which ones run, and one for each browser engine the engine smoke
// tests drive (tests/e2e/engines/drivers.ts), run or not and why. Fails fast, with the fix, when
// there is no Chromium or no built app, and warns when dist/ is older than the sources it is built from (every e2e file
// serves that one build; `npm test` makes it first).

import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describeBinary, findChromium, findFfmpeg, findFfprobe } from "../../api/platform/binaries";
import { findEngine } from "./engines/drivers";

const SOURCES = ["web", "worklets", "dsp/host", "dsp/build", "index.html", "vite.config.ts"];

/** The newest file under `path` (a file or a directory), as [mtime in ms, path]. */
function newest(path: string): [number, string] {
  if (!existsSync(path)) return [0, path];
  const stat = statSync(path);
  if (!stat.isDirectory()) return [stat.mtimeMs, path];
  let best: [number, string] = [0, path];
  for (const entry of readdirSync(path)) {
    const found = newest(join(path, entry));
    if (found[0] > best[0]) best = found;
  }
  return best;
}

export default async function setup(): Promise<void> {
  const first = !process.env.TONE_STUDIO_E2E_SETUP;
  process.env.TONE_STUDIO_E2E_SETUP = "1";
  const chromium = await findChromium();
  if (first) {
    const ffmpeg = findFfmpeg();
    const ffprobe = findFfprobe();
    console.log(`e2e programs: ${[describeBinary("chromium", chromium), describeBinary("ffmpeg", ffmpeg), describeBinary("ffprobe", ffprobe)].join(" · ")}`);
    // The engine smoke tests (tests/e2e/engine-*.e2e.ts): one line for each engine, run or not.
    for (const engine of ["chromium", "firefox", "webkit"] as const) {
      const found = await findEngine(engine);
      const how = engine === "webkit" && found.paths && !found.paths.profileBrowser ? " (private profile only: apt-get install python3-gi gir1.2-webkit2-4.1 for the persistent one)" : "";
      console.log(found.paths ? `e2e engine ${engine}: runs (${Object.values(found.paths).join(", ")})${how}` : `e2e engine ${engine}: not run on this machine: ${found.missing}`);
    }
  }
  if (!chromium) throw new Error("The end-to-end tests drive a real Chromium through playwright-core and found none; see the line above for the fix.");
  const index = join(process.cwd(), "dist", "index.html");
  if (!existsSync(index)) throw new Error("No built app in dist/: run `npm run build` first (npm test does).");
  if (first) {
    const built = statSync(index).mtimeMs;
    const [changed, file] = SOURCES.map((s) => newest(join(process.cwd(), s))).reduce((a, b) => (b[0] > a[0] ? b : a));
    if (changed > built) console.warn(`e2e: dist/ is older than ${file.slice(process.cwd().length + 1)}: the tests run the last build (npm run build makes a new one).`);
  }
}
