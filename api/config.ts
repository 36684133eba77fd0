// Typed configuration of the API app with its defaults merged in one place, plus the parsers for
// the environment variables of ARCHITECTURE.md's runtime table (used by api/server.ts).
import { isPostgresUrl } from "./db/dialect";
import { DEFAULT_MAX_UPLOAD_BYTES } from "./rules/marketplace";
import { RECORDING_ACCOUNT_BYTES_DEFAULT, RECORDING_MAX_BYTES_DEFAULT } from "./rules/recordings";
import { PLAN_KEYS, type PlanKey } from "./rules/plans";

/** Stripe settings (STRIPE_* variables). Without a secret key every payment endpoint answers 503. */
export interface PaymentsConfig {
  secretKey: string | null;
  /** Signing secret of the webhook endpoint; without it the webhook answers 503. */
  webhookSecret: string | null;
  /** The Stripe price id of each plan (STRIPE_PRICE_ONE_DAY, _MONTHLY, _COMMERCIAL). */
  prices: Readonly<Record<PlanKey, string | null>>;
  /** STRIPE_API_BASE: where the library sends its requests instead of api.stripe.com (tests). */
  apiBase: string | null;
}

export const NO_PAYMENTS: PaymentsConfig = {
  secretKey: null,
  webhookSecret: null,
  prices: { oneDay: null, monthly: null, commercial: null },
  apiBase: null,
};

export interface AppConfig {
  /** Base of every link in e-mails, without a trailing slash. */
  publicUrl: string;
  /** HS256 signing key for session tokens (at least 32 characters). */
  jwtSecret: string;
  /** Lower-cased e-mails that are admins regardless of the database flag. */
  adminEmails: readonly string[];
  /** Number of reverse-proxy hops whose X-Forwarded-For is trusted; 0 = use the socket address. */
  trustProxy: number;
  jwtIssuer: string;
  jwtAudience: string;
  productName: string;
  payments: PaymentsConfig;
  /** How mail leaves: through SMTP_URL, or as files in DATA_DIR/outbox (the embedded default). */
  mailTransport: "smtp" | "outbox";
  /** Largest marketplace upload in bytes (MARKETPLACE_MAX_UPLOAD_BYTES; default 1 GiB). */
  maxUploadBytes: number;
  /** Largest voice recording upload in bytes (RECORDINGS_MAX_UPLOAD_BYTES; default 10 minutes of
   *  16-bit stereo at 48 kHz, 115.2 MB). */
  maxRecordingBytes: number;
  /** Most bytes of recordings one account keeps (RECORDINGS_MAX_ACCOUNT_BYTES; default 2 GB). */
  maxRecordingAccountBytes: number;
}

export type AppConfigInput = Pick<AppConfig, "publicUrl" | "jwtSecret"> &
  Partial<Omit<AppConfig, "payments">> & { payments?: Partial<PaymentsConfig> };

export const PRODUCT_NAME = "Tone Studio";

/** Merges defaults into a partial config and normalises it. */
export function resolveConfig(input: AppConfigInput): AppConfig {
  if (input.jwtSecret.length < 32) throw new Error("JWT secret must be at least 32 characters long");
  const publicUrl = input.publicUrl.replace(/\/+$/, "");
  if (!URL.canParse(publicUrl)) throw new Error(`PUBLIC_URL is not a valid URL: ${publicUrl}`);
  const productName = input.productName ?? PRODUCT_NAME;
  const config = {
    publicUrl,
    jwtSecret: input.jwtSecret,
    adminEmails: (input.adminEmails ?? []).map((e) => e.trim().toLowerCase()).filter(Boolean),
    trustProxy: Math.max(0, Math.floor(input.trustProxy ?? 0)),
    jwtIssuer: input.jwtIssuer ?? "tone-studio-api",
    jwtAudience: input.jwtAudience ?? "tone-studio-web",
    productName,
    payments: { ...NO_PAYMENTS, ...input.payments },
    maxUploadBytes: input.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    maxRecordingBytes: input.maxRecordingBytes ?? RECORDING_MAX_BYTES_DEFAULT,
    maxRecordingAccountBytes: input.maxRecordingAccountBytes ?? RECORDING_ACCOUNT_BYTES_DEFAULT,
    mailTransport: input.mailTransport ?? "outbox",
  } satisfies AppConfig;
  if (!Number.isSafeInteger(config.maxUploadBytes) || config.maxUploadBytes < 1) throw new Error("The upload limit must be a positive number of bytes");
  if (!Number.isSafeInteger(config.maxRecordingBytes) || config.maxRecordingBytes < 1) throw new Error("The recording upload limit must be a positive number of bytes");
  if (!Number.isSafeInteger(config.maxRecordingAccountBytes) || config.maxRecordingAccountBytes < 1) throw new Error("The recordings' per-account limit must be a positive number of bytes");
  return config;
}

