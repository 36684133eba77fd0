// Draws the app's icons into web/public/icons/ (committed; run again only to change them):
// a sine wave in the accent colour on the studio's background. PNGs for the web app manifest
// (192 and 512 px, a 512 px maskable one whose wave stays inside the 80 % safe zone) and the
// home-screen icon iOS reads (apple-touch-icon, 180 px), plus the same drawing as SVG.
// Usage: npx tsx scripts/make-icons.ts

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

const OUT = join(process.cwd(), "web", "public", "icons");
const BG = [0x0b, 0x10, 0x20];
const WAVE = [0x38, 0xbd, 0xf8];

interface Drawing {
  /** Corner radius of the background as a fraction of the size (0: full bleed). */
  corner: number;
  /** Half the wave's width and its amplitude, as fractions of the size. */
  halfWidth: number;
  amplitude: number;
  stroke: number;
}

const ANY: Drawing = { corner: 0.22, halfWidth: 0.34, amplitude: 0.17, stroke: 0.075 };
const MASKABLE: Drawing = { corner: 0, halfWidth: 0.27, amplitude: 0.13, stroke: 0.06 };
const PERIODS = 1.5;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size: number, rgba: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rows.set(rgba.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Coverage (0..1) of the background and of the wave at a point in unit coordinates. */
function sample(d: Drawing, x: number, y: number): [number, number] {
  const r = d.corner;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  const inBg = r === 0 || Math.hypot(x - cx, y - cy) <= r ? 1 : 0;
  const u = (x - 0.5) / d.halfWidth; // -1..1 across the wave
  if (Math.abs(u) > 1 + d.stroke / d.halfWidth) return [inBg, 0];
  const k = Math.PI * PERIODS;
  const uc = Math.max(-1, Math.min(1, u));
  const f = 0.5 - d.amplitude * Math.sin(k * uc);
  const slope = (-d.amplitude * k * Math.cos(k * uc)) / d.halfWidth;
  // Distance to the curve, from the vertical distance and the slope; round caps at the ends.
  const dx = (u - uc) * d.halfWidth;
  const dist = Math.hypot(dx, (y - f) / Math.sqrt(1 + slope * slope));
  return [inBg, dist <= d.stroke / 2 ? 1 : 0];
}

function draw(size: number, d: Drawing): Buffer {
  const SS = 4;
  const rgba = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let wave = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const [b, w] = sample(d, (px + (sx + 0.5) / SS) / size, (py + (sy + 0.5) / SS) / size);
          bg += b;
          wave += w * b;
        }
      }
      bg /= SS * SS;
      wave /= SS * SS;
      const i = (py * size + px) * 4;
      const w = bg > 0 ? wave / bg : 0;
      for (let c = 0; c < 3; c++) rgba[i + c] = Math.round(BG[c] * (1 - w) + WAVE[c] * w);
      rgba[i + 3] = Math.round(bg * 255);
    }
  }
  return png(size, rgba);
}

function svg(d: Drawing): string {
  const k = Math.PI * PERIODS;
  const points: string[] = [];
  for (let i = 0; i <= 96; i++) {
    const u = -1 + (2 * i) / 96;
    points.push(`${(512 * (0.5 + u * d.halfWidth)).toFixed(1)},${(512 * (0.5 - d.amplitude * Math.sin(k * u))).toFixed(1)}`);
  }
  const hex = (c: number[]) => `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">`,
    `<rect width="512" height="512" rx="${512 * d.corner}" fill="${hex(BG)}"/>`,
    `<polyline points="${points.join(" ")}" fill="none" stroke="${hex(WAVE)}" stroke-width="${512 * d.stroke}" stroke-linecap="round" stroke-linejoin="round"/>`,
    `</svg>`,
    "",
  ].join("\n");
}

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, "icon-192.png"), draw(192, ANY));
writeFileSync(join(OUT, "icon-512.png"), draw(512, ANY));
writeFileSync(join(OUT, "maskable-512.png"), draw(512, MASKABLE));
writeFileSync(join(OUT, "apple-touch-icon.png"), draw(180, { ...MASKABLE, halfWidth: 0.32, amplitude: 0.15, stroke: 0.07 }));
writeFileSync(join(OUT, "icon.svg"), svg(ANY));
console.log(`icons written to ${OUT}`);
