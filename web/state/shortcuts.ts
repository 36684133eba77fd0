// Keyboard shortcuts of the studio (spec/studio.md section 2) as pure rules, so they are
// unit-tested without a browser; web/state/use-shortcuts.ts is the one hook that applies them.
//
//   Space        plays or stops (not on a button, link, switch or field, where Space activates it)
//   Ctrl+P       opens the pricing screen (Cmd+P on a Mac keyboard)
//   Ctrl+F       focuses channel 1's frequency box (Cmd+F)
//   Shift+?      opens the accessibility help (any layout's "?" key)
//   Escape       closes dialogs (always, even in a text field)
//   Up / Down    in a focused frequency control: +/- 1 Hz, with Shift +/- 10 Hz
//
// Every shortcut but Escape is ignored while typing in an input, a text area, a select or
// editable content, and all of them are left to a modal dialog while focus is inside one.

import { MAX_FREQUENCY_HZ } from "../../dsp/host/model/limits";

/** Inputs whose keys are typing (not sliders, switches or buttons). */
const TYPING_INPUTS = new Set(["text", "search", "email", "password", "number", "tel", "url", ""]);

/** Elements on which Space already means "activate" (or "type a space"). */
const ACTIVATABLE_TAGS = new Set(["BUTTON", "A", "INPUT", "SELECT", "TEXTAREA", "SUMMARY", "OPTION", "AUDIO", "VIDEO"]);
const ACTIVATABLE_ROLES = new Set([
  "button", "link", "checkbox", "switch", "radio", "tab", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "slider", "spinbutton", "combobox", "textbox", "treeitem", "gridcell",
]);

export interface TargetLike {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
  getAttribute?(name: string): string | null;
  closest?(selector: string): unknown;
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

/** True when Space on `target` already does something: a button, link, any input, a switch, a
 *  tab... The play shortcut leaves those alone ("Enter or Space activates"). */
export function isActivatableTarget(target: EventTarget | TargetLike | null): boolean {
  if (!target || typeof target !== "object") return false;
  const t = target as TargetLike;
  if (t.isContentEditable) return true;
  if (ACTIVATABLE_TAGS.has((t.tagName ?? "").toUpperCase())) return true;
  const role = t.getAttribute?.("role");
  return role != null && ACTIVATABLE_ROLES.has(role.trim().toLowerCase());
}

/** True when `target` is inside a dialog element: the dialog handles its own keys. */
export function isInsideDialog(target: EventTarget | TargetLike | null): boolean {
  if (!target || typeof target !== "object") return false;
  const t = target as TargetLike;
  return typeof t.closest === "function" && t.closest("dialog") != null;
}

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  /** A held key's auto-repeat. */
  repeat?: boolean;
  target: EventTarget | TargetLike | null;
}

export type ShortcutAction = "togglePlay" | "openPricing" | "focusFrequency" | "openHelp" | "escape";

const commandKey = (e: KeyLike) => (e.ctrlKey || e.metaKey === true) && !e.altKey && !e.shiftKey;

/** The action a key press asks for, or null. */
export function shortcutFor(e: KeyLike): ShortcutAction | null {
  if (isInsideDialog(e.target)) return null;
  if (e.key === "Escape" || e.key === "Esc") return "escape";
  if (isTypingTarget(e.target)) return null;
  const key = e.key.toLowerCase();
  if (commandKey(e) && key === "p") return "openPricing";
  if (commandKey(e) && key === "f") return "focusFrequency";
  if (e.key === "?" && !e.ctrlKey && !e.metaKey && !e.altKey) return "openHelp";
  const plain = !e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey;
  if ((e.key === " " || e.key === "Spacebar") && plain && !e.repeat && !isActivatableTarget(e.target)) return "togglePlay";
  return null;
}

/** Ctrl+P (Cmd+P on a Mac keyboard) outside a text field. */
export function isPricingShortcut(e: KeyLike): boolean {
  return shortcutFor(e) === "openPricing";
}

/** Arrow steps of a focused frequency control, in Hz. */
export const FREQUENCY_STEP_HZ = 1;
export const FREQUENCY_BIG_STEP_HZ = 10;

/** The change Up or Down asks of a focused frequency control (+/- 1 Hz, with Shift +/- 10 Hz;
 *  Right and Left too when `horizontal`, as on the slider), or null for any other key. */
export function frequencyStep(e: Omit<KeyLike, "target">, horizontal = false): number | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const size = e.shiftKey ? FREQUENCY_BIG_STEP_HZ : FREQUENCY_STEP_HZ;
  if (e.key === "ArrowUp" || (horizontal && e.key === "ArrowRight")) return size;
  if (e.key === "ArrowDown" || (horizontal && e.key === "ArrowLeft")) return -size;
  return null;
}

/** `frequency` moved by `delta` Hz, kept in 0-20000 Hz and to 2 decimals (spec 5). */
export function steppedFrequency(frequency: number, delta: number): number {
  const base = Number.isFinite(frequency) ? frequency : 0;
  const next = Math.min(MAX_FREQUENCY_HZ, Math.max(0, base + delta));
  return Math.round(next * 100) / 100;
}
