// The header's user menu (spec/accounts.md section 2): an avatar with the e-mail's initial opens a
// panel with the subscription status card, Manage Billing (subscribers) or Get Pro Access
// (everyone else), the admin label and extras (Admin Dashboard, the override switch with its
// ON/OFF indicator, and with the override on Temp Access opening the Admin Access Control modal,
// spec/studio.md section 6) and Sign Out ('Signing out...' while in progress). It closes on an
// outside click and on Escape, returning focus to the avatar; so does the modal when it closes.

import { useEffect, useId, useRef, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { MAX_DURATION_TEXT } from "../../api/rules/plans";
import { AdminAccessModal } from "../admin/AdminAccessModal";
import { OverrideToggle, useOverrideMirror } from "../admin/OverrideToggle";
import { PAY_TEXT, portalReason } from "../payments/messages";
import { openBillingPortal } from "../payments/portal";
import { daysLeftText, planText } from "../account/entitlements";
import { useEntitlements, useSession } from "../account/hooks";
import { signOutToast } from "../account/messages";
import { PRICING_PATH } from "../account/ProLock";
import { sessionStore } from "../account/session-store";
import { hasAdminStudioTools } from "../account/studio-gating";

function SubscriptionCard() {
  const ent = useEntitlements();
  const sub = useSession((s) => s.profile?.subscription ?? null);
  if (ent.isAdmin) {
    return (
      <div className="sub-card admin" aria-label="Subscription status">
        <strong>ADMIN ACCESS</strong>
        <span>Unlimited</span>
      </div>
    );
  }
  if (!sub) {
    return (
      <div className="sub-card" aria-label="Subscription status">
        <strong>Free plan</strong>
        <span>Channel 1, sine waves, up to {MAX_DURATION_TEXT}</span>
      </div>
    );
  }
  const left = sub.isActive ? daysLeftText(sub.endDate) : "Expired";
  return (
    <div className="sub-card" data-active={sub.isActive && left !== "Expired"} aria-label="Subscription status">
      <strong>{planText(sub)}</strong>
      {left && <span>{left}</span>}
    </div>
  );
}

export function UserMenu() {
  const navigate = useNavigate();
  const email = useSession((s) => s.user?.email ?? "");
  const token = useSession((s) => s.token);
  const ent = useEntitlements();
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const [billingBusy, setBillingBusy] = useState(false);
  const [accessOpen, setAccessOpen] = useState(false);
  useOverrideMirror();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const signOut = async () => {
    if (signingOut) return;
    setSigningOut(true);
    const ok = await sessionStore().getState().signOut();
    setSigningOut(false);
    setOpen(false);
    const shown = signOutToast(ok);
    toast[shown.kind](shown.text, shown.duration ? { duration: shown.duration } : undefined);
    navigate("/", { replace: true });
  };

  // spec/studio.md section 8, "Billing portal from the menu".
  const manageBilling = async () => {
    if (!token) {
      toast.error(PAY_TEXT.billingSignInAgain);
      navigate("/auth");
      return;
    }
    setBillingBusy(true);
    try {
      await openBillingPortal(token);
    } catch (err) {
      toast.error(PAY_TEXT.billingUnavailable(portalReason(err)));
      navigate(ent.hasActiveSubscription ? "/billing" : PRICING_PATH);
    } finally {
      setBillingBusy(false);
      setOpen(false);
    }
  };

  const initial = (email.trim()[0] ?? "?").toUpperCase();
  return (
    <div className="user-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="avatar"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`Account menu for ${email}`}
        onClick={() => setOpen((v) => !v)}
      >
        {initial}
      </button>
      <div id={panelId} className="user-menu-panel" hidden={!open}>
        <p className="user-menu-email">{email}</p>
        <SubscriptionCard />
        {ent.hasActiveSubscription ? (
          <button type="button" onClick={manageBilling} disabled={billingBusy}>
            {billingBusy ? "Opening billing..." : "Manage Billing"}
          </button>
        ) : (
          <button
            type="button"
            onClick={() => {
              setOpen(false);
              navigate(PRICING_PATH);
            }}
          >
            Get Pro Access
          </button>
        )}
        {ent.isAdmin && (
          <>
            <Link className="menu-link" to="/admin/dashboard" onClick={() => setOpen(false)}>Admin Dashboard</Link>
            <OverrideToggle />
            {hasAdminStudioTools(ent) && (
              // Spec 6: the temporary-access dialog is one of the override's tools.
              <button
                type="button"
                aria-haspopup="dialog"
                onClick={() => {
                  setOpen(false);
                  setAccessOpen(true);
                }}
              >
                Temp Access
              </button>
            )}
          </>
        )}
        <button type="button" className="sign-out" onClick={signOut} disabled={signingOut}>
          {signingOut ? "Signing out..." : "Sign Out"}
        </button>
      </div>
      {hasAdminStudioTools(ent) && (
        <AdminAccessModal
          open={accessOpen}
          onClose={() => {
            setAccessOpen(false);
            button.current?.focus();
          }}
        />
      )}
    </div>
  );
}
