// What the auth screen hands each of its forms: the e-mail (kept across sign_in / sign_up
// switches), the pending flag (mode switches are blocked while a request runs) and the actions.

import type { AuthMode } from "../account/auth-entry";

export interface AuthFormProps {
  email: string;
  setEmail(email: string): void;
  pending: boolean;
  /** Runs a request with the pending flag set; errors are the caller's to catch. */
  run(task: () => Promise<void>): Promise<void>;
  switchTo(mode: AuthMode): void;
}
