// The studio page's shortcuts (rules in shortcuts.ts, applied by use-shortcuts.ts): Space plays
// or stops, Ctrl+P opens the pricing screen (which replaces the studio until Back or Escape),
// Ctrl+F focuses channel 1's frequency box. While the studio is locked (anonymous visitors, a
// session still restoring) Space and Ctrl+F keep their browser meaning; Ctrl+P still opens pricing.

import { useCallback, useState } from "react";
import { useStudioGate } from "../account/hooks";
import { frequencyInputId } from "../channels/ChannelCard";
import { useAudio, useStudio } from "../state/studio-context";
import { togglePlayback } from "../transport/toggle-playback";
import { useShortcuts } from "../state/use-shortcuts";

export function useStudioShortcuts(): [pricingOpen: boolean, closePricing: () => void] {
  const [pricingOpen, setPricingOpen] = useState(false);
  const store = useStudio();
  const audio = useAudio();
  const locked = useStudioGate().studioLocked;

  useShortcuts({
    openPricing: () => setPricingOpen(true), // and not the print dialog
    togglePlay: () => {
      if (locked || pricingOpen) return false;
      void togglePlayback(store, audio);
    },
    focusFrequency: () => {
      const input = document.getElementById(frequencyInputId(1));
      if (pricingOpen || !(input instanceof HTMLInputElement) || input.disabled) return false;
      input.focus();
      input.select();
    },
  });

  return [pricingOpen, useCallback(() => setPricingOpen(false), [])];
}
