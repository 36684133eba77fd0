// The sound marketplace (spec/accounts.md sections 2-9): listing, upload (admins),
// purchase through a one-time Stripe Checkout, ownership recorded once by the ONE fulfil path,
// previews and downloads with range support, ratings by owners.
//
// Previews: a visitor hears the first PREVIEW_SECONDS of a sound, never the whole file (owners
// download that). For WAV the preview is an exact WAV of the first 30 s (the original header with
// its sizes patched, then the first bytes of its PCM data); for MP3, FLAC and OGG it is the
// leading share of the file that holds about 30 s at the file's average bit rate (those streams
// play from the start and simply end).
import { randomUUID } from "node:crypto";
import { open } from "node:fs/promises";
import { PassThrough, Readable } from "node:stream";
import { fileTypeFromFile } from "file-type";
import { jwtVerify, SignJWT } from "jose";
import { type Kysely, type Selectable, sql } from "kysely";
import { parseFile } from "music-metadata";
import { z } from "zod";
import { parseWavHeader } from "../../dsp/host/export/wav";
import { MAX_FREQUENCY_HZ } from "../../dsp/host/model/limits";
import type { Services } from "../context";
import type { Database, MarketplaceSoundsTable, UserRow } from "../db/schema";
import { ApiError } from "../errors";
import type { RangedBody } from "../http/ranges";
import {
  AUDIO_FORMATS, type AudioFormat, DESCRIPTION_MAX, MARKETPLACE_TEXT as T, PREVIEW_SECONDS, PRICE_MIN_PAID_CENTS,
  RATING_MAX, RATING_MIN, SOUND_CATEGORIES, SPECS_MAX, type SoundCategory, TITLE_MAX, UPLOAD_MAX_MINUTES,
  UPLOAD_MIN_MINUTES, parsePriceCents, parseTags, type PurchaseAnswer, type SoundDto,
} from "../rules/marketplace";
import { ensureCustomer } from "./billing";
import type { CheckoutInfo, Payments } from "./payments";
import { cacheFor, type ReadCache } from "./read-cache";
import type { FileStorage, PendingFile } from "./storage";

type Db = Kysely<Database>;


type SoundRow = Selectable<MarketplaceSoundsTable>;

function parseJson(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function toDto(row: SoundRow): SoundDto {
  const tags = parseJson(row.tags);
  const frequencies = parseJson(row.frequencies);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    price: row.price_cents,
    duration: Math.round(row.duration_seconds * 100) / 100,
    category: row.category,
    downloads: row.downloads,
    rating: row.rating_count > 0 ? Math.round((row.rating_sum / row.rating_count) * 10) / 10 : 0,
    ratingCount: row.rating_count,
    fileUrl: `/api/marketplace/sounds/${row.id}/preview`,
    metadata: {
      tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === "string") : [],
      ...(row.specs ? { specs: row.specs } : {}),
      ...(frequencies !== undefined ? { frequencies } : {}),
    },
    createdAt: row.created_at,
  };
}

// The listing is the hottest public read: served from a per-process cache (services/read-cache.ts:
// at most 1 s old for other processes' writes; this process's writes below clear it at once).
const listings = new WeakMap<object, ReadCache<SoundDto[]>>();
const listingCache = (db: Db) => cacheFor(listings, db);

export function listSounds(db: Db, category?: SoundCategory): Promise<SoundDto[]> {
  return listingCache(db).get(category ?? "", async () => {
    let q = db.selectFrom("marketplace_sounds").selectAll();
    if (category) q = q.where("category", "=", category);
    const rows = await q.orderBy("created_at", "desc").orderBy("id").execute();
    return rows.map(toDto);
  });
}

export async function findSound(db: Db, id: string): Promise<SoundRow> {
  const row = await db.selectFrom("marketplace_sounds").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new ApiError(404, T.soundNotFound);
  return row;
}

// ---- upload ---------------------------------------------------------------------------------

