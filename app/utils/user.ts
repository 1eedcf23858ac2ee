/** User helpers safe for the browser bundle. */
export interface NamedUser {
  nickname: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string;
}

/** Display name: nickname, else first and last name, else the part of the e-mail before the @. */
export function displayName(user: NamedUser): string {
  if (user.nickname) return user.nickname;
  const full = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  if (full) return full;
  return user.email.split('@')[0];
}
