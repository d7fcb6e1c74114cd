import { plain } from '../kernel/personal-data';
import { defineArea } from '../kernel/area';
import { webPage } from '../kernel/web-page';
import { tokensKept } from '../kernel/tokens';
import { AccountToken, type AccountTokenPurpose } from './account-token.entity';
import { AuthResolver } from './auth.resolver';
import { authRoutes } from './auth.routes';
import { authRules } from './auth.rules';
import { AuthService } from './auth.service';
import { AccountsService } from './accounts.service';
import { HomeRegionService } from './home-region.service';
import { accountDirectoryOf } from './account-directory';
import { Migration20261203000000_account_directory } from './migrations/Migration20261203000000_account_directory';
import { RefreshToken } from './refresh-token.entity';
import { User } from './user.entity';
import { Migration20261128100000_account_change_events } from './migrations/Migration20261128100000_account_change_events';
import { Migration20261129000400_account_deleted_events } from './migrations/Migration20261129000400_account_deleted_events';
import { type Account, accountsOf } from './account-cache';
import { Migration20261130000400_account_profiles_view } from './migrations/Migration20261130000400_account_profiles_view';
import { Migration20261202000000_account_regions } from './migrations/Migration20261202000000_account_regions';
import { Migration20261122000000_accounts } from './migrations/Migration20261122000000_accounts';

export { ADULT_AGE } from './age';

export { UserConnection, UserView } from './auth.types';
export { normaliseEmail } from './account-input';
export { ageOn } from './age';

export { AccountStatus, Locale, Role, Tier } from './user.entity';
// The account's type, not its class: other areas read and change accounts through the accounts service.
export type { User } from './user.entity';
export type { AuthService } from './auth.service';
export type { HomeRegionService } from './home-region.service';
export type { AccountFilter, AccountsService, RoleChangeOutcome } from './accounts.service';
export { accountsOf } from './account-cache';
export { homeOfAccount } from './account-directory';
export { raiseTierCte, setTier } from './tier';
export { accountsAmong } from './accounts-among';
export type { Account } from './account-cache';

declare module '../kernel/services' {
  interface Services {
    auth: AuthService;
    accounts: AccountsService;
    homeRegion: HomeRegionService;
  }
}

declare module '../kernel/events' {
  interface DomainEvents {
    /** Someone asked for an account mail (forgot-password, resend-verification) to an address that may have no account. */
    accountMailAsked: { purpose: AccountTokenPurpose.verify_email | AccountTokenPurpose.reset_password; email: string };
  }
}

declare module '../kernel/context' {
  /** The caller, as the accounts area stores them. */
  interface Viewer extends User {}
  /** The caller, plain (account-cache.ts). */
  interface Caller extends Account {}
}

export const authArea = defineArea({
  name: 'auth',
  uses: [],
  entities: [User, RefreshToken, AccountToken],
  resolvers: [AuthResolver],
  rules: authRules,
  migrations: [
    { name: 'Migration20261122000000_accounts', class: Migration20261122000000_accounts },
    { name: 'Migration20261128100000_account_change_events', class: Migration20261128100000_account_change_events },
    { name: 'Migration20261129000400_account_deleted_events', class: Migration20261129000400_account_deleted_events },
    { name: 'Migration20261130000400_account_profiles_view', class: Migration20261130000400_account_profiles_view },
    { name: 'Migration20261202000000_account_regions', class: Migration20261202000000_account_regions },
    { name: 'Migration20261203000000_account_directory', class: Migration20261203000000_account_directory },
  ],
  routes: authRoutes,
  services: {
    auth: (uow) => new AuthService(uow, uow.deps),
    accounts: (uow, services) => new AccountsService(uow, services.auth),
    homeRegion: (uow) => new HomeRegionService(uow),
  },
  // The area hears its own event: the answer waits for the row's commit, not for the lookup and the mail.
  on: { accountMailAsked: (event, services) => services.auth.accountMail(event) },
  // From here on, this instance's writes of an account drop its cached copy.
  start: (deps) => deps.regions.forEach((region) => void accountsOf(region)),
  close: async (deps) => deps.regions.forEach((region) => accountsOf(region).stop()),
  // What the sign-in caches hold: tokens until they expire, accounts for a minute, each bounded.
  gauges: (deps) => [
    {
      name: 'auth_cache_entries',
      help: "Entries this instance keeps in memory: access tokens that passed (until they expire), callers' accounts",
      labelNames: ['cache'],
      read: () => [
        { labels: { cache: 'access_tokens' }, value: tokensKept(deps.config) },
        {
          labels: { cache: 'accounts' },
          value: deps.regions.reduce((sum, region) => sum + accountsOf(region).size, 0),
        },
      ],
    },
  ],
  // The pages the mails link to when no web app is configured (PUBLIC_URL in config.ts); the
  // guardian link's too, since it is one page for every mailed token.
  http: () =>
    webPage({
      name: 'mail-links',
      paths: ['/pages/verify-email', '/pages/reset-password', '/pages/guardian/confirm'],
      assets: '/pages/assets',
    }),
  personalData: {
    entities: [User, RefreshToken, AccountToken],
    export: async (userId, _services, uow) => ({
      account: plain(await uow.em.findOneOrFail(User, { id: userId })),
      // When sessions began and ended; the token hashes are of no use to anyone and stay out.
      sessions: (await uow.em.find(RefreshToken, { user: userId }, { orderBy: { createdAt: 'asc' } })).map((t) => ({
        createdAt: t.createdAt,
        expiresAt: t.expiresAt,
        usedAt: t.usedAt,
        revokedAt: t.revokedAt,
      })),
    }),
    // Runs last (areas erase in reverse order). The account row becomes its pseudonym rather than
    // going: the records the law keeps (the consent ledger) follow its id through their foreign
    // keys (on update cascade) and keep pointing at something that names no one.
    erase: async (userId, pseudonym, services, uow) => {
      const sessions = await uow.em.execute<{ family_id: string }[]>(
        'with gone as (delete from refresh_tokens where user_id = ? returning family_id) select distinct family_id from gone',
        [userId],
      );
      // Its tokens are refused and live sockets of the account close once the erasure commits.
      services.auth.publishSessionsEnded(
        userId,
        sessions.map((row) => row.family_id),
      );
      await uow.em.nativeDelete(AccountToken, { user: userId });
      // The directory (global's database) forgets where the account was and its address's hash.
      await accountDirectoryOf(uow.deps).forget(userId);
      await uow.em.execute(
        `update users set id = ?, email = ?, display_name = 'Erased user', password_hash = '!', roles = '{}', birth_date = null, guardian_email = null,
           email_verified_at = null, status = 'erased', updated_at = now() where id = ?`,
        [pseudonym, `erased-${pseudonym}@erased.invalid`, userId],
      );
    },
  },
});
