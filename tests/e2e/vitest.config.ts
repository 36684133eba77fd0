import { defineConfig } from "vitest/config";

// End-to-end tests: the built app in real Chromium. Run after `npm run build`.
export default defineConfig({
  test: {
    root: ".",
    include: ["tests/e2e/**/*.e2e.ts"],
    // Finds Chromium, ffmpeg and ffprobe once, and says which ones run (tests/e2e/global-setup.ts).
    globalSetup: ["tests/e2e/global-setup.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    reporters: ["default", ["json", { outputFile: ".tmp/vitest-e2e.json" }]],
  },
});
