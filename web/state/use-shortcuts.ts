// The one hook behind the keyboard shortcuts: listens on the document, asks the pure rules in
// shortcuts.ts which action a key press means, and runs the caller's handler for it. A handler
// that returns false declines (the key keeps its browser meaning: with the studio locked, Ctrl+F
// is the browser's find again and Space scrolls); otherwise the browser default is prevented.
// The app frame uses it for Shift+? (help on every route), the studio page for the rest.

import { useEffect, useRef } from "react";
import { shortcutFor, type ShortcutAction } from "./shortcuts";

export type ShortcutHandlers = Partial<Record<ShortcutAction, () => boolean | void>>;

export function useShortcuts(handlers: ShortcutHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const action = shortcutFor(e);
      const handler = action ? latest.current[action] : undefined;
      if (!handler) return;
      if (handler() === false) return;
      // Escape keeps its default: other listeners (a menu, the pricing screen) may want it too.
      if (action !== "escape") e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
