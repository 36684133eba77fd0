// The schema, as kysely migrations held in code (a static provider instead of a folder scan, so
// the same list runs from tsx, from the tests and from a bundle). Later issues append entries;
// never edit a migration that has shipped.
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";

const m001_accounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("users")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("full_name", "text")
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("email_verified_at", "text")
      .addColumn("is_admin", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("admin_override", "integer", (c) => c.notNull().defaultTo(0))
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
      .addColumn("duration_hours", "integer", (c) => c.notNull())
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

// Payments and the demo (issue 9): Stripe ids and the freshness of the stored Stripe state on
// subscriptions, one Stripe customer per user, processed webhook event ids, one demo per user.
const m002_payments: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("subscriptions").addColumn("plan_key", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("stripe_customer_id", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("stripe_subscription_id", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("stripe_checkout_session_id", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("stripe_synced_at", "integer").execute();
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
      .addColumn("created", "integer", (c) => c.notNull())
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

// Shared presets (issue 10): the studio state a Pro user shared, under a random URL-safe id that
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

/** Every migration in order; the key is the name kysely records in its bookkeeping table. */
export const migrations: Readonly<Record<string, Migration>> = {
  "001_accounts": m001_accounts,
  "002_payments": m002_payments,
  "003_presets": m003_presets,
};

const provider: MigrationProvider = { getMigrations: async () => ({ ...migrations }) };

/** Brings the database to the latest schema; throws (with the failing migration's name) on error. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- kysely migrations are schema-agnostic
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    const where = failed ? ` (migration ${failed.migrationName})` : "";
    throw new Error(`Database migration failed${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
