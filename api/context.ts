// What the app is built from (AppDeps, supplied by server.ts or a test) and the services derived
// from it once per app (Services), plus the Hono environment type shared by every route.
import type { Kysely } from "kysely";
import { type AppConfig, type AppConfigInput, resolveConfig } from "./config";
import { dialectOf } from "./db/dialect";
import type { Database, UserRow } from "./db/schema";
import type { Logger } from "./errors";
import { defaultLogger } from "./logging";
import { type Entitlements, loadEntitlements } from "./services/entitlements";
import type { Mailer } from "./services/mailer";
import { OneTimeTokens } from "./services/one-time-tokens";
import { createArgon2Hasher, type PasswordHasher } from "./services/passwords";
import { type Payments, stripePayments } from "./services/payments";
import { DEMO_DURATION_MS } from "./rules/plans";
import { createLimiters, type Limiters } from "./services/rate-limit";
import { SessionService, type VerifiedSession } from "./services/sessions";
import type { Deployer } from "./services/deploy";
import type { JobQueue } from "./services/jobs";
import { SqliteJobQueue } from "./services/jobs-sqlite";
import type { FileStorage } from "./services/storage";
import { VideoExporter, type VideoExportOptions } from "./services/video-export";

export interface AppDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  config: AppConfigInput;
  /** Current time; injectable so tests can expire tokens and windows. */
  clock?: () => Date;
  /** Defaults to argon2id with the production parameters; tests may pass a cheaper one. */
  hasher?: PasswordHasher;
  logger?: Logger;
  /** Defaults to the stripe library when config.payments.secretKey is set; null = payments off. */
  payments?: Payments | null;
  /** Length of the demo; 10 minutes unless a test shortens it. */
  demoDurationMs?: number;
  /** Builds and switches web releases (server.ts); null = POST /api/deploy answers 503. */
  deployer?: Deployer | null;
  /** Where uploaded and rendered files go (server.ts: DATA_DIR/files); null = uploads answer 503. */
  storage?: FileStorage | null;
  /** The video export's ffmpeg, temp directory and job limits (services/video-export.ts). */
  video?: Partial<VideoExportOptions>;
  /** The shared job queue; defaults to the `jobs` table of `db` (SQLite). Started by server.ts. */
  jobs?: JobQueue;
}

export interface Services {
  db: Kysely<Database>;
  mailer: Mailer;
  config: AppConfig;
  clock: () => Date;
  hasher: PasswordHasher;
  log: Logger;
  sessions: SessionService;
  tokens: OneTimeTokens;
  limiters: Limiters;
  /** Null when payments are not configured (every payment endpoint answers 503). */
  payments: Payments | null;
  demoDurationMs: number;
  storage: FileStorage | null;
  deployer: Deployer | null;
  /** Renders and encodes video exports, at most two at a time. */
  video: VideoExporter;
  /** Long work shared by every API process (services/jobs.ts). */
  jobs: JobQueue;
  /** THE entitlement function (services/entitlements.ts) for a user, now. */
  entitlementsOf(user: UserRow): Promise<Entitlements>;
  /** Runs work after the answer is sent (mail), logging failures instead of surfacing them. */
  defer(task: () => Promise<unknown>): void;
  /** Resolves when all deferred work has finished. */
  settle(): Promise<void>;
}

export type AppEnv = {
  Variables: {
    auth: VerifiedSession;
    /** The client's abort, held for work that outlives the handler (http/boundary.ts keepClientSignal). */
    clientSignal: AbortSignal;
  };
};

export function buildServices(deps: AppDeps): Services {
  const config = resolveConfig(deps.config);
  const clock = deps.clock ?? (() => new Date());
  const log = deps.logger ?? defaultLogger();
  const pending = new Set<Promise<unknown>>();
  // Every message sent is logged (recipient, subject, time) for the admin's Notifications view.
  const mailer: Mailer = {
    async send(message) {
      await deps.mailer.send(message);
      await deps.db
        .insertInto("mail_log")
        .values({ to_email: message.to, subject: message.subject.slice(0, 300), sent_at: clock().toISOString() })
        .execute()
        .catch((err: unknown) => log.error("Mail log write failed", { message: err instanceof Error ? err.message : String(err) }));
    },
  };
  return {
    db: deps.db,
    mailer,
    config,
    clock,
    hasher: deps.hasher ?? createArgon2Hasher(),
    log,
    sessions: new SessionService({
      db: deps.db,
      secret: config.jwtSecret,
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      clock,
    }),
    tokens: new OneTimeTokens(deps.db, clock),
    // PostgreSQL may be shared by several API processes: their rate limits count in the database.
    limiters: createLimiters(clock, dialectOf(deps.db) === "postgres" ? deps.db : undefined),
    payments:
      deps.payments !== undefined ? deps.payments : config.payments.secretKey ? stripePayments(config.payments) : null,
    demoDurationMs: deps.demoDurationMs ?? DEMO_DURATION_MS,
    storage: deps.storage ?? null,
    deployer: deps.deployer ?? null,
    video: new VideoExporter(deps.video, log),
    jobs: deps.jobs ?? new SqliteJobQueue(deps.db, { clock, log }),
    entitlementsOf: (user) => loadEntitlements(deps.db, user, { now: clock(), adminEmails: config.adminEmails }),
    defer(task) {
      const p: Promise<unknown> = Promise.resolve()
        .then(task)
        .catch((err: unknown) => {
          log.error("Background task failed", { message: err instanceof Error ? err.message : String(err) });
        })
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async settle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
