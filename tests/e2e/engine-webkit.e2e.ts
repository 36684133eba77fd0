// The browser smoke suite (tests/e2e/engines/smoke.ts) in WebKitGTK (Safari's engine), through
// WebKitWebDriver under xvfb-run: the whole suite in a persistent profile (OPFS, as Safari), then
// the 30 s and 1 hour exports again in MiniBrowser's private profile (no OPFS: the in-memory
// export, as in Safari's private browsing), the 30 s file the CLI's bytes in both. Without WebKitGTK on this machine it prints
// one line saying what to install, and skips.

import { defineEngineSmoke } from "./engines/smoke";

defineEngineSmoke("webkit");
defineEngineSmoke("webkit", { ephemeral: true, exportOnly: true });
