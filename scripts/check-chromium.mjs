// Fails fast, with the fix, when no Chromium is available for the end-to-end tests and benchmarks.
import { accessSync, constants } from "node:fs";

const path = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
try {
  accessSync(path, constants.X_OK);
} catch {
  console.error(
    `\nNo Chromium found at ${path}.\n` +
      "The end-to-end tests and browser benchmarks drive a real Chromium through playwright-core.\n" +
      "Fix: install Debian's Chromium (sudo apt-get install -y chromium), or point CHROMIUM_PATH at a\n" +
      "Chromium or Chrome binary, then run the command again.\n",
  );
  process.exit(1);
}
