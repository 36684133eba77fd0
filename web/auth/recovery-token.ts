// The one-time reset token that POST /api/auth/exchange hands back for a recovery link, held in
// this tab's memory only (never written to storage) until the update-password form spends it. It
// proves the account in place of the current password, which the user who asked for the link has
// forgotten. It is kept with the id of the user it was issued to, so another account signed in
// later in the same tab never sends it; a reload forgets it (the form then asks for the current
// password, or a new link).

let held: { userId: string; token: string } | null = null;

export function holdResetToken(userId: string, token: string): void {
  held = { userId, token };
}

/** The held token if it was issued to `userId`, else null. */
export function resetTokenFor(userId: string | null | undefined): string | null {
  return held && userId && held.userId === userId ? held.token : null;
}

export function dropResetToken(): void {
  held = null;
}
