// Every route of the app, inside an error boundary that clears itself when the path changes. The
// static pages load on first visit, keeping their text out of the studio's bundle.

import { lazy, Suspense } from "react";
import { Route, Routes, useLocation } from "react-router-dom";
import { AdminDashboardPage } from "../admin/AdminDashboardPage";
import { AuthCallbackPage } from "../auth/AuthCallbackPage";
import { AuthPage } from "../auth/AuthPage";
import { ResetPasswordPage } from "../auth/ResetPasswordPage";
import { MarketplacePage } from "../marketplace/MarketplacePage";
import { NotFoundPage } from "../pages/NotFoundPage";
import { BillingPage } from "../payments/BillingPage";
import { ReactivatePage } from "../payments/ReactivatePage";
import { SubscribePage } from "../payments/SubscribePage";
import { SuccessPage } from "../payments/SuccessPage";
import { UpdatePaymentPage } from "../payments/UpdatePaymentPage";
import { StudioPage } from "../studio/StudioPage";
import { AppErrorBoundary } from "./AppErrorBoundary";

/** The auth screen, remounted for each distinct URL so every entry rule applies afresh. */
function AuthRoute() {
  const { pathname, search } = useLocation();
  return <AuthPage key={pathname + search} />;
}

/** The static pages load on first visit, keeping their text out of the studio's bundle. */
const HowItWorksPage = lazy(() => import("../pages/HowItWorksPage").then((m) => ({ default: m.HowItWorksPage })));
const SciencePage = lazy(() => import("../pages/SciencePage").then((m) => ({ default: m.SciencePage })));
const TermsPage = lazy(() => import("../pages/TermsPage").then((m) => ({ default: m.TermsPage })));
const PrivacyPage = lazy(() => import("../pages/PrivacyPage").then((m) => ({ default: m.PrivacyPage })));
const LicensingPage = lazy(() => import("../pages/LicensingPage").then((m) => ({ default: m.LicensingPage })));
const SupportPage = lazy(() => import("../pages/SupportPage").then((m) => ({ default: m.SupportPage })));

/** The routes inside an error boundary that clears itself when the path changes, so after an
 *  error the header and footer still work and another page can be opened. */
export function AppRoutes() {
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
