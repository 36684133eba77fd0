// The studio's sections as tabs (WAI-ARIA tabs, automatic activation: Left/Right wrap, Home/End,
// one tab stop): Channels, Effects, Session, Levels & sleep, and for admins Quantum. The open tab
// is remembered (web/state/sections.ts). Every panel stays mounted and hidden when closed, so a
// panel keeps its own state (a search, a draft) while another is open. The tabs stay usable in a
// locked studio (anonymous visitors look around it); each panel's controls sit in a disabled
// fieldset there.

import { useRef, type KeyboardEvent, type ReactNode } from "react";
import { useStore } from "zustand";
import { SECTIONS, sectionsStore, type SectionId } from "../state/sections";

export const tabId = (id: SectionId) => `section-tab-${id}`;
export const panelId = (id: SectionId) => `section-${id}`;

export interface StudioSectionsProps {
  panels: Partial<Record<SectionId, ReactNode>>;
  /** The studio is locked (anonymous): every panel's controls are disabled. */
  locked: boolean;
  /** The gate's level, on each panel's fieldset (data-level) for the styles. */
  level: string;
  /** What explains the lock (the sign-in card's note). */
  describedBy?: string | undefined;
}

export function StudioSections({ panels, locked, level, describedBy }: StudioSectionsProps) {
  const available = SECTIONS.filter((s) => panels[s.id] !== undefined);
  const stored = useStore(sectionsStore, (s) => s.open);
  const open = available.some((s) => s.id === stored) ? stored : available[0].id;
  const tabs = useRef<Partial<Record<SectionId, HTMLButtonElement | null>>>({});

  const select = (id: SectionId, focus = false) => {
    sectionsStore.getState().show(id);
    if (focus) tabs.current[id]?.focus();
  };

  const onKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = available.findIndex((s) => s.id === open);
    const n = available.length;
    const to =
      e.key === "ArrowRight" ? (i + 1) % n : e.key === "ArrowLeft" ? (i - 1 + n) % n : e.key === "Home" ? 0 : e.key === "End" ? n - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    select(available[to].id, true);
  };

  return (
    <div className="studio-sections">
      <div className="section-tabs" role="tablist" aria-label="Studio sections">
        {available.map((s) => (
          <button
            key={s.id}
            ref={(el) => {
              tabs.current[s.id] = el;
            }}
            type="button"
            role="tab"
            id={tabId(s.id)}
            aria-selected={open === s.id}
            aria-controls={panelId(s.id)}
            tabIndex={open === s.id ? 0 : -1}
            onClick={() => select(s.id)}
            onKeyDown={onKey}
          >
            {s.label}
          </button>
        ))}
      </div>
      {available.map((s) => (
        <div key={s.id} role="tabpanel" id={panelId(s.id)} aria-labelledby={tabId(s.id)} hidden={open !== s.id} className="section-panel">
          <fieldset className="studio-body" disabled={locked} data-level={level} aria-describedby={describedBy}>
            <legend className="sr-only">{s.label} controls</legend>
            {panels[s.id]}
          </fieldset>
        </div>
      ))}
    </div>
  );
}
