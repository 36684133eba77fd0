// Keyboard shortcuts of the studio (spec/studio.md section 2) as pure checks: Ctrl+P opens the
// pricing screen; shortcuts are ignored while typing in an input.

/** Inputs whose keys are typing (not sliders, switches or buttons). */
const TYPING_INPUTS = new Set(["text", "search", "email", "password", "number", "tel", "url", ""]);

interface TargetLike {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
}

/** True while the key goes into a text field: text-like inputs, text areas, selects and
 *  editable content. */
export function isTypingTarget(target: EventTarget | TargetLike | null): boolean {
  if (!target || typeof target !== "object") return false;
  const t = target as TargetLike;
  if (t.isContentEditable) return true;
  const tag = (t.tagName ?? "").toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  return tag === "INPUT" && TYPING_INPUTS.has((t.type ?? "").toLowerCase());
}

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  target: EventTarget | TargetLike | null;
}

/** Ctrl+P (Cmd+P on a Mac keyboard) outside a text field. */
export function isPricingShortcut(e: KeyLike): boolean {
  return (e.ctrlKey || e.metaKey === true) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "p" && !isTypingTarget(e.target);
}
