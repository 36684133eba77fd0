// The sound marketplace through app.request(): listing and filtering; uploads by admins
// (streamed, magic bytes checked, duration read from the file, the spec's texts for every refusal
// and nothing stored after one); purchase through a one-time Checkout at the sound's price, the
// signed webhook recording it once; downloads for owners with ranges; previews of the first 30 s;
// ratings once per owner; the shipped sounds rendered on first start.
import { execFileSync } from "node:child_process";
import { requireBinary } from "../../../../api/platform/binaries";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseWavHeader, wavHeader } from "../../../../dsp/host/export/wav";
import { MARKETPLACE_TEXT as T, UPLOADS_PER_HOUR } from "../../../../api/rules/marketplace";
import { seedMarketplace, SEED_SOUNDS } from "../../../../api/services/marketplace-seed";
import { bodyOf, getWith, makeTestApp, postJson, signUp, type TestEnv } from "../helpers";
import { deliver, eventOf, makePaymentsApp, type PaymentsEnv } from "./payments-setup";

const ADMIN = "boss@example.com";
let env: TestEnv | PaymentsEnv | null = null;
afterEach(async () => {
  await env?.close();
  env = null;
});

/** 48 kHz stereo 16-bit WAV of `seconds`: the sum of sine tones at 0.25 amplitude each. */
function wav(seconds: number, tones = [440]): Uint8Array<ArrayBuffer> {
  const frames = Math.round(seconds * 48000);
  const header = wavHeader(frames * 4);
  const out = new Uint8Array(header.length + frames * 4);
  out.set(header);
  const view = new DataView(out.buffer);
  for (let n = 0; n < frames; n++) {
    let v = 0;
    for (const f of tones) v += 0.25 * Math.sin((2 * Math.PI * f * n) / 48000);
    const s = Math.round(Math.max(-1, Math.min(1, v)) * 32767);
    view.setInt16(header.length + n * 4, s, true);
    view.setInt16(header.length + n * 4 + 2, s, true);
  }
  return out;
}

interface UploadForm {
  audio?: { bytes: Uint8Array; name: string; type?: string } | null;
  title?: string;
  description?: string;
  price?: string;
  duration?: string;
  category?: string;
  tags?: string;
  specs?: string;
  frequencies?: string;
}

const good = (over: UploadForm = {}): UploadForm => ({
  audio: { bytes: wav(2), name: "tone.wav", type: "audio/wav" },
  title: "Alpha Waves",
  description: "A calm tone",
  price: "4.99",
  duration: "1",
  category: "Focus",
  tags: "alpha, focus, calm, study, alpha",
  ...over,
});

function upload(e: TestEnv, form: UploadForm, token?: string): Promise<Response> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(form)) {
    if (k === "audio") {
      if (v) fd.append("audio", new Blob([(v as { bytes: Uint8Array<ArrayBuffer> }).bytes], { type: (v as { type?: string }).type ?? "application/octet-stream" }), (v as { name: string }).name);
    } else if (v !== undefined) fd.append(k, v as string);
  }
  return Promise.resolve(
    e.app.request("/api/marketplace/upload-direct", { method: "POST", body: fd, headers: token ? { Authorization: `Bearer ${token}` } : {} }),
  );
}

const storedFiles = (e: TestEnv) => {
  try {
    return readdirSync(join(e.dir, "files")).filter((f) => !f.startsWith("."));
  } catch {
    return [];
  }
};
const incoming = (e: TestEnv) => {
  try {
    return readdirSync(join(e.dir, "files", ".incoming"));
  } catch {
    return [];
  }
};
const soundRows = (e: TestEnv) => e.db.selectFrom("marketplace_sounds").selectAll().execute();

async function adminToken(e: TestEnv): Promise<string> {
  return (await signUp(e, ADMIN)).token;
}

