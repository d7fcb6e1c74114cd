import { createHmac, randomUUID } from 'node:crypto';
import { GLOBAL_REGION } from '../db/regions';
import type { Deps } from '../kernel/deps';
import { perProcess } from '../kernel/deps';
import { emailTaken } from './auth.errors';

/** A sign-up under way has this long to commit its account before its claim on the address may be taken over. */
const CLAIM_GRACE_MS = 60_000;

/**
 * Where each account lives (`account_regions`, in global's database): the paths that start without a
 * token ask it which region's database to go to. It holds an account's id and region and a keyed hash
 * of its address, never the address: global's database may keep nothing else of a region's accounts.
 * Accounts made before regions have no entry and are global's, where their rows are.
 */
export class AccountDirectory {
  private readonly key: Buffer;

  constructor(private readonly global: Deps) {
    // Derived from the signing secret, so that a deployment has one secret to keep; a rotated secret
    // needs the directory's keys made again (docs/residency.md).
    this.key = createHmac('sha256', global.config.JWT_SECRET).update('account directory').digest();
  }

  addressKey(email: string): string {
    return createHmac('sha256', this.key).update(email).digest('base64url');
  }

  /** The region of the account with this (normalised) address: global when it has no entry. */
  async regionOfAddress(email: string): Promise<string> {
    const [row] = await this.global.sql.query<{ region: string }>(
      'select region from account_regions where address_key = ?',
      [this.addressKey(email)],
    );
    return row?.region ?? GLOBAL_REGION;
  }

  /** The region of an account by its id: global when it has no entry. */
  async regionOfId(id: string): Promise<string> {
    const [row] = await this.global.sql.query<{ region: string }>('select region from account_regions where id = ?', [
      id,
    ]);
    return row?.region ?? GLOBAL_REGION;
  }

  /**
   * Claims the address for a new account of `region`, before the account is written there: false when
   * another account, in any region, has it. A claim whose account never committed (its sign-up failed
   * or its instance died) is taken over once its grace has passed.
   */
  async claim(id: string, region: string, email: string): Promise<boolean> {
    const addressKey = this.addressKey(email);
    const [claimed] = await this.global.sql.query<{ id: string }>(
      `insert into account_regions (id, region, address_key) values (?, ?, ?) on conflict (address_key) do nothing returning id`,
      [id, region, addressKey],
    );
    if (claimed) return !(await this.legacyAccountHas(email, id));
    const [held] = await this.global.sql.query<{ id: string; region: string; created_at: Date }>(
      'select id, region, created_at from account_regions where address_key = ?',
      [addressKey],
    );
    if (!held || Date.now() - new Date(held.created_at).getTime() < CLAIM_GRACE_MS) return false;
    if (await this.exists(held.region, held.id)) return false;
    const [taken] = await this.global.sql.query<{ id: string }>(
      'update account_regions set id = ?, region = ?, created_at = now() where address_key = ? and id = ? returning id',
      [id, region, addressKey, held.id],
    );
    return taken !== undefined;
  }

  /** A new account's id, its (normalised) address claimed for `region`: refused (email_taken) when another account has it. */
  async claimNew(region: string, email: string): Promise<string> {
    const id = randomUUID();
    if (!(await this.claim(id, region, email))) throw emailTaken();
    return id;
  }

  /** Removes an account's entry: a claim whose account was not made, or an erased account's (its address and region go with it). */
  async forget(id: string): Promise<void> {
    await this.global.sql.query('delete from account_regions where id = ?', [id]);
  }

  /**
   * An account made before the directory has no entry, and its address may still be global's: the
   * claim just made is given back and refused. Nothing to check for a claim of global's own account.
   */
  private async legacyAccountHas(email: string, claimant: string): Promise<boolean> {
    const [row] = await this.global.sql.query<{ id: string }>('select id from users where email = ? and id <> ?', [
      email,
      claimant,
    ]);
    if (!row) return false;
    await this.forget(claimant);
    return true;
  }

  private async exists(region: string, id: string): Promise<boolean> {
    const [row] = await this.global.inRegion(region).sql.query('select 1 from users where id = ?', [id]);
    return row !== undefined;
  }
}

export const accountDirectoryOf = perProcess((deps) => new AccountDirectory(deps.inRegion(GLOBAL_REGION)));

/** The process seen from an account's home region, found by its id in the directory: for admins' actions on someone's account. */
export const homeOfAccount = async (deps: Deps, accountId: string): Promise<Deps> =>
  deps.inRegion(await accountDirectoryOf(deps).regionOfId(accountId));
