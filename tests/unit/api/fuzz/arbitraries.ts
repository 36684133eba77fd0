// fast-check generators for hostile HTTP input: path parameter values, query strings, headers,
// bodies (JSON of any shape, broken JSON, wrong types, huge strings, raw bytes) and multipart
// bodies (random parts, odd file names, duplicate and missing fields, truncated boundaries).
// Generated values stay small and printable: big inputs are described (a Huge of n characters) and only
// materialised when the request is sent, so a failing counterexample prints in a few lines.
import fc from "fast-check";

// ---- strings ----------------------------------------------------------------------------------

/** Percent sequences that are malformed, overlong, encode separators or NUL. */
export const PERCENT_SEQUENCES = [
  "%", "%%", "%zz", "%2", "%00", "%2F", "%2f..%2f", "%25", "%E0%A4%A", "%C0%AF", "%FF%FE", "%u0041", "%0D%0A", "%3Fx%3D1", "%23frag",
] as const;

export const SQLISH = [
  "' OR '1'='1", "'; DROP TABLE users; --", '" OR ""="', "1; SELECT * FROM sessions", "%' UNION SELECT password_hash FROM users --",
] as const;

/** A string too large to print: its length, materialised as repeated "a" when sent. A class, so
 *  that generated JSON (or an edit of a body that holds a Huge) can never pass for one. */
export class Huge {
  constructor(readonly huge: number) {}
  toString(): string {
    return `Huge(${this.huge})`;
  }
}
export const isHuge = (v: unknown): v is Huge => v instanceof Huge;
export const hugeText = (h: Huge): string => "a".repeat(h.huge);
const huge = (n: number) => new Huge(n);

/** Sizes around the limits: the 64 KiB JSON limit, the 1 MiB webhook limit, the 4200-byte token cap. */
const hugeSize = fc.constantFrom(4201, 10_000, 64 * 1024 + 1, 1024 * 1024 + 1);

/** E-mail-like strings with characters a validator may choke on. */
export const oddEmail = fc.oneof(
  fc.emailAddress(),
  fc
    .tuple(
      fc.string({ unit: fc.constantFrom(..."abc+%'\"<>;/\\ .()[]{}!#$&*=?^`|~\u00e9\u4e2d\u{1F600}\u0000\t"), minLength: 0, maxLength: 20 }),
      fc.constantFrom("example.com", "EXAMPLE.com", "localhost", "[127.0.0.1]", "xn--bcher-kva.example", "ex ample.com", "", "a@b.c"),
    )
    .map(([local, domain]) => `${local}@${domain}`),
  fc.constantFrom("@", "a@", "@b", "a@@b.co", " FREE@example.com ", "a".repeat(330) + "@example.com"),
);

/** Any text a hostile client might send as a value (small). */
export const weirdText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }), // lone surrogates included
  fc.constantFrom(...PERCENT_SEQUENCES, ...SQLISH, "", " ", "null", "undefined", "NaN", "-1", "1e309", "0x10", "../../etc/passwd", "__proto__", "constructor"),
  oddEmail,
);

// ---- values ----------------------------------------------------------------------------------

/** Field names the API's bodies use: random objects over them reach past "not an object". */
export const FIELD_NAMES = [
  "email", "password", "confirmPassword", "newPassword", "confirmNewPassword", "fullName", "name", "token", "code",
  "priceId", "mode", "session_id", "sessionId", "return_url", "durationMinutes", "enabled", "planType", "days",
  "durationHours", "reason", "rating", "backgroundType", "quality", "duration", "frequencies", "effects", "timeline",
  "verification", "data", "id", "type", "created", "object", "__proto__",
] as const;

/** Any JSON-ish value, biased towards the values the routes compare with (`known`). */
export function anyValue(known: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: weirdText },
    { weight: 2, arbitrary: fc.constantFrom(...known) },
    { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1, 10, 4, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2)) },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: hugeSize.map(huge) },
  );
}

