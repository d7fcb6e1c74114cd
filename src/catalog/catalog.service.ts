import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../auth';
import { Role, Tier } from '../kernel/domain';
import { isId } from '../kernel/ids';
import type { Localized } from '../kernel/localized';
import { afterCursor, offsetCursor, type Page, toPage } from '../kernel/pagination';
import type { Services } from '../kernel/services';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { push } from '../kernel/sql-params';
import { type NotificationMessage, NotificationType } from '../notifications';
import { type Price, type PriceInterval, Product, ProductKind, ProductStatus } from './catalog.entity';
import {
  listingNotFound,
  listingNotInReview,
  listingOfTier,
  listingPublishedByReview,
  notACurrency,
  notAMarketplaceCursor,
  pricesNeedCurrency,
  productInvalid,
  productNotFound,
  rejectionNeedsReason,
} from './catalog.errors';

export const MAX_AMOUNT = 2_000_000_000;

export interface PriceInput {
  currency: string;
  amount: number;
  interval?: PriceInterval | null;
}

export interface ProductInput {
  kind: ProductKind;
  title: Localized;
  description: Localized;
  prices: PriceInput[];
  tier?: Tier | null;
  courseIds?: string[] | null;
}

export interface MarketplaceFilter {
  q?: string | null;
  kind?: ProductKind | null;
  minPrice?: number | null;
  maxPrice?: number | null;
  currency?: string | null;
  sort?: 'popular' | 'newest' | 'price_asc' | 'price_desc' | null;
}

const isAdmin = (user: User | null) => Boolean(user?.hasRole(Role.admin));
const isEditor = (user: User | null) => Boolean(user && (user.hasRole(Role.admin) || user.hasRole(Role.content_admin)));
const CURRENCY = /^[A-Z]{3}$/;

