// The line beside the export button: "87 of 100 exports left this period" for plans that count
// exports (api/rules/exports.ts); nothing for unlimited accounts and accounts without exports.
// Read from the API when the account or its plan changes, and after every counted export.

import { useEffect } from "react";
import { useStore } from "zustand";
import { exportCountText } from "../../api/rules/exports";
import { useEntitlements, useSession } from "../account/hooks";
import { exportCountStore, refreshExportCount } from "./export-count";

export function ExportCountLine() {
  const ent = useEntitlements();
  const token = useSession((s) => (s.status === "signed_in" ? s.token : null));
  const allowance = ent.exports;
  const counted = allowance.kind === "counted";
  const plan = counted ? allowance.plan : null;
  useEffect(() => {
    if (token && counted) void refreshExportCount();
    else exportCountStore.setState({ count: null });
  }, [token, counted, plan]);
  const count = useStore(exportCountStore, (s) => s.count);
  if (!counted || !count || count.quota === null) return null;
  return (
    <small className="export-count" role="status" data-left={count.left}>
      {exportCountText(count)}
    </small>
  );
}
