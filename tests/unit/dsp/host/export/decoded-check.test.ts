// The export report's decode-back check (decoded-check.ts), fed with decoders that play back
// exactly what was rendered, quantised as a 16-bit file holds it, and with decoders that get it
// wrong the ways a broken file would: one frame late, 1 dB quieter, a tone moved by 0.1 Hz, a
// duration that is not the render's; and the studio's WebAssembly decoders (its path where a
// browser has no decoder) on files from its own encoders. The CLI's ffmpeg path is in
// tests/unit/scripts/render-formats.test.ts.

import { describe, expect, it } from "vitest";
import { checkDecoded, notDecoded, withDecodedCheck, type DecodedAudio } from "../../../../../dsp/host/export/decoded-check";
import { EXPORT_FORMATS } from "../../../../../dsp/host/export/formats";
import { createMediabunnyEncoder } from "../../../../../dsp/host/export/encoders";
import { mediabunnyDecoder } from "../../../../../dsp/host/export/mediabunny-decoder";
import { WavRenderer } from "../../../../../dsp/host/export/render";
import { createNodeEngine } from "../../../../../dsp/host/node";
import { ExportReportCollector } from "../../../../../dsp/host/export/report";
import { formatReport } from "../../../../../dsp/host/export/report-text";
import { defaultAudioState } from "../../../../../dsp/host/schema/state";
import { FS } from "../../assembly/helpers";

const SECONDS = 6;
const TONES = [220, 1000];

function state() {
  const s = defaultAudioState();
  s.channels = s.channels.map((c, i) => (i < TONES.length ? { ...c, frequency: TONES[i], enabled: true } : { ...c, enabled: false }));
  s.effects = Object.fromEntries(Object.entries(s.effects).map(([id, e]) => [id, { ...e, enabled: false }])) as typeof s.effects;
  return s;
}

/** The rendered signal: the tones at 0.1 each, both ears. `shift` Hz moves every tone. */
function signal(gain = 1, shift = 0): Float32Array {
  const n = SECONDS * FS;
  const x = new Float32Array(n);
  for (const f of TONES) for (let i = 0; i < n; i++) x[i] += gain * 0.1 * Math.sin((2 * Math.PI * (f + shift) * i) / FS);
  return x;
}

const rendered = signal();
const collector = new ExportReportCollector({ sampleRate: FS, duration: SECONDS, state: state(), fadeIn: 0 });
collector.push(rendered, rendered, 0);
const report = collector.finish();

/** A decoder of `x` as a 16-bit file holds it (rounded to the engine's 32767 scale, read back / 32768). */
function decoder(x: Float32Array, opts: { offset?: number; duration?: number | null } = {}): DecodedAudio {
  const q = x.map((v) => Math.round(v * 32767) / 32768);
  return {
    decoder: "a test decoder",
    duration: async () => (opts.duration === undefined ? SECONDS : opts.duration),
    async read(from, frames) {
      const s = q.slice(from - (opts.offset ?? 0), from - (opts.offset ?? 0) + frames);
      return { left: s, right: s };
    },
  };
}

const flac = EXPORT_FORMATS.flac16;
const mp3 = EXPORT_FORMATS.mp3;
const check = (audio: DecodedAudio, format = flac) => checkDecoded(report, collector.renderedWindows(), format, format.label, audio);

