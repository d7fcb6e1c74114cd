import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';
import { Tier } from '../kernel/domain';
import type { Localized } from '../kernel/localized';

export enum ProductKind {
  subscription = 'subscription',
  course = 'course',
  bundle = 'bundle',
}

export enum ProductStatus {
  draft = 'draft',
  in_review = 'in_review',
  published = 'published',
  rejected = 'rejected',
  archived = 'archived',
}

export enum PriceInterval {
  month = 'month',
  year = 'year',
}

export interface Price {
  id: string;
  currency: string;
  amount: number;
  interval: PriceInterval | null;
}

@Entity({ tableName: 'products' })
@Index({ properties: ['status', 'createdAt', 'id'] })
@Index({ properties: ['seller'] })
export class Product {
  [OptionalProps]?: 'tier' | 'courseIds' | 'seller' | 'status' | 'reviewReason' | 'sales' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Enum({ items: () => ProductKind })
  kind!: ProductKind;

  @Property({ type: 'jsonb' })
  title!: Localized;

  @Property({ type: 'jsonb' })
  description!: Localized;

  /** Each price: an id, an ISO 4217 currency, an integer amount in minor units, an interval for subscriptions. */
  @Property({ type: 'jsonb' })
  prices!: Price[];

  @Enum({ items: () => Tier, nullable: true })
  tier: Tier | null = null;

  @Property({ type: 'jsonb', default: "'[]'" })
  courseIds: string[] = [];

  /** Null: the platform sells it; otherwise a creator's listing. */
  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  seller: User | null = null;

  @Enum({ items: () => ProductStatus })
  status: ProductStatus = ProductStatus.draft;

  @Property({ type: 'text', nullable: true })
  reviewReason: string | null = null;

  /** Successful payments, kept by the payment's own transaction (the marketplace sorts by it). */
  @Property({ type: 'integer' })
  sales: number = 0;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
