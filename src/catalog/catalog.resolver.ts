import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { User } from '../auth';
import type { Context } from '../kernel/context';
import type { NodeSource } from '../kernel/node';
import { offsetCursor, PageArgs, toConnectionOf } from '../kernel/pagination';
import { type Product, ProductStatus } from './catalog.entity';
import { catalogRules } from './catalog.rules';
import {
  ListingReviewInput,
  MarketplaceArgs,
  ProductChangeInput,
  ProductConnection,
  ProductInput,
  ProductView,
} from './catalog.types';

export function presentProduct(p: Product): ProductView {
  return {
    id: p.id,
    kind: p.kind,
    title: p.title,
    description: p.description,
    prices: p.prices,
    tier: p.tier,
    courseIds: p.courseIds,
    sellerId: p.seller?.id ?? null,
    seller: p.seller ? { id: p.seller.id, displayName: p.seller.displayName } : null,
    sales: p.sales,
    status: p.status,
    reviewReason: p.reviewReason,
    createdAt: p.createdAt,
  };
}

const viewer = async (ctx: Context) => (await ctx.viewer()) as User;

export const catalogNodes: NodeSource[] = [
  {
    type: 'Product',
    table: 'products',
    rule: catalogRules.Query.product,
    field: 'Query.product',
    loadMany: async (ctx, ids) =>
      (await ctx.services.catalog.productsByIds(await ctx.viewer(), ids)).map(presentProduct),
  },
];

@Resolver()
export class CatalogResolver {
  @Query(() => ProductConnection, { description: 'Published products (admins: any, by status)' })
  async products(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('status', () => ProductStatus, { nullable: true, description: 'Admins: only products in this status' })
    status: ProductStatus | null,
    @Ctx() ctx: Context,
  ) {
    return toConnectionOf(
      await ctx.services.catalog.products(await ctx.viewer(), page.first, page.after, status),
      presentProduct,
    );
  }

  @Query(() => ProductView, {
    description: 'One product: a published one for anyone, any for admins and content admins, its own for a seller',
  })
  async product(@Arg('id', () => ID, { description: 'The product to show' }) id: string, @Ctx() ctx: Context) {
    return presentProduct(await ctx.services.catalog.product(await ctx.viewer(), id));
  }

  @Mutation(() => ProductView, { description: 'Admins: a platform product, as a draft' })
  async createProduct(
    @Arg('input', () => ProductInput, { description: 'The new product' }) input: ProductInput,
    @Ctx() ctx: Context,
  ) {
    return presentProduct(await ctx.services.catalog.createProduct(await viewer(ctx), input));
  }

  @Mutation(() => ProductView, {
    description: "Admins: changes a product's title, description, prices, tier or courses",
  })
  async updateProduct(
    @Arg('id', () => ID, { description: 'The product to change' }) id: string,
    @Arg('input', () => ProductChangeInput, { description: 'The values to change; omitted ones are kept' })
    input: ProductChangeInput,
    @Ctx() ctx: Context,
  ) {
    return presentProduct(await ctx.services.catalog.updateProduct(await viewer(ctx), id, input));
  }

  @Mutation(() => ProductView, { description: 'Admins: puts a product on sale' })
  async publishProduct(
    @Arg('id', () => ID, { description: 'The product to publish' }) id: string,
    @Ctx() ctx: Context,
  ) {
    return presentProduct(await ctx.services.catalog.setProductStatus(await viewer(ctx), id, ProductStatus.published));
  }

  @Mutation(() => ProductView, { description: 'Admins: stops selling a product; what was bought stays' })
  async archiveProduct(
    @Arg('id', () => ID, { description: 'The product to archive' }) id: string,
    @Ctx() ctx: Context,
  ) {
    return presentProduct(await ctx.services.catalog.setProductStatus(await viewer(ctx), id, ProductStatus.archived));
  }

  @Query(() => ProductConnection, {
    description: 'Published products with seller and sales; q, kind, price range in a currency, sort',
  })
  async marketplace(@Args(() => MarketplaceArgs) args: MarketplaceArgs, @Ctx() ctx: Context) {
    const page = await ctx.services.catalog.marketplace(args, args.first, args.after);
    const nodes = page.nodes.map(presentProduct);
    // Each edge's cursor reads on from the product after it, as endCursor does from the page's last.
    const edges = nodes.map((node, i) => ({ cursor: offsetCursor(page.offset + i + 1), node }));
    return {
      edges,
      nodes,
      pageInfo: {
        hasNextPage: page.hasNextPage,
        hasPreviousPage: page.hasPreviousPage,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: page.endCursor,
      },
      count: page.totalCount,
    };
  }

  @Query(() => ProductView, { description: 'One published product of the marketplace, with its seller and sales' })
  async marketplaceProduct(
    @Arg('productId', () => ID, { description: 'The product to show' }) productId: string,
    @Ctx() ctx: Context,
  ) {
    return presentProduct(await ctx.services.catalog.product(null, productId));
  }

  @Mutation(() => ProductView, { description: 'Creators: their own course or bundle, in review' })
  async submitListing(
    @Arg('input', () => ProductInput, { description: 'The listing to submit for review' }) input: ProductInput,
    @Ctx() ctx: Context,
  ) {
    return presentProduct(await ctx.services.catalog.submitListing(await viewer(ctx), input));
  }

  @Mutation(() => ProductView, { description: 'Content admins: publishes a listing in review' })
  async approveListing(
    @Arg('id', () => ID, { description: 'The listing to publish' }) id: string,
    @Arg('input', () => ListingReviewInput, { nullable: true, description: 'An optional note from the reviewer' })
    input: ListingReviewInput | null,
    @Ctx() ctx: Context,
  ) {
    return presentProduct(await ctx.services.catalog.reviewListing(await viewer(ctx), id, true, input?.reason ?? null));
  }

  @Mutation(() => ProductView, { description: 'Content admins: refuses a listing in review with a reason' })
  async rejectListing(
    @Arg('id', () => ID, { description: 'The listing to refuse' }) id: string,
    @Arg('input', () => ListingReviewInput, { description: 'Why the listing is refused' }) input: ListingReviewInput,
    @Ctx() ctx: Context,
  ) {
    return presentProduct(await ctx.services.catalog.reviewListing(await viewer(ctx), id, false, input.reason ?? null));
  }
}
