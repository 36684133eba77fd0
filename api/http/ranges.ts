// HTTP range responses (RFC 9110 section 14) for audio: previews stream into an <audio> element
// with range requests, downloads resume. One range per request (a multi-range request gets the
// whole file, which the RFC allows); an unsatisfiable one is a 416 with the size and a JSON {error}.
import type { Readable } from "node:stream";
import { MSG } from "../messages";
import type { ByteRange } from "../services/storage";

export type RangeResult = ByteRange | "unsatisfiable" | null;

/** The one byte range of a Range header for a resource of `size` bytes; null = send it all. */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return null;
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!m) return null; // malformed or several ranges: ignore, answer 200
  const [, a, b] = m;
  if (a === "" && b === "") return null;
  if (a === "") {
    const suffix = Number(b);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  if (start >= size) return "unsatisfiable";
  const end = b === "" ? size - 1 : Math.min(Number(b), size - 1);
  if (end < start) return null;
  return { start, end };
}

export interface RangedBody {
  size: number;
  mime: string;
  open(range: ByteRange): Readable;
  /** Content-Disposition, e.g. an attachment for downloads. */
  disposition?: string;
}

/** 200 with the whole body, 206 with one range, or 416; Accept-Ranges always. */
export function rangedResponse(rangeHeader: string | undefined, body: RangedBody, head = false): Response {
  const headers = new Headers({
    "Accept-Ranges": "bytes",
    "Content-Type": body.mime,
    "Cache-Control": "private, max-age=0, must-revalidate",
  });
  if (body.disposition) headers.set("Content-Disposition", body.disposition);
  const range = parseRange(rangeHeader, body.size);
  if (range === "unsatisfiable") {
    // An error like every other: JSON {error}, with the size in Content-Range as RFC 9110 asks.
    headers.set("Content-Range", `bytes */${body.size}`);
    headers.set("Content-Type", "application/json");
    return new Response(head ? null : JSON.stringify({ error: MSG.rangeNotSatisfiable }), { status: 416, headers });
  }
  const r = range ?? { start: 0, end: body.size - 1 };
  const length = body.size === 0 ? 0 : r.end - r.start + 1;
  headers.set("Content-Length", String(length));
  if (range) headers.set("Content-Range", `bytes ${r.start}-${r.end}/${body.size}`);
  const status = range ? 206 : 200;
  if (head || length === 0) return new Response(null, { status, headers });
  return new Response(webStreamOf(body.open(r)), { status, headers });
}

/** Chunks queued for a slow client before the file is paused. */
const QUEUED_CHUNKS = 8;

/** A web stream over a Node stream, as Readable.toWeb, but safe when the reader cancels: Node 20's
 *  adapter still enqueues data a PassThrough (the WAV preview) emits after a client went away (an
 *  <audio> element seeking aborts its range request), and the ERR_INVALID_STATE it throws from the
 *  'data' handler is uncaught and ends the process. Found by tests/unit/api/fuzz.test.ts. */
export function webStreamOf(node: Readable): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        node.on("data", (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) node.pause();
        });
        node.on("end", () => {
          if (done) return;
          done = true;
          controller.close();
        });
        // Kept after the end too: a later 'error' without a listener would also be uncaught.
        node.on("error", (err) => {
          if (done) return;
          done = true;
          controller.error(err);
        });
      },
      pull() {
        node.resume();
      },
      cancel() {
        done = true;
        node.destroy();
      },
    },
    { highWaterMark: QUEUED_CHUNKS },
  );
}
