// The app: the stored session is restored once on load; the profile is refreshed (through its
// 5-minute cache) when the tab regains focus, and checked with the server as soon as the network
// is back after a session that stood on the device's cached entitlement (offline; a toast says so
// when that entitlement has expired); a free user's demo status follows the session; the studio's
// gate is enforced on every route. The frame (Frame.tsx) holds the routes (routes.tsx).

import { useEffect } from "react";
import { toast } from "sonner";
import { BrowserRouter } from "react-router-dom";
import { useEnforceStudioGate, useSession, useStudioGate } from "../account/hooks";
import { sessionStore } from "../account/session-store";
import { useDemoLifecycle } from "../demo/use-demo";
import { useAudio, useStudio } from "../state/studio-context";
import { PWA_TEXT } from "../pwa/messages";
import { Frame } from "./Frame";
import { AppRoutes } from "./routes";

function useSessionLifecycle() {
  useEffect(() => {
    const store = sessionStore();
    void store.getState().restore();
    const refresh = () => {
      const { status, offline } = store.getState();
      if (document.visibilityState === "visible" && status === "signed_in") {
        store.getState().loadProfile(offline).catch(() => undefined);
      }
    };
    const recheck = () => {
      if (store.getState().status === "signed_in") store.getState().loadProfile(true).catch(() => undefined);
    };
    document.addEventListener("visibilitychange", refresh);
    window.addEventListener("online", recheck);
    return () => {
      document.removeEventListener("visibilitychange", refresh);
      window.removeEventListener("online", recheck);
    };
  }, []);
}

/** Says why Pro is locked when the studio opens offline on an expired cached entitlement (the
 *  entitlement is checked again as soon as the network is back). */
function useOfflineLapsedNotice() {
  const lapsed = useSession((s) => s.lapsed);
  useEffect(() => {
    if (lapsed) toast.info(PWA_TEXT.offlineLapsed, { id: "offline-lapsed", duration: 8000 });
    else toast.dismiss("offline-lapsed");
  }, [lapsed]);
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
  useOfflineLapsedNotice();
  return (
    <BrowserRouter>
      <Frame>
        <AppRoutes />
      </Frame>
    </BrowserRouter>
  );
}
