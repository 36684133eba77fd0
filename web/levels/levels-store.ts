// The listener's safe-listening levels (dsp/host/schema/levels.ts) for this browser: a zustand vanilla
// store kept in localStorage and read back through levelsSchema, so a stored value that is
// missing, old or tampered with falls back to the defaults instead of breaking playback. The
// audio client follows it (web/audio/audio-client.ts); the export reads it when an export starts;
// the headphone check sets the balance through setLevels({ balance }).

import { createStore, type StoreApi } from "zustand/vanilla";
import { levelsSchema, type Levels } from "../../dsp/host/schema/levels";

export const LEVELS_STORAGE_KEY = "tone-studio:levels";

export interface LevelsState extends Levels {
  /** Changes some of the levels; every value is checked (and clamped) by levelsSchema. */
  setLevels(patch: Partial<Levels>): void;
}

type StorageLike = Pick<Storage, "getItem" | "setItem">;

function browserStorage(): StorageLike | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null; // storage blocked: the defaults, not remembered
  }
}

/** The levels part of the state (without the action). */
export function levelsOf(s: Levels): Levels {
  return { fadeIn: s.fadeIn, limiter: s.limiter, balance: s.balance };
}

export function loadLevels(storage: StorageLike | null): Levels {
  let raw: unknown;
  try {
    const text = storage?.getItem(LEVELS_STORAGE_KEY);
    raw = text ? JSON.parse(text) : undefined;
  } catch {
    raw = undefined; // unreadable JSON: the defaults
  }
  return levelsSchema.parse(raw);
}

export function createLevelsStore(storage: StorageLike | null = browserStorage()): StoreApi<LevelsState> {
  return createStore<LevelsState>()((set, get) => ({
    ...loadLevels(storage),
    setLevels(patch) {
      const next = levelsSchema.parse({ ...levelsOf(get()), ...patch });
      set(next);
      try {
        storage?.setItem(LEVELS_STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Quota or a blocked storage: the setting applies for this visit only.
      }
    },
  }));
}

/** The page's one levels store. */
export const levelsStore = createLevelsStore();
