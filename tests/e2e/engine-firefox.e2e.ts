// The browser smoke suite (tests/e2e/engines/smoke.ts) in Firefox ESR, through puppeteer-core over WebDriver BiDi.
// Without that browser on this machine it prints one line saying what to install, and skips.

import { defineEngineSmoke } from "./engines/smoke";

defineEngineSmoke("firefox");
