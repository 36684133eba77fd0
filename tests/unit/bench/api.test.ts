// The API load rows (bench/api-rows.ts) and how --compare treats them: a target is met only with
// zero errors, zero non-2xx answers and a p99 under 50 ms; rows of kind "api" validate against the
// schema and never make --compare fail, whether slower or missing.
import { describe, expect, it } from "vitest";
import { apiRow, changeNoticeRow, loginRow, type LoadFigures } from "../../../bench/api-rows";
import { databaseLabel } from "../../../bench/api";
import { machineCpuTicks, stealPercent } from "../../../bench/proc";
import { compareResults } from "../../../bench/compare";
import { benchResultSchema } from "../../../bench/schema";
import { fixture } from "./fixture";

const good: LoadFigures = { requestsPerSecond: 6000, p50Ms: 5, p99Ms: 20, requests: 60000, errors: 0, timeouts: 0, non2xx: 0, seconds: 10 };

describe("API rows", () => {
  it("meet their target only at the rate, with a p99 under 50 ms (but the flat-out writes) and no errors or non-2xx answers", () => {
    const row = apiRow("sqlite", "marketplace-sounds", "GET /api/marketplace/sounds", good, 50);
    expect(row).toMatchObject({ id: "api/sqlite/marketplace-sounds", kind: "api", unit: "req/s", value: 6000, target: ">= 5000", relative: null });
    expect(row.details?.met).toBe(true);
    expect(apiRow("sqlite", "marketplace-sounds", "x", { ...good, requestsPerSecond: 4999 }, 50).details?.met).toBe(false);
    expect(apiRow("sqlite", "marketplace-sounds", "x", { ...good, p99Ms: 50 }, 50).details?.met).toBe(false);
    expect(apiRow("sqlite", "preset-create", "x", { ...good, requestsPerSecond: 1200, non2xx: 1 }, 50).details?.met).toBe(false);
    expect(apiRow("sqlite", "preset-create", "x", { ...good, requestsPerSecond: 1200, errors: 1 }, 50).details?.met).toBe(false);
    expect(apiRow("sqlite", "preset-create", "x", { ...good, requestsPerSecond: 1200 }, 50).details?.met).toBe(true);
    // The flat-out writes are a throughput (50 connections' own queue); the p99 is the at-rate row's.
    expect(apiRow("sqlite", "preset-create", "x", { ...good, requestsPerSecond: 2200, p99Ms: 60 }, 50).details?.met).toBe(true);
    expect(apiRow("sqlite", "preset-create", "x", { ...good, requestsPerSecond: 999, p99Ms: 20 }, 50).details?.met).toBe(false);
    expect(apiRow("sqlite", "preset-create-at-rate", "x", { ...good, requestsPerSecond: 1000, p99Ms: 50 }, 50).details?.met).toBe(false);
    expect(apiRow("sqlite", "preset-create-at-rate", "x", { ...good, requestsPerSecond: 1000, p99Ms: 35 }, 50).details?.met).toBe(true);
    // Counting an export: the write rate, and a p99 under 20 ms (it comes before every export).
    expect(apiRow("sqlite", "export-count", "x", { ...good, requestsPerSecond: 1000, p99Ms: 19.9 }, 50).details).toMatchObject({ met: true, p99TargetMs: 20 });
    expect(apiRow("sqlite", "export-count", "x", { ...good, requestsPerSecond: 1000, p99Ms: 20 }, 50).details?.met).toBe(false);
    const login = loginRow("postgres", { ...good, p99Ms: 30 }, good, { logins: 80, loginsPerSecond: 20, loginP50Ms: 300, parallelLogins: 6 });
    expect(login).toMatchObject({ id: "api/postgres/login-stall", unit: "ms", better: "lower", value: 30, target: "<= 50" });
    expect(login.details?.met).toBe(true);
  });

  it("the change-notice row: p50 and p99 of the delays in ms, a notice heard before the writer's answer as zero", () => {
    const delays = [...Array.from({ length: 98 }, (_, i) => 0.1 + i / 1000), -0.05, 7];
    const row = changeNoticeRow(delays);
    expect(row).toMatchObject({ id: "api/postgres/change-notice", unit: "ms", better: "lower", value: 7 });
    expect(row.details).toMatchObject({ p99Ms: 7, maxMs: 7, requests: 100, requestsPerSecond: null });
    expect(row.details?.p50Ms).toBeCloseTo(0.149, 9); // the 51st of 100, the negative one counted as 0
    expect(changeNoticeRow([-0.2, -0.1]).details).toMatchObject({ p50Ms: 0, p99Ms: 0 });
    expect(benchResultSchema.safeParse({ ...fixture(), rows: [...fixture().rows, row] }).success).toBe(true);
  });

  it("carry the share of the machine's CPU time stolen by its host during the run", () => {
    expect(stealPercent({ total: 1000, steal: 10 }, { total: 3000, steal: 110 })).toBe(5);
    expect(stealPercent(undefined, { total: 3000, steal: 110 })).toBeUndefined();
    expect(stealPercent({ total: 1000, steal: 10 }, { total: 1000, steal: 10 })).toBeUndefined();
    const now = machineCpuTicks();
    if (now) expect(now.steal).toBeLessThanOrEqual(now.total);
    expect(apiRow("sqlite", "preset-create", "x", { ...good, stealPercent: 7.5 }, 50).details?.stealPercent).toBe(7.5);
    expect(apiRow("sqlite", "preset-create", "x", good, 50).details?.stealPercent).toBeNull();
  });

  it("are labelled with the database DATABASE_URL names", () => {
    expect(databaseLabel({})).toBe("sqlite");
    expect(databaseLabel({ DATABASE_URL: "postgres://u@127.0.0.1:5432/db" })).toBe("postgres");
    expect(databaseLabel({ DATABASE_URL: "postgresql://u@127.0.0.1/db" })).toBe("postgres");
  });

  it("validate as bench results and never fail --compare, slower or missing", () => {
    const withApi = fixture();
    withApi.rows.push(apiRow("sqlite", "preset-read", "GET /api/presets/{id}", good, 50));
    expect(benchResultSchema.safeParse(withApi).success).toBe(true);

    const slower = fixture();
    slower.rows.push(apiRow("sqlite", "preset-read", "GET /api/presets/{id}", { ...good, requestsPerSecond: 1000 }, 50));
    const c1 = compareResults(slower, withApi, 10);
    expect(c1.failures).toEqual([]);
    expect(c1.verdicts.find((v) => v.id === "api/sqlite/preset-read")?.status).toBe("slower-not-gating");

    const c2 = compareResults(fixture(), withApi, 10);
    expect(c2.failures).toEqual([]);
    expect(c2.verdicts.find((v) => v.id === "api/sqlite/preset-read")?.status).toBe("absent");
  });
});