describe("decoding an export back", () => {
  it("the render itself passes: the length to the frame, every sample within half a bit, the tones unchanged", async () => {
    expect(report.pass).toBe(true);
    const d = await check(decoder(rendered));
    expect(d).toMatchObject({ decodedBack: true, duration: "pass", samples: "pass", status: "pass" });
    expect(d.maxDifferenceLsb).toBeLessThanOrEqual(0.5);
    expect(d.tones).toHaveLength(TONES.length * report.windows.length);
    for (const t of d.tones) expect(Math.abs(t.decodedHz! - t.renderedHz)).toBeLessThan(0.001);
    const r = withDecodedCheck(report, d);
    expect(r.pass).toBe(true);
    expect(r.counts.pass).toBe(report.counts.pass + 2 + d.tones.length);
    expect(formatReport(r)).toContain("\nFLAC 16-bit decoded back:\n  Decoded by a test decoder; tones within ±0.05 Hz and ±0.5 dB of the render\n  PASS Duration in the file: 0:06 (6.000 s), rendered 6.000 s (to the frame)\n");
  });

  it("a file one frame late fails its samples, though it sounds the same", async () => {
    const d = await check(decoder(rendered, { offset: 1 }));
    expect(d.samples).toBe("fail");
    expect(d.maxDifferenceLsb).toBeGreaterThan(10);
    expect(d.tones.every((t) => t.status === "pass")).toBe(true);
    expect(withDecodedCheck(report, d).pass).toBe(false);
  });

  it("a lossy file 1 dB quieter, or 0.1 Hz off, fails its tones; a lossy length may differ by its frames", async () => {
    const quiet = await check(decoder(signal(10 ** (-1 / 20))), mp3);
    expect(quiet.samples).toBeUndefined();
    expect(quiet.duration).toBe("pass");
    expect(quiet.tones.every((t) => t.status === "fail" && Math.abs(t.decodedDbfs! - t.renderedDbfs + 1) < 0.05)).toBe(true);
    const off = await check(decoder(signal(1, 0.1)), mp3);
    expect(off.tones.every((t) => t.status === "fail")).toBe(true);
    const padded = await check(decoder(rendered, { duration: SECONDS + 0.04 }), mp3);
    expect(padded.status).toBe("pass");
  });

  it("a FLAC whose length is one frame short, or states none, fails its duration", async () => {
    expect((await check(decoder(rendered, { duration: SECONDS - 1 / FS }))).duration).toBe("fail");
    const none = await check(decoder(rendered, { duration: null }));
    expect(none.duration).toBe("fail");
    expect(formatReport(withDecodedCheck(report, none))).toContain("FAIL Duration in the file: states none");
  });

  it("a browser without the decoder skips the check and says why", () => {
    const r = withDecodedCheck(report, notDecoded(flac, "FLAC 16-bit", "this browser cannot decode flac."));
    expect(r.pass).toBe(true);
    expect(r.counts.skipped).toBe(report.counts.skipped + 1);
    expect(formatReport(r)).toContain("SKIP Not decoded back: this browser cannot decode flac.");
  });
});

describe("the studio's decoder where the browser has none (libFLAC and mpg123 in WebAssembly, as in Node)", () => {
  for (const settings of [{ format: "flac16" }, { format: "flac24" }, { format: "mp3", mp3: { kind: "cbr", kbps: 192 } }] as const) {
    it(`${settings.format}: the studio's own encoder's file passes, seeking to each window`, async () => {
      const format = EXPORT_FORMATS[settings.format];
      const c = new ExportReportCollector({ sampleRate: FS, duration: SECONDS, state: state() });
      const renderer = new WavRenderer(createNodeEngine(FS), state(), SECONDS, { pcm: format.pcm, container: "raw", observer: c });
      let file = new Uint8Array(0);
      const encoder = await createMediabunnyEncoder(settings, {
        async write(data, position) {
          if (position + data.byteLength > file.byteLength) {
            const grown = new Uint8Array(position + data.byteLength);
            grown.set(file);
            file = grown;
          }
          file.set(data, position);
        },
      });
      for (const chunk of renderer.chunks(1 << 20, 2)) await encoder.write(chunk);
      await encoder.finish();
      const rendered = c.finish();
      const audio = await mediabunnyDecoder(new Blob([file]), FS);
      if ("unavailable" in audio) throw new Error(audio.unavailable);
      expect(audio.decoder).toBe(settings.format === "mp3" ? "mpg123 (WebAssembly)" : "libFLAC (WebAssembly)");
      const d = await checkDecoded(rendered, c.renderedWindows(), format, format.label, audio);
      expect(d.status, formatReport(withDecodedCheck(rendered, d))).toBe("pass");
      if (format.lossless) expect(d.maxDifferenceLsb).toBeLessThanOrEqual(1.5);
      expect(d.tones).toHaveLength(TONES.length * rendered.windows.length);
    });
  }
});
