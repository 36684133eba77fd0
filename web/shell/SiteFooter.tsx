// The footer of every page (spec/studio.md section 2): links to the legal and information pages
// and the disclaimer (experimental and entertainment use, no medical claims).

import { Link } from "react-router-dom";
import { PRODUCT_NAME } from "../account/messages";
import "../pages/pages.css";

export const FOOTER_LINKS = [
  { to: "/how-it-works", label: "How It Works" },
  { to: "/science", label: "Science" },
  { to: "/terms", label: "Terms of Service" },
  { to: "/privacy", label: "Privacy Policy" },
  { to: "/licensing", label: "Licensing" },
  { to: "/support", label: "Support" },
] as const;

export const DISCLAIMER =
  "For experimental and entertainment use only. No medical claims are made: the sounds in this studio are not a treatment and do not diagnose, cure or prevent any condition.";

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <nav aria-label="Legal and information">
        <ul>
          {FOOTER_LINKS.map((link) => (
            <li key={link.to}><Link to={link.to}>{link.label}</Link></li>
          ))}
        </ul>
      </nav>
      <p className="disclaimer">{DISCLAIMER}</p>
      <p className="copyright">© {new Date().getFullYear()} {PRODUCT_NAME}</p>
    </footer>
  );
}
