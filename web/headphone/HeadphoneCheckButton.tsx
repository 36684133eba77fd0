// The studio's "Headphone check" button, beside the play controls: opens the check's dialog and
// takes focus back when it closes. The balance it edits is the listener's level setting, the
// levels store (web/levels/levels-store.ts) that live playback and exports follow, so the balance
// matched here is what the Safe listening panel shows and what every start and export uses.

import { useRef, useState } from "react";
import { useStore } from "zustand";
import { levelsStore } from "../levels/levels-store";
import { HeadphoneCheckDialog } from "./HeadphoneCheckDialog";
import { OPEN_BUTTON } from "./messages";
import "./headphone.css";

export function HeadphoneCheckButton() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const balance = useStore(levelsStore, (s) => s.balance);
  const onBalance = (db: number) => levelsStore.getState().setLevels({ balance: db });

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
