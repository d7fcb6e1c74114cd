/** The account as both baselines answer it (the fields of `UserFields`), from its row in `users`. */
export function accountOfRow(u: Record<string, unknown>) {
  return {
    id: u.id,
    email: u.email,
    emailVerified: u.email_verified_at !== null,
    displayName: u.display_name,
    roles: u.roles,
    birthDate: u.birth_date,
    country: u.country,
    locale: u.locale,
    tier: u.tier,
    status: u.status,
    createdAt: (u.created_at as Date).toISOString(),
  };
}
