// Node entry of `npm start` (run with tsx): reads the environment, opens and migrates
// DATA_DIR/studio.db (or the PostgreSQL database DATABASE_URL names), mounts the API app and the
// built web app on one port, and shuts down gracefully on SIGINT/SIGTERM. startServer() is
// exported so e2e tests can start it on a random port with a temporary DATA_DIR and dist directory.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { createApp } from "./app";
import { type PaymentsConfig, PRODUCT_NAME, parseAdminEmails, parseByteSize, parseDatabaseUrl, parseTrustProxy, paymentsFromEnv } from "./config";
import { withExclusiveLock } from "./db/locks";
import { openDatabase } from "./db/open";
import { SECURITY_HEADERS, securityHeaders } from "./http/security-headers";
import { type AppLogger, createLogger, requestLog } from "./logging";
import { guardStrayStreamErrors, routeContext } from "./http/client-gone";
import { describeBinary, findFfmpeg } from "./platform/binaries";
import { sharedSecret } from "./services/app-secrets";
import { createMailer } from "./services/mailer";
import { Deployer } from "./services/deploy";
import { PgBossJobQueue } from "./services/jobs-pgboss";
import { enqueueSeeds } from "./services/marketplace-seed";
import { createStorage, type StorageConfig, storageFromEnv } from "./services/storage-config";
import { type FileStorage, PARTIAL_STALE_MS, PARTIAL_SWEEP_EVERY_MS } from "./services/storage";
import type { PasswordHasher } from "./services/passwords";
import { webAppRoutes } from "./static";
import { MAX_CONFIG_LENGTH } from "../dsp/host/schema/preset";

/** Node's request-head limit (16 KiB by default, answered 431 with an empty page beyond): room for
 *  the longest ?config= link the studio reads (MAX_CONFIG_LENGTH, 87,384 characters) and 16 KiB of
 *  headers, so every such shared link opens the studio. A proxy in front needs as much (nginx:
 *  large_client_header_buffers 4 128k). */
export const MAX_REQUEST_HEAD_BYTES = MAX_CONFIG_LENGTH + 16 * 1024;

export interface ServerOptions {
  port?: number; // 0 picks a free port
  host?: string;
  dataDir?: string;
  /** DATABASE_URL: a postgres:// URL; unset = SQLite at DATA_DIR/studio.db. */
  databaseUrl?: string;
  distDir?: string;
  publicUrl?: string;
  jwtSecret?: string;
  adminEmails?: string[];
  smtpUrl?: string;
  trustProxy?: number;
  /** STRIPE_* settings; without secretKey the payment endpoints answer 503. */
  payments?: Partial<PaymentsConfig>;
  /** Largest marketplace upload in bytes (MARKETPLACE_MAX_UPLOAD_BYTES; default 1 GiB). */
  maxUploadBytes?: number;
  /** Largest voice recording upload in bytes (RECORDINGS_MAX_UPLOAD_BYTES; default 115.2 MB). */
  maxRecordingBytes?: number;
  /** Most bytes of recordings per account (RECORDINGS_MAX_ACCOUNT_BYTES; default 2 GB). */
  maxRecordingAccountBytes?: number;
  /** Where uploads go (STORAGE_URL, S3_ENDPOINT, AWS_REGION); default DATA_DIR/files. */
  storage?: StorageConfig;
  /** Render the shipped marketplace sounds on first start (default true). */
  seedMarketplace?: boolean;
  /** The video export's ffmpeg (FFMPEG_PATH; default: the system's on PATH, else the npm-shipped
   *  one, api/platform/binaries.ts). */
  ffmpegPath?: string;
  /** Demo length; tests only (the product's demo is 10 minutes, not configurable by env). */
  demoDurationMs?: number;
  hasher?: PasswordHasher;
  /** Where the "Listening on" line goes; defaults to console.log. */
  log?: (line: string) => void;
  /** The structured log (api/logging.ts); defaults to JSON lines on stdout at LOG_LEVEL. */
  logger?: AppLogger;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

const REPO_ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));

export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const port = env.PORT ? Number(env.PORT) : 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0-65535, got "${env.PORT}"`);
  return {
    port,
    host: env.HOST || "127.0.0.1",
    dataDir: env.DATA_DIR || "./data",
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL),
    publicUrl: env.PUBLIC_URL || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    adminEmails: parseAdminEmails(env.ADMIN_EMAILS),
    smtpUrl: env.SMTP_URL || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    payments: paymentsFromEnv(env),
    maxUploadBytes: parseByteSize(env.MARKETPLACE_MAX_UPLOAD_BYTES),
    maxRecordingBytes: parseByteSize(env.RECORDINGS_MAX_UPLOAD_BYTES, "RECORDINGS_MAX_UPLOAD_BYTES"),
    maxRecordingAccountBytes: parseByteSize(env.RECORDINGS_MAX_ACCOUNT_BYTES, "RECORDINGS_MAX_ACCOUNT_BYTES"),
    ffmpegPath: env.FFMPEG_PATH || undefined,
    storage: storageFromEnv(env),
  };
}

/** The signing secret generated once into DATA_DIR/jwt-secret (mode 0600) and reused after. */
export function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, "jwt-secret");
  try {
    writeFileSync(file, randomBytes(48).toString("base64url"), { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters; delete it to regenerate`);
  return secret;
}

