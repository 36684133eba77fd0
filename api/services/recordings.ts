// Voice recordings an account keeps: a row per recording (migration 014) and its WAV in the file
// store (storage.ts: the local directory or the S3-compatible bucket) under a server-made key.
// The upload is streamed to storage (never held whole) and cut off past the byte limit; its header
// must say RIFF WAVE, PCM 16-bit, 48 kHz, mono or stereo, at most RECORDING_MAX_SECONDS, and the
// data must be all there. Every read and delete is by the owner only (another account's id is
// answered as not found); a shared preset that lists a recording (ticked in the studio) lets anyone
// with its link fetch that recording's audio.
import { randomUUID } from "node:crypto";
import { open } from "node:fs/promises";
import { pipeline, Readable, Transform } from "node:stream";
import type { Selectable } from "kysely";
import { parseWavHeader, type WavInfo } from "../../dsp/host/export/wav";
import type { Services } from "../context";
import type { RecordingsTable, UserRow } from "../db/schema";
import { ApiError } from "../errors";
import {
  RECORDING_BITS, RECORDING_MAX_CHANNELS, RECORDING_MAX_SECONDS, RECORDING_RATE, RECORDING_TEXT as T, RECORDINGS_PER_ACCOUNT,
  type RecordingFile, type RecordingInfo,
} from "../rules/recordings";
import { type FileStorage, PARTIAL_STALE_MS, type PendingFile } from "./storage";
import { dialectOf } from "../db/dialect";
import { REFUSED_BODY_DISCARD } from "../http/boundary";
import type { RecordingSource } from "./video-export";
import { type RecordingPlacement, usedClips } from "../../dsp/host/model/recordings";

type RecordingRow = Selectable<RecordingsTable>;

export function recordingInfo(r: RecordingRow): RecordingInfo {
  const frames = Number(r.frames);
  const sampleRate = Number(r.sample_rate);
  return {
    id: r.id,
    name: r.name,
    duration: frames / sampleRate,
    channels: Number(r.channels),
    sampleRate,
    bytes: Number(r.bytes),
    createdAt: r.created_at,
  };
}

/** Checks a WAV header against the one format kept; throws the 400 or 413 a client should see.
 *  `bytes` is the whole upload's length: the file must end where its audio data does (a padding
 *  byte after odd-sized data allowed), so that nothing but the recording is stored and served. */
export function checkRecordingHeader(head: Uint8Array, bytes: number): WavInfo {
  let info: WavInfo;
  try {
    info = parseWavHeader(head);
  } catch {
    throw new ApiError(400, T.badFormat);
  }
  const pcm = info.formatTag === 1 || info.formatTag === 0xfffe;
  if (!pcm || info.bitsPerSample !== RECORDING_BITS || info.sampleRate !== RECORDING_RATE || info.channels < 1 || info.channels > RECORDING_MAX_CHANNELS) {
    throw new ApiError(400, T.badFormat);
  }
  const end = info.dataOffset + info.dataBytes;
  if (info.blockAlign !== info.channels * 2 || info.frames < 1 || end > bytes) throw new ApiError(400, T.badFormat);
  if (info.frames > RECORDING_MAX_SECONDS * RECORDING_RATE) throw new ApiError(413, T.tooLong);
  const trailing = bytes - end - (info.dataBytes % 2);
  if (trailing > 0) throw new ApiError(400, T.trailingBytes(trailing));
  return info;
}

/** Thrown into the upload's pipeline when a refused body goes on past what is dropped of it. */
class OverLimit extends Error {
  constructor() {
    super("over the upload limit");
    this.name = "OverLimit";
  }
}

/** Passes at most `max` bytes through. Past them its output ends (the file store then has all it
 *  gets, and `over()` says why) while the rest of the body is read and dropped, up to
 *  REFUSED_BODY_DISCARD.maxBytes, so that the client can read the refusal (http/boundary.ts says
 *  why); a body that goes on past that fails the pipeline, which closes the connection. */
function byteCap(max: number): { cap: Transform; over: () => boolean } {
  let seen = 0;
  let over = false;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (over) return done(seen - max > REFUSED_BODY_DISCARD.maxBytes ? new OverLimit() : null);
      if (seen <= max) return done(null, chunk);
      over = true;
      this.push(null);
      done();
    },
  });
  return { cap, over: () => over };
}