/** ADMIN_EMAILS: comma- (or whitespace-) separated list. */
export function parseAdminEmails(value: string | undefined): string[] {
  return (value ?? "")
    .split(/[,\s]+/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
}

/** TRUST_PROXY: unset/""/"0"/"false" = off, "true"/"yes" = one hop, a number = that many hops. */
export function parseTrustProxy(value: string | undefined): number {
  const v = (value ?? "").trim().toLowerCase();
  if (v === "" || v === "0" || v === "false" || v === "no" || v === "off") return 0;
  if (v === "true" || v === "yes" || v === "on") return 1;
  const n = Number(v);
  if (Number.isInteger(n) && n > 0 && n < 100) return n;
  throw new Error(`TRUST_PROXY must be true/false or a hop count, got "${value}"`);
}

/** STRIPE_API_BASE (e.g. http://127.0.0.1:12111) as the stripe library's host/port/protocol options. */
export function parseStripeApiBase(value: string): { host: string; port: number; protocol: "http" | "https" } {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.pathname.replace(/\/+$/, "") !== "") {
    throw new Error(`STRIPE_API_BASE must be an http(s) origin such as http://127.0.0.1:12111, got "${value}"`);
  }
  const protocol = url.protocol === "http:" ? "http" : "https";
  const port = url.port ? Number(url.port) : protocol === "http" ? 80 : 443;
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port, protocol };
}

const PRICE_VARIABLES: Readonly<Record<PlanKey, string>> = {
  oneDay: "STRIPE_PRICE_ONE_DAY",
  monthly: "STRIPE_PRICE_MONTHLY",
  commercial: "STRIPE_PRICE_COMMERCIAL",
};

/** The STRIPE_* variables; undefined when none is set. */
export function paymentsFromEnv(env: NodeJS.ProcessEnv): PaymentsConfig | undefined {
  const prices = Object.fromEntries(PLAN_KEYS.map((k) => [k, env[PRICE_VARIABLES[k]]?.trim() || null])) as Record<
    PlanKey,
    string | null
  >;
  const config: PaymentsConfig = {
    secretKey: env.STRIPE_SECRET_KEY?.trim() || null,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || null,
    prices,
    apiBase: env.STRIPE_API_BASE?.trim() || null,
  };
  if (config.apiBase) parseStripeApiBase(config.apiBase); // fail at start, not on the first checkout
  const anySet = config.secretKey || config.webhookSecret || config.apiBase || Object.values(prices).some(Boolean);
  return anySet ? config : undefined;
}

/** MARKETPLACE_MAX_UPLOAD_BYTES (or `name`): a byte count, or with a K/M/G suffix (binary units). */
export function parseByteSize(value: string | undefined, name = "MARKETPLACE_MAX_UPLOAD_BYTES"): number | undefined {
  const v = (value ?? "").trim();
  if (v === "") return undefined;
  const m = /^(\d+)\s*([kmg]i?b?)?$/i.exec(v);
  if (!m) throw new Error(`${name} must be a size such as 1073741824 or 512M, got "${value}"`);
  const unit = (m[2] ?? "").charAt(0).toLowerCase();
  const n = Number(m[1]) * (unit === "k" ? 1024 : unit === "m" ? 1024 ** 2 : unit === "g" ? 1024 ** 3 : 1);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} is out of range: "${value}"`);
  return n;
}

/** DATABASE_URL: unset/"" = the SQLite file in DATA_DIR; postgres:// or postgresql:// = PostgreSQL.
 *  Anything else is refused at start, without echoing the value (it may hold a password). */
export function parseDatabaseUrl(value: string | undefined): string | undefined {
  const v = (value ?? "").trim();
  if (v === "") return undefined;
  if (!isPostgresUrl(v) || !URL.canParse(v)) {
    throw new Error("DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for SQLite in DATA_DIR)");
  }
  return v;
}
