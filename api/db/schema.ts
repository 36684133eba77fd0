// Row types of the schema (SQLite or PostgreSQL), as kysely sees them. The tables are created only by
// api/db/migrations.ts; keep the two in step. Timestamps are ISO-8601 UTC strings
// (Date#toISOString), which sort and compare correctly as text.
import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

export interface UsersTable {
  id: string;
  email: string; // trimmed, lower-case, unique
  full_name: string | null;
  password_hash: string; // argon2id PHC string
  email_verified_at: string | null;
  is_admin: number; // 0 | 1, set by `npm run admin -- grant` (ADMIN_EMAILS is applied at read time)
  admin_override: number; // 0 | 1, only meaningful for admins
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string; // the JWT's sid claim
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export type TokenPurpose = "verify_email" | "reset_password";

export interface OneTimeTokensTable {
  token_hash: string; // SHA-256 hex of the raw token; the raw token is never stored
  user_id: string;
  purpose: TokenPurpose;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SubscriptionsTable {
  id: string;
  user_id: string;
  plan_name: string; // 'One Day Pass' | 'Monthly Plan' | 'Commercial License' | ...
  status: string; // 'active' | 'trialing' | 'past_due' | 'canceled' | ...
  current_period_end: string | null;
  created_at: string;
  updated_at: string;
  // Stripe-backed rows (migration 002); null on rows written by other means (admin, tests)
  plan_key: ColumnType<string | null, string | null | undefined>; // 'oneDay' | 'monthly' | 'commercial'
  stripe_customer_id: ColumnType<string | null, string | null | undefined>;
  stripe_subscription_id: ColumnType<string | null, string | null | undefined>; // unique
  stripe_checkout_session_id: ColumnType<string | null, string | null | undefined>; // unique
  /** Seconds: how recent the stored Stripe state is (event.created, or the time it was fetched);
   *  an older event never overwrites it. */
  stripe_synced_at: ColumnType<number | null, number | null | undefined>;
  /** Start of the current Stripe period (migration 012); null on older rows and rows written by
   *  other means. */
  current_period_start: ColumnType<string | null, string | null | undefined>;
}

export interface StripeCustomersTable {
  user_id: string;
  customer_id: string;
  created_at: string;
}

/** Webhook event ids already applied: each is processed once. */
export interface ProcessedEventsTable {
  id: string;
  type: string;
  created: number; // event.created, seconds
  processed_at: string;
}

/** One row per account that started its (single) demo. */
export interface DemoSessionsTable {
  user_id: string;
  started_at: string;
  ends_at: string;
}

export interface TemporaryAccessTable {
  id: string;
  email: string; // grants are keyed by e-mail so they can precede sign-up
  access_type: string; // 'daily' | 'monthly' | 'commercial' | 'custom'
  duration_hours: number;
  reason: string;
  status: string; // 'active' | 'revoked'
  created_at: string;
  end_date: string;
  granted_by: string | null;
}

/** A shared preset (migration 003): GET /api/presets/{id} answers it to anyone with the link. */
export interface PresetsTable {
  id: string; // 22 characters of base64url (128 random bits)
  user_id: string; // who shared it
  name: string;
  data: string; // JSON of the preset data, as dsp/host/schema/preset.ts normalised it
  created_at: string;
}

/** A voice recording an account keeps (migration 014); the WAV is in storage under file_key. */
export interface RecordingsTable {
  id: string; // a UUID
  user_id: string;
  name: string;
  file_key: string;
  bytes: number;
  frames: number;
  channels: number;
  sample_rate: number;
  created_at: string;
}

/** Room held for a recording upload in progress (migration 015). */
export interface RecordingReservationsTable {
  id: string; // a UUID
  user_id: string;
  bytes: number;
  created_at: string;
}

/** A marketplace sound (migration 004); the audio is in storage under file_key. */
export interface MarketplaceSoundsTable {
  id: string;
  title: string;
  description: string;
  price_cents: number;
  duration_seconds: number; // read from the file
  category: string;
  tags: string; // JSON array of strings
  specs: string | null;
  frequencies: string | null; // JSON from the studio's upload
  file_key: string;
  mime: string;
  size_bytes: number;
  downloads: Generated<number>;
  rating_sum: Generated<number>;
  rating_count: Generated<number>;
  uploaded_by: string | null;
  seed_key: string | null;
  created_at: string;
}

/** Who owns which sound: one row per user and sound. */
export interface SoundPurchasesTable {
  id: string;
  user_id: string;
  sound_id: string;
  amount_cents: number;
  stripe_checkout_session_id: string | null;
  created_at: string;
}

export interface SoundRatingsTable {
  user_id: string;
  sound_id: string;
  rating: number; // 1..5
  created_at: string;
}

/** Money received (migration 005): the dashboard's revenue is summed from here. */
export interface PaymentsTable {
  id: string; // Stripe invoice id or checkout session id
  user_id: string | null;
  kind: string; // 'subscription' | 'pass' | 'sound'
  amount_cents: number;
  currency: string;
  paid_at: string;
}

/** E-mails sent (migration 005), newest last. */
export interface MailLogTable {
  id: Generated<number>;
  to_email: string;
  subject: string;
  sent_at: string;
}

/** One counted attempt of a rate limit (migration 006); kept only while inside its window. */
export interface RateLimitHitsTable {
  rule: string; // a key of RATE_RULES
  key_hash: string; // SHA-256 (base64url) of the limited key: an address, e-mail or user id
  at: number; // epoch milliseconds
}

/** Secrets generated once for the whole installation (migration 006), e.g. name 'jwt'. */
export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** The shared job queue on SQLite (migration 007; services/jobs-sqlite.ts). */
export interface JobsTable {
  id: string;
  name: string;
  data: string; // JSON
  state: string; // 'queued' | 'active' | 'completed' | 'failed' | 'cancelled' (migration 008)
  singleton_key: string | null;
  attempts: number;
  max_attempts: number;
  run_after: string;
  lease_until: string | null;
  worker: string | null;
  progress: number;
  result: string | null; // JSON
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** Exports counted against a plan (migration 012; services/exports.ts): one row per account. */
export interface ExportCountsTable {
  user_id: string;
  /** End of the billing period (or One Day Pass) the count belongs to; another end restarts it. */
  period_end: string;
  used: number;
  updated_at: string;
}

/** Each user's current video job (migration 013; services/video-jobs.ts claimVideoSlot). */
export interface VideoJobOwnersTable {
  user_id: string;
  /** The job's id, or while pending the claim's own id. */
  job_id: string;
  /** 1 while the claim is being turned into a job. */
  pending: number;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  one_time_tokens: OneTimeTokensTable;
  subscriptions: SubscriptionsTable;
  temporary_access: TemporaryAccessTable;
  stripe_customers: StripeCustomersTable;
  processed_events: ProcessedEventsTable;
  demo_sessions: DemoSessionsTable;
  presets: PresetsTable;
  marketplace_sounds: MarketplaceSoundsTable;
  sound_purchases: SoundPurchasesTable;
  sound_ratings: SoundRatingsTable;
  payments: PaymentsTable;
  mail_log: MailLogTable;
  rate_limit_hits: RateLimitHitsTable;
  app_secrets: AppSecretsTable;
  jobs: JobsTable;
  export_counts: ExportCountsTable;
  video_job_owners: VideoJobOwnersTable;
  recordings: RecordingsTable;
  recording_reservations: RecordingReservationsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type TemporaryAccessRow = Selectable<TemporaryAccessTable>;