/** Replaces every Huge marker inside a value with its string. */
export function materialise(v: unknown): unknown {
  if (isHuge(v)) return hugeText(v);
  if (Array.isArray(v)) return v.map(materialise);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = materialise(x);
    return out;
  }
  return v;
}

/** Every path into a JSON value (objects and arrays), for mutations. */
function pathsOf(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (isHuge(v)) return out;
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...pathsOf(x, [...prefix, i])));
  else if (typeof v === "object" && v !== null) for (const [k, x] of Object.entries(v)) out.push(...pathsOf(x, [...prefix, k]));
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: unknown, remove: boolean): unknown {
  if (path.length === 0) return remove ? undefined : value;
  const copy: unknown = Array.isArray(root) ? [...root] : { ...(root as Record<string, unknown>) };
  const [head, ...rest] = path;
  const holder = copy as Record<string | number, unknown>;
  if (rest.length === 0 && remove) {
    if (Array.isArray(copy)) copy.splice(Number(head), 1);
    else delete holder[head];
  } else {
    holder[head] = setAt(holder[head], rest, value, remove);
  }
  return copy;
}

/** A known-good value with nothing changed, or one to three places replaced or removed. */
export function mutationOf(example: unknown, known: readonly string[]): fc.Arbitrary<unknown> {
  const edit = fc.record({ value: anyValue(known), remove: fc.boolean(), pick: fc.nat() });
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(example) },
    {
      weight: 5,
      arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) =>
        edits.reduce((v, { value, remove, pick }) => {
          const paths = pathsOf(v);
          const path = paths[pick % paths.length];
          return setAt(v, path, value, remove && path.length > 0);
        }, example),
      ),
    },
  );
}

// ---- bodies ----------------------------------------------------------------------------------

/** What a request carries: text or bytes, and the content type that matches it (if any). */
export interface BodySpec {
  kind: string;
  /** Text, a Huge marker, a JSON value to stringify, or bytes. */
  text?: string | Huge;
  json?: unknown;
  bytes?: number[];
  multipart?: MultipartSpec;
  contentType?: string;
}

export function bodyOf(spec: BodySpec): { body: string | Uint8Array<ArrayBuffer> | undefined; contentType?: string } {
  if (spec.multipart) {
    const built = buildMultipart(spec.multipart);
    return { body: built.body, contentType: built.contentType };
  }
  if (spec.bytes) return { body: new Uint8Array(spec.bytes), contentType: spec.contentType };
  if (spec.json !== undefined) return { body: JSON.stringify(materialise(spec.json)) ?? "null", contentType: spec.contentType };
  if (spec.text !== undefined) return { body: isHuge(spec.text) ? hugeText(spec.text) : spec.text, contentType: spec.contentType };
  return { body: undefined, contentType: spec.contentType };
}

const JSON_TYPE = "application/json";

