// Whether the accessibility help dialog is open, and its selected tab. A tiny store outside
// React, so the header button, the studio's help button and the Shift+? shortcut all open the
// same dialog. Every opening starts on the Keyboard tab (the spec's default).

import { createStore } from "zustand/vanilla";

export interface HelpState {
  open: boolean;
  /** Index of the selected tab (0: Keyboard). */
  tab: number;
}

export const helpStore = createStore<HelpState>()(() => ({ open: false, tab: 0 }));

export const openHelp = (): void => {
  if (!helpStore.getState().open) helpStore.setState({ open: true, tab: 0 });
};
export const closeHelp = (): void => helpStore.setState({ open: false });
export const selectHelpTab = (tab: number): void => helpStore.setState({ tab });
