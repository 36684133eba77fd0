// The studio's keyboard rules (spec/studio.md section 2): Ctrl+P, Space, Ctrl+F, Shift+?, Escape and
// the frequency arrows; everything but Escape ignored while typing, keys in a dialog left to it.

import { describe, expect, it } from "vitest";
import {
  FREQUENCY_BIG_STEP_HZ, frequencyStep, isActivatableTarget, isPricingShortcut, isTypingTarget, shortcutFor, steppedFrequency,
} from "../../../../web/state/shortcuts";

const key = (over: Partial<Parameters<typeof isPricingShortcut>[0]> = {}) => ({
  key: "p", ctrlKey: true, metaKey: false, altKey: false, shiftKey: false, target: { tagName: "BODY" }, ...over,
});

describe("pricing shortcut", () => {
  it("Ctrl+P (and Cmd+P) outside text fields", () => {
    expect(isPricingShortcut(key())).toBe(true);
    expect(isPricingShortcut(key({ key: "P" }))).toBe(true);
    expect(isPricingShortcut(key({ ctrlKey: false, metaKey: true }))).toBe(true);
    expect(isPricingShortcut(key({ ctrlKey: false }))).toBe(false);
    expect(isPricingShortcut(key({ key: "o" }))).toBe(false);
    expect(isPricingShortcut(key({ shiftKey: true }))).toBe(false);
    expect(isPricingShortcut(key({ altKey: true }))).toBe(false);
  });

  it("ignored while typing in an input", () => {
    expect(isPricingShortcut(key({ target: { tagName: "INPUT", type: "text" } }))).toBe(false);
    expect(isPricingShortcut(key({ target: { tagName: "TEXTAREA" } }))).toBe(false);
    expect(isPricingShortcut(key({ target: { tagName: "DIV", isContentEditable: true } }))).toBe(false);
  });

  it("sliders, switches and buttons are not typing", () => {
    expect(isTypingTarget({ tagName: "INPUT", type: "range" })).toBe(false);
    expect(isTypingTarget({ tagName: "INPUT", type: "checkbox" })).toBe(false);
    expect(isTypingTarget({ tagName: "BUTTON" })).toBe(false);
    expect(isTypingTarget({ tagName: "INPUT", type: "email" })).toBe(true);
    expect(isTypingTarget({ tagName: "SELECT" })).toBe(true);
    expect(isTypingTarget(null)).toBe(false);
  });
});

/** A made-up element: tag, type, role and whether it sits in a dialog. */
const el = (tagName: string, extra: { type?: string; role?: string; inDialog?: boolean; editable?: boolean } = {}) => ({
  tagName,
  type: extra.type,
  isContentEditable: extra.editable ?? false,
  getAttribute: (name: string) => (name === "role" ? (extra.role ?? null) : null),
  closest: (selector: string) => (selector === "dialog" && extra.inDialog ? {} : null),
});

const press = (k: string, target: object = el("BODY"), mods: { ctrl?: boolean; meta?: boolean; shift?: boolean; alt?: boolean; repeat?: boolean } = {}) =>
  shortcutFor({ key: k, ctrlKey: mods.ctrl ?? false, metaKey: mods.meta ?? false, shiftKey: mods.shift ?? false, altKey: mods.alt ?? false, repeat: mods.repeat ?? false, target });

describe("studio shortcuts (spec 2)", () => {
  it("maps each key to its action", () => {
    expect(press(" ")).toBe("togglePlay");
    expect(press("p", el("BODY"), { ctrl: true })).toBe("openPricing");
    expect(press("f", el("BODY"), { ctrl: true })).toBe("focusFrequency");
    expect(press("F", el("BODY"), { meta: true })).toBe("focusFrequency");
    expect(press("?", el("BODY"), { shift: true })).toBe("openHelp");
    expect(press("?")).toBe("openHelp"); // layouts where ? needs no Shift
    expect(press("Escape")).toBe("escape");
    expect(press("a")).toBeNull();
    expect(press("f")).toBeNull();
    expect(press("?", el("BODY"), { ctrl: true })).toBeNull();
    expect(press("f", el("BODY"), { ctrl: true, shift: true })).toBeNull();
  });

  it("ignores every shortcut but Escape while typing in an input, text area, select or editable content", () => {
    for (const target of [el("INPUT", { type: "text" }), el("TEXTAREA"), el("SELECT"), el("DIV", { editable: true }), el("INPUT", { type: "search" })]) {
      expect(press(" ", target)).toBeNull();
      expect(press("p", target, { ctrl: true })).toBeNull();
      expect(press("f", target, { ctrl: true })).toBeNull();
      expect(press("?", target, { shift: true })).toBeNull();
      expect(press("Escape", target)).toBe("escape");
    }
  });

  it("leaves Space to whatever it activates, and to auto-repeat", () => {
    for (const target of [el("BUTTON"), el("A"), el("INPUT", { type: "checkbox" }), el("INPUT", { type: "range" }), el("SUMMARY"), el("DIV", { role: "tab" }), el("SPAN", { role: "switch" })]) {
      expect(isActivatableTarget(target)).toBe(true);
      expect(press(" ", target)).toBeNull();
    }
    expect(isActivatableTarget(el("SECTION"))).toBe(false);
    expect(press(" ", el("H2"))).toBe("togglePlay");
    expect(press(" ", el("BODY"), { repeat: true })).toBeNull();
    expect(press(" ", el("BODY"), { shift: true })).toBeNull();
    // Ctrl+P on a button is still the shortcut (only typing suppresses it).
    expect(press("p", el("BUTTON"), { ctrl: true })).toBe("openPricing");
  });

  it("leaves keys inside a dialog to the dialog", () => {
    const inDialog = el("BUTTON", { inDialog: true });
    expect(press("Escape", inDialog)).toBeNull();
    expect(press(" ", el("DIV", { inDialog: true }))).toBeNull();
    expect(press("p", inDialog, { ctrl: true })).toBeNull();
  });
});

describe("frequency arrows", () => {
  const arrow = (key: string, shiftKey = false) => ({ key, shiftKey, ctrlKey: false, metaKey: false, altKey: false });

  it("Up and Down step 1 Hz, 10 Hz with Shift; Left and Right only on the slider", () => {
    expect(frequencyStep(arrow("ArrowUp"))).toBe(1);
    expect(frequencyStep(arrow("ArrowDown"))).toBe(-1);
    expect(frequencyStep(arrow("ArrowUp", true))).toBe(FREQUENCY_BIG_STEP_HZ);
    expect(frequencyStep(arrow("ArrowDown", true))).toBe(-10);
    expect(frequencyStep(arrow("ArrowRight"))).toBeNull();
    expect(frequencyStep(arrow("ArrowRight", true), true)).toBe(10);
    expect(frequencyStep(arrow("ArrowLeft"), true)).toBe(-1);
    expect(frequencyStep({ ...arrow("ArrowUp"), ctrlKey: true })).toBeNull();
    expect(frequencyStep(arrow("a"))).toBeNull();
  });

  it("keeps the result in 0-20000 Hz with 2 decimals", () => {
    expect(steppedFrequency(432, 1)).toBe(433);
    expect(steppedFrequency(432.25, -10)).toBe(422.25);
    expect(steppedFrequency(0.1 + 0.2, 1)).toBe(1.3);
    expect(steppedFrequency(5, -10)).toBe(0);
    expect(steppedFrequency(19995, 10)).toBe(20000);
    expect(steppedFrequency(Number.NaN, 1)).toBe(1);
  });
});
