// What a failing file store means to a client: the one mapping from storage failures (a full or
// read-only disk under DATA_DIR, an object store that is down or refuses us) to a clear 4xx/5xx
// answer with its text from api/messages.ts. Both stores (storage.ts, storage-s3.ts) pass their
// failures through storageError(), so routes and services only ever see an ApiError for them.
import { ApiError } from "../errors";
import { MSG } from "../messages";

/** Disk full, quota or file-size limit reached: nothing more can be stored. */
const FULL = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);
/** The directory refuses writes: permissions, a read-only mount, a path that is not a folder. */
const UNWRITABLE = new Set(["EACCES", "EPERM", "EROFS", "ENOTDIR", "EISDIR", "ELOOP"]);

/** Raised by a remote store (S3) for any request that failed for reasons of its own. */
export class StoreUnavailable extends Error {
  constructor(cause: unknown) {
    super(`File storage request failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "StoreUnavailable";
  }
}

/** The client-facing error for a storage failure, or null when `err` is not one. */
export function storageFault(err: unknown): ApiError | null {
  if (err instanceof ApiError) return null;
  if (err instanceof StoreUnavailable) return new ApiError(503, MSG.storageDown, { "Retry-After": "30" });
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return null;
  if (FULL.has(code)) return new ApiError(507, MSG.storageFull);
  if (UNWRITABLE.has(code)) return new ApiError(503, MSG.storageUnwritable);
  return null;
}

/** `err` as the ApiError a client should see when it is a storage failure, else unchanged. The
 *  original error is kept as the cause, so the error handler logs it. */
export function storageError(err: unknown): unknown {
  const fault = storageFault(err);
  if (!fault) return err;
  return Object.assign(fault, { cause: err });
}

/** The 503 for a store that cannot write its files at all, whatever the error said. */
export function unwritableError(err: unknown): ApiError {
  return Object.assign(new ApiError(503, MSG.storageUnwritable), { cause: err });
}
