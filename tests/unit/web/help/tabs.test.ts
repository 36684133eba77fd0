// The help dialog's tab keys (WAI-ARIA tabs pattern) and the help store's default tab.

import { describe, expect, it } from "vitest";
import { closeHelp, helpStore, openHelp, selectHelpTab } from "../../../../web/help/help-store";
import { tabKeyTarget } from "../../../../web/help/tabs";

describe("help tabs", () => {
  it("Left and Right move with wrapping; Home and End jump; other keys do nothing", () => {
    expect(tabKeyTarget("ArrowRight", 0, 3)).toBe(1);
    expect(tabKeyTarget("ArrowRight", 2, 3)).toBe(0);
    expect(tabKeyTarget("ArrowLeft", 0, 3)).toBe(2);
    expect(tabKeyTarget("ArrowLeft", 2, 3)).toBe(1);
    expect(tabKeyTarget("Home", 2, 3)).toBe(0);
    expect(tabKeyTarget("End", 0, 3)).toBe(2);
    expect(tabKeyTarget("ArrowDown", 0, 3)).toBeNull();
    expect(tabKeyTarget("Enter", 0, 3)).toBeNull();
    expect(tabKeyTarget("ArrowRight", 0, 0)).toBeNull();
  });

  it("every opening starts on the Keyboard tab", () => {
    openHelp();
    selectHelpTab(2);
    closeHelp();
    openHelp();
    expect(helpStore.getState()).toEqual({ open: true, tab: 0 });
    selectHelpTab(1);
    openHelp(); // already open: the tab stays
    expect(helpStore.getState().tab).toBe(1);
    closeHelp();
    expect(helpStore.getState().open).toBe(false);
  });
});
