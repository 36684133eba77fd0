// Shared presets (spec/studio.md sections 3 and 7): a Pro user's studio state stored under a random,
// unguessable, URL-safe id; anyone with the link reads it back. The data is validated and
// normalised by THE preset schema (dsp/host/preset.ts) before it is stored, and the web app parses
// what it reads with the same schema.
import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { parsePreset, type PresetData } from "../../dsp/host/preset";
import type { Services } from "../context";
import { writesComment } from "../db/changes";
import { preparedQuery } from "../db/prepared";
import { batcherFor, eachAlone, type Settled, type TickBatcher } from "../db/tick-batch";
import type { Database, UserRow } from "../db/schema";
import { ApiError } from "../errors";
import { MSG } from "../messages";
import { cacheFor, type ReadCache } from "./read-cache";
import { type Hit, SharedRateLimiter, hitArguments, oldestAsNumber, oldestOfEach } from "./rate-limit";

export interface SharedPreset {
  id: string;
  name: string;
  data: PresetData;
}

/** 128 random bits as base64url: 22 characters, safe in a path, not guessable. */
export function newPresetId(): string {
  return randomBytes(16).toString("base64url");
}

/** Stores `data` (unknown JSON) for `user`, whose right to share the route checked: 400 for invalid
 *  data, then the per-user limit (429 with Retry-After), then the row. On PostgreSQL the limit's
 *  hit and the insert are one statement, batched with the other shares of this turn. */
export async function createPreset(s: Services, user: UserRow, name: string, data: unknown): Promise<{ id: string }> {
  const parsed = parsePreset(data);
  if (!parsed.ok) throw new ApiError(400, MSG.presetInvalid(parsed.error));
  const id = newPresetId();
  const row = { id, userId: user.id, name, data: JSON.stringify(parsed.state), createdAt: s.clock().toISOString() };
  const limiter = s.limiters.presetCreatePerUser;
  if (limiter instanceof SharedRateLimiter && limiter.onPostgres) {
    const hit = limiter.pendingHit(user.id);
    await limiter.settle(hit, await presetSharesFor(s.db).add({ hit, row }));
  } else {
    await limiter.enforce(user.id);
    await insertPreset(s.db, row);
  }
  return { id };
}

type PresetRow = Record<"id" | "userId" | "name" | "data" | "createdAt", string>;

/** Compiled once (db/prepared.ts): every share on SQLite runs it. */
const insertPreset = preparedQuery((db, arg: (name: keyof PresetRow) => string) =>
  db.insertInto("presets").values({ id: arg("id"), user_id: arg("userId"), name: arg("name"), data: arg("data"), created_at: arg("createdAt") }),
);

// PostgreSQL: a share is a rate-limit hit and an insert. As two statements each share paid two
// round trips, and at 1,000 shares a second on two cores that second trip was what kept the p99
// over 50 ms (bench/api, README). One statement now counts the hits of several shares
// (rate_limit_hits, migration 011, which takes its locks in one global order) and inserts the
// rows whose hit was counted; a refused share's row is not written.
/** What a share writes (db/changes.ts): not a table the per-process caches read. */
const SHARE_WRITES = sql.raw(writesComment("rate_limit_hits", "presets"));
type PresetArgs = "ids" | "userIds" | "names" | "datas" | "createdAts";
const shareStatement = preparedQuery((_db, arg: (name: PresetArgs | keyof ReturnType<typeof hitArguments>) => string) =>
  sql<{ i: number; oldest: string | number | null }>`${SHARE_WRITES}
    with hit as (
      select i, oldest from rate_limit_hits(${arg("rules")}::text[], ${arg("keyHashes")}::text[], ${arg("nows")}::bigint[], ${arg("sinces")}::bigint[], ${arg("limits")}::integer[])
    ), added as (
      insert into presets (id, user_id, name, data, created_at)
      select p.id, p.user_id, p.name, p.data, p.created_at
      from unnest(${arg("ids")}::text[], ${arg("userIds")}::text[], ${arg("names")}::text[], ${arg("datas")}::text[], ${arg("createdAts")}::text[])
        with ordinality as p(id, user_id, name, data, created_at, i)
      join hit on hit.i = p.i
      where hit.oldest is null
    )
    select i, oldest from hit`,
);

/** One share: rate_limit_hit (migration 009) and the insert when the hit counted. */
const shareOneStatement = preparedQuery((_db, arg: (name: keyof PresetRow | "rule" | "keyHash" | "now" | "since" | "limit") => string) =>
  sql<{ oldest: string | number | null }>`${SHARE_WRITES}
    with hit as (
      select rate_limit_hit(${arg("rule")}, ${arg("keyHash")}, ${arg("now")}, ${arg("since")}, ${arg("limit")}) as oldest
    ), added as (
      insert into presets (id, user_id, name, data, created_at)
      select ${arg("id")}, ${arg("userId")}, ${arg("name")}, ${arg("data")}, ${arg("createdAt")} from hit where hit.oldest is null
    )
    select oldest from hit`,
);

interface Share {
  hit: Hit;
  row: PresetRow;
}

const presetShares = new WeakMap<Kysely<Database>, TickBatcher<Share, number | null>>();

/** The shares of one turn of the event loop as one statement (db/tick-batch.ts); each answers its
 *  hit's oldest hit in the window when refused, else null (stored). If the statement fails (a user
 *  deleted meanwhile breaks the foreign key), it rolls back whole and each share is sent alone, so
 *  only the bad one fails. */
export function presetSharesFor(db: Kysely<Database>): TickBatcher<Share, number | null> {
  return batcherFor(presetShares, db, runShares);
}

async function runShares(db: Kysely<Database>, shares: Share[]): Promise<Settled<number | null>[]> {
  const one = async ({ hit, row }: Share) => oldestAsNumber((await shareOneStatement(db, { ...hit, ...row })).rows[0]?.oldest);
  if (shares.length === 1) return eachAlone(shares, one);
  try {
    return (await sendShares(db, shares)).map((value) => ({ ok: true as const, value }));
  } catch {
    return eachAlone(shares, one);
  }
}

async function sendShares(db: Kysely<Database>, shares: Share[]): Promise<(number | null)[]> {
  const rows = shares.map((x) => x.row);
  const { rows: answers } = await shareStatement(db, {
    ...hitArguments(shares.map((x) => x.hit)),
    ids: rows.map((r) => r.id),
    userIds: rows.map((r) => r.userId),
    names: rows.map((r) => r.name),
    datas: rows.map((r) => r.data),
    createdAts: rows.map((r) => r.createdAt),
  });
  return oldestOfEach(answers, shares.length);
}

/** The preset behind a link; 404 when there is none, or when its data is gone (spec 5). */
export async function findPreset(s: Services, id: string): Promise<SharedPreset> {
  const found = await cacheFor(presetReads, s.db).get(id, () => loadPreset(s, id), (p) => p !== null);
  if (!found) throw new ApiError(404, MSG.presetNotFound);
  return found;
}

// Shared presets are read far more often than written and never edited: found ones are served
// from a per-process cache (services/read-cache.ts), so a preset removed by another process may
// still be answered for up to 1 s. Misses are not cached: a new preset is found at once.
const presetReads = new WeakMap<object, ReadCache<SharedPreset | null>>();

async function loadPreset(s: Services, id: string): Promise<SharedPreset | null> {
  const row = await s.db.selectFrom("presets").select(["id", "name", "data"]).where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  let data: unknown;
  try {
    data = JSON.parse(row.data);
  } catch {
    data = null;
  }
  if (!data) return null;
  return { id: row.id, name: row.name, data: data as PresetData };
}