function hostForUrl(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const dataDir = resolve(options.dataDir ?? "./data");
  const distDir = resolve(options.distDir ?? join(REPO_ROOT, "dist"));
  const logger = options.logger ?? createLogger(); // first: a bad LOG_LEVEL fails before anything opens
  mkdirSync(dataDir, { recursive: true });
  const db = await openDatabase(options.databaseUrl ? { databaseUrl: options.databaseUrl } : { sqliteFile: join(dataDir, "studio.db") });
  // Without JWT_SECRET: one generated key per installation, in DATA_DIR beside the SQLite file, or
  // in the database when processes on several machines share PostgreSQL.
  let jwtSecret: string;
  let storage: FileStorage;
  try {
    jwtSecret = options.jwtSecret ?? (options.databaseUrl ? await sharedSecret(db, "jwt") : loadOrCreateSecret(dataDir));
    storage = await createStorage(options.storage, dataDir);
  } catch (err) {
    await db.destroy();
    throw err;
  }

  let handler: Hono | null = null;
  const server = createAdaptorServer({
    fetch: (req, env) => (handler ? handler.fetch(req, env) : new Response("Starting", { status: 503, headers: SECURITY_HEADERS })),
    hostname: host,
    serverOptions: { maxHeaderSize: MAX_REQUEST_HEAD_BYTES },
  });
  try {
    await new Promise<void>((ok, fail) => {
      server.once("error", fail);
      server.listen(options.port ?? 8080, host, () => ok());
    });
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${hostForUrl(host)}:${port}`;
  const publicUrl = options.publicUrl ?? `http://localhost:${port}`;

  const deployer = new Deployer({
    releasesDir: join(dataDir, "releases"),
    initialDir: distDir,
    publicUrl,
    log: (message, fields) => logger.error(message, fields),
  });
  const api = createApp({
    db,
    mailer: createMailer({
      smtpUrl: options.smtpUrl,
      outboxDir: join(dataDir, "outbox"),
      from: `${PRODUCT_NAME} <no-reply@${new URL(publicUrl).hostname}>`,
    }),
    config: {
      publicUrl,
      jwtSecret,
      adminEmails: options.adminEmails ?? [],
      trustProxy: options.trustProxy ?? 0,
      payments: options.payments,
      maxUploadBytes: options.maxUploadBytes,
      maxRecordingBytes: options.maxRecordingBytes,
      maxRecordingAccountBytes: options.maxRecordingAccountBytes,
      mailTransport: options.smtpUrl ? "smtp" : "outbox",
    },
    hasher: options.hasher,
    logger,
    demoDurationMs: options.demoDurationMs,
    storage,
    deployer,
    video: { ffmpegPath: options.ffmpegPath, tmpDir: join(dataDir, "tmp", "video") },
    jobs: options.databaseUrl ? new PgBossJobQueue({ connectionString: options.databaseUrl }) : undefined,
  });
  // The job queue starts once the server is up; the shipped sounds are queued then, one job per
  // sound (about a second each, on first start only).
  api.services.defer(async () => {
    await api.services.jobs.start();
    // Queued under a lock, so that of several processes starting on one database one queues them
    // (each job also checks the sound is still missing before it renders).
    if (options.seedMarketplace !== false) await withExclusiveLock(db, "marketplace-seed", () => enqueueSeeds(api.services));
  });

  const root = new Hono();
  // One log line per request; the security policy (CSP, COOP/COEP for SharedArrayBuffer, nosniff,
  // HSTS on https, ...) on everything served, errors included.
  root.use("*", requestLog(logger));
  root.use("*", routeContext); // the route of a stray stream error (http/client-gone.ts)
  root.use("*", securityHeaders({ trustProxy: api.services.config.trustProxy }));
  root.onError((err, c) => {
    logger.error("Unhandled web error", { path: c.req.path, message: err.message });
    return c.text("Internal Server Error", 500);
  });
  root.route("/", api);
  root.route("/", webAppRoutes(() => deployer.currentDir));
  handler = root;

  // Uploads a crash or a kill left half-written (`.partial` files) are swept at start and on a
  // timer; a request that fails removes its own at once.
  const sweep = () =>
    storage.sweep(PARTIAL_STALE_MS).then(
      (removed) => (removed > 0 ? logger.info("Partial uploads swept", { removed }) : undefined),
      (err: unknown) => logger.warn("Partial uploads not swept", { reason: err instanceof Error ? err.message : String(err) }),
    );
  await sweep();
  const sweeper = setInterval(() => void sweep(), PARTIAL_SWEEP_EVERY_MS);
  sweeper.unref();

  (options.log ?? console.log)(`Listening on ${url}`);

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(sweeper);
      await new Promise<void>((done) => {
        server.close(() => done());
        // Idle keep-alive sockets would hold close() open; in-flight requests still finish.
        if ("closeIdleConnections" in server) server.closeIdleConnections();
      });
      await api.settle();
      await api.services.jobs.stop(); // running jobs are put back for another process
      await api.settle();
      await deployer.settle();
      await db.destroy();
    })());
  return { url, close };
}

function isEntryPoint(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  let logger: AppLogger;
  try {
    logger = createLogger();
  } catch (err) {
    console.error(`Could not start the server: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  // A stray stream error is logged with its route instead of ending the process for every user.
  guardStrayStreamErrors(logger);
  const running = await startServer({ ...optionsFromEnv(), logger }).catch((err: unknown) => {
    console.error(`Could not start the server: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
  // Which ffmpeg the video export runs: FFMPEG_PATH, the system's, or the npm-shipped one.
  console.log(`Video export ${describeBinary("ffmpeg", findFfmpeg())}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error("Shutdown failed", err);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}
