// The session: a vanilla zustand store outside React holding the token, the user and the cached
// profile. It restores a stored session on load (GET /api/user/profile with the bearer; a failed
// restore clears every stored key), caches the profile for 5 minutes, signs in, signs up, adopts
// sessions from e-mailed codes and signs out (POST /api/auth/logout, then storage is cleared).
// Every profile the server answers is also kept on the device with its expiry
// (entitlement-cache.ts): a restore or refresh that gets no answer at all (offline) keeps the
// session and stands on that cache while it is current, at the free level once it has expired
// (an open studio drops to it at the expiry), and loadProfile(true) asks the server again when
// the network is back.
// Dependencies are injected so unit tests run it with a memory storage and a fake fetch.

import { createStore, type StoreApi } from "zustand/vanilla";
import {
  ApiRequestError, requestJson, type ExchangeAnswer, type Profile, type PublicUser, type SessionAnswer,
} from "./api";
import { AUTH_TEXT } from "../../api/rules/texts";
import { browserStorage, clearSession, ENTITLEMENT_KEY, readToken, readUser, saveSession, type KeyValueStorage } from "./storage";
import { cacheEntitlement, currentEntry, readCachedEntry } from "./entitlement-cache";
import { deriveEntitlements } from "./entitlements";

export const PROFILE_TTL_MS = 5 * 60 * 1000;

export type SessionStatus = "restoring" | "anonymous" | "signed_in";

export interface SessionState {
  status: SessionStatus;
  token: string | null;
  user: PublicUser | null;
  profile: Profile | null;
  /** When the cached profile was fetched (ms since epoch), 0 when none. */
  profileAt: number;
  /** The server could not be reached: the session stands on the device's cached entitlement
   *  (or the free level) until loadProfile gets an answer. */
  offline: boolean;
  /** Offline with a cached entitlement that showed paid access and has expired: the studio is at
   *  the free level until the server confirms the plan again. */
  lapsed: boolean;
}

export interface SignUpFields {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
}

export interface SessionActions {
  /** Restores a stored session once; later calls share the first call's promise. */
  restore(): Promise<void>;
  /** The profile, from the 5-minute cache unless `force`; null when signed out. Without an
   *  answer from the server (offline) it falls back on the device's cached entitlement. */
  loadProfile(force?: boolean): Promise<Profile | null>;
  signIn(email: string, password: string): Promise<SessionAnswer>;
  signUp(fields: SignUpFields): Promise<SessionAnswer>;
  /** Exchanges an e-mailed code (POST /api/auth/exchange) for a session. */
  exchange(code: string): Promise<ExchangeAnswer>;
  /** Stores a session answer and loads its profile. */
  adopt(answer: SessionAnswer): Promise<void>;
  /** Revokes the session on the server, then clears it here; false when the server call failed. */
  signOut(): Promise<boolean>;
  /** Forgets the session locally (storage and memory). */
  clear(): void;
}

export type SessionStore = SessionState & SessionActions;

export interface SessionDeps {
  storage?: KeyValueStorage;
  fetchImpl?: typeof fetch;
  now?: () => number;
  /** setTimeout and clearTimeout (tests pass fakes). */
  timers?: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
}

