// The Quality Test's fallback "compressed version" where the browser cannot encode Opus
// (no WebCodecs AudioEncoder): ITU-T G.711 mu-law, the telephone codec, 8-bit samples at 8 kHz
// (64 kbit/s per channel). The 48 kHz render is low-pass filtered and decimated to 8 kHz, every
// sample is encoded to one mu-law byte and decoded back; the result stays at 8 kHz (Web Audio
// resamples it on playback). Real codec arithmetic, not an imitation: the encoder is G.711's
// segment/mantissa table (as in the reference code of ITU-T G.191), so the quantisation noise and
// the 4 kHz band limit are what a phone line delivers.

import type { PlanarAudio } from "./planar";

export const G711_RATE = 8000;
const BIAS = 0x84;
const CLIP = 32635;

/** One 16-bit linear sample to its mu-law byte (G.711, bits inverted as transmitted). */
export function muLawEncode(sample: number): number {
  let s = Math.max(-32768, Math.min(32767, Math.round(sample)));
  const sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** A mu-law byte back to its 16-bit linear value. */
export function muLawDecode(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + BIAS) << exponent) - BIAS;
  return u & 0x80 ? -magnitude : magnitude;
}

/** Windowed-sinc (Blackman) low-pass taps, unity gain at DC. `cutoff` in Hz at `rate`. */
export function lowPassTaps(count: number, cutoff: number, rate: number): Float32Array {
  const taps = new Float32Array(count);
  const fc = cutoff / rate;
  const mid = (count - 1) / 2;
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const x = i - mid;
    const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
    const w = 0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (count - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (count - 1));
    taps[i] = sinc * w;
    sum += taps[i];
  }
  for (let i = 0; i < count; i++) taps[i] /= sum;
  return taps;
}

/** 48 kHz -> 8 kHz: the filter keeps the telephone band (flat to 3.4 kHz) and stops
 *  aliases from 4 kHz up (Blackman, 481 taps: more than 70 dB down there). Zero phase (the taps
 *  are centred), so the 8 kHz output lines up in time with the input. */
const DECIMATION_TAPS = lowPassTaps(481, 3700, 48000);

function decimate(input: Float32Array, factor: number, taps: Float32Array): Float32Array {
  const out = new Float32Array(Math.floor(input.length / factor));
  const mid = (taps.length - 1) / 2;
  for (let m = 0; m < out.length; m++) {
    const centre = m * factor;
    let acc = 0;
    const k0 = Math.max(0, centre + mid - (input.length - 1));
    const k1 = Math.min(taps.length - 1, centre + mid);
    for (let k = k0; k <= k1; k++) acc += taps[k] * input[centre + mid - k];
    out[m] = acc;
  }
  return out;
}

function roundTrip(channel: Float32Array): Float32Array {
  const out = new Float32Array(channel.length);
  for (let i = 0; i < channel.length; i++) out[i] = muLawDecode(muLawEncode(channel[i] * 32768)) / 32768;
  return out;
}

/** `audio` (48 kHz) through G.711 mu-law at 8 kHz: the decoded 8 kHz signal. */
export function g711RoundTrip(audio: PlanarAudio): PlanarAudio {
  if (audio.sampleRate !== 48000) throw new RangeError("The G.711 path expects a 48 kHz render");
  const factor = audio.sampleRate / G711_RATE;
  return {
    sampleRate: G711_RATE,
    left: roundTrip(decimate(audio.left, factor, DECIMATION_TAPS)),
    right: roundTrip(decimate(audio.right, factor, DECIMATION_TAPS)),
  };
}
