// Plan names and what each level of access opens in the studio (spec/accounts.md sections 3, 4
// and 6, spec/studio.md section 6), in one dependency-free module that the API's entitlement
// function and the web app's display gating both import.

/** An admin's own plan: never counts as a real subscription (nor for checkout). */
export const ADMIN_PLAN_NAME = "Admin Access";
/** The plan of a temporary-access grant: unlimited access while active. */
export const TEMPORARY_PLAN_NAME = "Temporary Access";

/** How many of the studio's four channels may sound: none while signed out (every channel shows
 *  'Pro Only'), channel 1 for free accounts, all four with Pro or unlimited access. */
export const STUDIO_CHANNELS = { anonymous: 0, free: 1, full: 4 } as const;
