import { defineConfig } from "vitest/config";

// Unit tests: DSP through dsp/host, the API through app.request(). E2E has its own config.
// With TEST_DATABASE_URL set (.ci/with-postgres sets it), a second project, api-postgres, runs the
// API tests again on that PostgreSQL server; the unit project itself always stays on SQLite.
const postgresUrl = process.env.TEST_DATABASE_URL ?? "";

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 60_000,
    pool: "forks",
    reporters: ["default", ["json", { outputFile: ".tmp/vitest-unit.json" }]],
    projects: [
      { extends: true as const, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], env: { TEST_DATABASE_URL: "" } } },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              // The fuzzing's routes and parsers are the same code on both databases: a third of the
              // runs here finds what is PostgreSQL's own (NUL in text, 64-bit integers) in a third of the time.
              test: { name: "api-postgres", include: ["tests/unit/api/**/*.test.ts"], env: { TEST_DATABASE_URL: postgresUrl, FUZZ_RUNS: process.env.FUZZ_RUNS ?? "100" } },
            },
          ]
        : []),
    ],
  },
});
