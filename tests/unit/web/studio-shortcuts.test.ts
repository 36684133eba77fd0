// The studio's Ctrl+P shortcut (spec/studio.md section 2): opens pricing, ignored while typing.

import { describe, expect, it } from "vitest";
import { isPricingShortcut, isTypingTarget } from "../../../web/studio/shortcuts";

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
