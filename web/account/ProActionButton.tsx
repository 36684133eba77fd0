// A studio action that needs Pro or unlimited access (WAV export, preset sharing; spec/studio.md
// section 6): the button, the '🔒 Pro Only' lock beside it while `locked`, and whatever the
// action shows below it (progress, a link) as children.

import type { ReactNode } from "react";
import { ProLock } from "./ProLock";
import "./pro-action.css";

export interface ProActionButtonProps {
  /** Class of the wrapper: the action's own layout. */
  className: string;
  label: string;
  busyLabel: string;
  busy: boolean;
  locked: boolean;
  /** What the lock unlocks, for screen readers ("WAV export"). */
  feature: string;
  onClick: () => void;
  children?: ReactNode;
}

export function ProActionButton({ className, label, busyLabel, busy, locked, feature, onClick, children }: ProActionButtonProps) {
  return (
    <div className={className} data-locked={locked}>
      <button type="button" className="pro-action" onClick={onClick} disabled={busy || locked} aria-busy={busy}>
        {busy ? busyLabel : label}
      </button>
      {locked && <ProLock compact feature={feature} />}
      {children}
    </div>
  );
}