const frequenciesSchema = z.object({
  channels: z
    .array(
      z.object({
        frequency: z.number().finite().min(0).max(MAX_FREQUENCY_HZ),
        volume: z.number().finite().min(0).max(1).optional(),
        waveform: z.string().max(16).optional(),
        enabled: z.boolean().optional(),
      }),
    )
    .max(4),
  summary: z.string().max(500).optional(),
});

export interface UploadFields {
  title: string;
  description: string;
  priceCents: number;
  minutes: number;
  category: SoundCategory;
  tags: string[];
  specs: string | null;
  frequencies: string | null;
}

/** Checks the text fields of an upload (spec: file, title, price and duration required). */
export function validateUploadFields(f: Record<string, string>, hasFile: boolean): UploadFields {
  const title = (f.title ?? "").trim();
  const priceText = (f.price ?? "").trim();
  const durationText = (f.duration ?? "").trim();
  if (!hasFile || !title || !priceText || !durationText) throw new ApiError(400, T.fieldsMissing);
  if (title.length > TITLE_MAX) throw new ApiError(400, T.titleTooLong);
  const priceCents = parsePriceCents(priceText);
  if (priceCents === null) throw new ApiError(400, T.priceInvalid);
  if (priceCents > 0 && priceCents < PRICE_MIN_PAID_CENTS) throw new ApiError(400, T.priceBelowMinimum);
  if (!/^\d{1,3}$/.test(durationText)) throw new ApiError(400, T.durationInvalid);
  const minutes = Number(durationText);
  if (minutes < UPLOAD_MIN_MINUTES || minutes > UPLOAD_MAX_MINUTES) throw new ApiError(400, T.durationInvalid);
  const description = (f.description ?? "").trim();
  if (description.length > DESCRIPTION_MAX) throw new ApiError(400, T.descriptionTooLong);
  const categoryText = (f.category ?? "").trim();
  const category = categoryText === "" ? "Ambient" : SOUND_CATEGORIES.find((c) => c.toLowerCase() === categoryText.toLowerCase());
  if (!category) throw new ApiError(400, T.categoryInvalid);
  const specs = (f.specs ?? "").trim();
  if (specs.length > SPECS_MAX) throw new ApiError(400, T.specsTooLong);
  let frequencies: string | null = null;
  if ((f.frequencies ?? "").trim() !== "") {
    const parsed = frequenciesSchema.safeParse(parseJson(f.frequencies));
    if (!parsed.success) throw new ApiError(400, T.frequenciesInvalid);
    frequencies = JSON.stringify(parsed.data);
  }
  return { title, description, priceCents, minutes, category, tags: parseTags(f.tags ?? ""), specs: specs || null, frequencies };
}

const FORMAT_BY_EXT: Record<string, AudioFormat> = { wav: "wav", mp3: "mp3", flac: "flac", ogg: "ogg", oga: "ogg", opus: "ogg" };

/** The audio format by magic bytes (file-type), or 415. */
export async function sniffAudio(path: string): Promise<AudioFormat> {
  const type = await fileTypeFromFile(path).catch(() => undefined);
  const format = type ? FORMAT_BY_EXT[type.ext] : undefined;
  if (!format) throw new ApiError(415, T.notAudio);
  return format;
}

/** Duration in seconds read from the file itself; 422 when it cannot be read. */
export async function audioDuration(path: string, format: AudioFormat): Promise<number> {
  if (format === "wav") {
    const info = await wavInfo(path).catch(() => null);
    if (info && info.byteRate > 0) return info.dataBytes / info.byteRate;
  }
  const meta = await parseFile(path, { duration: true, skipCovers: true }).catch(() => null);
  const d = meta?.format.duration;
  if (d === undefined || !Number.isFinite(d) || d <= 0) throw new ApiError(422, T.unreadableAudio);
  return d;
}

/** Bytes of a WAV read to find its header (a RIFF header with a few chunks fits easily). */
const WAV_HEAD_BYTES = 64 * 1024;

/** The WAV header found in the first bytes of a file of `size` bytes. */
function wavInfoOf(head: Uint8Array, size: number) {
  const info = parseWavHeader(head);
  // A header that claims more data than the file holds reads as what is there.
  return { ...info, dataBytes: Math.min(info.dataBytes, Math.max(0, size - info.dataOffset)), header: head.slice(0, info.dataOffset) };
}

