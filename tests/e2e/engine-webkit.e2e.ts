// The browser smoke suite (tests/e2e/engines/smoke.ts) in WebKitGTK (Safari's engine), through
// WebKitWebDriver under xvfb-run: the whole suite in a persistent profile (OPFS, as Safari), then
// the 30 s export again in MiniBrowser's private profile (no OPFS: the in-memory export, as in
// Safari's private browsing), both the CLI's bytes. Without WebKitGTK on this machine it prints
// one line saying what to install, and skips.

import { defineEngineSmoke } from "./engines/smoke";

defineEngineSmoke("webkit");
defineEngineSmoke("webkit", { ephemeral: true, exportOnly: true });
