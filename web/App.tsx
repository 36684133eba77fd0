// Routes and the page frame (skip link, header with the user menu or a sign-in link, footer,
// toasts). The stored session is restored once on load; the profile is refreshed (through its
// 5-minute cache) when the tab regains focus; a free user's demo status follows the session; the
// studio's gate is enforced on every route.

import { lazy, Suspense, useEffect } from "react";
import { BrowserRouter, Link, Route, Routes, useLocation } from "react-router-dom";
import { Toaster } from "sonner";
import { AdminDashboardPage } from "./admin/AdminDashboardPage";
import { useEnforceStudioGate, useSession, useStudioGate } from "./account/hooks";
import { sessionStore } from "./account/session-store";
import { UserMenu } from "./account/UserMenu";
import { AuthCallbackPage } from "./auth/AuthCallbackPage";
import { AuthPage } from "./auth/AuthPage";
import { ResetPasswordPage } from "./auth/ResetPasswordPage";
import { useDemoLifecycle } from "./demo/use-demo";
import { MarketplacePage } from "./marketplace/MarketplacePage";
import { AppErrorBoundary } from "./pages/AppErrorBoundary";
import { NotFoundPage } from "./pages/NotFoundPage";
import { SiteFooter } from "./pages/SiteFooter";
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
      <SiteFooter />
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

/** The static pages load on first visit, keeping their text out of the studio's bundle. */
const HowItWorksPage = lazy(() => import("./pages/HowItWorksPage").then((m) => ({ default: m.HowItWorksPage })));
const SciencePage = lazy(() => import("./pages/SciencePage").then((m) => ({ default: m.SciencePage })));
const TermsPage = lazy(() => import("./pages/TermsPage").then((m) => ({ default: m.TermsPage })));
const PrivacyPage = lazy(() => import("./pages/PrivacyPage").then((m) => ({ default: m.PrivacyPage })));
const LicensingPage = lazy(() => import("./pages/LicensingPage").then((m) => ({ default: m.LicensingPage })));
const SupportPage = lazy(() => import("./pages/SupportPage").then((m) => ({ default: m.SupportPage })));

/** The routes inside an error boundary that clears itself when the path changes, so after an
 *  error the header and footer still work and another page can be opened. */
function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <AppErrorBoundary resetKey={pathname}>
      <Suspense fallback={<main id="main" className="studio" aria-busy="true" />}>
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
          <Route path="/how-it-works" element={<HowItWorksPage />} />
          <Route path="/science" element={<SciencePage />} />
          <Route path="/terms" element={<TermsPage />} />
          <Route path="/privacy" element={<PrivacyPage />} />
          <Route path="/licensing" element={<LicensingPage />} />
          <Route path="/support" element={<SupportPage />} />
          <Route path="/marketplace" element={<MarketplacePage />} />
          <Route path="/admin/dashboard" element={<AdminDashboardPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </AppErrorBoundary>
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
        <AppRoutes />
      </Frame>
    </BrowserRouter>
  );
}