/** A reservation left by a process that died stops counting after this long (no upload request
 *  lives that long: storage.ts PARTIAL_STALE_MS). */
export const RESERVATION_STALE_MS = PARTIAL_STALE_MS;

interface Reservation {
  id: string;
  /** Bytes held: the upload may not pass them. */
  bytes: number;
}

/** Holds room for one upload of at most `wanted` bytes, in one transaction that also counts what
 *  the account keeps and has in flight: 409 past RECORDINGS_PER_ACCOUNT or the account's byte cap.
 *  On PostgreSQL the account's row is locked first (FOR UPDATE), so concurrent uploads of one
 *  account are admitted one after the other; SQLite runs one write transaction at a time. */
export async function reserveRecording(s: Services, userId: string, wanted: number): Promise<Reservation> {
  const now = s.clock();
  const cap = s.config.maxRecordingAccountBytes;
  const postgres = dialectOf(s.db) === "postgres";
  return s.db.transaction().execute(async (trx) => {
    if (postgres) await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().executeTakeFirst();
    const stale = new Date(now.getTime() - RESERVATION_STALE_MS).toISOString();
    await trx.deleteFrom("recording_reservations").where("user_id", "=", userId).where("created_at", "<", stale).execute();
    const kept = await trx
      .selectFrom("recordings")
      .select((eb) => [eb.fn.countAll().as("n"), eb.fn.sum("bytes").as("bytes")])
      .where("user_id", "=", userId)
      .executeTakeFirst();
    const held = await trx
      .selectFrom("recording_reservations")
      .select((eb) => [eb.fn.countAll().as("n"), eb.fn.sum("bytes").as("bytes")])
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (Number(kept?.n ?? 0) + Number(held?.n ?? 0) >= RECORDINGS_PER_ACCOUNT) throw new ApiError(409, T.tooMany);
    const room = cap - Number(kept?.bytes ?? 0) - Number(held?.bytes ?? 0);
    // A body of unknown length holds what is left, up to the upload limit; a declared one holds its length.
    const bytes = Math.min(wanted, room);
    if (room <= 0 || (bytes < wanted && wanted !== s.config.maxRecordingBytes)) throw new ApiError(409, T.accountFull(cap));
    const id = randomUUID();
    await trx.insertInto("recording_reservations").values({ id, user_id: userId, bytes, created_at: now.toISOString() }).execute();
    return { id, bytes };
  });
}

/** Gives a reservation's room back (the upload failed or was refused). */
async function releaseReservation(s: Services, id: string): Promise<void> {
  await s.db.deleteFrom("recording_reservations").where("id", "=", id).execute();
}

/** Stores an uploaded recording: room is reserved first (reserveRecording), the body is streamed
 *  through a byte cap into the file store (a client that goes away mid-upload fails this request
 *  alone, and its partial file is removed), the header is checked, and the row replaces the
 *  reservation in one transaction. `declaredBytes`: the request's Content-Length, when it sent one. */
export async function createRecording(
  s: Services,
  storage: FileStorage,
  user: UserRow,
  name: string,
  body: ReadableStream<Uint8Array> | null,
  declaredBytes?: number,
): Promise<RecordingInfo> {
  if (!body) throw new ApiError(400, T.badFormat);
  const max = s.config.maxRecordingBytes;
  const reservation = await reserveRecording(s, user.id, declaredBytes ?? max);
  let file: PendingFile | null = null;
  try {
    const source = Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
    const { cap, over } = byteCap(reservation.bytes);
    // pipeline() hears every error of both streams (a reset socket, a body that will not stop) and
    // destroys the other; the file store's own pipeline then fails and removes the partial file.
    const upload = pipeline(source, cap, () => {});
    const refusal = () =>
      reservation.bytes < max ? new ApiError(409, T.accountFull(s.config.maxRecordingAccountBytes)) : new ApiError(413, T.tooLarge(max), { Connection: "close" });
    try {
      file = await storage.write(upload);
    } catch (err) {
      throw over() ? refusal() : err;
    }
    if (over()) throw refusal();
    const head = new Uint8Array(Math.min(4096, file.bytes));
    const fh = await open(file.path, "r");
    try {
      await fh.read(head, 0, head.length, 0);
    } finally {
      await fh.close();
    }
    const info = checkRecordingHeader(head, file.bytes);
    const key = await file.commit("wav");
    const row: RecordingRow = {
      id: randomUUID(),
      user_id: user.id,
      name,
      file_key: key,
      bytes: file.bytes,
      frames: info.frames,
      channels: info.channels,
      sample_rate: info.sampleRate,
      created_at: s.clock().toISOString(),
    };
    try {
      await s.db.transaction().execute(async (trx) => {
        await trx.insertInto("recordings").values(row).execute();
        await trx.deleteFrom("recording_reservations").where("id", "=", reservation.id).execute();
      });
    } catch (err) {
      await storage.remove(key).catch(() => {});
      throw err;
    }
    return recordingInfo(row);
  } catch (err) {
    await file?.discard();
    await releaseReservation(s, reservation.id).catch((e: unknown) => s.log.error("recording reservation not released", { reason: e instanceof Error ? e.message : String(e) }));
    throw err;
  }
}

