// Voice recordings an account keeps: a row per recording (migration 014) and its WAV in the file
// store (storage.ts: the local directory or the S3-compatible bucket) under a server-made key.
// The upload is streamed to storage (never held whole) and cut off past the byte limit; its header
// must say RIFF WAVE, PCM 16-bit, 48 kHz, mono or stereo, at most RECORDING_MAX_SECONDS, and the
// data must be all there. Every read and delete is by the owner only (another account's id is
// answered as not found); a shared preset that lists a recording (ticked in the studio) lets anyone
// with its link fetch that recording's audio.
import { randomUUID } from "node:crypto";
import { open } from "node:fs/promises";
import { Readable, Transform } from "node:stream";
import type { Selectable } from "kysely";
import { parseWavHeader, type WavInfo } from "../../dsp/host/export/wav";
import type { Services } from "../context";
import type { RecordingsTable, UserRow } from "../db/schema";
import { ApiError } from "../errors";
import {
  RECORDING_BITS, RECORDING_MAX_CHANNELS, RECORDING_MAX_SECONDS, RECORDING_RATE, RECORDING_TEXT as T, RECORDINGS_PER_ACCOUNT,
  type RecordingFile, type RecordingInfo,
} from "../rules/recordings";
import type { FileStorage } from "./storage";
import { clipFromWav } from "../../dsp/host/export/recording-wav";
import type { RecordingClip, RecordingPlacement } from "../../dsp/host/model/recordings";

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

/** Checks a WAV header against the one format kept; throws the 400 or 413 a client should see. */
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
  if (info.blockAlign !== info.channels * 2 || info.frames < 1 || info.dataOffset + info.dataBytes > bytes) throw new ApiError(400, T.badFormat);
  if (info.frames > RECORDING_MAX_SECONDS * RECORDING_RATE) throw new ApiError(413, T.tooLong);
  return info;
}

/** Passes at most `max` bytes through; past it, ends the stream early and sets `over`. */
function capped(source: Readable, max: number): { stream: Readable; over: () => boolean } {
  let seen = 0;
  let over = false;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (over) return done();
      seen += chunk.length;
      if (seen > max) {
        over = true;
        source.unpipe(cap);
        source.resume(); // drop the rest
        cap.end();
        return done();
      }
      done(null, chunk);
    },
  });
  source.pipe(cap);
  return { stream: cap, over: () => over };
}

export async function createRecording(
  s: Services,
  storage: FileStorage,
  user: UserRow,
  name: string,
  body: ReadableStream<Uint8Array> | null,
): Promise<RecordingInfo> {
  const count = await s.db.selectFrom("recordings").select((eb) => eb.fn.countAll().as("n")).where("user_id", "=", user.id).executeTakeFirst();
  if (Number(count?.n ?? 0) >= RECORDINGS_PER_ACCOUNT) throw new ApiError(409, T.tooMany);
  if (!body) throw new ApiError(400, T.badFormat);
  const max = s.config.maxRecordingBytes;
  const { stream, over } = capped(Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>), max);
  const file = await storage.write(stream);
  let key: string;
  let info: WavInfo;
  try {
    if (over()) throw new ApiError(413, T.tooLarge(max), { Connection: "close" });
    const head = new Uint8Array(Math.min(4096, file.bytes));
    const fh = await open(file.path, "r");
    try {
      await fh.read(head, 0, head.length, 0);
    } finally {
      await fh.close();
    }
    info = checkRecordingHeader(head, file.bytes);
    key = await file.commit("wav");
  } catch (err) {
    await file.discard();
    throw err;
  }
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
    await s.db.insertInto("recordings").values(row).execute();
  } catch (err) {
    await storage.remove(key).catch(() => {});
    throw err;
  }
  return recordingInfo(row);
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
 *  account's own recordings; others' placements stay silent in it). */
export async function ownRecordingFiles(s: Services, userId: string, placements: readonly RecordingPlacement[]): Promise<RecordingFile[]> {
  const ids = [...new Set(placements.map((p) => p.id))];
  if (ids.length === 0) return [];
  const rows = await s.db.selectFrom("recordings").select(["id", "file_key"]).where("user_id", "=", userId).where("id", "in", ids).execute();
  return rows.map((r) => ({ id: r.id, key: r.file_key }));
}

/** Reads and decodes recording files into the clips the engine plays (a missing file is left out). */
export async function loadRecordingClips(storage: FileStorage | null, files: readonly RecordingFile[] | undefined): Promise<RecordingClip[]> {
  if (!storage || !files || files.length === 0) return [];
  const clips: RecordingClip[] = [];
  for (const f of files) {
    if ((await storage.size(f.key)) === null) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of storage.read(f.key)) chunks.push(chunk as Buffer);
    clips.push(clipFromWav(f.id, new Uint8Array(Buffer.concat(chunks))));
  }
  return clips;
}
