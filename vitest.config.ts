import { defineConfig } from "vitest/config";

// Unit tests: DSP through dsp/host, the API through app.request(). E2E has its own config.
export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    pool: "forks",
    reporters: ["default", ["json", { outputFile: ".tmp/vitest-unit.json" }]],
  },
});