const BROWSER_TIMERS = {
  set: (fn: () => void, ms: number): unknown => setTimeout(fn, ms),
  clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createSessionStore(deps: SessionDeps = {}): StoreApi<SessionStore> {
  const storage = deps.storage ?? browserStorage();
  const now = deps.now ?? Date.now;
  const timers = deps.timers ?? BROWSER_TIMERS;
  /** Ends an offline session's cached entitlement when it expires. */
  let expiryTimer: unknown = null;
  const stopExpiryTimer = () => {
    if (expiryTimer !== null) timers.clear(expiryTimer);
    expiryTimer = null;
  };
  const call = <T>(path: string, body?: unknown, token?: string | null) =>
    requestJson<T>(path, { body, token, fetchImpl: deps.fetchImpl });
  const initialToken = readToken(storage);
  let restoring: Promise<void> | null = null;

  return createStore<SessionStore>()((set, get) => {
    const clear = () => {
      stopExpiryTimer();
      clearSession(storage);
      set({ status: "anonymous", token: null, user: null, profile: null, profileAt: 0, offline: false, lapsed: false });
    };

    /** A profile the server answered: in memory and, with its expiry, on the device. */
    const fresh = (profile: Profile, also: Partial<SessionState> = {}) => {
      stopExpiryTimer();
      cacheEntitlement(storage, profile, now());
      set({ ...also, profile, profileAt: now(), user: profile.user, offline: false, lapsed: false });
    };

    /** No answer from the server: the cached entitlement while it is current, else none (the
     *  free level); profileAt 0, so the next loadProfile asks the server again. */
    const offline = () => {
      stopExpiryTimer();
      const user = get().user ?? readUser(storage);
      const entry = currentEntry(storage, user?.id, now());
      const stored = entry ? null : readCachedEntry(storage);
      const lapsed = !!stored && stored.userId === user?.id && deriveEntitlements(stored.profile).hasUnlimitedAccess;
      set({ status: "signed_in", user: entry?.profile.user ?? user, profile: entry?.profile ?? null, profileAt: 0, offline: true, lapsed });
      if (entry) {
        // At most OFFLINE_TRUST_MS away (7 days), well inside setTimeout's range.
        expiryTimer = timers.set(() => {
          expiryTimer = null;
          if (get().offline && get().status === "signed_in") offline();
        }, Math.max(0, entry.expiresAt - now()));
      }
    };

    const fetchProfile = async (token: string): Promise<Profile> => {
      try {
        return await call<Profile>("/api/user/profile", undefined, token);
      } catch (err) {
        if (err instanceof ApiRequestError && err.status === 401) throw new ApiRequestError(AUTH_TEXT.invalidToken, 401);
        throw err;
      }
    };

    const adopt = async (answer: SessionAnswer) => {
      storage.removeItem(ENTITLEMENT_KEY); // an earlier session's
      saveSession(storage, answer.token, answer.user);
      set({ token: answer.token, user: answer.user, profile: null, profileAt: 0, offline: false, lapsed: false });
      try {
        fresh(await fetchProfile(answer.token));
      } catch (err) {
        // Signed in all the same; the studio shows the free level until the profile loads.
        console.warn("Profile could not be loaded after sign-in", err);
      }
      set({ status: "signed_in" });
    };

    return {
      status: initialToken ? "restoring" : "anonymous",
      token: initialToken,
      user: initialToken ? readUser(storage) : null,
      profile: null,
      profileAt: 0,
      offline: false,
      lapsed: false,

      restore: () =>
        (restoring ??= (async () => {
          const token = readToken(storage);
          if (!token) {
            if (get().status === "restoring") set({ status: "anonymous" });
            return;
          }
          try {
            const profile = await fetchProfile(token);
            storage.setItem("user_data", JSON.stringify(profile.user));
            fresh(profile, { status: "signed_in", token });
          } catch (err) {
            if (err instanceof ApiRequestError && err.network) {
              // Offline, or the server is down: nothing refused the session.
              offline();
              return;
            }
            console.warn("Stored session could not be restored", err);
            clear(); // spec 4: a failed restore clears all stored tokens and user data
          }
        })()),

      loadProfile: async (force = false) => {
        const { token, profile, profileAt } = get();
        if (!token) return null;
        if (!force && profile && now() - profileAt < PROFILE_TTL_MS) return profile;
        try {
          const profile = await fetchProfile(token);
          fresh(profile);
          return profile;
        } catch (err) {
          if (err instanceof ApiRequestError && err.status === 401) clear();
          else if (err instanceof ApiRequestError && err.network) offline();
          throw err;
        }
      },

      signIn: async (email, password) => {
        const answer = await call<SessionAnswer>("/api/auth/login", { email: email.trim(), password });
        await adopt(answer);
        return answer;
      },

      signUp: async (f) => {
        const answer = await call<SessionAnswer>("/api/auth/register", {
          email: f.email.trim(),
          password: f.password,
          confirmPassword: f.confirmPassword,
          fullName: f.fullName.trim(),
        });
        await adopt(answer);
        return answer;
      },

      exchange: async (code) => {
        const answer = await call<ExchangeAnswer>("/api/auth/exchange", { code });
        await adopt(answer);
        return answer;
      },

      adopt,

      signOut: async () => {
        const token = get().token;
        let ok = true;
        if (token) {
          try {
            await call("/api/auth/logout", {}, token);
          } catch (err) {
            // An already dead session (401) is signed out all the same.
            ok = err instanceof ApiRequestError && err.status === 401;
            if (!ok) console.warn("Logout request failed", err);
          }
        }
        clear(); // the local session goes either way: the user asked to leave
        return ok;
      },

      clear,
    };
  });
}

let singleton: StoreApi<SessionStore> | null = null;

/** The app's one session store (created on first use, in the browser). */
export function sessionStore(): StoreApi<SessionStore> {
  singleton ??= createSessionStore();
  return singleton;
}