/** Any body for any route; `examples` are known-good bodies of this route, mutated for depth. */
export function bodyArb(known: readonly string[], examples: readonly unknown[]): fc.Arbitrary<BodySpec> {
  const keyed = fc.dictionary(fc.constantFrom(...FIELD_NAMES), anyValue(known), { maxKeys: 6 });
  const arbs: fc.WeightedArbitrary<BodySpec>[] = [
    { weight: 1, arbitrary: fc.constant<BodySpec>({ kind: "none" }) },
    { weight: 1, arbitrary: fc.constantFrom<BodySpec>({ kind: "empty", text: "", contentType: JSON_TYPE }, { kind: "blank", text: " \n\t", contentType: JSON_TYPE }) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((json): BodySpec => ({ kind: "json", json, contentType: JSON_TYPE })) },
    { weight: 4, arbitrary: keyed.map((json): BodySpec => ({ kind: "keyed", json, contentType: JSON_TYPE })) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.string({ maxLength: 40 }),
          fc.constantFrom("{", "[1,2", '{"email":}', "{'a':1}", '{"a":1}}', "\u0000", "\ufeff{}", '{"a":"\\ud800"}', "[".repeat(5000), "1".repeat(400), '{"__proto__":{"x":1}}'),
          fc.jsonValue({ maxDepth: 2 }).chain((v) => {
            const s = JSON.stringify(v) ?? "null";
            return fc.nat({ max: Math.max(0, s.length - 1) }).map((n) => s.slice(0, n)); // truncated JSON
          }),
        )
        .map((text): BodySpec => ({ kind: "broken", text, contentType: JSON_TYPE })),
    },
    { weight: 1, arbitrary: hugeSize.map((n): BodySpec => ({ kind: "huge", text: huge(n), contentType: JSON_TYPE })) },
    { weight: 1, arbitrary: hugeSize.map((n): BodySpec => ({ kind: "huge-json", json: { email: huge(n), name: huge(n) }, contentType: JSON_TYPE })) },
    { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }).map((bytes): BodySpec => ({ kind: "bytes", bytes, contentType: "application/octet-stream" })) },
    { weight: 1, arbitrary: multipartArb(known).map((multipart): BodySpec => ({ kind: "multipart", multipart })) },
  ];
  if (examples.length > 0) {
    arbs.push({
      weight: 6,
      arbitrary: fc.constantFrom(...examples).chain((ex) => mutationOf(ex, known)).map((json): BodySpec => ({ kind: "example", json, contentType: JSON_TYPE })),
    });
  }
  return fc.oneof(...arbs);
}

// ---- multipart -------------------------------------------------------------------------------

export interface PartSpec {
  name: string;
  /** A file part's name (quotes, slashes and unicode included); undefined = a plain field. */
  filename?: string;
  type?: string;
  /** Field text, or the file's bytes: random, or a real audio header followed by random bytes. */
  value: string | Huge;
  bytes?: { head: "none" | "wav" | "mp3" | "flac" | "ogg"; random: number[]; pcmFrames: number };
}

export interface MultipartSpec {
  boundary: string;
  /** The boundary the Content-Type names (normally the same). */
  declared: string | null;
  parts: PartSpec[];
  ending: "proper" | "missing" | "truncated" | "no-crlf" | "lf-only";
}

/** Text whose length sits at a limit (64, 80, 100, 120, 200, 255 ...) and ends in something wide
 *  (an emoji is two UTF-16 units): a cut at the limit may split it into a lone surrogate. */
export const boundaryText = fc
  .tuple(
    fc.oneof(fc.constantFrom(63, 64, 79, 80, 99, 100, 119, 120, 199, 200, 254, 255), fc.integer({ min: 0, max: 130 })),
    fc.oneof(fc.constantFrom("\u{1F600}", "\u{1F44D}\u{1F3FD}", "\u00e9", "\u4e2d", "e\u0301"), fc.string({ unit: "grapheme", minLength: 1, maxLength: 3 })),
  )
  .map(([n, tail]) => "x".repeat(n) + tail);

/** The upload's field names plus strangers; values plausible or hostile. */
const UPLOAD_FIELDS = ["audio", "title", "description", "price", "duration", "category", "tags", "specs", "frequencies"] as const;

function fieldValue(name: string, known: readonly string[]): fc.Arbitrary<string | Huge> {
  const plausible: Record<string, string[]> = {
    title: ["Alpha Waves", "  ", "x".repeat(201)],
    price: ["4.99", "0", "0.5", "-1", "1e3", "4,99", "$5", "NaN", "99999999999"],
    duration: ["1", "0", "999", "1000", "01", " 5 ", "1.5"],
    category: ["Focus", "focus", "ALL", "Nope", ""],
    tags: ["a, b, c", ",,,", "x".repeat(300)],
    frequencies: ['{"channels":[{"frequency":440}]}', '{"channels":[{"frequency":1e999}]}', "[", '{"channels":"x"}', "null"],
  };
  return fc.oneof(
    fc.constantFrom(...(plausible[name] ?? ["text"])),
    weirdText,
    boundaryText,
    fc.constantFrom(...known),
    fc.constant(huge(70 * 1024)),
  );
}

