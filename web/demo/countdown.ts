// The demo's clock as pure functions (spec/accounts.md sections 4 and 9): 10 minutes, a countdown
// in whole seconds shown as mm:ss, and a warning once fewer than 120 seconds remain.

export const DEMO_MINUTES = 10;
export const DEMO_WARNING_MS = 120_000;

/** Milliseconds left until `endsAt`, never below 0. */
export function remainingMs(endsAt: number, now: number): number {
  return Math.max(0, endsAt - now);
}

/** "09:59", "00:05", "00:00": whole seconds rounded up, so 0:00 shows only at the end. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
}

/** The warning banner shows while the demo runs with fewer than 120 seconds left. */
export function isDemoWarning(ms: number): boolean {
  return ms > 0 && ms < DEMO_WARNING_MS;
}
