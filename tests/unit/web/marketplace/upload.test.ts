// The marketplace upload forms on the client (spec/accounts.md sections 5 and 8, spec/studio.md
// sections 3, 5 and 8): the admin form's checks with the spec's texts, the multipart body, the
// studio's checks in order (including a studio duration beyond the marketplace's 59 minutes),
// the frequencies field and its summary, minutes rounded up, and the texts of failed uploads.

import { describe, expect, it } from "vitest";
import { MARKETPLACE_TEXT as T } from "../../../../api/rules/marketplace";
import { defaultChannels, type ChannelState } from "../../../../dsp/host/schema/state";
import { checkStudioUpload, formatHz, frequenciesField, uploadMinutes } from "../../../../web/marketplace/studio-upload";
import { EMPTY_UPLOAD_FIELDS, uploadFormData, validateUploadFields, type UploadFields } from "../../../../web/marketplace/upload-form";
import {
  adminUploadErrorText, sendUpload, studioUploadErrorText, uploadedSound, type UploadResult,
} from "../../../../web/marketplace/upload-request";

const good: UploadFields = { ...EMPTY_UPLOAD_FIELDS, title: "Calm", price: "1.99", minutes: "3", category: "Sleep", tags: "a, b" };

describe("validateUploadFields (admin form)", () => {
  it("accepts a complete form and a free sound", () => {
    expect(validateUploadFields(good, true)).toBeNull();
    expect(validateUploadFields({ ...good, price: "0" }, true)).toBeNull();
    expect(validateUploadFields({ ...good, price: "0.50", minutes: "59" }, true)).toBeNull();
  });

  it("file, title, price and duration are required", () => {
    expect(validateUploadFields(good, false)).toBe(T.fieldsMissing);
    for (const key of ["title", "price", "minutes"] as const) {
      expect(validateUploadFields({ ...good, [key]: "  " }, true)).toBe(T.fieldsMissing);
    }
    expect(T.fieldsMissing).toBe("Please fill in all required fields");
  });

  it("the price is a number of 0 or higher with at most 2 decimals", () => {
    for (const price of ["-1", "abc", "1.999", "1e3", "$2"]) {
      expect(validateUploadFields({ ...good, price }, true), price).toBe("Please enter a valid price (0 or higher)");
    }
    expect(validateUploadFields({ ...good, price: "0.2" }, true)).toBe(T.priceBelowMinimum);
  });

  it("the duration is a whole number of 1 to 59 minutes", () => {
    for (const minutes of ["0", "60", "1.5", "-3", "ten"]) {
      expect(validateUploadFields({ ...good, minutes }, true), minutes).toBe(T.durationInvalid);
    }
  });

  it("the category is one of the tab list (without All)", () => {
    expect(validateUploadFields({ ...good, category: "All" }, true)).toBe(T.categoryInvalid);
    expect(validateUploadFields({ ...good, category: "Isochronic" }, true)).toBeNull();
  });

  it("builds the multipart body with the fields trimmed and the file last", async () => {
    const form = uploadFormData({ ...good, title: "  Calm  " }, new Blob([new Uint8Array(4)], { type: "audio/wav" }), "calm.wav", { channels: [], summary: "" });
    const keys = [...form.keys()];
    expect(keys.at(-1)).toBe("audio");
    expect(keys).toEqual(["title", "description", "price", "duration", "category", "tags", "specs", "frequencies", "audio"]);
    expect(form.get("title")).toBe("Calm");
    expect(form.get("duration")).toBe("3");
    expect(JSON.parse(String(form.get("frequencies")))).toEqual({ channels: [], summary: "" });
    const file = form.get("audio") as File;
    expect(file.name).toBe("calm.wav");
    expect(file.size).toBe(4);
    expect(uploadFormData(good, new Blob([]), "x.wav").has("frequencies")).toBe(false);
  });
});

const channels = (...list: Partial<ChannelState>[]): ChannelState[] => defaultChannels().map((c, i) => ({ ...c, ...(list[i] ?? { enabled: false, frequency: 0 }) }));

