// Builds the Hono API app from its dependencies (database, mailer, payments, clock, config), so tests call
// app.request() without a server and api/server.ts mounts the same app next to the web assets.
// Every route lives under /api; every error leaves through the single onError handler.
import { registerSeedJobs } from "./services/marketplace-seed";
import { registerVideoJobs } from "./services/video-jobs";
import { Hono } from "hono";
import { sql } from "kysely";
import { type AppDeps, type AppEnv, buildServices, type Services } from "./context";
import { ApiError, errorHandler } from "./errors";
import { jsonBodyLimit, refuseNulInUrl, soundBodyLimit } from "./http/boundary";
import { sameOriginOnly } from "./http/security-headers";
import { MSG } from "./messages";
import { adminRoutes, csrfRoutes } from "./routes/admin";
import { authRoutes } from "./routes/auth";
import { cspReportRoutes } from "./routes/csp-report";
import { demoRoutes } from "./routes/demo";
import { exportRoutes } from "./routes/exports";
import { deployRoutes } from "./routes/deploy";
import { marketplaceRoutes } from "./routes/marketplace";
import { paymentRoutes } from "./routes/payments";
import { presetRoutes } from "./routes/presets";
import { recordingRoutes } from "./routes/recordings";
import { recoveryRoutes } from "./routes/recovery";
import { userRoutes } from "./routes/user";
import { videoExportRoutes } from "./routes/video-export";

export type { AppDeps } from "./context";

export type ApiApp = Hono<AppEnv> & {
  services: Services;
  /** Waits for work scheduled after responses (e-mails). */
  settle(): Promise<void>;
};

export function createApp(deps: AppDeps): ApiApp {
  const services = buildServices(deps);
  registerVideoJobs(services);
  registerSeedJobs(services);
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(services.log));
  // CORS closed: other sites' pages get no Access-Control-Allow-* and a 403 for preflights and writes.
  app.use("/api/*", sameOriginOnly({ publicUrl: services.config.publicUrl, trustProxy: services.config.trustProxy }));
  app.use("/api/*", refuseNulInUrl);

  app.get("/api/health", async (c) => {
    try {
      await sql`select 1`.execute(services.db);
    } catch {
      throw new ApiError(503, "Database unavailable");
    }
    return c.json({ ok: true }, 200);
  });

  // JSON routes take at most 64 KiB (413 beyond), a shared preset 5 MiB (a long timeline); upload
  // routes set their own limit.
  app.use("/api/auth/*", jsonBodyLimit);
  app.use("/api/user/*", jsonBodyLimit);
  app.use("/api/demo/*", jsonBodyLimit);
  app.use("/api/presets/*", soundBodyLimit);
  app.use("/api/admin/*", jsonBodyLimit);
  app.route("/api/auth", authRoutes(services));
  app.route("/api/auth", recoveryRoutes(services));
  app.route("/api/user", userRoutes(services));
  app.route("/api/demo", demoRoutes(services));
  app.route("/api/presets", presetRoutes(services));
  app.route("/api/admin", adminRoutes(services));
  app.route("/api/csrf-token", csrfRoutes(services));
  app.use("/api/exports", jsonBodyLimit);
  app.route("/api/exports", exportRoutes(services));
  app.use("/api/deploy", jsonBodyLimit);
  app.route("/api/deploy", deployRoutes(services));
  // The marketplace's upload streams its multipart body under its own limit (MARKETPLACE_MAX_UPLOAD_BYTES).
  app.route("/api/marketplace", marketplaceRoutes(services));
  app.route("/api/video-export", videoExportRoutes(services));
  // Voice recordings stream their WAV body under their own limit (RECORDINGS_MAX_UPLOAD_BYTES).
  app.route("/api/recordings", recordingRoutes(services));
  app.route("/api/csp-report", cspReportRoutes(services));
  // Payment routes set their own limits: JSON, except the webhook's raw signed body.
  app.route("/api", paymentRoutes(services));

  // Unknown API paths answer JSON here, so the web app's fallback never sees /api.
  app.all("/api/*", () => {
    throw new ApiError(404, MSG.notFound);
  });

  return Object.assign(app, { services, settle: () => services.settle() });
}
