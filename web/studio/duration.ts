// Duration input rules (spec 5): digits and colons only, at most 8 characters, colons inserted
// automatically (HH:MM:SS), minutes and seconds capped at 59. A partial entry is read from the
// right, like a timer: "1:00" is one minute, "12:3" twelve minutes three seconds, "90" 59 s (capped).

export function formatDurationInput(raw: string): string {
  const digits = raw.replace(/[^0-9]/g, "").slice(0, 6);
  const parts: string[] = [];
  for (let i = 0; i < digits.length; i += 2) parts.push(digits.slice(i, i + 2));
  // Cap complete minute and second fields at 59.
  const capped = parts.map((p, i) => (i > 0 && p.length === 2 && Number(p) > 59 ? "59" : p));
  return capped.join(":").slice(0, 8);
}

export function parseDuration(text: string): number {
  const fields = text.split(":").filter((f) => f !== "").map((f) => Number(f));
  if (fields.length === 0 || fields.some((f) => !Number.isFinite(f))) return NaN;
  const [s = 0, m = 0, h = 0] = fields.reverse();
  return h * 3600 + Math.min(m, 59) * 60 + Math.min(s, 59);
}

export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  return [h, m, s].map((v) => String(v).padStart(2, "0")).join(":");
}
