// What the app frame mounts once for accessibility on every route: the live region (playback and
// export announcements), the help dialog and its Shift+? shortcut.

import { LiveRegion } from "../a11y/LiveRegion";
import { useShortcuts } from "../state/use-shortcuts";
import { HelpDialog } from "./HelpDialog";
import { openHelp } from "./help-store";
import "../a11y/a11y.css";

export function AppAccessibility() {
  useShortcuts({ openHelp });
  return (
    <>
      <LiveRegion />
      <HelpDialog />
    </>
  );
}
