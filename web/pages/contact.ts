// Where users reach a person (the support page, the terms, the privacy policy, the error screen).
// The address is a deployment setting: VITE_SUPPORT_EMAIL at build time (`VITE_SUPPORT_EMAIL=help@
// example.org npm run build`). Without it the reserved .example domain is shown, which can never
// deliver to a stranger's mailbox; a deployment must set it.

export const SUPPORT_EMAIL: string = import.meta.env.VITE_SUPPORT_EMAIL || "support@tone-studio.example";

/** The support page's promise (spec/accounts.md section 9). */
export const SUPPORT_REPLY_TIME = "about 24 hours on business days";