const partArb = (known: readonly string[]): fc.Arbitrary<PartSpec> =>
  fc.oneof(
    // a text field
    fc.constantFrom(...UPLOAD_FIELDS, "", "x", 'quo"te', "\u00e9", "a\r\nb").chain((name) =>
      fieldValue(name, known).map((value): PartSpec => ({ name, value })),
    ),
    // a file part
    fc
      .record({
        name: fc.constantFrom("audio", "audio", "file", ""),
        filename: fc.oneof(
          fc.constantFrom("tone.wav", "tone.mp3", "x.flac", "y.ogg", "../../../etc/passwd", "..\\..\\boot.ini", "", " ", 'a"b.wav', "a;b=c.wav", "\u4e2d\u6587.wav", "%00.wav", "x".repeat(500)),
          fc.string({ maxLength: 30 }),
        ),
        type: fc.constantFrom("audio/wav", "audio/mpeg", "application/octet-stream", "text/html", "", "image/png"),
        head: fc.constantFrom("none", "wav", "wav", "mp3", "flac", "ogg"),
        random: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 256 }),
        pcmFrames: fc.constantFrom(0, 1, 4800, 48000 * 61),
      })
      .map(({ name, filename, type, head, random, pcmFrames }): PartSpec => ({
        name,
        filename,
        type,
        value: "",
        bytes: { head, random, pcmFrames },
      })),
  );

export function multipartArb(known: readonly string[]): fc.Arbitrary<MultipartSpec> {
  return fc.record({
    boundary: fc.oneof(fc.constantFrom("----fuzzBoundary7MA4YWxk", "x", "a".repeat(70), "b c", '"q"'), fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,70}$/)),
    declared: fc.oneof(fc.constant(null), fc.constantFrom("other", "", '"----fuzzBoundary7MA4YWxk"')),
    parts: fc.array(partArb(known), { maxLength: 12 }),
    ending: fc.constantFrom("proper", "proper", "proper", "missing", "truncated", "no-crlf", "lf-only"),
  });
}

function audioHead(head: NonNullable<PartSpec["bytes"]>["head"], pcmFrames: number): Uint8Array {
  const enc = new TextEncoder();
  switch (head) {
    case "wav": {
      // A canonical 48 kHz stereo 16-bit RIFF header claiming pcmFrames of data (the file may hold fewer).
      const out = new Uint8Array(44);
      const v = new DataView(out.buffer);
      out.set(enc.encode("RIFF"), 0);
      v.setUint32(4, 36 + pcmFrames * 4, true);
      out.set(enc.encode("WAVEfmt "), 8);
      v.setUint32(16, 16, true);
      v.setUint16(20, 1, true);
      v.setUint16(22, 2, true);
      v.setUint32(24, 48000, true);
      v.setUint32(28, 192000, true);
      v.setUint16(32, 4, true);
      v.setUint16(34, 16, true);
      out.set(enc.encode("data"), 36);
      v.setUint32(40, pcmFrames * 4, true);
      return out;
    }
    case "mp3":
      return new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64]);
    case "flac":
      return enc.encode("fLaC\u0000\u0000\u0000\u0022");
    case "ogg":
      return enc.encode("OggS\u0000\u0002");
    default:
      return new Uint8Array(0);
  }
}

