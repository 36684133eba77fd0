// /marketplace (spec/accounts.md sections 2 and 6): everyone browses by category and previews;
// Buy Now for signed-in users; "My sounds" with downloads and ratings for owners; the upload form
// for admins. Lists reload on the 'marketplace-refresh' event (uploads, purchases, ratings).

import { useMemo, useState } from "react";
import { MARKETPLACE_TEXT as T, PREVIEW_SECONDS, type MarketplaceTab } from "../../api/rules/marketplace";
import { useEntitlements } from "../account/hooks";
import { AdminUploadForm } from "./AdminUploadForm";
import { CategoryTabs, tabId } from "./CategoryTabs";
import { MySounds } from "./MySounds";
import { SoundCard } from "./SoundCard";
import { usePreviewController } from "./use-preview";
import { usePurchase, usePurchaseReturn } from "./use-purchase";
import { useOwnedSounds, useSounds } from "./use-sounds";
import "./marketplace.css";

const PANEL_ID = "marketplace-sounds";

export function MarketplacePage() {
  const { signedIn, isAdmin } = useEntitlements();
  const sounds = useSounds();
  const owned = useOwnedSounds();
  const preview = usePreviewController();
  const purchase = usePurchase();
  usePurchaseReturn();
  const [tab, setTab] = useState<MarketplaceTab>("All");

  const shown = useMemo(() => (tab === "All" ? sounds.items : sounds.items.filter((s) => s.category === tab)), [sounds.items, tab]);
  const ownedIds = useMemo(() => new Set(owned.items.map((s) => s.id)), [owned.items]);

  return (
    <main id="main" className="studio marketplace">
      <section className="hero">
        <h1>Sound Marketplace</h1>
        <p>
          Tones and soundscapes rendered with the studio. Preview the first {PREVIEW_SECONDS} seconds of any sound; buy it to
          download the full file.
        </p>
      </section>

      {signedIn && <MySounds sounds={owned.items} status={owned.status} onRetry={owned.reload} />}

      <section className="panel" aria-labelledby="catalogue-title">
        <h2 id="catalogue-title">Sounds</h2>
        <CategoryTabs value={tab} onChange={setTab} panelId={PANEL_ID} />
        <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(tab)} className="sound-panel" aria-busy={sounds.status === "loading"}>
          {sounds.status === "loading" && (
            <p role="status" className="help">
              <span className="spinner" aria-hidden="true" /> Loading sounds…
            </p>
          )}
          {sounds.status === "failed" && (
            <div role="alert" className="load-failed">
              <p>{T.loadFailed}</p>
              <button type="button" className="button" onClick={sounds.reload}>
                Try again
              </button>
            </div>
          )}
          {sounds.status === "ready" && shown.length === 0 && <p className="empty">{T.empty}</p>}
          {shown.length > 0 && (
            <ul className="sound-grid">
              {shown.map((s) => (
                <li key={s.id}>
                  <SoundCard
                    sound={s}
                    preview={preview}
                    owned={ownedIds.has(s.id)}
                    buying={purchase.pendingId === s.id}
                    buyLocked={purchase.pendingId !== null}
                    onBuy={purchase.buy}
                  />
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      {isAdmin && <AdminUploadForm />}
    </main>
  );
}
