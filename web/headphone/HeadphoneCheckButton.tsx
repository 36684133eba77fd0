// The studio's "Headphone check" button, beside the play controls: opens the check's dialog and
// takes focus back when it closes. The balance it edits is the listener's level setting
// (dsp/host/levels.ts): pass `balance` and `onBalance` from the levels store; without them the
// button keeps the balance itself for the page's lifetime.

import { useRef, useState } from "react";
import { HeadphoneCheckDialog } from "./HeadphoneCheckDialog";
import { OPEN_BUTTON } from "./messages";
import "./headphone.css";

export function HeadphoneCheckButton(props: { balance?: number; onBalance?(db: number): void }) {
  const [open, setOpen] = useState(false);
  const [ownBalance, setOwnBalance] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const balance = props.balance ?? ownBalance;
  const onBalance = props.onBalance ?? setOwnBalance;

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <>
      <button ref={button} type="button" className="hp-open" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {OPEN_BUTTON}
      </button>
      {open && <HeadphoneCheckDialog onClose={close} balance={balance} onBalance={onBalance} />}
    </>
  );
}