async function wavInfo(path: string) {
  const fh = await open(path, "r");
  try {
    const head = new Uint8Array(WAV_HEAD_BYTES);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return wavInfoOf(head.subarray(0, bytesRead), (await fh.stat()).size);
  } finally {
    await fh.close();
  }
}

/** The WAV header of a stored file, read through the store (local or remote alike). */
async function storedWavInfo(storage: FileStorage, key: string, size: number) {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.read(key, { start: 0, end: Math.min(size, WAV_HEAD_BYTES) - 1 })) chunks.push(chunk as Buffer);
  return wavInfoOf(new Uint8Array(Buffer.concat(chunks)), size);
}

/** Stores an upload whose file is pending in storage: validates, sniffs, reads the duration,
 *  then commits file and row; on any refusal the file is removed and nothing is stored. */
export async function createSound(
  s: Services,
  storage: FileStorage,
  uploader: UserRow | null,
  fields: UploadFields,
  file: PendingFile,
  fileBytes: number,
  seedKey: string | null = null,
): Promise<SoundDto> {
  let key: string | null = null;
  try {
    const format = await sniffAudio(file.path);
    const duration = await audioDuration(file.path, format);
    key = await file.commit(AUDIO_FORMATS[format].ext);
    const row = {
      id: randomUUID(),
      title: fields.title,
      description: fields.description,
      price_cents: fields.priceCents,
      duration_seconds: duration,
      category: fields.category,
      tags: JSON.stringify(fields.tags),
      specs: fields.specs,
      frequencies: fields.frequencies,
      file_key: key,
      mime: AUDIO_FORMATS[format].mime,
      size_bytes: fileBytes,
      uploaded_by: uploader?.id ?? null,
      seed_key: seedKey,
      created_at: s.clock().toISOString(),
    };
    await s.db.insertInto("marketplace_sounds").values(row).execute();
    listingCache(s.db).clear();
    return toDto({ ...row, downloads: 0, rating_sum: 0, rating_count: 0 });
  } catch (err) {
    await file.discard();
    if (key) await storage.remove(key).catch(() => undefined);
    throw err;
  }
}

// ---- purchase -------------------------------------------------------------------------------

