// What /billing and /update-payment show when the browser blocked the portal's new tab: a link
// that opens it on click (a user gesture pop-up blockers allow) and a Copy Link button.

import { copyPortalLink } from "./portal";

export function PortalFallback({ url }: { url: string }) {
  return (
    <div className="pay-status">
      <p role="status">Your browser blocked the new tab. Open the billing portal from here, or copy its link.</p>
      <div className="actions-row">
        <a className="button primary" href={url} target="_blank" rel="noopener noreferrer">Open Billing Portal</a>
        <button type="button" className="button" onClick={() => void copyPortalLink(url)}>Copy Link</button>
      </div>
    </div>
  );
}
