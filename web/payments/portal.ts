// Opening the billing portal (spec/accounts.md sections 7 and 8, spec/studio.md section 8): a
// portal session that returns to /app, opened in a new tab. A blocked pop-up says so and offers
// to copy the link; success says the portal opened in a new tab. Used by the user menu, /billing
// and /update-payment, which each handle a failed call their own way.

import { toast } from "sonner";
import { createPortalUrl } from "./checkout";
import { PAY_TEXT } from "./messages";

export interface PortalOutcome {
  opened: boolean;
  url: string;
}

/** Where the portal sends the user back to. */
export function portalReturnUrl(): string {
  return `${window.location.origin}/app`;
}

/** Opens `url` in a new tab; false when the browser blocked the pop-up. (window.open with the
 *  "noopener" feature always answers null, so the opener is cut by hand instead.) */
export function openInNewTab(url: string): boolean {
  const tab = window.open(url, "_blank");
  if (!tab) return false;
  try {
    tab.opener = null;
  } catch {
    // a browser that refuses the assignment keeps the opener; the portal is a trusted origin
  }
  return true;
}

export async function copyPortalLink(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast.success(PAY_TEXT.portalLinkCopied, { id: "portal-link" });
  } catch (err) {
    console.warn("Clipboard write failed", err);
    toast.error(PAY_TEXT.popupBlocked, { id: "portal-link", description: url });
  }
}

/** Tells the user how opening `url` went: opened, or blocked with a Copy link action. */
export function announcePortal(url: string, opened: boolean): void {
  if (opened) {
    toast.success(PAY_TEXT.portalOpened, { id: "portal" });
    return;
  }
  toast.error(PAY_TEXT.popupBlocked, {
    id: "portal",
    duration: 10_000,
    action: { label: "Copy link", onClick: () => void copyPortalLink(url) },
  });
}

/** Creates a portal session and opens it in a new tab; throws the call's failure. */
export async function openBillingPortal(token: string): Promise<PortalOutcome> {
  const url = await createPortalUrl(token, portalReturnUrl());
  const opened = openInNewTab(url);
  announcePortal(url, opened);
  return { opened, url };
}