export async function listRecordings(s: Services, user: UserRow): Promise<RecordingInfo[]> {
  const rows = await s.db.selectFrom("recordings").selectAll().where("user_id", "=", user.id).orderBy("created_at", "desc").orderBy("id").execute();
  return rows.map(recordingInfo);
}

/** The user's own recording; another account's, or none, is 404. */
export async function ownRecording(s: Services, user: UserRow, id: string): Promise<RecordingRow> {
  const row = await s.db.selectFrom("recordings").selectAll().where("id", "=", id).where("user_id", "=", user.id).executeTakeFirst();
  if (!row) throw new ApiError(404, T.notFound);
  return row;
}

/** A recording that the shared preset `presetId` lists, by the account that shared it; else 404. */
export async function sharedRecording(s: Services, presetId: string, id: string): Promise<RecordingRow> {
  const preset = await s.db.selectFrom("presets").select(["user_id", "data"]).where("id", "=", presetId).executeTakeFirst();
  const row = await s.db.selectFrom("recordings").selectAll().where("id", "=", id).executeTakeFirst();
  if (!preset || !row || preset.user_id !== row.user_id) throw new ApiError(404, T.notFound);
  let listed = false;
  try {
    const data = JSON.parse(preset.data) as { recordings?: { id?: unknown; shared?: unknown }[] };
    listed = Array.isArray(data.recordings) && data.recordings.some((r) => r?.id === id && r.shared === true);
  } catch {
    // unreadable data lists nothing
  }
  if (!listed) throw new ApiError(404, T.notFound);
  return row;
}

export async function deleteRecording(s: Services, storage: FileStorage, user: UserRow, id: string): Promise<void> {
  const row = await ownRecording(s, user, id);
  await s.db.deleteFrom("recordings").where("id", "=", row.id).where("user_id", "=", user.id).execute();
  await storage.remove(row.file_key).catch((err: unknown) => s.log.error("recording file not removed", { key: row.file_key, reason: err instanceof Error ? err.message : String(err) }));
}

/** The files of the placements' recordings that `userId` owns (a video export renders the
 *  account's own recordings; others' placements stay silent in it), with their lengths. */
export async function ownRecordingFiles(s: Services, userId: string, placements: readonly RecordingPlacement[]): Promise<RecordingFile[]> {
  const ids = [...new Set(placements.map((p) => p.id))];
  if (ids.length === 0) return [];
  const rows = await s.db.selectFrom("recordings").select(["id", "file_key", "frames"]).where("user_id", "=", userId).where("id", "in", ids).execute();
  return rows.map((r) => ({ id: r.id, key: r.file_key, frames: Number(r.frames) }));
}

/** The files of `files` the engine will hold for `placements`: in first-use order, each once, as
 *  many as its store takes (dsp/host/model/recordings.ts usedClips, from the lengths the database
 *  keeps, so nothing is read to find out). A file of unknown length counts as the longest. */
export function filesToLoad(placements: readonly RecordingPlacement[] | undefined, files: readonly RecordingFile[]): RecordingFile[] {
  const byId = new Map(files.map((f) => [f.id, f]));
  const sized = new Map(files.map((f) => [f.id, { id: f.id, rate: RECORDING_RATE, frames: f.frames ?? RECORDING_MAX_SECONDS * RECORDING_RATE, pcm: new Int16Array(0) }]));
  return usedClips(placements, sized).map((c) => byId.get(c.id)!);
}

