// Runs once before the e2e files: finds the programs they drive (api/platform/binaries.ts: the
// system's, else the ones shipped in npm packages), unpacks the bundled Chromium once so that the
// workers do not race to do it, and prints one line saying which ones run. Fails fast, with the
// fix, when there is no Chromium or no built app.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { describeBinary, findChromium, findFfmpeg, findFfprobe } from "../../api/platform/binaries";

export default async function setup(): Promise<void> {
  const chromium = await findChromium();
  const ffmpeg = findFfmpeg();
  const ffprobe = findFfprobe();
  console.log(`e2e programs: ${[describeBinary("chromium", chromium), describeBinary("ffmpeg", ffmpeg), describeBinary("ffprobe", ffprobe)].join(" · ")}`);
  if (!chromium) throw new Error("The end-to-end tests drive a real Chromium through playwright-core and found none; see the line above for the fix.");
  if (!existsSync(join(process.cwd(), "dist", "index.html"))) throw new Error("No built app in dist/: run `npm run build` first (npm test does).");
}
