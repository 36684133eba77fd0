// The tutorial's state for this browser, outside React: TutorialPanel draws it, the hint bar
// stays out of the way while it is open. Every skip or completion is written to localStorage.

import { createStore } from "zustand/vanilla";
import { loadTutorialState, saveTutorialState, tutorialReducer, type TutorialAction, type TutorialState } from "./tutorial";

export const tutorialStore = createStore<TutorialState>()(() => loadTutorialState());

export function tutorialAction(action: TutorialAction): void {
  const next = tutorialReducer(tutorialStore.getState(), action);
  if (next === tutorialStore.getState()) return;
  tutorialStore.setState(next, true);
  saveTutorialState(next);
}
