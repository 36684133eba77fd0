// The schema, as kysely migrations held in code (a static provider instead of a folder scan, so
// the same list runs from tsx, from the tests and from a bundle). New schema changes append entries;
// never edit a migration that has shipped.
import { type ColumnDataType, type Expression, type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";
import { dialectOf } from "./dialect";

// Column types that mean the same on both databases. SQLite's INTEGER is 64-bit and its REAL is a
// double, so on PostgreSQL they are bigint and double precision (int4 and float4 would overflow
// and round); SQLite keeps the names it was created with. Booleans stay 0/1 integers on both.
// The autoincrementing key is INTEGER PRIMARY KEY AUTOINCREMENT on SQLite, an identity on PostgreSQL.
// Later migrations (007_jobs, ...) take their column types from typesOf too.
type ColumnType = ColumnDataType | Expression<unknown>;
export function typesOf(db: Kysely<unknown>): { int: ColumnType; real: ColumnType; postgres: boolean } {
  const postgres = dialectOf(db) === "postgres";
  return { int: postgres ? "bigint" : "integer", real: postgres ? "double precision" : "real", postgres };
}

const m001_accounts: Migration = {
  async up(db: Kysely<unknown>) {
    const t = typesOf(db);
    await db.schema
      .createTable("users")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("full_name", "text")
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("email_verified_at", "text")
      .addColumn("is_admin", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("admin_override", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("sessions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("revoked_at", "text")
      .execute();
    await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();

    await db.schema
      .createTable("one_time_tokens")
      .addColumn("token_hash", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("purpose", "text", (c) =>
        c.notNull().check(sql`purpose in ('verify_email', 'reset_password')`),
      )
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("used_at", "text")
      .execute();
    await db.schema
      .createIndex("one_time_tokens_user_purpose")
      .on("one_time_tokens")
      .columns(["user_id", "purpose"])
      .execute();

    await db.schema
      .createTable("subscriptions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("plan_name", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("current_period_end", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("subscriptions_user_id").on("subscriptions").column("user_id").execute();

    await db.schema
      .createTable("temporary_access")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("access_type", "text", (c) => c.notNull())
      .addColumn("duration_hours", t.int, (c) => c.notNull())
      .addColumn("reason", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("end_date", "text", (c) => c.notNull())
      .addColumn("granted_by", "text")
      .execute();
    await db.schema.createIndex("temporary_access_email").on("temporary_access").column("email").execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ["temporary_access", "subscriptions", "one_time_tokens", "sessions", "users"]) {
      await db.schema.dropTable(table).execute();
    }
  },
};

// Payments and the demo: Stripe ids and the freshness of the stored Stripe state on
// subscriptions, one Stripe customer per user, processed webhook event ids, one demo per user.
const m002_payments: Migration = {
  async up(db: Kysely<unknown>) {
    const t = typesOf(db);
    await db.schema.alterTable("subscriptions").addColumn("plan_key", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("stripe_customer_id", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("stripe_subscription_id", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("stripe_checkout_session_id", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("stripe_synced_at", t.int).execute();
    await db.schema
      .createIndex("subscriptions_stripe_subscription_id")
      .on("subscriptions")
      .column("stripe_subscription_id")
      .unique()
      .execute();
    await db.schema
      .createIndex("subscriptions_stripe_checkout_session_id")
      .on("subscriptions")
      .column("stripe_checkout_session_id")
      .unique()
      .execute();

    await db.schema
      .createTable("stripe_customers")
      .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("customer_id", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("processed_events")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("created", t.int, (c) => c.notNull())
      .addColumn("processed_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("demo_sessions")
      .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("started_at", "text", (c) => c.notNull())
      .addColumn("ends_at", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ["demo_sessions", "processed_events", "stripe_customers"]) {
      await db.schema.dropTable(table).execute();
    }
    await db.schema.dropIndex("subscriptions_stripe_checkout_session_id").execute();
    await db.schema.dropIndex("subscriptions_stripe_subscription_id").execute();
    for (const column of ["stripe_synced_at", "stripe_checkout_session_id", "stripe_subscription_id", "stripe_customer_id", "plan_key"]) {
      await db.schema.alterTable("subscriptions").dropColumn(column).execute();
    }
  },
};

// Shared presets: the studio state a Pro user shared, under a random URL-safe id that
// is the whole of the link (128 bits, so links cannot be guessed); data is the validated JSON.
const m003_presets: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("presets")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("data", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("presets_user_id").on("presets").column("user_id").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("presets").execute();
  },
};

// The sound marketplace: sounds (the file itself lives in storage under file_key, a
// server-made name), purchases (one per user and sound; the checkout session id makes a webhook
// delivered twice record once) and ratings (one per owner and sound). seed_key marks the sounds
// the server renders on first start, so they are made once.
const m004_marketplace: Migration = {
  async up(db: Kysely<unknown>) {
    const t = typesOf(db);
    await db.schema
      .createTable("marketplace_sounds")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull())
      .addColumn("price_cents", t.int, (c) => c.notNull())
      .addColumn("duration_seconds", t.real, (c) => c.notNull())
      .addColumn("category", "text", (c) => c.notNull())
      .addColumn("tags", "text", (c) => c.notNull()) // JSON array
      .addColumn("specs", "text")
      .addColumn("frequencies", "text") // JSON from the studio, or null
      .addColumn("file_key", "text", (c) => c.notNull())
      .addColumn("mime", "text", (c) => c.notNull())
      .addColumn("size_bytes", t.int, (c) => c.notNull())
      .addColumn("downloads", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("rating_sum", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("rating_count", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("uploaded_by", "text", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("seed_key", "text", (c) => c.unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("marketplace_sounds_category").on("marketplace_sounds").column("category").execute();

    await db.schema
      .createTable("sound_purchases")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("sound_id", "text", (c) => c.notNull().references("marketplace_sounds.id").onDelete("cascade"))
      .addColumn("amount_cents", t.int, (c) => c.notNull())
      .addColumn("stripe_checkout_session_id", "text", (c) => c.unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("sound_purchases_user_sound", ["user_id", "sound_id"])
      .execute();

    await db.schema
      .createTable("sound_ratings")
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("sound_id", "text", (c) => c.notNull().references("marketplace_sounds.id").onDelete("cascade"))
      .addColumn("rating", t.int, (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("sound_ratings_pk", ["user_id", "sound_id"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ["sound_ratings", "sound_purchases", "marketplace_sounds"]) await db.schema.dropTable(table).execute();
  },
};

// Admin tools: a ledger of money received (one row per Stripe invoice paid or one-time
// checkout paid, keyed by the Stripe object id so a repeated event records once), from which the
// dashboard's revenue figures are computed; and a log of e-mails sent, for its Notifications view.
const m005_admin: Migration = {
  async up(db: Kysely<unknown>) {
    const t = typesOf(db);
    await db.schema
      .createTable("payments")
      .addColumn("id", "text", (c) => c.primaryKey()) // Stripe invoice or checkout session id
      .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("kind", "text", (c) => c.notNull()) // 'subscription' | 'pass' | 'sound'
      .addColumn("amount_cents", t.int, (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("paid_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("payments_paid_at").on("payments").column("paid_at").execute();
    await db.schema
      .createTable("mail_log")
      .addColumn("id", t.int, (c) => (t.postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
      .addColumn("to_email", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("sent_at", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("mail_log").execute();
    await db.schema.dropTable("payments").execute();
  },
};

// State every API process must see when several serve one database: the hits of the
// rate limits (services/rate-limit.ts; the key is stored hashed, at is epoch milliseconds) and
// secrets generated once for the whole installation, such as the session signing key when
// JWT_SECRET is not set (services/app-secrets.ts).
const m006_shared_state: Migration = {
  async up(db: Kysely<unknown>) {
    const t = typesOf(db);
    await db.schema
      .createTable("rate_limit_hits")
      .addColumn("rule", "text", (c) => c.notNull())
      .addColumn("key_hash", "text", (c) => c.notNull())
      .addColumn("at", t.int, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("rate_limit_hits_rule_key_at").on("rate_limit_hits").columns(["rule", "key_hash", "at"]).execute();
    await db.schema.createIndex("rate_limit_hits_at").on("rate_limit_hits").column("at").execute();
    await db.schema
      .createTable("app_secrets")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("app_secrets").execute();
    await db.schema.dropTable("rate_limit_hits").execute();
  },
};

// The shared job queue on SQLite (services/jobs-sqlite.ts). Column types mean the same on
// SQLite and PostgreSQL: text ids, ISO timestamps as text, integer attempts. The partial unique
// index keeps one queued-or-running job per name and singleton key.
const m007_jobs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("jobs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("data", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull().check(sql`state in ('queued', 'active', 'completed', 'failed')`))
      .addColumn("singleton_key", "text")
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("max_attempts", "integer", (c) => c.notNull())
      .addColumn("run_after", "text", (c) => c.notNull())
      .addColumn("lease_until", "text")
      .addColumn("worker", "text")
      .addColumn("progress", "real", (c) => c.notNull().defaultTo(0))
      .addColumn("result", "text")
      .addColumn("error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("jobs_next").on("jobs").columns(["name", "state", "run_after"]).execute();
    await sql`create unique index jobs_singleton on jobs (name, singleton_key)
      where singleton_key is not null and state in ('queued', 'active')`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("jobs").execute();
  },
};

// Cancelled jobs (services/jobs.ts cancel()): the jobs table's state may also be 'cancelled'.
// PostgreSQL changes the check in place; SQLite cannot alter a check, so the table is copied into
// a new one with the wider check (inside the migration's transaction) and its indexes made again.
const JOB_STATES_008 = sql`state in ('queued', 'active', 'completed', 'failed', 'cancelled')`;
const m008_job_cancel: Migration = {
  async up(db: Kysely<unknown>) {
    if (typesOf(db).postgres) {
      await sql`alter table jobs drop constraint if exists jobs_state_check`.execute(db);
      await sql`alter table jobs add constraint jobs_state_check check (${JOB_STATES_008})`.execute(db);
      return;
    }
    await db.schema
      .createTable("jobs_008")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("data", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull().check(JOB_STATES_008))
      .addColumn("singleton_key", "text")
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("max_attempts", "integer", (c) => c.notNull())
      .addColumn("run_after", "text", (c) => c.notNull())
      .addColumn("lease_until", "text")
      .addColumn("worker", "text")
      .addColumn("progress", "real", (c) => c.notNull().defaultTo(0))
      .addColumn("result", "text")
      .addColumn("error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await sql`insert into jobs_008 select id, name, data, state, singleton_key, attempts, max_attempts, run_after,
      lease_until, worker, progress, result, error, created_at, updated_at from jobs`.execute(db);
    await db.schema.dropTable("jobs").execute();
    await db.schema.alterTable("jobs_008").renameTo("jobs").execute();
    await db.schema.createIndex("jobs_next").on("jobs").columns(["name", "state", "run_after"]).execute();
    await sql`create unique index jobs_singleton on jobs (name, singleton_key)
      where singleton_key is not null and state in ('queued', 'active')`.execute(db);
  },
};

/** Every migration in order; the key is the name kysely records in its bookkeeping table. */
// One round trip per rate-limit hit on PostgreSQL (services/rate-limit.ts): the sliding
// log's lock, sweep, count and insert as one function, run as one statement. SQLite keeps the hits
// in the process (one process serves the file) and has nothing to create.
const m009_rate_limit_function: Migration = {
  async up(db: Kysely<unknown>) {
    if (!typesOf(db).postgres) return;
    await sql`
      create or replace function rate_limit_hit(p_rule text, p_key text, p_now bigint, p_since bigint, p_limit integer)
      returns bigint language plpgsql volatile as $$
      declare
        n integer;
        oldest bigint;
      begin
        -- Concurrent hits on one rule and key wait here; each statement below sees their commits.
        perform pg_advisory_xact_lock(hashtext(p_rule), hashtext(p_key));
        delete from rate_limit_hits where rule = p_rule and key_hash = p_key and at <= p_since;
        select count(*), min(at) into n, oldest
          from (select at from rate_limit_hits where rule = p_rule and key_hash = p_key order by at limit p_limit) w;
        if n >= p_limit then
          return oldest; -- refused: the oldest hit in the window
        end if;
        insert into rate_limit_hits (rule, key_hash, at) values (p_rule, p_key, p_now);
        return null; -- counted
      end
      $$`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (typesOf(db).postgres) await sql`drop function if exists rate_limit_hit(text, text, bigint, bigint, integer)`.execute(db);
  },
};

/** The channel of migration 010's notifications; the payload is the changed table's name. */
export const CHANGE_NOTIFICATION_CHANNEL = "studio_table_changes";
/** The tables whose changes migration 010 announces (the ones per-process caches read: the session
 *  user and the entitlement sources, db/changes-postgres.ts). A later migration that adds a table
 *  gives it the same trigger and appends it here. */
export const CHANGE_NOTIFYING_TABLES = ["users", "sessions", "subscriptions", "temporary_access", "demo_sessions"] as const;

// Change notifications on PostgreSQL (db/changes-postgres.ts): every statement that
// writes one of CHANGE_NOTIFYING_TABLES notifies the channel with the table's name, delivered to
// every listening API process when the transaction commits (and never if it rolls back).
// PostgreSQL folds a transaction's identical notifications into one. SQLite needs none: its
// processes see each other's commits through PRAGMA data_version (db/changes.ts).
const m010_change_notifications: Migration = {
  async up(db: Kysely<unknown>) {
    if (!typesOf(db).postgres) return;
    await sql`
      create or replace function studio_note_table_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify(${sql.lit(CHANGE_NOTIFICATION_CHANNEL)}, tg_table_name);
        return null;
      end
      $$`.execute(db);
    for (const table of CHANGE_NOTIFYING_TABLES) {
      await sql`create trigger ${sql.id(`${table}_note_change`)} after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function studio_note_table_change()`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    if (!typesOf(db).postgres) return;
    for (const table of CHANGE_NOTIFYING_TABLES) await sql`drop trigger if exists ${sql.id(`${table}_note_change`)} on ${sql.table(table)}`.execute(db);
    await sql`drop function if exists studio_note_table_change()`.execute(db);
  },
};

// Rate-limit hits in batches on PostgreSQL (services/rate-limit.ts HitBatcher): the hits
// one API process asks for during one turn of its event loop go as one statement. The function
// first takes every (rule, key) lock the batch needs in one global order, so two batches never wait
// for each other in a cycle, then counts each hit in turn with rate_limit_hit (whose own lock is
// then already held), so hits on one key within a batch count in order.
const m011_rate_limit_batches: Migration = {
  async up(db: Kysely<unknown>) {
    if (!typesOf(db).postgres) return;
    await sql`
      create or replace function rate_limit_hits(p_rules text[], p_keys text[], p_now bigint[], p_since bigint[], p_limits integer[])
      returns table (i integer, oldest bigint) language plpgsql volatile as $$
      declare
        l record;
      begin
        for l in select distinct hashtext(r) as a, hashtext(k) as b from unnest(p_rules, p_keys) as u(r, k) order by 1, 2 loop
          perform pg_advisory_xact_lock(l.a, l.b);
        end loop;
        for j in 1 .. coalesce(array_length(p_rules, 1), 0) loop
          i := j;
          oldest := rate_limit_hit(p_rules[j], p_keys[j], p_now[j], p_since[j], p_limits[j]);
          return next;
        end loop;
      end
      $$`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (typesOf(db).postgres) await sql`drop function if exists rate_limit_hits(text[], text[], bigint[], bigint[], integer[])`.execute(db);
  },
};

// Counted exports (services/exports.ts): one row per account holding how many exports it made in
// the billing period (or One Day Pass) that ends at period_end; a new period_end starts the count
// again. Subscriptions keep the start of their Stripe period beside its end.
const m012_export_counts: Migration = {
  async up(db: Kysely<unknown>) {
    const t = typesOf(db);
    await db.schema.alterTable("subscriptions").addColumn("current_period_start", "text").execute();
    await db.schema
      .createTable("export_counts")
      .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("period_end", "text", (c) => c.notNull())
      .addColumn("used", t.int, (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("export_counts").execute();
    await db.schema.alterTable("subscriptions").dropColumn("current_period_start").execute();
  },
};

// One video job at a time per user (services/video-jobs.ts claimVideoSlot): the user's current
// job, or a claim being turned into one (pending = 1), taken and handed on by single conditional
// statements.
const m013_video_job_owners: Migration = {
  async up(db: Kysely<unknown>) {
    const t = typesOf(db);
    await db.schema
      .createTable("video_job_owners")
      .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("job_id", "text", (c) => c.notNull())
      .addColumn("pending", t.int, (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("video_job_owners").execute();
  },
};

// Voice recordings (services/recordings.ts): one row per recording an account keeps; the WAV file
// itself is in the file store (services/storage.ts) under file_key.
const m014_recordings: Migration = {
  async up(db: Kysely<unknown>) {
    const t = typesOf(db);
    await db.schema
      .createTable("recordings")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("file_key", "text", (c) => c.notNull())
      .addColumn("bytes", t.int, (c) => c.notNull())
      .addColumn("frames", t.int, (c) => c.notNull())
      .addColumn("channels", t.int, (c) => c.notNull())
      .addColumn("sample_rate", t.int, (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("recordings_user_id").on("recordings").columns(["user_id", "created_at"]).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("recordings").execute();
  },
};

/** Room held for a recording upload while its body streams: taken in the transaction that admits
 *  the upload (with the account's count and bytes checked in it), turned into the recording's row
 *  when it is stored, deleted when it fails; one left by a crash stops counting after an hour. */
const m015_recording_reservations: Migration = {
  async up(db: Kysely<unknown>) {
    const t = typesOf(db);
    await db.schema
      .createTable("recording_reservations")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("bytes", t.int, (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("recording_reservations_user_id").on("recording_reservations").columns(["user_id", "created_at"]).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("recording_reservations").execute();
  },
};

export const migrations: Readonly<Record<string, Migration>> = {
  "001_accounts": m001_accounts,
  "002_payments": m002_payments,
  "003_presets": m003_presets,
  "004_marketplace": m004_marketplace,
  "005_admin": m005_admin,
  "006_shared_state": m006_shared_state,
  "007_jobs": m007_jobs,
  "008_job_cancel": m008_job_cancel,
  "009_rate_limit_function": m009_rate_limit_function,
  "010_change_notifications": m010_change_notifications,
  "011_rate_limit_batches": m011_rate_limit_batches,
  "012_export_counts": m012_export_counts,
  "013_video_job_owners": m013_video_job_owners,
  "014_recordings": m014_recordings,
  "015_recording_reservations": m015_recording_reservations,
};

const provider: MigrationProvider = { getMigrations: async () => ({ ...migrations }) };

/** Attempts after a failed migration run (see migrateToLatest). */
const MIGRATION_RETRIES = 3;

/** Brings the database to the latest schema; throws (with the failing migration's name) on error. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- kysely migrations are schema-agnostic
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // On PostgreSQL the bookkeeping tables live in the connection's own schema (public, or the one
  // search_path names), so one server can hold several installations side by side (the tests do).
  // kysely holds an advisory lock while migrating there: processes starting together migrate once.
  const migrationTableSchema =
    dialectOf(db) === "postgres" ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider, migrationTableSchema });
  let { error, results } = await migrator.migrateToLatest();
  // On SQLite the migrations' transaction begins IMMEDIATE (group-commit.ts), so processes opening
  // a new file together take turns and the later one finds the list done. Anything else that fails
  // a run (a lock held longer than the busy wait) is tried again: each run reads the list anew.
  for (let retry = 0; error && retry < MIGRATION_RETRIES; retry++) {
    await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    ({ error, results } = await migrator.migrateToLatest());
  }
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    const where = failed ? ` (migration ${failed.migrationName})` : "";
    throw new Error(`Database migration failed${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