async function list(e: TestEnv, query = ""): Promise<{ sounds: Record<string, unknown>[] }> {
  const res = await getWith(e, `/api/marketplace/sounds${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { sounds: Record<string, unknown>[] };
}

describe("upload (admins)", () => {
  it("an admin's upload is stored under a server-made name, measured from the file, and listed", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const res = await upload(e, good({ audio: { bytes: wav(2.5), name: "../../etc/passwd.wav" } }), await adminToken(e));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { success: boolean; sound: Record<string, unknown> };
    expect(body.success).toBe(true);
    expect(body.sound).toMatchObject({
      title: "Alpha Waves",
      description: "A calm tone",
      price: 499,
      duration: 2.5, // read from the file, not the form's 1 minute
      category: "Focus",
      downloads: 0,
      rating: 0,
      metadata: { tags: ["alpha", "focus", "calm", "study"] },
    });
    const files = storedFiles(e);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f-]{36}\.wav$/);
    expect(incoming(e)).toEqual([]);
    const { sounds } = await list(e);
    expect(sounds.map((s) => s.title)).toEqual(["Alpha Waves"]);
    expect(sounds[0].fileUrl).toBe(`/api/marketplace/sounds/${body.sound.id}/preview`);
  });

  it("the studio's variant stores its frequencies", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const frequencies = JSON.stringify({ channels: [{ frequency: 432, volume: 0.5, waveform: "sine" }], summary: "432 Hz" });
    const res = await upload(e, good({ frequencies, price: "0" }), await adminToken(e));
    expect(res.status).toBe(201);
    expect(((await res.json()) as { sound: { metadata: unknown; price: number } }).sound).toMatchObject({
      price: 0,
      metadata: { frequencies: { channels: [{ frequency: 432, volume: 0.5, waveform: "sine" }], summary: "432 Hz" } },
    });
  });

  it("401 without a session, 403 for a non-admin; nothing stored", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    let res = await upload(e, good());
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).error).toBe(T.loginToUpload);
    res = await upload(e, good(), "not-a-token");
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).error).toBe(T.uploadAuthFailed);
    const { token } = await signUp(e, "someone@example.com");
    res = await upload(e, good(), token);
    expect(res.status).toBe(403);
    expect(await soundRows(e)).toEqual([]);
    expect(storedFiles(e)).toEqual([]);
  });

  it.each([
    ["no file", { audio: null }, 400, T.fieldsMissing],
    ["an empty file", { audio: { bytes: new Uint8Array(0), name: "x.wav" } }, 400, T.fieldsMissing],
    ["no title", { title: "  " }, 400, T.fieldsMissing],
    ["no price", { price: undefined }, 400, T.fieldsMissing],
    ["no duration", { duration: "" }, 400, T.fieldsMissing],
    ["a negative price", { price: "-1" }, 400, T.priceInvalid],
    ["a price that is not a number", { price: "abc" }, 400, T.priceInvalid],
    ["three decimals", { price: "1.999" }, 400, T.priceInvalid],
    ["a paid price under the card minimum", { price: "0.20" }, 400, T.priceBelowMinimum],
    ["duration 0", { duration: "0" }, 400, T.durationInvalid],
    ["duration 60", { duration: "60" }, 400, T.durationInvalid],
    ["duration 1.5", { duration: "1.5" }, 400, T.durationInvalid],
    ["an unknown category", { category: "Polka" }, 400, T.categoryInvalid],
    ["bad frequencies JSON", { frequencies: "{nope" }, 400, T.frequenciesInvalid],
    ["a text file renamed .wav", { audio: { bytes: new TextEncoder().encode("hello, I am not audio\n".repeat(50)), name: "tone.wav", type: "audio/wav" } }, 415, T.notAudio],
    ["a PNG", { audio: { bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(64).fill(0)]), name: "a.mp3" } }, 415, T.notAudio],
  ] as [string, Partial<UploadForm>, number, string][])("%s is refused with the spec's text and nothing stored", async (_name, over, status, text) => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const res = await upload(e, good(over as UploadForm), await adminToken(e));
    expect(res.status).toBe(status);
    expect((await bodyOf(res)).error).toBe(text);
    expect(await soundRows(e)).toEqual([]);
    expect(storedFiles(e)).toEqual([]);
    expect(incoming(e)).toEqual([]);
  });

  it("an oversize file is cut off with 413 and leaves no partial file", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN], maxUploadBytes: 64 * 1024 }));
    const res = await upload(e, good({ audio: { bytes: wav(1), name: "big.wav" } }), await adminToken(e)); // 192 KB
    expect(res.status).toBe(413);
    expect((await bodyOf(res)).error).toBe(T.tooLarge(64 * 1024));
    expect(await soundRows(e)).toEqual([]);
    expect(storedFiles(e)).toEqual([]);
    expect(incoming(e)).toEqual([]);
    // Just under the limit is fine.
    const login = await postJson(e, "/api/auth/login", { email: ADMIN, password: "correct horse" });
    const ok = await upload(e, good({ audio: { bytes: wav(0.3), name: "small.wav" } }), ((await login.json()) as { token: string }).token);
    expect(ok.status).toBe(201);
  });

  it("MP3, FLAC and OGG are recognised by content and measured", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const token = await adminToken(e);
    const src = join(e.dir, "src.wav");
    writeFileSync(src, wav(3));
    for (const [ext, mime] of [["mp3", "audio/mpeg"], ["flac", "audio/flac"], ["ogg", "audio/ogg"]] as const) {
      const out = join(e.dir, `src.${ext}`);
      execFileSync(requireBinary("ffmpeg").path, ["-v", "error", "-y", "-i", src, ...(ext === "ogg" ? ["-c:a", "libvorbis"] : []), out]);
      const res = await upload(e, good({ title: ext, audio: { bytes: readFileSync(out), name: `whatever.bin` } }), token);
      expect(res.status, ext).toBe(201);
      const sound = ((await res.json()) as { sound: { duration: number; id: string } }).sound;
      expect(sound.duration).toBeGreaterThan(2.9);
      expect(sound.duration).toBeLessThan(3.2);
      const row = await e.db.selectFrom("marketplace_sounds").select(["mime", "file_key"]).where("id", "=", sound.id).executeTakeFirstOrThrow();
      expect(row.mime).toBe(mime);
      expect(row.file_key.endsWith(`.${ext}`)).toBe(true);
    }
  });

  it(`at most ${UPLOADS_PER_HOUR} uploads per hour per account (429 with the spec's text)`, async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const token = await adminToken(e);
    const tiny = wav(0.05);
    for (let i = 0; i < UPLOADS_PER_HOUR; i++) {
      expect((await upload(e, good({ title: `t${i}`, audio: { bytes: tiny, name: "t.wav" } }), token)).status).toBe(201);
    }
    const res = await upload(e, good({ audio: { bytes: tiny, name: "t.wav" } }), token);
    expect(res.status).toBe(429);
    expect((await bodyOf(res)).error).toBe(T.uploadRateLimited);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    e.clock.advance(60 * 60_000 + 1);
    expect((await upload(e, good({ audio: { bytes: tiny, name: "t.wav" } }), token)).status).toBe(201);
  });
});

