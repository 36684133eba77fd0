// The category tabs of /marketplace (spec/accounts.md section 2): an ARIA tablist (WAI-ARIA
// Authoring Practices, tabs with automatic activation): one tab in the Tab order, Left/Right
// arrows move and select (wrapping), Home and End go to the first and last.

import { useRef, type KeyboardEvent } from "react";
import { MARKETPLACE_TABS, type MarketplaceTab } from "../../api/rules/marketplace";

export const tabId = (tab: MarketplaceTab) => `category-tab-${tab.toLowerCase()}`;

interface Props {
  value: MarketplaceTab;
  onChange(tab: MarketplaceTab): void;
  /** Id of the tabpanel the tabs control. */
  panelId: string;
}

export function CategoryTabs({ value, onChange, panelId }: Props) {
  const list = useRef<HTMLDivElement>(null);

  const select = (tab: MarketplaceTab) => {
    onChange(tab);
    list.current?.querySelector<HTMLButtonElement>(`#${tabId(tab)}`)?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = MARKETPLACE_TABS.indexOf(value);
    const n = MARKETPLACE_TABS.length;
    const next =
      e.key === "ArrowRight" ? (i + 1) % n
      : e.key === "ArrowLeft" ? (i - 1 + n) % n
      : e.key === "Home" ? 0
      : e.key === "End" ? n - 1
      : null;
    if (next === null) return;
    e.preventDefault();
    select(MARKETPLACE_TABS[next]);
  };

  return (
    <div ref={list} role="tablist" aria-label="Categories" className="category-tabs" onKeyDown={onKeyDown}>
      {MARKETPLACE_TABS.map((tab) => (
        <button
          key={tab}
          type="button"
          role="tab"
          id={tabId(tab)}
          aria-selected={tab === value}
          aria-controls={panelId}
          tabIndex={tab === value ? 0 : -1}
          onClick={() => onChange(tab)}
        >
          {tab}
        </button>
      ))}
    </div>
  );
}
