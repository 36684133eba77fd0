// SBaGen's looping tag: a loopable soundtrack carries `SBAGEN_LOOPER=<spec>` (a Vorbis comment in
// OGG and FLAC, an ID3 TXXX frame in MP3), e.g. "s4-16 f0.2" or "s99999999 f1 c1 w1 d0-99999999".
// The studio plays every soundtrack as a loop (dsp/assembly/soundtrack.ts) and takes from the spec
// what fits a deterministic loop: `f` (the cross-fade, seconds) and `d<min>-<max>` (the section of
// the file that loops, seconds), with `#N` groups selected as SBaGen selects them (file#N; #0 by
// default). SBaGen's random segment lengths (`s`), second playback channel (`c2`, `w`) and the intro
// flag (`i`) are not played: the whole section loops, so every render of a session is the same.

export interface LoopSpec {
  /** Cross-fade in seconds. */
  fade?: number;
  /** The section that loops, in seconds. */
  from?: number;
  to?: number;
}

const TAG = "SBAGEN_LOOPER";

/** The SBAGEN_LOOPER text of a file, or null. */
export function findLooperTag(bytes: Uint8Array): string | null {
  const head = bytes.subarray(0, Math.min(bytes.length, 1 << 20));
  const text = latin1(head);
  let at = text.indexOf(`${TAG}=`);
  if (at >= 4) {
    // A Vorbis comment: "SBAGEN_LOOPER=..." preceded by its length (32-bit little-endian).
    const len = head[at - 4] | (head[at - 3] << 8) | (head[at - 2] << 16) | (head[at - 1] << 24);
    if (len > TAG.length + 1 && len < 4096 && at + len <= head.length) return text.slice(at + TAG.length + 1, at + len);
  }
  at = text.indexOf(`${TAG}\0`);
  if (at >= 0) {
    // An ID3v2 TXXX frame: description NUL value (NUL or the frame's end).
    const start = at + TAG.length + 1;
    const end = text.indexOf("\0", start);
    const value = text.slice(start, end < 0 ? Math.min(text.length, start + 256) : end);
    if (/^[\x20-\x7e]*$/.test(value)) return value;
  }
  return null;
}

function latin1(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}

/** Reads a looper spec for group `group` (the part before any `#` applies to all groups). */
export function parseLooperSpec(spec: string, group = 0): LoopSpec {
  const out: LoopSpec = {};
  let current = true;
  for (const word of spec.trim().split(/\s+/)) {
    if (!word) continue;
    const g = /^#(\d+)$/.exec(word);
    if (g) {
      current = Number(g[1]) === group;
      continue;
    }
    if (!current) continue;
    const f = /^f(\d+(?:\.\d+)?)$/.exec(word);
    if (f) out.fade = Number(f[1]);
    const d = /^d(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(word);
    if (d) {
      out.from = Number(d[1]);
      out.to = Number(d[2]);
    }
  }
  return out;
}
