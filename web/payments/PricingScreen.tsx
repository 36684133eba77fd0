// The studio's pricing screen (spec/studio.md section 2): shown in place of the studio when
// opened with Ctrl+P, with a Back button (and Escape) that closes it. Same plan cards as
// /subscribe. Focus moves to its heading when it opens.

import { useEffect, useRef } from "react";
import { PlansSection } from "./PlansSection";
import "./payments.css";

export function PricingScreen({ onClose }: { onClose(): void }) {
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    heading.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  return (
    <section className="pricing-screen" aria-labelledby="pricing-title">
      <div className="pricing-top">
        <h1 id="pricing-title" ref={heading} tabIndex={-1}>Plans and Pricing</h1>
        <button type="button" className="button" onClick={onClose}>
          <span aria-hidden="true">← </span>Back
        </button>
      </div>
      <PlansSection />
    </section>
  );
}
