// The rows of bench/api (kind "api", bench/SCHEMA.md): absolute figures against the API's load
// targets, never gating. Pure, so it is unit-tested.

import type { BenchRow } from "./schema";

/** The API's load targets on a 2-core machine: cached reads... */
export const TARGET_READS_PER_SECOND = 5000;
/** ...and writes, each with a p99 latency under this many milliseconds. */
export const TARGET_WRITES_PER_SECOND = 1000;
export const TARGET_P99_MS = 50;
/** Counting an export adds one request before every export starts: its p99 stays under this. */
export const TARGET_EXPORT_COUNT_P99_MS = 20;

/** What one autocannon run measured. */
export interface LoadFigures {
  /** 2xx answers per second of the run's wall time. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers received (2xx and not). */
  requests: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  non2xx: number;
  seconds: number;
  /** The API process's CPU time (user + system, all its threads) per answered request, in ms, when
   *  the OS tells it (Linux /proc): steadier than req/s on a shared machine, so before/after
   *  comparisons of a change read it first. */
  serverCpuMsPerRequest?: number;
  /** The share of this machine's CPU time its host gave to other guests during the run (steal,
   *  from /proc/stat), in percent: a run with more than a few percent measured a slower machine. */
  stealPercent?: number;
}

const RATE_TARGETS: Record<string, number | undefined> = {
  "marketplace-sounds": TARGET_READS_PER_SECOND,
  "preset-read": TARGET_READS_PER_SECOND,
  "preset-create": TARGET_WRITES_PER_SECOND,
  // Offered at exactly the target: met when (nearly) all of it is answered, under the p99 bound.
  "preset-create-at-rate": TARGET_WRITES_PER_SECOND * 0.98,
  "export-count": TARGET_WRITES_PER_SECOND * 0.98,
};

/** Rows with a tighter p99 bound than TARGET_P99_MS. */
const P99_TARGETS: Record<string, number | undefined> = {
  "export-count": TARGET_EXPORT_COUNT_P99_MS,
};

/** Rows that measure a throughput only: 50 connections in a closed loop as fast as they go, whose
 *  latency is their own queue (about connections / rate), so a p99 says nothing of the server. The
 *  write target's p99 is judged on the at-rate row, where the requests come as users send them. */
const THROUGHPUT_ONLY = new Set(["preset-create"]);

const clean = (f: LoadFigures) => f.errors === 0 && f.non2xx === 0 && f.requests > 0;

/** A route's row: requests/s, with its target met only at zero errors and (but for a throughput
 *  row) a p99 under 50 ms. */
export function apiRow(database: string, route: string, name: string, f: LoadFigures, connections: number): BenchRow {
  const rateTarget = RATE_TARGETS[route];
  const p99Target = P99_TARGETS[route] ?? TARGET_P99_MS;
  const latencyOk = THROUGHPUT_ONLY.has(route) || f.p99Ms < p99Target;
  const met = clean(f) && latencyOk && (rateTarget === undefined || f.requestsPerSecond >= rateTarget);
  return {
    id: `api/${database}/${route}`,
    kind: "api",
    name: `${name} (${database})`,
    unit: "req/s",
    better: "higher",
    value: f.requestsPerSecond,
    samples: [f.requestsPerSecond],
    spreadPercent: 0,
    yardstick: null,
    yardstickValue: null,
    relative: null,
    target: rateTarget === undefined ? undefined : `>= ${rateTarget}`,
    details: {
      met,
      database,
      connections,
      windowSeconds: f.seconds,
      requests: f.requests,
      requestsPerSecond: f.requestsPerSecond,
      p50Ms: f.p50Ms,
      p99Ms: f.p99Ms,
      p99TargetMs: p99Target,
      errors: f.errors,
      timeouts: f.timeouts,
      non2xx: f.non2xx,
      serverCpuMsPerRequest: f.serverCpuMsPerRequest ?? null,
      stealPercent: f.stealPercent ?? null,
    },
  };
}

/** The "sign-ins do not stall other routes" row: GET /api/health's p99 during a burst of sign-ins
 *  (argon2id), beside its p99 alone. */
export function loginRow(
  database: string,
  busy: LoadFigures,
  quiet: LoadFigures,
  logins: { logins: number; loginsPerSecond: number; loginP50Ms: number; parallelLogins: number },
): BenchRow {
  return {
    id: `api/${database}/login-stall`,
    kind: "api",
    name: `GET /api/health p99 during a burst of sign-ins (${database})`,
    unit: "ms",
    better: "lower",
    value: busy.p99Ms,
    samples: [busy.p99Ms],
    spreadPercent: 0,
    yardstick: null,
    yardstickValue: null,
    relative: null,
    target: `<= ${TARGET_P99_MS}`,
    details: {
      met: clean(busy) && busy.p99Ms <= TARGET_P99_MS,
      database,
      windowSeconds: busy.seconds,
      requests: busy.requests,
      requestsPerSecond: busy.requestsPerSecond,
      p50Ms: busy.p50Ms,
      p99Ms: busy.p99Ms,
      errors: busy.errors,
      timeouts: busy.timeouts,
      non2xx: busy.non2xx,
      quietP99Ms: quiet.p99Ms,
      quietRequestsPerSecond: quiet.requestsPerSecond,
      ...logins,
    },
  };
}

/** PostgreSQL's "change notice" row: how long after a write's COMMIT returns to its connection
 *  another connection hears of it (LISTEN/NOTIFY, db/changes-postgres.ts): the window in which
 *  another API process may still answer from its cached session or entitlements. Negative
 *  samples (heard before the writer read its answer) count as zero. */
export function changeNoticeRow(delaysMs: readonly number[]): BenchRow {
  const sorted = delaysMs.map((d) => Math.max(0, d)).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const p99 = at(0.99);
  return {
    id: "api/postgres/change-notice",
    kind: "api",
    name: "Change notice: a commit heard by another connection (postgres)",
    unit: "ms",
    better: "lower",
    value: p99,
    samples: [p99],
    spreadPercent: 0,
    yardstick: null,
    yardstickValue: null,
    relative: null,
    details: {
      met: true,
      database: "postgres",
      requests: sorted.length,
      requestsPerSecond: null,
      p50Ms: at(0.5),
      p99Ms: p99,
      maxMs: sorted[sorted.length - 1],
      errors: 0,
      non2xx: 0,
      serverCpuMsPerRequest: null,
    },
  };
}
