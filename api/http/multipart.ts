// Streaming multipart/form-data for uploads (busboy): text fields are collected (small, limited),
// the one file part is streamed straight into storage as it arrives, never held in memory. Past
// the size limit the request is cut off at once and answered 413; a malformed body is a 400; in
// every failure the partial file is removed.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import type { Context } from "hono";
import { ApiError } from "../errors";
import type { FileStorage, PendingFile } from "../services/storage";
import { containsNul, NUL_REFUSED } from "../rules/text-input";

export interface MultipartOptions {
  storage: FileStorage;
  /** The form field that carries the file; other file parts are refused. */
  fileField: string;
  maxFileBytes: number;
  /** 413 text. */
  tooLarge: string;
  maxFields?: number;
  maxFieldBytes?: number;
}

export interface MultipartForm {
  fields: Record<string, string>;
  /** The uploaded file, still pending: commit or discard it. Null when none was sent. */
  file: PendingFile | null;
  /** Bytes in the file. */
  fileBytes: number;
}

class TooLarge extends Error {}

/** Multipart overhead allowed beyond the file itself before a Content-Length is refused unread. */
const ENVELOPE_BYTES = 1024 * 1024;

export async function readMultipart(c: Context, opts: MultipartOptions): Promise<MultipartForm> {
  const type = c.req.header("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new ApiError(400, "Expected a multipart/form-data body");
  const declared = Number(c.req.header("content-length"));
  if (Number.isFinite(declared) && declared > opts.maxFileBytes + ENVELOPE_BYTES) throw new ApiError(413, opts.tooLarge);
  const body = c.req.raw.body;
  if (!body) throw new ApiError(400, "Expected a multipart/form-data body");

  const source = Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      limits: {
        fileSize: opts.maxFileBytes,
        files: 1,
        fields: opts.maxFields ?? 20,
        fieldSize: opts.maxFieldBytes ?? 64 * 1024,
        parts: (opts.maxFields ?? 20) + 1,
      },
    });
  } catch {
    throw new ApiError(400, "Malformed multipart body");
  }

  const fields: Record<string, string> = {};
  let file: Promise<PendingFile> | null = null;
  let refused: ApiError | null = null;
  let overLimit = false;
  let storeFailure: unknown = null;
  // Past the limit the parser is stopped at once: pipeline() then ends the request stream too.
  const cut = (err: Error) => setImmediate(() => source.destroy(err));

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) refused ??= new ApiError(413, "A form field is too long");
    else if (containsNul(name) || containsNul(value)) refused ??= new ApiError(400, NUL_REFUSED);
    else if (!(name in fields)) fields[name] = value;
  });
  parser.on("file", (name, stream) => {
    // A body cut off inside a file part errors that part's stream too ("Unexpected end of form"),
    // possibly before storage has started reading it (it first makes its folder), and an 'error'
    // nobody listens to ends the process (found by tests/unit/api/http/multipart-fuzz.test.ts). Heard
    // here; the parser's own error answers the request, and storage still sees the stream failed.
    stream.on("error", () => undefined);
    if (name !== opts.fileField || file) {
      stream.resume();
      return;
    }
    stream.on("limit", () => {
      overLimit = true;
      cut(new TooLarge());
    });
    file = opts.storage.write(stream);
    // A store that fails (disk full, read-only, down) stops reading the part, and the parser
    // then waits for it forever, even once the whole request has arrived: both are stopped and
    // the store's error is answered below.
    file.catch((err: unknown) => {
      storeFailure ??= err;
      const reason = err instanceof Error ? err : new Error(String(err));
      setImmediate(() => {
        source.destroy(reason);
        parser.destroy(reason);
      });
    });
  });
  parser.on("fieldsLimit", () => (refused ??= new ApiError(413, "Too many form fields")));
  parser.on("partsLimit", () => (refused ??= new ApiError(413, "Too many form fields")));

  let failure: unknown = null;
  try {
    await pipeline(source, parser);
  } catch (err) {
    failure = err;
  }
  const pending = file ? await (file as Promise<PendingFile>).catch((err: unknown) => ((failure ??= err), null)) : null;
  if (failure || refused || overLimit) {
    await pending?.discard();
    if (overLimit) throw new ApiError(413, opts.tooLarge);
    if (refused) throw refused;
    if (storeFailure instanceof ApiError) throw storeFailure; // 507 or 503 from storage-faults.ts
    throw new ApiError(400, "Malformed or interrupted multipart body");
  }
  return { fields, file: pending, fileBytes: pending?.bytes ?? 0 };
}
