// Counted exports on the studio's side: every WAV export and every render for the marketplace asks
// the API first (POST /api/exports, api/routes/exports.ts), which counts it against the plan and
// answers with what is left; the count is kept here for the line beside the export button ("87 of
// 100 exports left this period", api/rules/exports.ts). MP4 jobs are counted by the video routes
// themselves. The server decides; a refusal's text (the count used up and the upgrade path, a
// duration over the plan's maximum) is shown as it comes.

import { createStore } from "zustand/vanilla";
import type { ExportCount, ExportKind } from "../../api/rules/exports";
import { ApiRequestError, requestJson } from "../account/api";
import { sessionStore } from "../account/session-store";

export interface ExportCountState {
  /** The last answer of the API; null before one (or for a signed-out visitor). */
  count: ExportCount | null;
}

export const exportCountStore = createStore<ExportCountState>(() => ({ count: null }));

/** The API refused the export (4xx): `message` is its text. */
export class ExportRefusedError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = "ExportRefusedError";
    this.status = status;
  }
}

/** The session's token unless given (tests), and the fetch to use. */
export interface CallOptions {
  token?: string | null;
  fetchImpl?: typeof fetch;
}

const tokenOf = (o: CallOptions) => (o.token !== undefined ? o.token : sessionStore().getState().token);

/** Counts one export of `kind` lasting `durationSeconds`; resolves with what is left, or throws
 *  ExportRefusedError with the API's text. */
export async function askExport(kind: ExportKind, durationSeconds: number, o: CallOptions = {}): Promise<ExportCount> {
  try {
    const count = await requestJson<ExportCount>("/api/exports", { body: { kind, durationSeconds }, token: tokenOf(o), fetchImpl: o.fetchImpl });
    exportCountStore.setState({ count });
    return count;
  } catch (err) {
    if (err instanceof ApiRequestError && err.status >= 400 && err.status < 500) {
      await refreshExportCount(o);
      throw new ExportRefusedError(err.message, err.status);
    }
    throw err;
  }
}

/** Reads what is left without counting (null when the account has no exports or the call fails). */
export async function refreshExportCount(o: CallOptions = {}): Promise<ExportCount | null> {
  const t = tokenOf(o);
  if (!t) {
    exportCountStore.setState({ count: null });
    return null;
  }
  try {
    const count = await requestJson<ExportCount>("/api/exports", { token: t, fetchImpl: o.fetchImpl });
    exportCountStore.setState({ count });
    return count;
  } catch {
    exportCountStore.setState({ count: null });
    return null;
  }
}