export async function owns(db: Db, userId: string, soundId: string): Promise<boolean> {
  const row = await db
    .selectFrom("sound_purchases")
    .select("id")
    .where("user_id", "=", userId)
    .where("sound_id", "=", soundId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records ownership once (the pair user/sound and the checkout session are both unique). */
export async function recordPurchase(
  db: Db,
  p: { userId: string; soundId: string; amountCents: number; checkoutSessionId: string | null; at: Date },
): Promise<void> {
  await db
    .insertInto("sound_purchases")
    .values({
      id: randomUUID(),
      user_id: p.userId,
      sound_id: p.soundId,
      amount_cents: p.amountCents,
      stripe_checkout_session_id: p.checkoutSessionId,
      created_at: p.at.toISOString(),
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}


/** POST /api/marketplace/purchase/{id}: owners get alreadyPurchased; free sounds are recorded at
 *  once; paid ones get a one-time Checkout Session at the sound's own price. */
export async function purchaseSound(s: Services, user: UserRow, soundId: string): Promise<PurchaseAnswer> {
  const sound = await findSound(s.db, soundId);
  if (await owns(s.db, user.id, sound.id)) return { success: true, alreadyPurchased: true, checkoutUrl: null };
  if (sound.price_cents === 0) {
    await recordPurchase(s.db, { userId: user.id, soundId: sound.id, amountCents: 0, checkoutSessionId: null, at: s.clock() });
    return { success: true, alreadyPurchased: false, checkoutUrl: null };
  }
  if (!s.payments) throw new ApiError(503, "Payments are not configured");
  const payments: Payments = s.payments;
  const customerId = await ensureCustomer(s, payments, user);
  const base = s.config.publicUrl;
  const session = await payments.createCheckoutSession({
    mode: "payment",
    inlinePrice: { name: sound.title, unitAmountCents: sound.price_cents, currency: "usd" },
    customerId,
    userId: user.id,
    metadata: { userId: user.id, kind: "sound", soundId: sound.id },
    successUrl: `${base}/marketplace?purchase=success&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${base}/marketplace`,
  });
  if (!session.url) throw new ApiError(502, T.initiateFailed);
  return { success: true, alreadyPurchased: false, checkoutUrl: session.url };
}

/** Whether a checkout session is a marketplace purchase (rather than a plan). */
export const isSoundCheckout = (session: CheckoutInfo): boolean =>
  session.mode === "payment" && session.metadata.kind === "sound" && !!session.metadata.soundId;

// ---- previews and downloads -----------------------------------------------------------------

/** The first PREVIEW_SECONDS of a sound as a ranged body (see the header comment). */
export async function previewBody(storage: FileStorage, sound: SoundRow): Promise<RangedBody> {
  const size = (await storage.size(sound.file_key)) ?? 0;
  if (sound.mime === AUDIO_FORMATS.wav.mime && size > 0) {
    const info = await storedWavInfo(storage, sound.file_key, size).catch((err: unknown) => {
      if (err instanceof ApiError) throw err; // the store is down: 503, not a preview of nothing
      return null;
    });
    if (info && info.container === "RIFF" && info.byteRate > 0 && info.blockAlign > 0) {
      const limit = Math.floor((PREVIEW_SECONDS * info.byteRate) / info.blockAlign) * info.blockAlign;
      const dataBytes = Math.min(info.dataBytes, limit);
      const header = Buffer.from(info.header);
      header.writeUInt32LE(header.length - 8 + dataBytes, 4);
      header.writeUInt32LE(dataBytes, header.length - 4);
      return {
        size: header.length + dataBytes,
        mime: sound.mime,
        open: ({ start, end }) => {
          const out = new PassThrough();
          (async () => {
            if (start < header.length) out.write(header.subarray(start, Math.min(end + 1, header.length)));
            if (end >= header.length) {
              const from = info.dataOffset + Math.max(0, start - header.length);
              const to = info.dataOffset + (end - header.length);
              for await (const chunk of storage.read(sound.file_key, { start: from, end: to })) {
                if (!out.write(chunk)) await new Promise((r) => out.once("drain", r));
              }
            }
            out.end();
          })().catch((err: Error) => out.destroy(err));
          return out;
        },
      };
    }
  }
  const share = sound.duration_seconds > PREVIEW_SECONDS ? PREVIEW_SECONDS / sound.duration_seconds : 1;
  const previewSize = Math.min(size, Math.ceil(size * share));
  return { size: previewSize, mime: sound.mime, open: (r) => storage.read(sound.file_key, r) };
}

export async function downloadBody(storage: FileStorage, sound: SoundRow): Promise<RangedBody> {
  const size = await storage.size(sound.file_key);
  if (size === null) throw new ApiError(404, T.soundNotFound);
  const ext = sound.file_key.split(".").pop() ?? "bin";
  const name = sound.title.replace(/[^A-Za-z0-9 ._-]+/g, "").slice(0, 80).trim() || "sound";
  return {
    size,
    mime: sound.mime,
    open: (r) => storage.read(sound.file_key, r),
    // 80 characters counted in code points: slicing UTF-16 units could split an emoji into a lone
    // surrogate, which encodeURIComponent refuses (a URIError, so a 500).
    disposition: `attachment; filename="${name}.${ext}"; filename*=UTF-8''${encodeURIComponent(`${Array.from(sound.title).slice(0, 80).join("")}.${ext}`)}`,
  };
}

/** Owners and admins may download the full file. */
export async function mayDownload(s: Services, user: UserRow, soundId: string): Promise<boolean> {
  const ent = await s.entitlementsOf(user);
  return ent.isAdmin || (await owns(s.db, user.id, soundId));
}

export async function countDownload(db: Db, soundId: string): Promise<void> {
  await db
    .updateTable("marketplace_sounds")
    .set((eb) => ({ downloads: eb("downloads", "+", 1) }))
    .where("id", "=", soundId)
    .execute();
  listingCache(db).clear();
}

const DOWNLOAD_AUDIENCE = "tone-studio-download";
const DOWNLOAD_LINK_SECONDS = 10 * 60;

/** A link that downloads one sound for one user for 10 minutes (a plain navigation, so the
 *  browser streams the file to disk instead of the page holding it in memory). */
export async function downloadLink(s: Services, user: UserRow, soundId: string): Promise<string> {
  const now = Math.floor(s.clock().getTime() / 1000);
  const token = await new SignJWT({ snd: soundId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setAudience(DOWNLOAD_AUDIENCE)
    .setIssuer(s.config.jwtIssuer)
    .setIssuedAt(now)
    .setExpirationTime(now + DOWNLOAD_LINK_SECONDS)
    .sign(new TextEncoder().encode(s.config.jwtSecret));
  return `/api/marketplace/sounds/${soundId}/download?token=${token}`;
}

/** The user a download token was made for, when it is valid for `soundId`. */
export async function downloadTokenUser(s: Services, token: string, soundId: string): Promise<UserRow | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(s.config.jwtSecret), {
      audience: DOWNLOAD_AUDIENCE,
      issuer: s.config.jwtIssuer,
      algorithms: ["HS256"],
      currentDate: s.clock(),
    });
    if (payload.snd !== soundId || typeof payload.sub !== "string") return null;
    return (await s.db.selectFrom("users").selectAll().where("id", "=", payload.sub).executeTakeFirst()) ?? null;
  } catch {
    return null;
  }
}

// ---- my sounds and ratings ------------------------------------------------------------------

export async function ownedSounds(db: Db, userId: string): Promise<(SoundDto & { purchasedAt: string; myRating: number | null })[]> {
  const rows = await db
    .selectFrom("sound_purchases as p")
    .innerJoin("marketplace_sounds as s", "s.id", "p.sound_id")
    .leftJoin("sound_ratings as r", (j) => j.onRef("r.sound_id", "=", "p.sound_id").onRef("r.user_id", "=", "p.user_id"))
    .selectAll("s")
    .select(["p.created_at as purchased_at", "r.rating as my_rating"])
    .where("p.user_id", "=", userId)
    .orderBy("p.created_at", "desc")
    .execute();
  return rows.map((r) => ({ ...toDto(r), purchasedAt: r.purchased_at, myRating: r.my_rating ?? null }));
}

export const ratingBody = z.object({
  rating: z
    .number({ error: T.ratingInvalid })
    .int({ error: T.ratingInvalid })
    .min(RATING_MIN, { error: T.ratingInvalid })
    .max(RATING_MAX, { error: T.ratingInvalid }),
});

/** One rating per owner and sound (409 on a second). */
export async function rateSound(s: Services, user: UserRow, soundId: string, rating: number): Promise<SoundDto> {
  await findSound(s.db, soundId);
  if (!(await owns(s.db, user.id, soundId))) throw new ApiError(403, T.ratingNeedsPurchase);
  const added = await s.db.transaction().execute(async (trx) => {
    const res = await trx
      .insertInto("sound_ratings")
      .values({ user_id: user.id, sound_id: soundId, rating, created_at: s.clock().toISOString() })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(res.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await trx
      .updateTable("marketplace_sounds")
      .set({ rating_sum: sql`rating_sum + ${rating}`, rating_count: sql`rating_count + 1` })
      .where("id", "=", soundId)
      .execute();
    return true;
  });
  if (added) listingCache(s.db).clear();
  if (!added) throw new ApiError(409, T.alreadyRated);
  return toDto(await findSound(s.db, soundId));
}

/** A Readable over chunks a generator makes (used to store rendered sounds). */
export function readableOf(chunks: Iterable<Uint8Array>): Readable {
  return Readable.from((function* () {
    for (const c of chunks) yield Buffer.from(c); // copied: the renderer reuses its buffers
  })());
}
