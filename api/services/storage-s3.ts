// The S3-compatible object store (STORAGE_URL=s3://bucket/prefix), through the official
// @aws-sdk/client-s3. An upload is first written to a local temporary file (the upload route
// sniffs its magic bytes and reads its duration from that path); commit() sends it with one
// PutObject, which S3 stores atomically, and removes the local copy, so no partial object ever
// appears under a real key. Reads are GetObject with a Range header, streamed. Any failure of the
// store itself (down, refusing our credentials, no such bucket) is a StoreUnavailable, which
// clients see as a 503 with a clear text (storage-faults.ts).
import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import { PassThrough, type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { checkKey, type FileStorage, keyFor, type S3Location, sweepPartials, writeIncoming } from "./storage";
import { storageError, StoreUnavailable } from "./storage-faults";

export interface S3StorageOptions extends S3Location {
  /** S3_ENDPOINT: an S3-compatible server (MinIO, s3rver, ...), addressed path-style. */
  endpoint?: string;
  /** AWS_REGION (default us-east-1). */
  region?: string;
  /** Local folder for uploads in progress (DATA_DIR/tmp/uploads). */
  tmpDir: string;
  /** Explicit credentials (tests); otherwise the SDK's standard chain (AWS_ACCESS_KEY_ID, ...). */
  credentials?: S3ClientConfig["credentials"];
}

/** Passes on the first `n` bytes only: a store that answers a range with more than was asked
 *  (s3rver sends the whole rest of the file for "bytes=0-0") must not corrupt a 206. */
function firstBytes(n: number): Transform {
  let left = n;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (left > 0) this.push(chunk.length <= left ? chunk : chunk.subarray(0, left));
      left -= chunk.length;
      done();
    },
  });
}

const isNotFound = (err: unknown): boolean => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
};

export function s3Storage(opts: S3StorageOptions): FileStorage {
  const client = new S3Client({
    region: opts.region ?? "us-east-1",
    ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
    // A store that does not answer is a 503 within seconds, not a request hanging for minutes.
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000 },
    maxAttempts: 2,
    // Checksums only where S3 requires them: the default streams uploads as aws-chunked with a
    // trailing CRC, which several S3-compatible stores do not accept.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // Failures reach the client as a 503 and the log through the API's error handler; the SDK's
    // own console warnings would only repeat them without the request they belong to.
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const Bucket = opts.bucket;
  const objectKey = (key: string) => opts.prefix + checkKey(key);

  return {
    async write(source) {
      const { id, path, bytes } = await writeIncoming(opts.tmpDir, source);
      let done = false;
      return {
        path,
        bytes,
        async commit(ext) {
          const key = keyFor(id, ext);
          try {
            await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: createReadStream(path), ContentLength: bytes }));
          } catch (err) {
            throw storageError(new StoreUnavailable(err));
          }
          done = true;
          await rm(path, { force: true });
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
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return head.ContentLength ?? 0;
      } catch (err) {
        if (isNotFound(err)) return null;
        throw storageError(new StoreUnavailable(err));
      }
    },
    read(key, range) {
      const Key = objectKey(key);
      const out = new PassThrough();
      const abort = new AbortController();
      // A reader that goes away (a seeking <audio>) ends the request to the store as well.
      out.once("close", () => abort.abort());
      client
        .send(new GetObjectCommand({ Bucket, Key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }), {
          abortSignal: abort.signal,
        })
        .then((res) => pipeline(res.Body as Readable, ...(range ? [firstBytes(range.end - range.start + 1)] : []), out))
        .catch((err: unknown) => {
          if (!out.destroyed) out.destroy(storageError(new StoreUnavailable(err)) as Error);
        });
      return out;
    },
    localPath: () => null,
    async remove(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      } catch (err) {
        throw storageError(new StoreUnavailable(err));
      }
    },
    sweep: (olderThanMs) => sweepPartials(opts.tmpDir, olderThanMs),
  };
}