describe("the studio's Upload to Store", () => {
  it("sends the sounding channels with a summary", () => {
    const field = frequenciesField(
      channels({ frequency: 432 }, { frequency: 528, waveform: "triangle", volume: 0.7 }, { enabled: false, frequency: 639 }, { enabled: true, frequency: 0 }),
    );
    expect(field).toEqual({
      channels: [
        { frequency: 432, volume: 0.5, waveform: "sine" },
        { frequency: 528, volume: 0.7, waveform: "triangle" },
      ],
      summary: "432 Hz + 528 Hz",
    });
    expect(formatHz(136.1)).toBe("136.1 Hz");
    expect(formatHz(7.833333)).toBe("7.83 Hz");
  });

  it("rounds the duration up to whole minutes", () => {
    expect(uploadMinutes(30)).toBe(1);
    expect(uploadMinutes(60)).toBe(1);
    expect(uploadMinutes(61)).toBe(2);
    expect(uploadMinutes(3540)).toBe(59);
    expect(uploadMinutes(3541)).toBe(60);
  });

  const input = (over: Partial<Parameters<typeof checkStudioUpload>[0]> = {}) => ({
    fields: { title: "Calm", description: "", price: "0", category: "Focus", tags: "", specs: "" },
    signedIn: true,
    channels: channels({ frequency: 432 }),
    duration: 30,
    ...over,
  });

  it("checks in the spec's order with its texts", () => {
    expect(checkStudioUpload(input())).toBeNull();
    expect(checkStudioUpload(input({ fields: { ...input().fields, title: " " }, signedIn: false }))).toBe(T.fieldsMissing);
    expect(checkStudioUpload(input({ fields: { ...input().fields, price: "-2" }, signedIn: false }))).toBe(T.priceInvalid);
    expect(checkStudioUpload(input({ signedIn: false, channels: channels() }))).toBe("Please log in to upload to marketplace");
    expect(checkStudioUpload(input({ channels: channels() }))).toBe("Please enable at least one frequency before uploading");
    // Enabled at 0 Hz does not count.
    expect(checkStudioUpload(input({ channels: channels({ frequency: 0 }) }))).toBe(T.uploadNeedsChannel);
  });

  it("refuses a studio duration the marketplace cannot list (over 59 minutes) before rendering", () => {
    expect(checkStudioUpload(input({ duration: 3540 }))).toBeNull();
    expect(checkStudioUpload(input({ duration: 3541 }))).toBe(T.uploadTooLong);
    expect(checkStudioUpload(input({ duration: 43_200 }))).toBe(T.uploadTooLong);
    expect(T.uploadTooLong).toMatch(/59 minutes/);
  });

  it("also applies the rules both forms share (the paid minimum)", () => {
    expect(checkStudioUpload(input({ fields: { ...input().fields, price: "0.10" } }))).toBe(T.priceBelowMinimum);
  });
});

const answer = (status: number, body: unknown, statusText = ""): UploadResult => ({ kind: "answer", status, statusText, body });
const sound = { id: "s1", title: "Calm" };

describe("upload failure texts", () => {
  it("studio: 401, 429, the server's error, 'Upload failed: {status} {text}', network", () => {
    expect(studioUploadErrorText(answer(201, { success: true, sound }))).toBeNull();
    expect(studioUploadErrorText(answer(401, { error: "Please log in to upload to marketplace" }))).toBe("Authentication failed. Please log in again.");
    expect(studioUploadErrorText(answer(429, { error: "x" }))).toBe("Upload rate limit exceeded. Please wait and try again.");
    expect(studioUploadErrorText(answer(413, { error: "The file is too large (at most 1024 MB)" }))).toBe("The file is too large (at most 1024 MB)");
    expect(studioUploadErrorText(answer(502, null, "Bad Gateway"))).toBe("Upload failed: 502 Bad Gateway");
    expect(studioUploadErrorText({ kind: "network" })).toBe("Upload failed - network error");
    expect(studioUploadErrorText({ kind: "aborted" })).toBeNull();
  });

  it("admin form: the server's text or 'Upload failed'", () => {
    expect(adminUploadErrorText(answer(201, { success: true, sound }))).toBeNull();
    expect(adminUploadErrorText(answer(415, { error: T.notAudio }))).toBe(T.notAudio);
    expect(adminUploadErrorText(answer(500, "<html>"))).toBe("Upload failed");
    expect(adminUploadErrorText({ kind: "network" })).toBe("Upload failed");
  });

  it("a success needs success: true and the sound", () => {
    expect(uploadedSound(answer(201, { success: true, sound }))).toEqual(sound);
    expect(uploadedSound(answer(200, { success: false }))).toBeNull();
    expect(uploadedSound(answer(400, { success: true, sound }))).toBeNull();
  });
});

/** Just enough of XMLHttpRequest for sendUpload. */
class FakeXhr {
  static last: FakeXhr;
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  statusText = "";
  responseText = "";
  responseType = "";
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
}
const makeXhr = () => new FakeXhr() as unknown as XMLHttpRequest;

describe("sendUpload", () => {
  it("posts the form with the bearer token and reports upload progress", async () => {
    const seen: number[] = [];
    const form = new FormData();
    const done = sendUpload(form, "tok", { makeXhr, onProgress: (p) => seen.push(p.fraction) });
    const x = FakeXhr.last;
    expect([x.method, x.url, x.headers.Authorization, x.body]).toEqual(["POST", "/api/marketplace/upload-direct", "Bearer tok", form]);
    x.upload.onprogress!({ lengthComputable: true, loaded: 50, total: 200 });
    x.upload.onprogress!({ lengthComputable: false, loaded: 0, total: 0 });
    x.upload.onprogress!({ lengthComputable: true, loaded: 200, total: 200 });
    Object.assign(x, { status: 201, statusText: "Created", responseText: JSON.stringify({ success: true, sound }) });
    x.onload!();
    expect(await done).toEqual(answer(201, { success: true, sound }, "Created"));
    expect(seen).toEqual([0.25, 1]);
  });

  it("answers network failures, non-JSON bodies and aborts without rejecting", async () => {
    const net = sendUpload(new FormData(), "t", { makeXhr });
    FakeXhr.last.onerror!();
    expect(await net).toEqual({ kind: "network" });

    const html = sendUpload(new FormData(), "t", { makeXhr });
    Object.assign(FakeXhr.last, { status: 502, statusText: "Bad Gateway", responseText: "<html>" });
    FakeXhr.last.onload!();
    expect(await html).toEqual(answer(502, null, "Bad Gateway"));

    const ctrl = new AbortController();
    const aborted = sendUpload(new FormData(), "t", { makeXhr, signal: ctrl.signal });
    ctrl.abort();
    expect(await aborted).toEqual({ kind: "aborted" });
  });
});
