// The page frame around every route: the skip link, the header (logo, help, main links and the
// user menu or a sign-in link), the footer, the toasts and the app-wide accessibility helpers.

import { Link } from "react-router-dom";
import { Toaster } from "sonner";
import { useSession } from "../account/hooks";
import { AppAccessibility } from "../help/AppAccessibility";
import { HelpButton } from "../help/HelpButton";
import { RandomSoundLogo } from "../presets/RandomSoundLogo";
import { SiteFooter } from "./SiteFooter";
import { TOASTER_PROPS } from "./toasts";
import { UserMenu } from "./UserMenu";

function AccountLink() {
  const status = useSession((s) => s.status);
  if (status === "signed_in") return <UserMenu />;
  if (status === "restoring") return <span className="account-pending" aria-hidden="true" />;
  return <Link to="/auth">Sign in</Link>;
}

export function Frame({ children }: { children: React.ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="site-header">
        <RandomSoundLogo />
        <nav aria-label="Main">
          <HelpButton />
          <Link to="/marketplace">Marketplace</Link>
          <Link to="/science">Science</Link>
          <AccountLink />
        </nav>
      </header>
      {children}
      <SiteFooter />
      <Toaster {...TOASTER_PROPS} />
      <AppAccessibility />
    </>
  );
}
