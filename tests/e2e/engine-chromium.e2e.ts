// The browser smoke suite (tests/e2e/engines/smoke.ts) in Chromium, through playwright-core.
// Without that browser on this machine it prints one line saying what to install, and skips.

import { defineEngineSmoke } from "./engines/smoke";

defineEngineSmoke("chromium");
