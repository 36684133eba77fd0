// The frame every static page shares (/how-it-works, /science, /terms, /privacy, /licensing,
// /support): a back-to-home link, the h1 with its version or date line, the text in readable
// column width, and the document title. Reached through a link inside the app (the footer,
// the header), the page starts at its top and moves focus to its heading, so a screen reader
// announces the new page instead of staying on a link that is gone; a #fragment in the address
// scrolls to that section once the page (loaded on demand) is there.

import { useEffect, useId, useRef, type ReactNode } from "react";
import { Link, useLocation, useNavigationType } from "react-router-dom";
import { PRODUCT_NAME } from "../account/messages";
import "./pages.css";

/** Sets document.title to "{title} | Tone Studio" while the page is shown. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    const before = document.title;
    document.title = `${title} | ${PRODUCT_NAME}`;
    return () => {
      document.title = before;
    };
  }, [title]);
}

export function BackHome() {
  return (
    <p className="back-home">
      <Link to="/"><span aria-hidden="true">← </span>Back to Home</Link>
    </p>
  );
}

interface StaticPageProps {
  title: string;
  /** Version or date line under the heading, e.g. "Version 2.0, effective August 1, 2025". */
  meta?: ReactNode;
  /** The opening paragraph, set a little larger. */
  lead?: ReactNode;
  children: ReactNode;
}

export function StaticPage({ title, meta, lead, children }: StaticPageProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const navigationType = useNavigationType();
  const { hash } = useLocation();
  usePageTitle(title);

  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) {
      target.scrollIntoView();
      return;
    }
    if (navigationType === "POP") return; // a fresh load or Back: the browser places the page
    window.scrollTo(0, 0);
    heading.current?.focus({ preventScroll: true });
  }, [hash, navigationType]);

  return (
    <main id="main" className="studio static-page">
      <BackHome />
      <article className="static-article" aria-labelledby="page-title">
        <header className="static-head">
          <h1 id="page-title" ref={heading} tabIndex={-1}>{title}</h1>
          {meta && <p className="page-meta">{meta}</p>}
          {lead && <p className="lead">{lead}</p>}
        </header>
        {children}
      </article>
      <BackHome />
    </main>
  );
}

/** A titled section of a static page (an h2, or an h3 when `level` is 3). */
export function Section({ id, title, level = 2, children }: { id?: string; title: string; level?: 2 | 3; children: ReactNode }) {
  const generated = useId();
  const headingId = `${id ?? generated}-title`;
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section id={id} className="static-section" aria-labelledby={headingId}>
      <Heading id={headingId}>{title}</Heading>
      {children}
    </section>
  );
}

/** A numbered table of contents linking to sections by id (long legal pages). */
export function Contents({ sections }: { sections: Readonly<Record<string, string>> }) {
  return (
    <nav className="page-contents" aria-label="Contents">
      <h2 className="contents-title">Contents</h2>
      <ol>
        {Object.entries(sections).map(([id, title]) => (
          <li key={id}><a href={`#${id}`}>{title}</a></li>
        ))}
      </ol>
    </nav>
  );
}
