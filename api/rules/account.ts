// The account as the API answers it (sign-in, session, profile): the shape the browser stores and
// reads. Never the password hash.

export interface PublicUser {
  id: string;
  email: string;
  fullName: string | null;
  isAdmin: boolean;
  is_super_admin: boolean;
  emailVerified: boolean;
  createdAt: string;
}
