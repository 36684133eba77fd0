// The onboarding tutorial in the studio (rules and texts in tutorial.ts). It is a region in the
// page, not a modal: it covers nothing, the studio stays usable beside it, and a screen reader
// reads it like any text (each new step is announced through its polite live area). The part of
// the studio a step is about gets a highlight; "Show me" scrolls there and focuses its first
// control. Close (or Escape inside it) skips it. Once skipped or completed, Restart Tutorial takes
// its place. The bar under it also carries the help button on small screens, where the header's is
// hidden (shown to everyone, anonymous visitors too). The tour: signed-in visitors only (tutorial.ts).

import { useEffect, useRef, type KeyboardEvent } from "react";
import { useStore } from "zustand";
import { prefersReducedMotion } from "../a11y/reduced-motion";
import { useStudioGate } from "../account/hooks";
import { HelpButton } from "../help/HelpButton";
import { sectionsStore } from "../state/sections";
import { LAST_STEP, TUTORIAL_STEPS, nextLabel, tutorialAvailable } from "./tutorial";
import { tutorialAction, tutorialStore } from "./tutorial-store";
import "./onboarding.css";

export const HIGHLIGHT_ATTRIBUTE = "data-tutorial-highlight";
const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

function targetOf(selector: string | undefined): HTMLElement | null {
  return selector ? document.querySelector<HTMLElement>(selector) : null;
}

function showMe(selector: string | undefined): void {
  const target = targetOf(selector);
  if (!target) return;
  target.scrollIntoView({ behavior: prefersReducedMotion() ? "auto" : "smooth", block: "center" });
  const control = target.matches(FOCUSABLE) ? target : target.querySelector<HTMLElement>(FOCUSABLE);
  control?.focus({ preventScroll: true });
}

export function TutorialPanel() {
  const level = useStudioGate().level;
  const { status, step } = useStore(tutorialStore);
  const heading = useRef<HTMLHeadingElement>(null);
  const restart = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  /** Where focus goes after the next render: set by the buttons that make theirs disappear. */
  const focusNext = useRef<"heading" | "restart" | null>(null);
  const available = tutorialAvailable(level);
  const open = available && status === "open";
  const current = TUTORIAL_STEPS[step];

  // The highlight follows the step (an attribute React does not manage on the studio's elements).
  useEffect(() => {
    if (!open) return;
    if (current.section) sectionsStore.getState().show(current.section);
    const target = targetOf(current.target);
    target?.setAttribute(HIGHLIGHT_ATTRIBUTE, current.id);
    return () => target?.removeAttribute(HIGHLIGHT_ATTRIBUTE);
  }, [open, current]);

  useEffect(() => {
    const where = focusNext.current;
    focusNext.current = null;
    if (where === "heading") heading.current?.focus();
    else if (where === "restart") restart.current?.focus();
  }, [status]);

  const focusInside = () => panel.current?.contains(document.activeElement) === true;
  const close = () => {
    if (focusInside()) focusNext.current = "restart";
    tutorialAction({ type: "skip" });
  };
  const next = () => {
    if (step >= LAST_STEP && focusInside()) focusNext.current = "restart";
    tutorialAction({ type: "next" });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "Escape") return;
    e.stopPropagation();
    close();
  };

  const bar = (
    <div className="tour-bar">
      {available && !open && (
        <button
          ref={restart}
          type="button"
          className="button"
          onClick={() => {
            focusNext.current = "heading";
            tutorialAction({ type: "restart" });
          }}
        >
          Restart Tutorial
        </button>
      )}
      <HelpButton className="help-button tour-help" />
    </div>
  );
  if (!open) return bar;

  return (
    <>
      <section ref={panel} className="panel tutorial" aria-labelledby="tutorial-title" onKeyDown={onKeyDown}>
        <div className="tutorial-top">
          <p className="tutorial-count">
            Tutorial · Step {step + 1} of {TUTORIAL_STEPS.length}
          </p>
          <button type="button" className="tutorial-close" aria-label="Close tutorial" onClick={close}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="tutorial-step" aria-live="polite" aria-atomic="true">
          <h2 id="tutorial-title" ref={heading} tabIndex={-1}>{current.title}</h2>
          <p>{current.body}</p>
        </div>
        <ol className="tutorial-dots" aria-hidden="true">
          {TUTORIAL_STEPS.map((s, i) => (
            <li key={s.id} data-state={i === step ? "current" : i < step ? "done" : "todo"} />
          ))}
        </ol>
        <div className="tutorial-nav">
          <button
            type="button"
            className="button"
            aria-disabled={step === 0}
            onClick={() => {
              if (step > 0) tutorialAction({ type: "previous" });
            }}
          >
            Previous
          </button>
          {current.target && (
            <button type="button" className="button" onClick={() => showMe(current.target)}>
              Show me
            </button>
          )}
          <button type="button" className="button primary" onClick={next}>
            {nextLabel(step)}
          </button>
        </div>
      </section>
      {bar}
    </>
  );
}
