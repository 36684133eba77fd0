// Shared presets (spec/studio.md sections 3 and 7): a Pro user's studio state stored under a random,
// unguessable, URL-safe id; anyone with the link reads it back. The data is validated and
// normalised by THE preset schema (dsp/host/schema/preset.ts) before it is stored, and the web app parses
// what it reads with the same schema.
import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { parsePreset, type PresetData } from "../../dsp/host/schema/preset";
import type { Services } from "../context";
import { dialectOf } from "../db/dialect";
import { preparedQuery } from "../db/prepared";
import { batcherFor, eachAlone, type Settled, type TickBatcher } from "../db/tick-batch";
import type { Database, UserRow } from "../db/schema";
import { ApiError } from "../errors";
import { MSG } from "../messages";
import { cacheFor, type ReadCache } from "./read-cache";

export interface SharedPreset {
  id: string;
  name: string;
  data: PresetData;
}

/** 128 random bits as base64url: 22 characters, safe in a path, not guessable. */
export function newPresetId(): string {
  return randomBytes(16).toString("base64url");
}

/** Stores `data` (unknown JSON) for `user` (whose right to share the route checked); 400 for invalid data. */
export async function createPreset(s: Services, user: UserRow, name: string, data: unknown): Promise<{ id: string }> {
  const parsed = parsePreset(data);
  if (!parsed.ok) throw new ApiError(400, MSG.presetInvalid(parsed.error));
  const id = newPresetId();
  const row = { id, userId: user.id, name, data: JSON.stringify(parsed.state), createdAt: s.clock().toISOString() };
  // PostgreSQL: with the other shares of this turn of the event loop, in one statement.
  await (dialectOf(s.db) === "postgres" ? presetInsertsFor(s.db).add(row) : insertPreset(s.db, row));
  return { id };
}

type PresetRow = Record<"id" | "userId" | "name" | "data" | "createdAt", string>;

/** Compiled once (db/prepared.ts): every share runs it. */
const insertPreset = preparedQuery((db, arg: (name: keyof PresetRow) => string) =>
  db.insertInto("presets").values({ id: arg("id"), user_id: arg("userId"), name: arg("name"), data: arg("data"), created_at: arg("createdAt") }),
);

/** PostgreSQL: several rows in one statement, a column an array each. */
const insertPresets = preparedQuery((db, arg: (name: "ids" | "userIds" | "names" | "datas" | "createdAts") => string) =>
  db
    .insertInto("presets")
    .columns(["id", "user_id", "name", "data", "created_at"])
    .expression(sql`select * from unnest(${arg("ids")}::text[], ${arg("userIds")}::text[], ${arg("names")}::text[], ${arg("datas")}::text[], ${arg("createdAts")}::text[])`),
);

const presetInserts = new WeakMap<Kysely<Database>, TickBatcher<PresetRow, void>>();

/** The shares of one turn of the event loop as one insert (db/tick-batch.ts). If that statement
 *  fails (a user deleted meanwhile breaks its foreign key), each row is inserted alone, so only
 *  the bad one fails. */
export function presetInsertsFor(db: Kysely<Database>): TickBatcher<PresetRow, void> {
  return batcherFor(presetInserts, db, runPresetInserts);
}

async function runPresetInserts(db: Kysely<Database>, rows: PresetRow[]): Promise<Settled<void>[]> {
  const one = async (r: PresetRow) => void (await insertPreset(db, r));
  if (rows.length === 1) return eachAlone(rows, one);
  try {
    await insertPresets(db, {
      ids: rows.map((r) => r.id),
      userIds: rows.map((r) => r.userId),
      names: rows.map((r) => r.name),
      datas: rows.map((r) => r.data),
      createdAts: rows.map((r) => r.createdAt),
    });
  } catch {
    return eachAlone(rows, one);
  }
  return rows.map(() => ({ ok: true as const, value: undefined }));
}

/** The preset behind a link; 404 when there is none, or when its data is gone (spec 5). */
export async function findPreset(s: Services, id: string): Promise<SharedPreset> {
  const found = await cacheFor(presetReads, s.db).get(id, () => loadPreset(s, id), (p) => p !== null && p.bytes <= CACHED_PRESET_MAX_BYTES);
  if (!found) throw new ApiError(404, MSG.presetNotFound);
  return found.preset;
}

// Shared presets are read far more often than written and never edited: found ones are served
// from a per-process cache (services/read-cache.ts), so a preset removed by another process may
// still be answered for up to 1 s. Misses are not cached: a new preset is found at once. Only
// presets of at most 64 KiB of stored JSON are kept (all but long timelines), so the cache's 1,000
// entries come from at most 64 MB of JSON; a larger one is read from the database each time.
const presetReads = new WeakMap<object, ReadCache<{ preset: SharedPreset; bytes: number } | null>>();
const CACHED_PRESET_MAX_BYTES = 64 * 1024;

async function loadPreset(s: Services, id: string): Promise<{ preset: SharedPreset; bytes: number } | null> {
  const row = await s.db.selectFrom("presets").select(["id", "name", "data"]).where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  let data: unknown;
  try {
    data = JSON.parse(row.data);
  } catch {
    data = null;
  }
  if (!data) return null;
  return { preset: { id: row.id, name: row.name, data: data as PresetData }, bytes: Buffer.byteLength(row.data) };
}
