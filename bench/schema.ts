// The bench results file (`npm run bench -- --json out.json`, and bench/baseline.json): a zod
// schema, versioned. Documented field by field in bench/SCHEMA.md; bump SCHEMA_VERSION on any
// change a reader of the previous version would misread (a new row id or kind needs no bump).

import { z } from "zod";

export const SCHEMA_VERSION = 1;

/** What a row measures; "ui" is the studio's displays, "api" the API under load (bench/api.ts). */
export const ROW_KINDS = ["dsp", "export", "fx", "voice", "ui", "api", "yardstick"] as const;

/** Kinds measured in absolute figures against targets, with no yardstick: they never gate. */
export function isAbsoluteKind(kind: string): boolean {
  return kind === "ui" || kind === "api";
}

const finite = z.number().finite();

export const rowSchema = z.object({
  /** Stable key across commits and modes, e.g. "dsp/chromium/base" or "fx/reverb". */
  id: z.string().min(1),
  kind: z.enum(ROW_KINDS),
  name: z.string().min(1),
  /** "x realtime", "ns/frame", "us", ...: the unit of value and samples. */
  unit: z.string().min(1),
  better: z.enum(["higher", "lower"]),
  /** The best of the samples (highest or lowest, as `better` says). */
  value: finite,
  /** Every repeat of this run, in measurement order; value is the best of them. */
  samples: z.array(finite).min(1),
  /** (worst - best) / best of the samples, in percent: this run's own repeat-to-repeat spread. */
  spreadPercent: finite.nonnegative(),
  /** Audio rendered per sample, when the row renders audio. */
  audioSeconds: finite.positive().optional(),
  /** The row this one is divided by for --compare (a yardstick row's id); null for yardsticks. */
  yardstick: z.string().nullable(),
  /** The yardstick's best, measured interleaved with this row's samples (its own unit). */
  yardstickValue: finite.positive().nullable(),
  /** Machine-independent figure that --compare uses: value / yardstickValue for "higher" rows
   *  (e.g. the engine / OfflineAudioContext ratio), value in yardstick frames for "lower" rows. */
  relative: finite.nullable(),
  /** A stated target, e.g. ">= 2500". */
  target: z.string().optional(),
  /** Row-specific figures (bytes, peak RSS, median quantum...), all in their named units. */
  details: z.record(z.string(), z.union([finite, z.string(), z.boolean(), z.null()])).optional(),
});

export const machineSchema = z.object({
  cpu: z.string(),
  cores: z.number().int().positive(),
  platform: z.string(),
  arch: z.string(),
  node: z.string(),
  chromium: z.string(),
  /** os.loadavg() when the bench started: a busy machine shows here. */
  loadAverage: z.array(finite).length(3),
});

export const stabilitySchema = z.object({
  /** Independent `npm run bench -- --quick` processes the statistics come from. */
  runs: z.number().int().min(2),
  /** Tolerance chosen from these runs (percent); --compare uses it when --tolerance is absent. */
  tolerancePercent: finite.positive(),
  /** Per row id: `relative` over the runs; spreadPercent = (max - min) / median * 100. */
  rows: z.record(
    z.string(),
    z.object({ min: finite, median: finite, max: finite, spreadPercent: finite.nonnegative() }),
  ),
});

export const benchResultSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  mode: z.enum(["quick", "full"]),
  date: z.string(),
  commit: z.string().nullable(),
  durationSeconds: finite.nonnegative(),
  machine: machineSchema,
  rows: z.array(rowSchema).min(1),
  /** Pass/fail checks that hold on any machine (engine faster than OfflineAudioContext, RSS). */
  checks: z.array(z.object({ name: z.string(), ok: z.boolean().nullable() })),
  /** Only in baselines made by bench/spread.ts. */
  stability: stabilitySchema.optional(),
});

export type BenchRow = z.infer<typeof rowSchema>;
export type BenchResult = z.infer<typeof benchResultSchema>;
export type Machine = z.infer<typeof machineSchema>;
export type Stability = z.infer<typeof stabilitySchema>;

/** Parses a results file's JSON text; a wrong schema version or shape is a clear error naming
 *  the file (never a zod dump of every field). */
export function parseBenchResult(text: string, file: string): BenchResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== SCHEMA_VERSION) {
    throw new Error(
      `${file} has bench schema version ${JSON.stringify(version ?? null)}; this bench reads version ${SCHEMA_VERSION}. ` +
        "Make a new one with `npm run bench -- --quick --json <file>` (see bench/SCHEMA.md).",
    );
  }
  const parsed = benchResultSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file} is not a valid bench result: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data;
}
