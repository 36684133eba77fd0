// Routes and the page frame (skip link, header with the user menu or a sign-in link, footer,
// toasts). The stored session is restored once on load; the profile is refreshed (through its
// 5-minute cache) when the tab regains focus; a free user's demo status follows the session; the
// studio's gate is enforced on every route.

import { useEffect } from "react";
import { BrowserRouter, Link, Route, Routes, useLocation } from "react-router-dom";
import { Toaster } from "sonner";
import { useEnforceStudioGate, useSession, useStudioGate } from "./account/hooks";
import { sessionStore } from "./account/session-store";
import { UserMenu } from "./account/UserMenu";
import { AuthCallbackPage } from "./auth/AuthCallbackPage";
import { AuthPage } from "./auth/AuthPage";
import { ResetPasswordPage } from "./auth/ResetPasswordPage";
import { useDemoLifecycle } from "./demo/use-demo";
import { AppAccessibility } from "./help/AppAccessibility";
import { HelpButton } from "./help/HelpButton";
import { BillingPage } from "./payments/BillingPage";
import { ReactivatePage } from "./payments/ReactivatePage";
import { SubscribePage } from "./payments/SubscribePage";
import { SuccessPage } from "./payments/SuccessPage";
import { UpdatePaymentPage } from "./payments/UpdatePaymentPage";
import { RandomSoundLogo } from "./presets/RandomSoundLogo";
import { StudioPage } from "./studio/StudioPage";
import { useAudio, useStudio } from "./studio/studio-context";

function AccountLink() {
  const status = useSession((s) => s.status);
  if (status === "signed_in") return <UserMenu />;
  if (status === "restoring") return <span className="account-pending" aria-hidden="true" />;
  return <Link to="/auth">Sign in</Link>;
}

function Frame({ children }: { children: React.ReactNode }) {
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
      <footer className="site-footer">
        <p>For experimental and entertainment use only. No medical claims are made.</p>
      </footer>
      {/* Dark, like the app: sonner's light rich colours miss 4.5:1 (success text 4.25:1 on its green). */}
      <Toaster position="top-center" richColors theme="dark" />
      <AppAccessibility />
    </>
  );
}

/** The auth screen, remounted for each distinct URL so every entry rule applies afresh. */
function AuthRoute() {
  const { pathname, search } = useLocation();
  return <AuthPage key={pathname + search} />;
}

function NotFound() {
  return (
    <main id="main" className="studio">
      <h1>Page not found</h1>
      <p><Link to="/">Back to the studio</Link></p>
    </main>
  );
}

function useSessionLifecycle() {
  useEffect(() => {
    const store = sessionStore();
    void store.getState().restore();
    const refresh = () => {
      if (document.visibilityState === "visible" && store.getState().status === "signed_in") {
        store.getState().loadProfile().catch(() => undefined);
      }
    };
    document.addEventListener("visibilitychange", refresh);
    return () => document.removeEventListener("visibilitychange", refresh);
  }, []);
}

/** The studio's gate holds on every route: sound keeps playing on /subscribe, so a demo that
 *  ends there must switch channel 2 and the demo effects off there too. */
function useStudioGateEverywhere() {
  useEnforceStudioGate(useStudio(), useStudioGate(), useAudio());
}

export function App() {
  useSessionLifecycle();
  useDemoLifecycle();
  useStudioGateEverywhere();
  return (
    <BrowserRouter>
      <Frame>
        <Routes>
          <Route path="/" element={<StudioPage />} />
          <Route path="/app" element={<StudioPage />} />
          <Route path="/preset/:id" element={<StudioPage />} />
          <Route path="/auth" element={<AuthRoute />} />
          <Route path="/verify-email" element={<AuthRoute />} />
          <Route path="/auth/callback" element={<AuthCallbackPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/subscribe" element={<SubscribePage />} />
          <Route path="/success" element={<SuccessPage />} />
          <Route path="/billing" element={<BillingPage />} />
          <Route path="/update-payment" element={<UpdatePaymentPage />} />
          <Route path="/reactivate" element={<ReactivatePage />} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Frame>
    </BrowserRouter>
  );
}
