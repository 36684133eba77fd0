// The header's accessibility help button (spec/studio.md section 2: hidden on small screens; the
// studio's tour bar carries one there, web/onboarding/TutorialPanel.tsx). Opens the help dialog.

import { openHelp } from "./help-store";
import "./help.css";

export function HelpButton({ className = "help-button" }: { className?: string }) {
  return (
    <button type="button" className={className} aria-haspopup="dialog" aria-keyshortcuts="Shift+?" onClick={openHelp}>
      Accessibility help
    </button>
  );
}
