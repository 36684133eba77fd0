// /admin/dashboard (spec/accounts.md section 2): stat cards (total users, active
// subscriptions, monthly and total revenue: the API counts cents, shown as dollars), the user
// table (email, role, plan or 'No subscription', status: active green, anything else red, default
// 'inactive', each with a symbol and the word) and the Email Management, System Settings and
// Notifications views. Anonymous visitors and non-admins are sent to /.

import { useEffect, useId, useState } from "react";
import { Navigate } from "react-router-dom";
import { useEntitlements, useSession } from "../account/hooks";
import { adminApi } from "./admin-api";
import { EmailManagement, Notifications, SystemSettings } from "./DashboardTools";
import { dollars, planNameOf, statusView } from "./format";
import { useAdminData } from "./use-admin-data";
import "./admin.css";

const loadStats = adminApi.stats;
const loadUsers = adminApi.users;

const TOOLS = [
  { id: "email", label: "Email Management", View: EmailManagement },
  { id: "settings", label: "System Settings", View: SystemSettings },
  { id: "notifications", label: "Notifications", View: Notifications },
] as const;
type ToolId = (typeof TOOLS)[number]["id"];

function StatCards() {
  const { data, error } = useAdminData(loadStats);
  const cards: [string, string][] = data
    ? [
        ["Total users", String(data.totalUsers)],
        ["Active subscriptions", String(data.activeSubscriptions)],
        ["Monthly revenue", dollars(data.monthlyRevenue)],
        ["Total revenue", dollars(data.revenue)],
      ]
    : [];
  return (
    <section aria-labelledby="stats-title">
      <h2 id="stats-title" className="sr-only">Statistics</h2>
      {error && <p role="alert">Statistics could not be loaded: {error}</p>}
      {!data && !error && <p role="status">Loading statistics...</p>}
      {data && (
        <ul className="stat-cards">
          {cards.map(([label, value]) => (
            <li key={label} className="stat-card">
              <span className="stat-label">{label}</span>
              <strong className="stat-value">{value}</strong>
            </li>
          ))}
        </ul>
      )}
      {data && <p className="help">Monthly revenue: payments received in the last 30 days.</p>}
    </section>
  );
}

function UserTable() {
  const { data, error, loading, reload } = useAdminData(loadUsers);
  const captionId = useId();
  return (
    <section className="panel" aria-labelledby={captionId}>
      <div className="tool-head">
        <h2 id={captionId}>Users{data ? ` (${data.length})` : ""}</h2>
        <button type="button" className="button" onClick={reload} disabled={loading}>{loading ? "Refreshing..." : "Refresh"}</button>
      </div>
      {error && <p role="alert">Users could not be loaded: {error}</p>}
      {data && (
        <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
          {/* Explicit roles: on phones CSS lays the rows out as cards, which drops the native
              table semantics in some browsers. */}
          <table className="user-table" role="table">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">Email</th>
                <th scope="col" role="columnheader">Role</th>
                <th scope="col" role="columnheader">Plan</th>
                <th scope="col" role="columnheader">Status</th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {data.map((u) => {
                const status = statusView(u.subscription);
                return (
                  <tr key={u.id} role="row">
                    <td role="cell" className="user-email">{u.email}</td>
                    <td role="cell" data-label="Role">{u.role}</td>
                    <td role="cell" data-label="Plan">{planNameOf(u.subscription)}</td>
                    <td role="cell" data-label="Status">
                      <span className="status-pill" data-active={status.active}>
                        <span aria-hidden="true">{status.symbol} </span>
                        {status.text}
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Tools() {
  const [open, setOpen] = useState<ToolId | null>(null);
  const viewId = useId();
  const current = TOOLS.find((t) => t.id === open);
  return (
    <section className="panel" aria-labelledby={`${viewId}-title`}>
      <h2 id={`${viewId}-title`}>Tools</h2>
      <div className="tool-buttons">
        {TOOLS.map((t) => (
          <button
            key={t.id}
            type="button"
            className={`button ${open === t.id ? "primary" : ""}`}
            aria-expanded={open === t.id}
            aria-controls={viewId}
            onClick={() => setOpen((o) => (o === t.id ? null : t.id))}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div id={viewId}>{current && <current.View />}</div>
    </section>
  );
}

export function AdminDashboardPage() {
  const status = useSession((s) => s.status);
  const ent = useEntitlements();
  useEffect(() => {
    const before = document.title;
    document.title = `Admin Dashboard - ${before}`;
    return () => void (document.title = before);
  }, []);
  if (status === "restoring") {
    return (
      <main id="main" className="studio admin-page">
        <p role="status">Loading...</p>
      </main>
    );
  }
  if (status !== "signed_in" || !ent.isAdmin) return <Navigate to="/" replace />;
  return (
    <main id="main" className="studio admin-page">
      <h1>Admin Dashboard</h1>
      <StatCards />
      <UserTable />
      <Tools />
    </main>
  );
}
