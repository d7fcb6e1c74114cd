import type { UnitOfWork } from '../kernel/unit-of-work';
import type { Deps } from '../kernel/deps';
import { GLOBAL_REGION } from '../db/regions';
import { Role } from './user.entity';
import { hashToken } from '../kernel/tokens';
import { regionHolding } from '../kernel/region-lookup';
import { accountDirectoryOf } from './account-directory';
import { normaliseEmail } from './account-input';
import type { AuthService, Session, SignupRequest } from './auth.service';

/**
 * The ways in that carry no access token (sign-up, log-in, mailed links, refresh tokens): each finds
 * the account's home region first, then does its work in a unit of work on that region's database, so
 * that what it reads and writes of the person stays there (docs/residency.md).
 */
export class HomeRegionService {
  constructor(private readonly uow: UnitOfWork) {}

  private get deps(): Deps {
    return this.uow.deps;
  }

  private authIn(region: string): AuthService {
    return this.deps.inRegion(region).unit().services.auth;
  }

  /**
   * The account's home follows its country, but a creator's is global: what a creator writes (courses,
   * lessons, exercises) is shared data, written in global's database and naming its author there.
   * The address is claimed in the directory first, so that it has one account across every region.
   */
  async signup(request: SignupRequest): Promise<Session> {
    const region = request.role === Role.creator ? GLOBAL_REGION : this.deps.homeRegionOf(request.country);
    const directory = accountDirectoryOf(this.deps);
    const id = await directory.claimNew(region, normaliseEmail(request.email));
    try {
      return await this.authIn(region).signup(request, id);
    } catch (error) {
      await directory.forget(id);
      throw error;
    }
  }

  async login(email: string, password: string, ip: string): Promise<Session> {
    return (await this.authOfAddress(email)).login(email, password, ip);
  }

  async resendVerification(email: string): Promise<void> {
    await (await this.authOfAddress(email)).resendVerification(email);
  }

  async forgotPassword(email: string): Promise<void> {
    await (await this.authOfAddress(email)).forgotPassword(email);
  }

  async refresh(token: string): Promise<Session> {
    return (await this.authHolding('refresh_tokens', token)).refresh(token);
  }

  async logout(token: string): Promise<void> {
    await (await this.authHolding('refresh_tokens', token)).logout(token);
  }

  async verifyEmail(token: string) {
    return (await this.authHolding('account_tokens', token)).verifyEmail(token);
  }

  async resetPassword(token: string, password: string): Promise<void> {
    await (await this.authHolding('account_tokens', token)).resetPassword(token, password);
  }

  /** The home region of the account of this address: global's for an unknown one (or one made before regions). */
  regionOfAddress(email: string): Promise<string> {
    return accountDirectoryOf(this.deps).regionOfAddress(normaliseEmail(email));
  }

  /** An unknown address is looked up as a known one is, and answered from global's database. */
  private async authOfAddress(email: string): Promise<AuthService> {
    return this.authIn(await this.regionOfAddress(email));
  }

  /**
   * The region whose database holds this token (refresh or mailed): each region is asked at once, by
   * the token's hash. An unknown token is refused by global's, as any region would refuse it.
   */
  private async authHolding(table: 'refresh_tokens' | 'account_tokens', token: string): Promise<AuthService> {
    const held = await regionHolding(this.deps, `select 1 from ${table} where token_hash = ? limit 1`, [
      hashToken(token),
    ]);
    return (held ?? this.deps.inRegion(GLOBAL_REGION)).unit().services.auth;
  }
}