/** The raw bytes of a multipart body as the spec describes it, and the Content-Type naming it. */
export function buildMultipart(spec: MultipartSpec): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const enc = new TextEncoder();
  const nl = spec.ending === "lf-only" ? "\n" : "\r\n";
  const chunks: Uint8Array[] = [];
  for (const part of spec.parts) {
    let head = `--${spec.boundary}${nl}Content-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += nl;
    if (part.type) head += `Content-Type: ${part.type}${nl}`;
    chunks.push(enc.encode(head + nl));
    if (part.bytes) {
      chunks.push(audioHead(part.bytes.head, part.bytes.pcmFrames));
      // Enough PCM for a short valid WAV when the header asks for a little; random bytes after it.
      if (part.bytes.head === "wav" && part.bytes.pcmFrames <= 4800) chunks.push(new Uint8Array(part.bytes.pcmFrames * 4));
      chunks.push(new Uint8Array(part.bytes.random));
    } else {
      chunks.push(enc.encode(isHuge(part.value) ? hugeText(part.value) : part.value));
    }
    chunks.push(enc.encode(nl));
  }
  if (spec.ending === "proper" || spec.ending === "lf-only") chunks.push(enc.encode(`--${spec.boundary}--${nl}`));
  else if (spec.ending === "truncated") chunks.push(enc.encode(`--${spec.boundary.slice(0, Math.max(1, spec.boundary.length >> 1))}`));
  else if (spec.ending === "no-crlf") chunks.push(enc.encode(`--${spec.boundary}--`));
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const body = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  const declared = spec.declared ?? spec.boundary;
  return { body, contentType: `multipart/form-data; boundary=${/[\s";]/.test(declared) ? `"${declared.replace(/"/g, "")}"` : declared}` };
}

// ---- headers, query strings, path values -------------------------------------------------------

/** HTTP header values are bytes: keep Latin-1 printable characters, as a real client must send. */
export const headerSafe = (s: string): string => s.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");

/** Lone surrogates replaced by U+FFFD (String.prototype.toWellFormed, which ES2023 lacks). */
export const wellFormed = (s: string): string =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

/** A URL component that survives encodeURIComponent even with lone surrogates. */
export function encodeComponent(s: string): string {
  return encodeURIComponent(wellFormed(s));
}

/** How a path value is put into the URL: escaped, raw (only '/', '?' and '#' escaped, so the route
 *  still matches while bad %-sequences stay bad), or fully raw (may change which route matches). */
export type PathEncoding = "encoded" | "raw" | "raw-slash";

export function placeInPath(value: string, how: PathEncoding): string {
  const wf = wellFormed(value);
  if (how === "encoded") return encodeURIComponent(wf);
  if (how === "raw") return wf.replace(/\//g, "%2F").replace(/\?/g, "%3F").replace(/#/g, "%23");
  return wf.replace(/#/g, "%23");
}

/** A path value: `live` are known values this route finds (probed), `known` all the others. */
export function pathValueArb(known: readonly string[], live: readonly string[] = []): fc.Arbitrary<{ value: string | Huge; how: PathEncoding }> {
  return fc.record({
    value: fc.oneof(
      ...(live.length > 0 ? [{ weight: 10, arbitrary: fc.constantFrom(...live) }] : []),
      { weight: 3, arbitrary: fc.constantFrom(...known) },
      { weight: 2, arbitrary: fc.uuid() },
      { weight: 2, arbitrary: oddEmail },
      { weight: 2, arbitrary: fc.constantFrom(...PERCENT_SEQUENCES, ".", "..", "", " ", "%2e%2e") },
      { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
      { weight: 1, arbitrary: fc.constantFrom(huge(300), huge(5000), huge(20_000)) },
    ),
    how: fc.constantFrom<PathEncoding>("encoded", "encoded", "raw", "raw", "raw-slash"),
  });
}

/** A query string ("" or "?..."), from random pairs or raw junk. */
export function queryArb(known: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(fc.constantFrom("token", "category", "code", "session_id", "id", "email", "type", "page", "", "a[b]", "__proto__"), fc.string({ maxLength: 8 }));
  const value = fc.oneof(fc.constantFrom(...known), weirdText, fc.constantFrom("Focus", "all", "ALL", "Nope"), fc.constant(huge(9000)));
  const pairs = fc
    .array(fc.record({ key, value, encoded: fc.boolean() }), { maxLength: 5 })
    .map((list) =>
      list.length === 0
        ? ""
        : "?" +
          list
            .map(({ key: k, value: v, encoded }) => {
              const text = isHuge(v) ? hugeText(v) : v;
              return encoded ? `${encodeComponent(k)}=${encodeComponent(text)}` : wellFormed(`${k}=${text}`).replace(/#/g, "%23");
            })
            .join("&"),
    );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant("") },
    { weight: 5, arbitrary: pairs },
    { weight: 1, arbitrary: fc.constantFrom("?", "??", "?&&&", "?=", "?token", "?token=", "?token=%", "?%%=%%", "?a=1;b=2", "?token=a&token=b") },
  );
}

/** Authorization header shapes around a real token. */
export type AuthShape = "bearer" | "lower" | "spaces" | "tampered" | "none" | "basic" | "word" | "long" | "alg-none" | "garbage" | "other-user";

export const authShapeArb = fc.oneof(
  { weight: 12, arbitrary: fc.constant<AuthShape>("bearer") },
  { weight: 1, arbitrary: fc.constantFrom<AuthShape>("lower", "spaces", "tampered", "none", "basic", "word", "long", "alg-none", "garbage", "other-user") },
);

export const RANGE_HEADERS = [
  "bytes=0-", "bytes=0-99", "bytes=-500", "bytes=-0", "bytes=5-1", "bytes=0-1,2-3", "items=0-1", "bytes=", "bytes=99999999999999999999-",
  "bytes=0-99999999999999999999", "bytes=00000000000000000000000000001-2", "bytes=1e3-", "bytes=-", " bytes = 1 - 2 ", "bytes=18446744073709551616-",
] as const;

export interface HeaderSpec {
  auth: AuthShape;
  contentType: "natural" | "none" | string;
  csrf: "real" | "none" | string;
  range: string | null;
  requestedWith: string | null;
  stripeSignature: "none" | "signed" | "stale" | string;
  extra: [string, string][];
}

export const headerArb: fc.Arbitrary<HeaderSpec> = fc.record({
  auth: authShapeArb,
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant("natural") },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "none", "application/json", "application/json; charset=utf-16", "text/plain", "multipart/form-data", "multipart/form-data; boundary=",
        "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "application/json; charset=\"", "*/*", ";;;", "MULTIPART/FORM-DATA; BOUNDARY=abc",
      ),
    },
  ),
  csrf: fc.oneof({ weight: 3, arbitrary: fc.constantFrom("real", "none") }, { weight: 1, arbitrary: fc.string({ maxLength: 50 }) }),
  range: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constantFrom(...RANGE_HEADERS) }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) }),
  requestedWith: fc.oneof(
    { weight: 3, arbitrary: fc.constant("XMLHttpRequest") }, // what the video export asks for
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom("", " ", "fetch"), fc.string({ maxLength: 10 })) },
  ),
  stripeSignature: fc.oneof(
    // Mostly a correct signature: it is what lets a random body reach the webhook's event handling.
    { weight: 4, arbitrary: fc.constant("signed") },
    { weight: 2, arbitrary: fc.constantFrom("none", "stale") },
    { weight: 1, arbitrary: fc.constantFrom("t=1,v1=00", "v1=", ",,,", "t=abc,v1=zz,v0=1", "t=99999999999999999999,v1=" + "0".repeat(64)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  ),
  extra: fc.array(
    fc.tuple(
      fc.constantFrom("X-Forwarded-For", "Origin", "Cookie", "Accept", "Accept-Encoding", "If-None-Match", "If-Range", "Transfer-Encoding-X", "X-Http-Method-Override"),
      fc.oneof(weirdText, fc.constantFrom("DELETE", "gzip", "*/*", "https://evil.example", "1.2.3.4, 5.6.7.8")),
    ),
    { maxLength: 3 },
  ),
});
