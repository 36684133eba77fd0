// Routes and the page frame (skip link, header, footer, toasts).

import { BrowserRouter, Link, Route, Routes } from "react-router-dom";
import { Toaster } from "sonner";
import { StudioPage } from "./studio/StudioPage";

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="site-header">
        <Link to="/" className="logo" aria-label="Tone Studio home">Tone Studio</Link>
        <nav aria-label="Main">
          <Link to="/marketplace">Marketplace</Link>
          <Link to="/science">Science</Link>
          <Link to="/auth">Sign in</Link>
        </nav>
      </header>
      {children}
      <footer className="site-footer">
        <p>For experimental and entertainment use only. No medical claims are made.</p>
      </footer>
      <Toaster position="top-center" richColors />
    </>
  );
}

function NotFound() {
  return (
    <main id="main" className="studio">
      <h1>Page not found</h1>
      <p><Link to="/">Back to the studio</Link></p>
    </main>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <Frame>
        <Routes>
          <Route path="/" element={<StudioPage />} />
          <Route path="/app" element={<StudioPage />} />
          <Route path="/preset/:id" element={<StudioPage />} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Frame>
    </BrowserRouter>
  );
}
