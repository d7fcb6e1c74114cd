import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { isISO31661Alpha2 } from 'class-validator';
import type { AuditService } from '../audit';
import type { User } from '../auth';
import { defaultPolicy, POLICY_VERSION_OF_DEFAULTS, type PolicyValues } from './country-policy.defaults';
import { CountryPolicyChange, CountryPolicyOverride } from './country-policy.entity';
import { childAgeNotBelowGuardianAge, invalidCountry, requiredValuesNull } from './country-policy.errors';

export interface CountryPolicy extends PolicyValues {
  country: string;
  /** Recorded with every consent, so the ledger says under which rules it was given. */
  version: number;
  updatedAt: Date | null;
}

export type PolicyChange = Partial<Omit<PolicyValues, 'region'>>;

/** Country rules as data: the defaults of docs/domain.md, unless an admin changed a country's. */
export class CountryPolicyService {
  constructor(
    private readonly uow: UnitOfWork,
    /** Policy changes are privileged actions: audited in the transaction that makes them. */
    private readonly audit: AuditService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  async policyOf(country: string): Promise<CountryPolicy> {
    const code = country === UNSPECIFIED_COUNTRY ? country : assertCountry(country);
    const override = await this.em.findOne(CountryPolicyOverride, { country: code });
    if (override)
      return {
        ...pick(override),
        country: code,
        version: override.version + POLICY_VERSION_OF_DEFAULTS,
        updatedAt: override.updatedAt,
      };
    return { ...defaultPolicy(code), country: code, version: POLICY_VERSION_OF_DEFAULTS, updatedAt: null };
  }

  /** Under a row lock, so two admins editing at once both land in the history, in order. */
  async update(author: User | null, country: string, change: PolicyChange): Promise<CountryPolicy> {
    const code = assertCountry(country);
    await this.uow.transaction(async (em) => {
      await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`country-policy:${code}`]);
      const existing = await em.findOne(CountryPolicyOverride, { country: code });
      const before = existing ? pick(existing) : defaultPolicy(code);
      const after = { ...before, ...definedOnly(change) };
      assertCoherent(after);
      const version = (existing?.version ?? 0) + 1;
      em.persist(
        em.create(CountryPolicyChange, {
          country: code,
          author: author?.id ?? null,
          before,
          after,
          version,
        }),
      );
      if (existing) em.assign(existing, { ...after, version, updatedAt: new Date() });
      else em.persist(em.create(CountryPolicyOverride, { country: code, ...after, version }));
      await this.audit.record({
        actor: author,
        action: 'country_policy.changed',
        target: { type: 'country', id: code },
        data: { version, before, after },
      });
    });
    this.em.clear();
    return this.policyOf(code);
  }

  changes(country: string): Promise<CountryPolicyChange[]> {
    return this.uow.children(
      'countryPolicy.changes',
      assertCountry(country),
      (countries) =>
        this.em.find(CountryPolicyChange, { country: { $in: countries } }, { orderBy: { createdAt: 'desc' } }),
      (change) => change.country,
    );
  }
}

/**
 * ISO 3166's code for an unspecified country: an account made from the command line (the first
 * admin) names none, and the rules it is held to are the defaults. No admin may set a policy for it.
 */
const UNSPECIFIED_COUNTRY = 'ZZ';

export function assertCountry(country: string): string {
  if (!/^[A-Z]{2}$/.test(country) || !isISO31661Alpha2(country)) throw invalidCountry();
  return country;
}

function pick(values: PolicyValues): PolicyValues {
  const { region, guardianConsentAge, childConsentAge, aiGuardianConsentAge, dataResidency, rules } = values;
  return { region, guardianConsentAge, childConsentAge, aiGuardianConsentAge, dataResidency, rules: [...rules] };
}

function definedOnly(change: PolicyChange): PolicyChange {
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
}

const REQUIRED: (keyof PolicyChange)[] = ['guardianConsentAge', 'aiGuardianConsentAge', 'rules'];

function assertCoherent(policy: PolicyValues): void {
  const missing = REQUIRED.filter((key) => policy[key] === null);
  if (missing.length) throw requiredValuesNull(missing);
  if (policy.childConsentAge !== null && policy.childConsentAge >= policy.guardianConsentAge) {
    throw childAgeNotBelowGuardianAge();
  }
}