/** What the platform and its creators sell: products, the marketplace's listings and their review. */
export class CatalogService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly services: Services,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /** The audit trail, in the acting transaction; actions keep the names the trail has always had (`commerce.product_created`). */
  private async audit(
    actorId: string,
    action: string,
    target: string,
    data: Record<string, unknown> = {},
  ): Promise<void> {
    await this.services.audit.recordSellingAction(actorId, action, target, data);
  }

  /** A notification written with the change (the notifications area delivers it after commit). */
  private notify(
    recipients: string[],
    notificationType: NotificationType,
    message: NotificationMessage,
  ): Promise<void> {
    return this.uow.raise({ type: 'notification.requested', recipients, notificationType, message });
  }

  async products(
    viewer: User | null,
    first: number,
    after?: string | null,
    status?: ProductStatus | null,
  ): Promise<Page<Product>> {
    const where: Record<string, unknown> = {};
    if (isAdmin(viewer) && status) where.status = status;
    else if (!isAdmin(viewer)) where.status = ProductStatus.published;
    const rows = await this.em.find(
      Product,
      { ...where, ...afterCursor(after) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1, populate: ['seller'] },
    );
    return toPage(rows, first, after, () => this.em.count(Product, where));
  }

  /** The product if it is on sale now (published), else null: what a checkout buys. */
  async productForSale(id: string): Promise<Product | null> {
    return isId(id) ? this.em.findOne(Product, { id, status: ProductStatus.published }) : null;
  }

  /** Reads the product again as stored now, into the entity this unit of work holds. */
  async reloadProduct(id: string): Promise<void> {
    await this.em.findOne(Product, { id }, { refresh: true });
  }

  /** A published product for everyone; any for admins and content admins, its own for a seller. */
  async product(viewer: User | null, id: string): Promise<Product> {
    const product = isId(id) ? await this.em.findOne(Product, { id }, { populate: ['seller'] }) : null;
    if (!product) throw productNotFound();
    if (
      product.status !== ProductStatus.published &&
      !isEditor(viewer) &&
      !(product.seller && product.seller.id === viewer?.id)
    )
      throw productNotFound();
    return product;
  }

  /** The products among these ids the viewer may see, as `product` reads one (the graph's `nodes`). */
  async productsByIds(viewer: User | null, ids: string[]): Promise<Product[]> {
    const rows = await this.em.find(Product, { id: { $in: ids.filter(isId) } }, { populate: ['seller'] });
    return rows.filter(
      (product) =>
        product.status === ProductStatus.published ||
        isEditor(viewer) ||
        (product.seller && product.seller.id === viewer?.id),
    );
  }

  async createProduct(actor: User, input: ProductInput, seller: User | null = null): Promise<Product> {
    const { checked } = await this.checkProduct(input);
    return this.uow.transaction(async (em) => {
      const product = em.create(Product, {
        ...checked,
        seller,
        status: seller ? ProductStatus.in_review : ProductStatus.draft,
      });
      await this.audit(actor.id, seller ? 'listing.submitted' : 'product.created', `product:${product.id}`, {
        prices: product.prices,
      });
      return product;
    });
  }

  async updateProduct(
    actor: User,
    id: string,
    change: { [K in keyof ProductInput]?: ProductInput[K] | null },
  ): Promise<Product> {
    const product = await this.product(actor, id);
    const current: ProductInput = {
      kind: product.kind,
      title: product.title,
      description: product.description,
      prices: product.prices,
      tier: product.tier,
      courseIds: product.courseIds,
    };
    const next = {
      ...current,
      ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined && v !== null)),
    } as ProductInput;
    const { checked, authors } = await this.checkProduct(next, product.prices);
    return this.uow.transaction(async (em) => {
      const previousPrices = product.prices;
      em.assign(product, checked);
      await this.audit(actor.id, 'product.updated', `product:${product.id}`, {
        prices: product.prices,
        previousPrices,
      });
      await this.offer(product, authors);
      return product;
    });
  }

  async setProductStatus(
    actor: User,
    id: string,
    status: ProductStatus.published | ProductStatus.archived,
  ): Promise<Product> {
    return this.uow.transaction(async () => {
      const product = await this.product(actor, id);
      if (product.status === status) return product;
      if (
        status === ProductStatus.published &&
        product.seller &&
        product.status !== ProductStatus.in_review &&
        product.status !== ProductStatus.archived
      )
        throw listingPublishedByReview();
      product.status = status;
      await this.audit(actor.id, `product.${status}`, `product:${product.id}`);
      await this.offer(product);
      return product;
    });
  }

  /**
   * Tells entitlements what the product sells now (in the change's transaction): its courses while
   * it is published, nothing otherwise. An edit passes the authors its check read already.
   */
  private async offer(product: Product, known?: Map<string, string | null>): Promise<void> {
    if (product.status !== ProductStatus.published || product.kind === ProductKind.subscription)
      return this.services.entitlements.offer(product.id, []);
    const authors = known ?? (await this.services.courses.authorsOf(product.courseIds));
    await this.services.entitlements.offer(
      product.id,
      [...authors].map(([courseId, authorId]) => ({ courseId, authorId })),
    );
  }

  /** The input checked, as the product stores it, and the authors of its courses (read to check that they exist). */
  private async checkProduct(
    input: ProductInput,
    previous: Price[] = [],
  ): Promise<{
    checked: Omit<ProductInput, 'prices'> & { prices: Price[]; tier: Tier | null; courseIds: string[] };
    authors: Map<string, string | null>;
  }> {
    const problems: { field: string; message: string }[] = [];
    if (!input.prices.length) problems.push({ field: 'prices', message: 'needs at least one price' });
    input.prices.forEach((price, i) => {
      if (!CURRENCY.test(price.currency))
        problems.push({ field: `prices.${i}.currency`, message: 'must be an ISO 4217 code such as VND or USD' });
      if (!Number.isSafeInteger(price.amount) || price.amount <= 0 || price.amount > MAX_AMOUNT)
        problems.push({
          field: `prices.${i}.amount`,
          message: `must be a whole number of minor units, 1 to ${MAX_AMOUNT}`,
        });
      if (input.kind === ProductKind.subscription && !price.interval)
        problems.push({ field: `prices.${i}.interval`, message: 'a subscription price needs month or year' });
      if (input.kind !== ProductKind.subscription && price.interval)
        problems.push({ field: `prices.${i}.interval`, message: 'only subscriptions have an interval' });
    });
    if (input.kind === ProductKind.subscription && (!input.tier || input.tier === Tier.free))
      problems.push({ field: 'tier', message: 'a subscription sells starter or pro' });
    const courseIds = [...new Set(input.courseIds ?? [])];
    if (input.kind !== ProductKind.subscription && !courseIds.length)
      problems.push({ field: 'courseIds', message: 'name at least one course' });
    const valid = !courseIds.some((id) => !isId(id));
    if (!valid) problems.push({ field: 'courseIds', message: 'must be course ids' });
    const authors =
      valid && courseIds.length ? await this.services.courses.authorsOf(courseIds) : new Map<string, string | null>();
    if (authors.size !== (valid ? courseIds.length : 0))
      problems.push({ field: 'courseIds', message: 'names a course that does not exist' });
    if (problems.length) throw productInvalid(problems);
    // A price keeps its id while its currency, amount and interval stay the same.
    const prices = input.prices.map((p) => {
      const same = previous.find(
        (q) => q.currency === p.currency && q.amount === p.amount && q.interval === (p.interval ?? null),
      );
      return {
        id: same?.id ?? crypto.randomUUID(),
        currency: p.currency,
        amount: p.amount,
        interval: p.interval ?? null,
      };
    });
    return {
      checked: { ...input, prices, tier: input.kind === ProductKind.subscription ? input.tier! : null, courseIds },
      authors,
    };
  }

  /** A page of the marketplace; its cursors are offsets (the orders by sales and price have no keyset). */
  async marketplace(
    filter: MarketplaceFilter,
    first: number,
    after?: string | null,
  ): Promise<Page<Product> & { offset: number }> {
    const offset = after ? Number(Buffer.from(after, 'base64url').toString()) : 0;
    if (!Number.isSafeInteger(offset) || offset < 0) throw notAMarketplaceCursor();
    if (filter.currency && !CURRENCY.test(filter.currency)) throw notACurrency();
    if (
      (filter.minPrice != null ||
        filter.maxPrice != null ||
        filter.sort === 'price_asc' ||
        filter.sort === 'price_desc') &&
      !filter.currency
    ) {
      throw pricesNeedCurrency();
    }
    // Placeholders are positional: the SQL is written in the order its values are pushed.
    const params: unknown[] = [];
    const priceOf = () =>
      filter.currency
        ? `(select min((e->>'amount')::bigint) from jsonb_array_elements(p.prices) e where e->>'currency' = ${push(params, filter.currency)})`
        : 'null::bigint';
    const select = `select p.id, ${priceOf()} as price from products p`;
    const where = [`p.status = 'published'`];
    if (filter.kind) where.push(`p.kind = ${push(params, filter.kind)}`);
    if (filter.q) {
      const like = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(
        `(p.title->>'en' ilike ${push(params, like)} or p.title->>'vi' ilike ${push(params, like)} or p.description->>'en' ilike ${push(params, like)} or p.description->>'vi' ilike ${push(params, like)})`,
      );
    }
    if (filter.currency) where.push(`${priceOf()} is not null`);
    if (filter.currency && filter.minPrice != null) where.push(`${priceOf()} >= ${push(params, filter.minPrice)}`);
    if (filter.currency && filter.maxPrice != null) where.push(`${priceOf()} <= ${push(params, filter.maxPrice)}`);
    const order = {
      popular: 'p.sales desc, p.created_at desc',
      newest: 'p.created_at desc',
      price_asc: 'price asc',
      price_desc: 'price desc',
    }[filter.sort ?? 'newest'];
    const matching = `${select} where ${where.join(' and ')}`;
    const countParams = [...params];
    const count = async () =>
      (
        await this.em.execute<{ n: number }[]>(`select count(*)::int as n from (${matching}) as matching`, countParams)
      )[0].n;
    const sql = `${matching} order by ${order}, p.id desc limit ${push(params, first + 1)} offset ${push(params, offset)}`;
    const rows = await this.em.execute<{ id: string }[]>(sql, params);
    const products = rows.length
      ? await this.em.find(Product, { id: { $in: rows.map((r) => r.id) } }, { populate: ['seller'] })
      : [];
    const byId = new Map(products.map((p) => [p.id, p]));
    const nodes = rows.slice(0, first).map((r) => byId.get(r.id)!);
    const hasNextPage = rows.length > first;
    return {
      nodes,
      offset,
      hasNextPage,
      hasPreviousPage: offset > 0,
      endCursor: hasNextPage ? offsetCursor(offset + first) : null,
      totalCount: count,
    };
  }

  async submitListing(creator: User, input: ProductInput): Promise<Product> {
    if (input.kind === ProductKind.subscription) throw listingOfTier();
    return this.createProduct(creator, input, creator);
  }

  async reviewListing(reviewer: User, id: string, approve: boolean, reason: string | null): Promise<Product> {
    return this.uow.transaction(async () => {
      const product = await this.product(reviewer, id);
      if (!product.seller) throw listingNotFound();
      if (product.status !== ProductStatus.in_review) throw listingNotInReview(product.status);
      if (!approve && !reason?.trim()) throw rejectionNeedsReason();
      product.status = approve ? ProductStatus.published : ProductStatus.rejected;
      product.reviewReason = reason?.trim() || null;
      await this.audit(reviewer.id, approve ? 'listing.approved' : 'listing.rejected', `product:${product.id}`, {
        reason,
      });
      await this.offer(product);
      const seller = product.seller.id;
      const title = product.title;
      await this.notify([seller], NotificationType.system, {
        title: approve
          ? { en: 'Your listing is published', vi: 'Sản phẩm của bạn đã được duyệt' }
          : { en: 'Your listing was not approved', vi: 'Sản phẩm của bạn chưa được duyệt' },
        body: { en: `${title.en}${reason ? `: ${reason}` : ''}`, vi: `${title.vi}${reason ? `: ${reason}` : ''}` },
        data: { productId: product.id },
      });
      return product;
    });
  }
}
