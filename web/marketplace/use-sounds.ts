// The marketplace's lists for React: useSounds() (every sound, for the tabs to filter) and
// useOwnedSounds() (the signed-in user's purchases, "My sounds"). Both load on mount and again on
// every 'marketplace-refresh' event; a failed reload keeps the list already shown.

import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { MARKETPLACE_TEXT as T } from "../../api/rules/marketplace";
import { useSession } from "../account/hooks";
import { onMarketplaceRefresh } from "./events";
import { fetchOwnedSounds, fetchSounds, type MarketplaceSound, type OwnedSound } from "./marketplace-api";

export type LoadStatus = "loading" | "ready" | "failed";

interface List<T> {
  items: T[];
  status: LoadStatus;
  reload(): void;
}

type Loader<T> = (signal: AbortSignal) => Promise<T[]>;

/** Loads with `load` (null: nothing to load, an empty list) now, when `load` changes and on
 *  refresh events; answers of superseded loads are dropped. A list belongs to the loader that
 *  made it, so another user's list never shows while the new one loads. */
function useRefreshingList<T>(load: Loader<T> | null, failureText: string): List<T> {
  const [state, setState] = useState<{ load: Loader<T> | null; items: T[]; status: LoadStatus }>({ load: null, items: [], status: "loading" });
  const current = useRef<AbortController | null>(null);

  const reload = useCallback(() => {
    current.current?.abort();
    if (!load) return;
    const ctrl = new AbortController();
    current.current = ctrl;
    load(ctrl.signal).then(
      (items) => {
        if (!ctrl.signal.aborted) setState({ load, items, status: "ready" });
      },
      (err: unknown) => {
        if (ctrl.signal.aborted) return;
        console.warn(failureText, err);
        toast.error(failureText, { id: `load-${failureText}` });
        setState((s) => (s.load === load && s.status === "ready" ? s : { load, items: [], status: "failed" }));
      },
    );
  }, [load, failureText]);

  useEffect(() => {
    reload();
    const off = onMarketplaceRefresh(reload);
    return () => {
      off();
      current.current?.abort();
    };
  }, [reload]);

  if (!load) return { items: [], status: "ready", reload };
  if (state.load !== load) return { items: [], status: "loading", reload };
  return { items: state.items, status: state.status, reload };
}

const loadSounds = (signal: AbortSignal) => fetchSounds({ signal });

export function useSounds(): List<MarketplaceSound> {
  return useRefreshingList(loadSounds, T.loadFailed);
}

export function useOwnedSounds(): List<OwnedSound> {
  const token = useSession((s) => (s.status === "signed_in" ? s.token : null));
  const load = useCallback((signal: AbortSignal) => fetchOwnedSounds(token!, { signal }), [token]);
  return useRefreshingList(token ? load : null, T.ownedLoadFailed);
}