describe("listing", () => {
  it("filters by category; 'All' or none lists everything; an unknown category is 400", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const token = await adminToken(e);
    await upload(e, good({ title: "A", category: "Sleep" }), token);
    e.clock.advance(1000);
    await upload(e, good({ title: "B", category: "Focus" }), token);
    expect((await list(e)).sounds.map((s) => s.title)).toEqual(["B", "A"]);
    expect((await list(e, "?category=All")).sounds).toHaveLength(2);
    expect((await list(e, "?category=Sleep")).sounds.map((s) => s.title)).toEqual(["A"]);
    expect((await list(e, "?category=meditation")).sounds).toEqual([]);
    const res = await getWith(e, "/api/marketplace/sounds?category=Polka");
    expect(res.status).toBe(400);
  });
});

describe("previews", () => {
  it("a WAV preview is an exact WAV of the first 30 s, served with ranges", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const original = wav(40, [440, 660]);
    const res = await upload(e, good({ audio: { bytes: original, name: "long.wav" } }), await adminToken(e));
    const id = ((await res.json()) as { sound: { id: string } }).sound.id;
    const full = await getWith(e, `/api/marketplace/sounds/${id}/preview`);
    expect(full.status).toBe(200);
    expect(full.headers.get("accept-ranges")).toBe("bytes");
    const bytes = new Uint8Array(await full.arrayBuffer());
    const info = parseWavHeader(bytes);
    expect(info.frames).toBe(30 * 48000);
    expect(bytes.length).toBe(44 + 30 * 48000 * 4);
    expect(Buffer.from(bytes.subarray(44)).equals(Buffer.from(original.subarray(44, 44 + 30 * 48000 * 4)))).toBe(true);
    const part = await Promise.resolve(e.app.request(`/api/marketplace/sounds/${id}/preview`, { headers: { Range: "bytes=40-1039" } }));
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 40-1039/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(bytes.subarray(40, 1040)))).toBe(true);
    const bad = await Promise.resolve(e.app.request(`/api/marketplace/sounds/${id}/preview`, { headers: { Range: `bytes=${bytes.length}-` } }));
    expect(bad.status).toBe(416);
    // An error like every other (found by tests/unit/api/fuzz.test.ts: it had no body at all).
    expect(bad.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    expect(await bodyOf(bad)).toEqual({ error: "The requested range is outside the file" });
    expect((await getWith(e, `/api/marketplace/sounds/00000000-0000-4000-8000-000000000000/preview`)).status).toBe(404);
    expect((await getWith(e, `/api/marketplace/sounds/..%2F..%2Fetc/preview`)).status).toBe(404);
  });
});

