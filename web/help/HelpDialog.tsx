// The accessibility help dialog (spec/studio.md section 2): a native modal <dialog> (showModal:
// the rest of the page is inert, Escape closes it) with three tabs, Keyboard (selected whenever
// it opens), Screen Reader and Visual, in the WAI-ARIA tabs pattern: one tab stop for the list,
// Left/Right/Home/End move and select, each panel is focusable and labelled by its tab. Focus
// goes to the selected tab on opening and back to what had it on closing. Rendered into
// document.body; opened through help-store.ts.

import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useStore } from "zustand";
import { KeyboardHelp, ScreenReaderHelp, VisualHelp } from "./help-content";
import { closeHelp, helpStore, selectHelpTab } from "./help-store";
import { tabKeyTarget } from "./tabs";
import "./help.css";

export const HELP_TITLE = "Accessibility help";

const TABS: readonly { id: string; label: string; panel: () => ReactNode }[] = [
  { id: "keyboard", label: "Keyboard", panel: () => <KeyboardHelp /> },
  { id: "screen-reader", label: "Screen Reader", panel: () => <ScreenReaderHelp /> },
  { id: "visual", label: "Visual", panel: () => <VisualHelp /> },
];

export function HelpDialog() {
  const open = useStore(helpStore, (s) => s.open);
  const dialog = useRef<HTMLDialogElement>(null);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const opener = useRef<HTMLElement | null>(null);
  const selected = useStore(helpStore, (s) => s.tab);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal();
      tabs.current[helpStore.getState().tab]?.focus();
    } else if (!open && d.open) {
      d.close();
    }
  }, [open]);

  // However it closed (Escape, the Close button, the backdrop), the store follows and focus goes back.
  const onClose = () => {
    closeHelp();
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) back.focus();
  };

  const select = (index: number) => {
    selectHelpTab(index);
    tabs.current[index]?.focus();
  };

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const next = tabKeyTarget(e.key, index, TABS.length);
    if (next === null) return;
    e.preventDefault();
    select(next);
  };

  return createPortal(
    <dialog
      ref={dialog}
      className="help-dialog"
      aria-labelledby="help-title"
      onClose={onClose}
      // A click on the backdrop lands on the dialog element itself.
      onClick={(e) => {
        if (e.target === dialog.current) dialog.current.close();
      }}
    >
      <div className="help-frame">
        <div className="help-head">
          <h2 id="help-title">{HELP_TITLE}</h2>
          <button type="button" className="help-close" onClick={() => dialog.current?.close()} aria-label="Close help">
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div role="tablist" aria-label="Help topics" className="help-tabs">
          {TABS.map((tab, i) => (
            <button
              key={tab.id}
              ref={(el) => {
                tabs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`help-tab-${tab.id}`}
              aria-selected={i === selected}
              aria-controls={`help-panel-${tab.id}`}
              tabIndex={i === selected ? 0 : -1}
              onClick={() => select(i)}
              onKeyDown={(e) => onTabKey(e, i)}
            >
              {tab.label}
            </button>
          ))}
        </div>
        {TABS.map((tab, i) => (
          <div
            key={tab.id}
            role="tabpanel"
            id={`help-panel-${tab.id}`}
            aria-labelledby={`help-tab-${tab.id}`}
            tabIndex={0}
            hidden={i !== selected}
            className="help-panel"
          >
            {open && i === selected && tab.panel()}
          </div>
        ))}
      </div>
    </dialog>,
    document.body,
  );
}
