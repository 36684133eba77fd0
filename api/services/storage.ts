// Where uploaded and rendered files live: one small interface, with the local directory
// (DATA_DIR/files) as its default implementation here and an S3-compatible object store in
// storage-s3.ts (STORAGE_URL; storage-config.ts picks one). Keys are made by the server (a random
// UUID and an extension), never taken from a request, so no client text ever reaches a path.
// Writes go to a temporary name first and are renamed into place only when complete: a failed or
// refused upload leaves no partial file under a real key. A full or read-only disk is answered
// as storage-faults.ts says (507 or 503), never as a 500.
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { storageError, storageFault, unwritableError } from "./storage-faults";

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/** A file being written: complete it with commit() or throw it away with discard(). */
export interface PendingFile {
  /** Local path of the bytes written so far (readers such as magic-byte checks use it). */
  readonly path: string;
  /** Bytes written. */
  readonly bytes: number;
  commit(ext: string): Promise<string>;
  discard(): Promise<void>;
}

export interface FileStorage {
  /** Streams `source` into a pending file (never buffered whole). */
  write(source: Readable): Promise<PendingFile>;
  /** Size in bytes, or null when there is no such key. */
  size(key: string): Promise<number | null>;
  /** The bytes of `key`, all or one inclusive range. */
  read(key: string, range?: ByteRange): Readable;
  /** A local path for tools that read files (e.g. music-metadata), or null for remote stores. */
  localPath(key: string): string | null;
  remove(key: string): Promise<void>;
  /** Removes the uploads in progress (PARTIAL_SUFFIX files in the store's temporary folder) last
   *  written more than `olderThanMs` ago: what a crash or a kill left. Answers how many went. */
  sweep(olderThanMs: number): Promise<number>;
}

/** The suffix of a file still being received: every upload is written under `<uuid>.partial` in
 *  the store's temporary folder, and only a complete one is renamed to a real key. */
export const PARTIAL_SUFFIX = ".partial";

/** An upload in progress this long after its last write is a leftover: no request lives that
 *  long (Node's requestTimeout ends an upload after 5 minutes), so the sweep may take it. */
export const PARTIAL_STALE_MS = 60 * 60_000;

/** How often a running server sweeps leftovers (and once at start). */
export const PARTIAL_SWEEP_EVERY_MS = 10 * 60_000;

/** Removes the files of `tmp` not written for `olderThanMs` (a missing folder has none): the
 *  `.partial` uploads a crash left, and the unnamed ones of older versions. */
export async function sweepPartials(tmp: string, olderThanMs: number, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tmp);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names) {
    const path = join(tmp, name);
    try {
      const info = await stat(path);
      if (!info.isFile() || now - info.mtimeMs < olderThanMs) continue;
      await rm(path, { force: true });
      removed++;
    } catch {
      // gone meanwhile (committed or discarded by its request)
    }
  }
  return removed;
}

const KEY = /^[0-9a-f-]{36}\.[a-z0-9]{1,5}$/;
const EXT = /^[a-z0-9]{1,5}$/;

/** Throws unless `key` is one the server made (a UUID and an extension). */
export function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

/** The key a pending file is committed under. */
export function keyFor(id: string, ext: string): string {
  if (!EXT.test(ext)) throw new Error(`Invalid extension: ${ext}`);
  return checkKey(`${id}.${ext}`);
}

/** A file streamed into `tmp` under a fresh UUID: the first half of every store's write(). */
export interface IncomingFile {
  id: string;
  path: string;
  bytes: number;
}

/** Streams `source` into a new file in `tmp`; on any failure the partial file is removed and a
 *  disk fault (full, read-only) is thrown as the ApiError a client should see. */
export async function writeIncoming(tmp: string, source: Readable): Promise<IncomingFile> {
  const id = randomUUID();
  const path = join(tmp, id + PARTIAL_SUFFIX);
  try {
    await mkdir(tmp, { recursive: true });
  } catch (err) {
    source.destroy(); // nobody will read it now
    // Any reason the folder cannot be made (read-only, no permission, a file in its place) means
    // uploads cannot be written; a full disk stays a full disk.
    throw storageFault(err) ? storageError(err) : unwritableError(err);
  }
  const out = createWriteStream(path, { flags: "wx", mode: 0o600 });
  try {
    await pipeline(source, out);
    return { id, path, bytes: (await stat(path)).size };
  } catch (err) {
    // A source that fails at once can beat the file's own open: removing the path before the
    // stream has closed would let the open create it afterwards and leave it behind (seen as a
    // stray .incoming file in CI's fuzzing of uploads). Wait for the close, then remove.
    if (!out.closed) await new Promise((resolve) => out.once("close", resolve));
    await rm(path, { force: true });
    throw storageError(err);
  }
}

/** The local-directory store under `dir` (created when missing). */
export function localStorage(dir: string): FileStorage {
  const tmp = join(dir, ".incoming");
  const pathOf = (key: string): string => join(dir, checkKey(key));
  return {
    async write(source) {
      const { id, path, bytes } = await writeIncoming(tmp, source);
      let done = false;
      return {
        path,
        bytes,
        async commit(ext) {
          const key = keyFor(id, ext);
          try {
            await rename(path, pathOf(key));
          } catch (err) {
            throw storageError(err);
          }
          done = true;
          return key;
        },
        async discard() {
          if (!done) await rm(path, { force: true });
          done = true;
        },
      };
    },
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw storageError(err);
      }
    },
    read(key, range) {
      return createReadStream(pathOf(key), range ? { start: range.start, end: range.end } : undefined);
    },
    localPath: (key) => pathOf(key),
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    sweep: (olderThanMs) => sweepPartials(tmp, olderThanMs),
  };
}

/** Where an S3-compatible store keeps the files (STORAGE_URL s3://bucket/prefix/). */
export interface S3Location {
  bucket: string;
  /** "" or a folder ending in "/": every key is stored under it. */
  prefix: string;
}
