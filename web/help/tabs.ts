// Keyboard rules of a horizontal tab list (WAI-ARIA Authoring Practices, tabs with automatic
// activation): Left and Right move to the previous and next tab, wrapping; Home and End to the
// first and last. Pure, so it is unit-tested.

/** The tab a key moves to from `index` among `count` tabs, or null when the key is not a tab key. */
export function tabKeyTarget(key: string, index: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case "ArrowRight":
      return (index + 1) % count;
    case "ArrowLeft":
      return (index - 1 + count) % count;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}
