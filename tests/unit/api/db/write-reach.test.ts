// What a write of this process counts as changed (db/changes.ts WriteReach, read from the migrated
// database's foreign keys): a DELETE counts for its table and the tables its keys cascade to, not for
// every table. The session and entitlement caches then survive the rate limiter's sweeps and the
// shares of other users, while a deleted user's sessions still count at once. On SQLite, and on
// PostgreSQL in the api-postgres project.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChangeStamps, type ForeignKey, tableChangesOf, WriteReach } from "../../../../api/db/changes";
import { presetData } from "../../../../dsp/host/schema/preset";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { getWith, makeTestApp, postJson, signUp, signUpPro, type TestEnv } from "../helpers";

const SESSION_TABLES = ["sessions", "users"];
const ENTITLEMENT_TABLES = ["subscriptions", "temporary_access", "demo_sessions"];

describe("WriteReach", () => {
  const key = (table: string, references: string, onDelete: boolean, onUpdate = false): ForeignKey => ({ table, references, onDelete, onUpdate });
  const reach = new WriteReach(
    ["users", "sessions", "purchases", "sounds", "receipts", "logs", "notes"],
    [
      key("sessions", "users", true),
      key("sounds", "users", true), // set null: the row stays, changed
      key("purchases", "sounds", true),
      key("receipts", "purchases", false), // restrict: the delete is refused, nothing changes
      key("notes", "users", false, true),
    ],
  );

  it("a delete reaches down every acting key, and no further", () => {
    expect([...reach.of("delete", "users")!].sort()).toEqual(["purchases", "sessions", "sounds", "users"]);
    expect(reach.of("delete", "purchases")).toEqual(["purchases"]);
    expect(reach.of("delete", "logs")).toEqual(["logs"]);
  });

  it("an update reaches the keys that act on update; a table it never read is unknown", () => {
    expect([...reach.of("update", "users")!].sort()).toEqual(["notes", "users"]);
    expect(reach.of("update", "sessions")).toEqual(["sessions"]);
    expect(reach.of("delete", "elsewhere")).toBeNull();
  });
});

describe("writes and the cached reads' tables, on the migrated database", () => {
  let env: TestEnv;
  let changes: ChangeStamps;
  beforeEach(async () => {
    env = await makeTestApp();
    changes = tableChangesOf(env.db)!;
    // PostgreSQL answers no stamp until its listening connection is up.
    await vi.waitFor(() => expect(changes.stamp(SESSION_TABLES)).not.toBeNull(), { timeout: 5000, interval: 5 });
  });
  afterEach(() => env.close());

  const stamps = () => [changes.stamp(SESSION_TABLES), changes.stamp(ENTITLEMENT_TABLES)];

  it("the rate limiter's sweep of old hits changes no session or entitlement table", async () => {
    const before = stamps();
    await env.db.deleteFrom("rate_limit_hits").where("at", "<=", 0).execute();
    expect(stamps()).toEqual(before);
  });

  it("deleting a user counts for its sessions and entitlements at once", async () => {
    const { userId } = await signUp(env, "gone@example.com");
    const [sessions0, entitlements0] = stamps();
    const sessionsOnly = changes.stamp(["sessions"]);
    const subscriptionsOnly = changes.stamp(["subscriptions"]);
    await env.db.deleteFrom("users").where("id", "=", userId).execute();
    expect(changes.stamp(["sessions"])).not.toBe(sessionsOnly);
    expect(changes.stamp(["subscriptions"])).not.toBe(subscriptionsOnly);
    expect(stamps()).not.toEqual([sessions0, entitlements0]);
  });

  it("a share keeps the sharer's session and entitlements cached: the next request reads neither", async () => {
    const token = await signUpPro(env);
    expect((await getWith(env, "/api/user/profile", token)).status).toBe(200);
    const before = stamps();
    for (let i = 0; i < 3; i++) {
      const res = await postJson(env, "/api/presets/user", { name: `Evening ${i}`, data: presetData(defaultAudioState()) }, token);
      expect(res.status).toBe(201);
    }
    expect(await env.db.selectFrom("presets").select("id").execute()).toHaveLength(3);
    expect(stamps()).toEqual(before);
  });
});
