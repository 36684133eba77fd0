// The page for any address the app has no route for: what happened, the address itself, and the
// ways on (back to home, how it works, support).

import { Link, useLocation } from "react-router-dom";
import { usePageTitle } from "./StaticPage";
import "./pages.css";

export function NotFoundPage() {
  const { pathname } = useLocation();
  usePageTitle("Page not found");
  return (
    <main id="main" className="studio status-page not-found">
      <p className="status-code">Error 404</p>
      <h1>Page not found</h1>
      <p>
        There is no page at <code className="path">{pathname}</code>. The link may be mistyped, or the page
        may have moved.
      </p>
      <div className="status-actions">
        <Link className="button primary" to="/">Back to Home</Link>
        <Link className="button" to="/how-it-works">How It Works</Link>
        <Link className="button" to="/support">Support</Link>
      </div>
    </main>
  );
}
