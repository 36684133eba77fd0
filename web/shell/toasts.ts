// Where and how the app's toasts appear (spec/accounts.md section 9: top-right). One module, so
// the frame's <Toaster> and its unit test read the same settings.

import type { ToasterProps } from "sonner";

export const TOASTER_PROPS = {
  position: "top-right",
  // Below the site header (about 61 px): at sonner's default 24 px a toast covered the account
  // menu's avatar in the same corner, and a click on it hit the toast.
  offset: { top: 72, right: 24 },
  mobileOffset: { top: 68, right: 16, left: 16 },
  richColors: true,
  // Dark, like the app: sonner's light rich colours miss 4.5:1 (success text 4.25:1 on its green).
  theme: "dark",
} as const satisfies ToasterProps;
