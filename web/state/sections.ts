// The studio's sections (tabs): which one is open, kept in localStorage so the studio opens where
// the listener left it. A vanilla store, so the tutorial's "Show me" can open the section a step
// is about without reaching into the studio page.

import { createStore } from "zustand/vanilla";

export const SECTION_STORAGE_KEY = "tone-studio:section";

export const SECTIONS = [
  { id: "channels", label: "Channels" },
  { id: "effects", label: "Effects" },
  { id: "session", label: "Session" },
  { id: "levels", label: "Levels & sleep" },
  { id: "quantum", label: "Quantum" },
] as const;

export type SectionId = (typeof SECTIONS)[number]["id"];

export const DEFAULT_SECTION: SectionId = "channels";

const isSection = (v: unknown): v is SectionId => SECTIONS.some((s) => s.id === v);

function stored(): SectionId {
  try {
    const v = localStorage.getItem(SECTION_STORAGE_KEY);
    return isSection(v) ? v : DEFAULT_SECTION;
  } catch {
    return DEFAULT_SECTION;
  }
}

export interface SectionsState {
  open: SectionId;
  show(id: SectionId): void;
}

export function createSectionsStore(initial: SectionId = typeof localStorage === "undefined" ? DEFAULT_SECTION : stored()) {
  return createStore<SectionsState>()((set) => ({
    open: initial,
    show: (id) => {
      set({ open: id });
      try {
        localStorage.setItem(SECTION_STORAGE_KEY, id);
      } catch {
        // Storage refused: remembered for the visit only.
      }
    },
  }));
}

export const sectionsStore = createSectionsStore();
