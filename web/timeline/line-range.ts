// Where a line of the text view is, so an error's line number can select it in the text box.

/** Character offsets of 1-based line `line` in `text` (the whole text for line 0). */
export function lineRange(text: string, line: number): [number, number] {
  if (line < 1) return [0, text.length];
  let start = 0;
  for (let i = 1; i < line; i++) {
    const next = text.indexOf("\n", start);
    if (next < 0) return [text.length, text.length];
    start = next + 1;
  }
  const end = text.indexOf("\n", start);
  return [start, end < 0 ? text.length : end];
}
