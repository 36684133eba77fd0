import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// End-to-end tests: the built app in real Chromium. Run after `npm run build` (npm test does; the
// global setup refuses to start without dist/ and warns when it is older than the sources).
//
// Every file starts its own server (port 0, its own temp DATA_DIR and SQLite file, no shared
// files) and its own Chromium, so files run side by side in worker processes: E2E_WORKERS of them
// (default: one more than the cores, at most 3; a file spends much of its time waiting on the
// browser, not on the CPU). Workers are reused from file to file without re-importing the server's
// modules (isolate: false; no e2e file mocks modules or changes globals), which saves about 1.5 s
// of CPU per file.
//
// A file listed in SERIAL runs after the others, alone (fileParallelism: false). The three below
// measure real-time behaviour (frame counts while hidden in displays, audio levels at
// AudioContext times in levels, a mute's latency in mixer); since the engine smoke files also
// export FLAC and MP3 in three browsers, they missed by a few ms or frames beside them on a
// 2-core machine (mute 52.7 ms against 50) and passed alone. Put a file here if it starts to
// fail only when run together with others.
const SERIAL: string[] = ["tests/e2e/displays.e2e.ts", "tests/e2e/levels.e2e.ts", "tests/e2e/mixer.e2e.ts"];

const workers = Number(process.env.E2E_WORKERS) || Math.min(3, Math.max(1, availableParallelism() + 1));

export default defineConfig({
  test: {
    root: ".",
    // Finds Chromium, ffmpeg and ffprobe once, and says which ones run (tests/e2e/global-setup.ts).
    globalSetup: ["tests/e2e/global-setup.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: ".tmp/vitest-e2e.json" }]],
    projects: [
      {
        extends: true,
        test: { name: "e2e", include: ["tests/e2e/**/*.e2e.ts"], exclude: SERIAL, maxWorkers: workers, isolate: false },
      },
      // maxWorkers 1 and the default group order: vitest runs these after the parallel group.
      ...(SERIAL.length ? [{ extends: true as const, test: { name: "e2e-serial", include: SERIAL, fileParallelism: false } }] : []),
    ],
  },
});
