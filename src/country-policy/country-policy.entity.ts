import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';
import type { PolicyValues, Region } from './country-policy.defaults';

/** An admin's values for one country, replacing the defaults; `version` counts the changes. */
@Entity({ tableName: 'country_policies' })
export class CountryPolicyOverride implements PolicyValues {
  [OptionalProps]?: 'version' | 'updatedAt' | 'childConsentAge' | 'dataResidency';

  @PrimaryKey({ type: 'character', length: 2 })
  country!: string;

  @Property({ type: 'text' })
  region!: Region;

  @Property({ type: 'smallint' })
  guardianConsentAge!: number;

  @Property({ type: 'smallint', nullable: true })
  childConsentAge: number | null = null;

  @Property({ type: 'smallint' })
  aiGuardianConsentAge!: number;

  @Property({ type: 'text', nullable: true })
  dataResidency: string | null = null;

  @Property({ type: 'text[]' })
  rules!: string[];

  @Property({ type: 'integer' })
  version: number = 1;

  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}

/** Each change of a country's policy, with its author, kept for good. */
@Entity({ tableName: 'country_policy_changes' })
@Index({ properties: ['country', 'createdAt'] })
export class CountryPolicyChange {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'character', length: 2 })
  country!: string;

  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  author!: User | null;

  @Property({ type: 'jsonb' })
  before!: PolicyValues;

  @Property({ type: 'jsonb' })
  after!: PolicyValues;

  @Property({ type: 'integer' })
  version!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