describe("downloads of any title", () => {
  it("a title with an emoji across its 80th character downloads (a 500 before: found reading the download code while writing the fuzz generators)", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const token = await adminToken(e);
    const title = `${"x".repeat(79)}\u{1F600} and more`;
    const res = await upload(e, good({ title, price: "0" }), token);
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { sound: { id: string } }).sound.id;
    const dl = await getWith(e, `/api/marketplace/sounds/${id}/download`, token);
    expect(dl.status).toBe(200);
    // The encoded name keeps the whole emoji (80 code points), never half of it.
    expect(dl.headers.get("content-disposition")).toBe(
      `attachment; filename="${"x".repeat(79)}.wav"; filename*=UTF-8''${"x".repeat(79)}%F0%9F%98%80.wav`,
    );
  });
});

describe("truncated uploads", () => {
  it("a body cut off inside a file part is a 400 and the server keeps running (found by tests/unit/api/http/multipart-fuzz.test.ts: an uncaught 'Unexpected end of form')", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const token = await adminToken(e);
    const b = "----cutBoundary";
    const fields = ["title", "price", "duration"].map((k, i) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${["Cut", "0", "1"][i]}\r\n`).join("");
    const escaped: unknown[] = [];
    const onEscape = (err: unknown) => escaped.push(err);
    process.on("uncaughtException", onEscape);
    try {
      for (const part of ['name="audio"; filename=""', 'name="other"; filename="x.bin"', 'name="audio"; filename="a.wav"']) {
        const body = `${fields}--${b}\r\nContent-Disposition: form-data; ${part}\r\nContent-Type: audio/wav\r\n\r\nRIFF` + `--${b.slice(0, 5)}`;
        const res = await Promise.resolve(
          e.app.request("/api/marketplace/upload-direct", {
            method: "POST",
            body,
            headers: { "Content-Type": `multipart/form-data; boundary=${b}`, Authorization: `Bearer ${token}` },
          }),
        );
        expect(res.status, part).toBe(400);
        expect(await bodyOf(res)).toEqual({ error: "Malformed or interrupted multipart body" });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      process.off("uncaughtException", onEscape);
    }
    expect(escaped).toEqual([]);
    expect(storedFiles(e)).toEqual([]);
    expect(readdirSync(join(e.dir, "files", ".incoming"))).toEqual([]);
  });
});

describe("clients that go away", () => {
  it("a preview or download cancelled mid-stream leaves the server running (found by tests/unit/api/fuzz.test.ts: an uncaught ERR_INVALID_STATE)", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const token = await adminToken(e);
    const res = await upload(e, good({ audio: { bytes: wav(40), name: "long.wav" } }), token);
    const id = ((await res.json()) as { sound: { id: string } }).sound.id;
    const escaped: unknown[] = [];
    const onEscape = (err: unknown) => escaped.push(err);
    process.on("uncaughtException", onEscape);
    try {
      for (const what of ["preview", "download"]) {
        for (const range of [undefined, "bytes=0-", "bytes=1000-500000"]) {
          const got = await getWith(e, `/api/marketplace/sounds/${id}/${what}`, token);
          const ranged = range ? await Promise.resolve(e.app.request(`/api/marketplace/sounds/${id}/${what}`, { headers: { Range: range, Authorization: `Bearer ${token}` } })) : got;
          expect(ranged.status).toBeLessThan(300);
          await ranged.body!.cancel(); // as @hono/node-server does when the socket closes
          if (ranged !== got) await got.body!.cancel();
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      process.off("uncaughtException", onEscape);
    }
    expect(escaped).toEqual([]);
    expect((await getWith(e, "/api/health")).status).toBe(200);
  });
});

describe("purchase, fulfilment, download and ratings", () => {
  async function setup() {
    const e = (env = await makePaymentsApp({ adminEmails: [ADMIN] }));
    const original = wav(3);
    const res = await upload(e, good({ audio: { bytes: original, name: "a.wav" }, price: "4.99" }), await adminToken(e));
    const id = ((await res.json()) as { sound: { id: string } }).sound.id;
    const buyer = await signUp(e, "buyer@example.com");
    return { e, id, buyer, original };
  }
  const buy = (e: TestEnv, id: string, token?: string) => postJson(e, `/api/marketplace/purchase/${id}`, {}, token);

  it("creates a one-time checkout at the sound's price; the webhook records it once even when sent twice", async () => {
    const { e, id, buyer } = await setup();
    expect((await buy(e, id)).status).toBe(401);
    const res = await buy(e, id, buyer.token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; alreadyPurchased: boolean; checkoutUrl: string };
    expect(body).toMatchObject({ success: true, alreadyPurchased: false });
    const sessionId = /\/pay\/([^/?]+)/.exec(body.checkoutUrl)![1];
    const session = e.stripe.sessions.get(sessionId)!;
    expect(session).toMatchObject({ mode: "payment", amount_total: 499, line_item_name: "Alpha Waves", client_reference_id: buyer.userId });
    const event = eventOf(e, "checkout.session.completed", e.stripe.pay(sessionId));
    expect((await deliver(e, event)).status).toBe(200);
    expect((await deliver(e, { ...event, id: "evt_other_delivery" })).status).toBe(200);
    const rows = await e.db.selectFrom("sound_purchases").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: buyer.userId, sound_id: id, amount_cents: 499, stripe_checkout_session_id: sessionId });
    // No subscription came of it.
    expect(await e.db.selectFrom("subscriptions").selectAll().execute()).toEqual([]);
    const again = (await (await buy(e, id, buyer.token)).json()) as Record<string, unknown>;
    expect(again).toEqual({ success: true, alreadyPurchased: true, checkoutUrl: null });
    const mine = (await (await getWith(e, "/api/marketplace/purchases", buyer.token)).json()) as { sounds: { id: string }[] };
    expect(mine.sounds.map((s) => s.id)).toEqual([id]);
  });

  it("a second checkout paid for an owned sound (two tabs) is refunded once, whichever way it arrives; the ledger keeps one payment", async () => {
    const { e, id, buyer } = await setup();
    const open = async () => /\/pay\/([^/?]+)/.exec(((await (await buy(e, id, buyer.token)).json()) as { checkoutUrl: string }).checkoutUrl)![1];
    const [first, second, third] = [await open(), await open(), await open()]; // before either is paid
    expect((await deliver(e, eventOf(e, "checkout.session.completed", e.stripe.pay(first)))).status).toBe(200);
    expect(e.stripe.refunds).toEqual([]);

    // The second arrives by webhook, twice: one refund, of its own payment, and no second purchase.
    const event = eventOf(e, "checkout.session.completed", e.stripe.pay(second));
    expect((await deliver(e, event)).status).toBe(200);
    expect((await deliver(e, event)).status).toBe(200);
    expect(e.stripe.refunds).toHaveLength(1);
    expect(e.stripe.refunds[0]).toMatchObject({ payment_intent: e.stripe.sessions.get(second)!.payment_intent, amount: 499, reason: "duplicate" });

    // The third comes back through the marketplace's return page first.
    e.stripe.pay(third);
    const verify = await postJson(e, "/api/stripe/verify-checkout-session", { sessionId: third }, buyer.token);
    expect(await verify.json()).toMatchObject({ verified: false, refunded: true });
    const again = await postJson(e, "/api/stripe/verify-checkout-session", { sessionId: third }, buyer.token);
    expect(await again.json()).toMatchObject({ verified: false, refunded: true });
    expect(e.stripe.refunds.map((r) => r.payment_intent)).toEqual([second, third].map((x) => e.stripe.sessions.get(x)!.payment_intent));

    const purchases = await e.db.selectFrom("sound_purchases").selectAll().execute();
    expect(purchases.map((p) => p.stripe_checkout_session_id)).toEqual([first]);
    const ledger = await e.db.selectFrom("payments").select(["id", "amount_cents"]).execute();
    expect(ledger).toEqual([{ id: first, amount_cents: 499 }]);
  });

  it("a duplicate already refunded by hand in Stripe is taken as refunded, not as a failure", async () => {
    const { e, id, buyer } = await setup();
    const open = async () => /\/pay\/([^/?]+)/.exec(((await (await buy(e, id, buyer.token)).json()) as { checkoutUrl: string }).checkoutUrl)![1];
    const [first, second] = [await open(), await open()];
    await deliver(e, eventOf(e, "checkout.session.completed", e.stripe.pay(first)));
    const paid = e.stripe.pay(second);
    e.stripe.refunds.push({ id: "re_by_hand", object: "refund", payment_intent: paid.payment_intent, status: "succeeded" });
    expect((await deliver(e, eventOf(e, "checkout.session.completed", paid))).status).toBe(200);
    const verify = await postJson(e, "/api/stripe/verify-checkout-session", { sessionId: second }, buyer.token);
    expect(verify.status).toBe(200);
    expect(await verify.json()).toMatchObject({ verified: false, refunded: true });
    expect(e.stripe.refunds.map((r) => r.id)).toEqual(["re_by_hand"]);
  });

  it("the owner downloads the whole file (attachment, ranges, counted); others get 403", async () => {
    const { e, id, buyer, original } = await setup();
    const dl = (token?: string, headers: Record<string, string> = {}) =>
      Promise.resolve(e.app.request(`/api/marketplace/sounds/${id}/download`, { headers: { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) } }));
    expect((await dl(buyer.token)).status).toBe(403);
    expect((await dl()).status).toBe(401);
    const body = (await (await buy(e, id, buyer.token)).json()) as { checkoutUrl: string };
    await deliver(e, eventOf(e, "checkout.session.completed", e.stripe.pay(/\/pay\/([^/?]+)/.exec(body.checkoutUrl)![1])));
    const res = await dl(buyer.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="Alpha Waves\.wav"/);
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(original))).toBe(true);
    const part = await dl(buyer.token, { Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(original.subarray(100, 200)))).toBe(true);
    const other = await signUp(e, "other@example.com");
    expect((await dl(other.token)).status).toBe(403);
    // The admin may download without buying.
    const admin = await postJson(e, "/api/auth/login", { email: ADMIN, password: "correct horse" });
    expect((await dl(((await admin.json()) as { token: string }).token)).status).toBe(200);
    const row = await e.db.selectFrom("marketplace_sounds").select("downloads").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.downloads).toBe(2); // the two full downloads, not the range from byte 100
    // A download link works without a header for 10 minutes only, and only for that sound.
    const link = (await (await postJson(e, `/api/marketplace/sounds/${id}/download-link`, {}, buyer.token)).json()) as { url: string };
    expect((await getWith(e, link.url)).status).toBe(200);
    expect((await postJson(e, `/api/marketplace/sounds/${id}/download-link`, {}, other.token)).status).toBe(403);
    e.clock.advance(11 * 60_000);
    expect((await getWith(e, link.url)).status).toBe(401);
  });

  it("a free sound is owned at once, without a checkout", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const res = await upload(e, good({ price: "0" }), await adminToken(e));
    const id = ((await res.json()) as { sound: { id: string } }).sound.id;
    const buyer = await signUp(e, "buyer@example.com");
    expect(await (await buy(e, id, buyer.token)).json()).toEqual({ success: true, alreadyPurchased: false, checkoutUrl: null });
    expect(await (await buy(e, id, buyer.token)).json()).toEqual({ success: true, alreadyPurchased: true, checkoutUrl: null });
  });

  it("a paid sound without payments configured is 503; a missing sound 404", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const res = await upload(e, good(), await adminToken(e));
    const id = ((await res.json()) as { sound: { id: string } }).sound.id;
    const buyer = await signUp(e, "buyer@example.com");
    expect((await buy(e, id, buyer.token)).status).toBe(503);
    const missing = await buy(e, "00000000-0000-4000-8000-000000000000", buyer.token);
    expect(missing.status).toBe(404);
    expect((await bodyOf(missing)).error).toBe(T.soundNotFound);
  });

  it("owners rate 1-5 once and the listing shows the average", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const res = await upload(e, good({ price: "0" }), await adminToken(e));
    const id = ((await res.json()) as { sound: { id: string } }).sound.id;
    const rate = (token: string, rating: unknown) => postJson(e, `/api/marketplace/sounds/${id}/rating`, { rating }, token);
    const a = await signUp(e, "a@example.com");
    const b = await signUp(e, "b@example.com");
    expect((await rate(a.token, 5)).status).toBe(403);
    await buy(e, id, a.token);
    await buy(e, id, b.token);
    for (const bad of [0, 6, 2.5, "5"]) {
      const r = await rate(a.token, bad);
      expect(r.status).toBe(400);
      expect((await bodyOf(r)).error).toBe(T.ratingInvalid);
    }
    expect((await rate(a.token, 5)).status).toBe(200);
    const second = await rate(a.token, 1);
    expect(second.status).toBe(409);
    expect((await bodyOf(second)).error).toBe(T.alreadyRated);
    expect((await rate(b.token, 4)).status).toBe(200);
    expect((await list(e)).sounds[0]).toMatchObject({ rating: 4.5, ratingCount: 2 });
  });
});

describe("shipped sounds", () => {
  it("are rendered by the engine on first start, once", async () => {
    const e = (env = await makeTestApp());
    expect(await seedMarketplace(e.app.services)).toBe(SEED_SOUNDS.length);
    expect(await seedMarketplace(e.app.services)).toBe(0);
    const { sounds } = await list(e);
    expect(sounds.map((s) => s.title).sort()).toEqual(SEED_SOUNDS.map((s) => s.title).sort());
    for (const s of sounds) expect(s.duration).toBe(60);
    expect(storedFiles(e)).toHaveLength(SEED_SOUNDS.length);
    // The free one previews as a 30 s WAV with sound in it.
    const free = sounds.find((s) => s.price === 0)!;
    const bytes = new Uint8Array(await (await getWith(e, free.fileUrl as string)).arrayBuffer());
    const info = parseWavHeader(bytes);
    expect(info.frames).toBe(30 * 48000);
    const pcm = new Int16Array(bytes.buffer, bytes.byteOffset + info.dataOffset + 48000 * 4 * 10, 48000 * 2);
    expect(Math.max(...pcm.map(Math.abs))).toBeGreaterThan(1000);
  });
});