/** Bytes a render holds for these recordings: each clip's mono 16-bit samples, once (they are
 *  streamed straight into the engine's store); the memory budget of services/video-export.ts
 *  counts it. */
export function recordingBytesHeld(files: readonly RecordingFile[]): number {
  return files.reduce((n, f) => n + framesOf(f) * 2, 0);
}

const framesOf = (f: RecordingFile): number => Math.min(f.frames ?? RECORDING_MAX_SECONDS * RECORDING_RATE, RECORDING_MAX_SECONDS * RECORDING_RATE);

/** Streams one stored recording into `pcm`, mixed down to mono as it arrives (a channel average,
 *  as dsp/host/export/recording-wav.ts clipFromWav does): no more than one chunk of the file is
 *  held besides `pcm`. A missing or unreadable file, or one not at the recordings' format, leaves
 *  `pcm` silent. */
async function streamInto(storage: FileStorage, file: RecordingFile, pcm: Int16Array): Promise<void> {
  let head: Uint8Array = new Uint8Array(0);
  let info: WavInfo | null = null;
  let frame = 0;
  let carry: Uint8Array = new Uint8Array(0); // a frame split between two chunks
  const formatOk = (i: WavInfo) => i.bitsPerSample === RECORDING_BITS && i.sampleRate === RECORDING_RATE && i.blockAlign === i.channels * 2;
  for await (const chunk of storage.read(file.key) as AsyncIterable<Buffer>) {
    let bytes: Uint8Array = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!info) {
      const joined = new Uint8Array(head.length + bytes.length);
      joined.set(head);
      joined.set(bytes, head.length);
      head = joined;
      if (head.length < 4096) continue;
      info = parseWavHeader(head.subarray(0, 4096));
      if (!formatOk(info)) return;
      bytes = head.subarray(info.dataOffset);
    }
    ({ frame, carry } = mixDown(bytes, carry, info, pcm, frame));
    if (frame >= pcm.length) return;
  }
  if (!info && head.length >= 12) {
    info = parseWavHeader(head);
    if (formatOk(info)) mixDown(head.subarray(info.dataOffset), carry, info, pcm, 0);
  }
}

/** Mixes the whole frames of `carry` + `bytes` into `pcm` from `frame`; answers the next frame and
 *  the bytes of a frame left over. */
function mixDown(bytes: Uint8Array, carry: Uint8Array, info: WavInfo, pcm: Int16Array, frame: number): { frame: number; carry: Uint8Array } {
  let data: Uint8Array = bytes;
  if (carry.length > 0) {
    data = new Uint8Array(carry.length + bytes.length);
    data.set(carry);
    data.set(bytes, carry.length);
  }
  const align = info.blockAlign;
  const ch = info.channels;
  const whole = Math.min(Math.floor(data.length / align), pcm.length - frame);
  const v = new DataView(data.buffer, data.byteOffset, whole * align);
  if (ch === 1) {
    for (let i = 0; i < whole; i++) pcm[frame + i] = v.getInt16(i * 2, true);
  } else {
    for (let i = 0; i < whole; i++) {
      let sum = 0;
      for (let c = 0; c < ch; c++) sum += v.getInt16((i * ch + c) * 2, true);
      pcm[frame + i] = Math.round(sum / ch);
    }
  }
  return { frame: frame + whole, carry: data.slice(whole * align) };
}

/** The recordings a video export renders, for services/video-export.ts: the bytes they will hold
 *  (its memory budget), the clips' lengths in the order the engine stores them, and the filling of
 *  the engine's room for them, which runs once the export has its render slot. */
export function recordingSource(storage: FileStorage | null, placements: readonly RecordingPlacement[] | undefined, files: readonly RecordingFile[] | undefined): RecordingSource | undefined {
  if (!storage || !files || files.length === 0) return undefined;
  const used = filesToLoad(placements, files);
  return {
    bytes: recordingBytesHeld(used),
    clips: used.map((f) => ({ id: f.id, frames: framesOf(f) })),
    async fill(clips) {
      for (const [i, f] of used.entries()) {
        if ((await storage.size(f.key)) === null) continue;
        await streamInto(storage, f, clips[i].pcm).catch(() => {});
      }
    },
  };
}
