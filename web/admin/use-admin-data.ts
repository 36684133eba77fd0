// Loads one admin answer for a component: {data, error, loading, at, reload}. The call is made
// with the session's token while `enabled` (on mount, when it turns true again, and on reload());
// an answer to an older request, or one arriving after unmount, is dropped.

import { useCallback, useEffect, useState } from "react";
import { useSession } from "../account/hooks";

export interface AdminData<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  /** When the shown data arrived (ms since epoch), 0 before. */
  at: number;
  reload(): void;
}

interface Answer<T> {
  /** Which request it answers. */
  key: string;
  data: T | null;
  error: string | null;
  at: number;
}

/** `load` and `onError` should be stable (module-level or memoized functions). */
export function useAdminData<T>(
  load: (token: string | null) => Promise<T>,
  enabled = true,
  onError?: (err: unknown) => void,
): AdminData<T> {
  const token = useSession((s) => s.token);
  const [round, setRound] = useState(0);
  // Each time it turns on counts as a new request, so reopening reads afresh.
  const [openings, setOpenings] = useState({ enabled, count: 0 });
  if (openings.enabled !== enabled) setOpenings({ enabled, count: openings.count + (enabled ? 1 : 0) });
  const key = `${token}|${round}|${openings.count}`;
  const [answer, setAnswer] = useState<Answer<T>>({ key: "", data: null, error: null, at: 0 });

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    load(token).then(
      (data) => live && setAnswer({ key, data, error: null, at: Date.now() }),
      (err: unknown) => {
        if (!live) return;
        console.error("Admin request failed", err);
        onError?.(err);
        setAnswer((a) => ({ ...a, key, error: err instanceof Error ? err.message : String(err) }));
      },
    );
    return () => {
      live = false;
    };
  }, [load, token, enabled, key, onError]);

  return {
    data: answer.data,
    error: answer.error,
    loading: enabled && answer.key !== key,
    at: answer.at,
    reload: useCallback(() => setRound((r) => r + 1), []),
  };
}
