// The application-error screen (spec/accounts.md section 2: 'Reload App' and 'Home') and the
// error boundary that shows it. App.tsx puts one around the routes, inside the page frame, reset
// when the path changes (so the header still works and another page can be opened); main.tsx puts
// one around the whole app for errors outside the routes. The screen uses no router and loads no
// code on demand: it must work when the router or a lazily loaded page is what failed. Its buttons
// do full page loads, which start the app afresh.

import { Component, useEffect, useRef, type ErrorInfo, type ReactNode } from "react";
import { PRODUCT_NAME } from "../account/messages";
import { SUPPORT_EMAIL } from "../pages/contact";
import "../pages/pages.css";

export const ERROR_TEXT = {
  title: "Something went wrong",
  body: "The app hit an unexpected error and could not show this page. Reloading usually fixes it. Your account and shared presets are safe; unsaved changes in the studio may be lost.",
  reload: "Reload App",
  home: "Home",
} as const;

export function AppErrorScreen({ error }: { error: Error }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const before = document.title;
    document.title = `Application error | ${PRODUCT_NAME}`;
    // The page the visitor was on is gone: put focus (and a screen reader) on the explanation.
    heading.current?.focus();
    return () => {
      document.title = before;
    };
  }, []);
  return (
    <main id="main" className="studio status-page error-screen">
      <p className="status-code">Application error</p>
      <h1 ref={heading} tabIndex={-1}>{ERROR_TEXT.title}</h1>
      <p>{ERROR_TEXT.body}</p>
      <div className="status-actions">
        <button type="button" className="button primary" onClick={() => window.location.reload()}>
          {ERROR_TEXT.reload}
        </button>
        <button type="button" className="button" onClick={() => window.location.assign("/")}>
          {ERROR_TEXT.home}
        </button>
      </div>
      <p>
        If it keeps happening, tell us at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> and include
        the details below.
      </p>
      <details className="error-details">
        <summary>Technical details</summary>
        <pre>{error.name}: {error.message}</pre>
      </details>
    </main>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /** When this changes (the route's path), a shown error is cleared and the children render again. */
  resetKey?: string;
}

export class AppErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(thrown: unknown): { error: Error } {
    return { error: thrown instanceof Error ? thrown : new Error(String(thrown)) };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("Application error:", error, info.componentStack);
  }

  componentDidUpdate(prev: BoundaryProps): void {
    if (this.state.error && prev.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  render(): ReactNode {
    return this.state.error ? <AppErrorScreen error={this.state.error} /> : this.props.children;
  }
}
