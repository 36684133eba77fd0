// Typed configuration of the API app with its defaults merged in one place, plus the parsers for
// the environment variables of ARCHITECTURE.md's runtime table (used by api/server.ts).

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
}

export type AppConfigInput = Pick<AppConfig, "publicUrl" | "jwtSecret"> & Partial<AppConfig>;

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
  } satisfies AppConfig;
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
