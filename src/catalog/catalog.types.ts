import {
  ArrayMaxSize,
  ArrayMinSize,
  IsIn,
  IsOptional,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Tier } from '../kernel/domain';
import { LocalizedTextInput, LocalizedTextView } from '../kernel/localized';
import { Node } from '../kernel/node';
import { Connection, PageArgs } from '../kernel/pagination';
import { PriceInterval, ProductKind, ProductStatus } from './catalog.entity';

registerEnumType(ProductKind, {
  name: 'ProductKind',
  description: 'What a product sells',
  valuesConfig: {
    subscription: { description: 'A tier, paid every interval' },
    course: { description: 'Access to one or more courses, paid once' },
    bundle: { description: 'Several courses together, paid once' },
  },
});
registerEnumType(ProductStatus, {
  name: 'ProductStatus',
  description: 'Where a product stands',
  valuesConfig: {
    draft: { description: 'Being written; not for sale' },
    in_review: { description: 'A listing waiting for a content admin' },
    published: { description: 'For sale' },
    rejected: { description: 'A listing a content admin refused' },
    archived: { description: 'No longer sold; what was bought stays' },
  },
});
registerEnumType(PriceInterval, {
  name: 'PriceInterval',
  description: 'How often a subscription is paid',
  valuesConfig: { month: { description: 'Every month' }, year: { description: 'Every year' } },
});
export const AMOUNT = 'An integer in minor units of the currency (VND has none; USD cents)';

@ObjectType('Price', { description: 'A price of a product in one currency' })
export class PriceView {
  @Field(() => ID, { description: 'Identifier of the price' })
  id!: string;

  @Field(() => String, { description: 'ISO 4217' })
  currency!: string;

  @Field(() => Int, { description: AMOUNT })
  amount!: number;

  @Field(() => PriceInterval, {
    nullable: true,
    description: 'How often a subscription is paid; null for a one-time price',
  })
  interval!: PriceInterval | null;
}

@ObjectType('Seller', { description: 'The creator who sells a listing' })
export class SellerView {
  @Field(() => ID, { description: 'Account of the creator' })
  id!: string;

  @Field(() => String, { description: 'Name of the creator shown to others' })
  displayName!: string;
}

@ObjectType('Product', {
  description: 'Something the platform sells: a subscription, a course or a bundle',
  implements: Node,
})
export class ProductView implements Node {
  @Field(() => ID, { description: 'Identifier of the product' })
  id!: string;

  @Field(() => ProductKind, { description: 'Whether it sells a subscription, a course or a bundle' })
  kind!: ProductKind;

  @Field(() => LocalizedTextView, { description: 'Title of the product in each language' })
  title!: LocalizedTextView;

  @Field(() => LocalizedTextView, { description: 'What the product offers, in each language' })
  description!: LocalizedTextView;

  @Field(() => [PriceView], { description: 'Its prices, one per currency and interval' })
  prices!: PriceView[];

  @Field(() => Tier, { nullable: true, description: 'What a subscription gives' })
  tier!: Tier | null;

  @Field(() => [ID], { description: 'Courses the product opens; empty for a subscription' })
  courseIds!: string[];

  @Field(() => ID, { nullable: true, description: 'Null: the platform sells it' })
  sellerId!: string | null;

  @Field(() => SellerView, { nullable: true, description: 'The creator who sells it; null when the platform sells it' })
  seller!: SellerView | null;

  @Field(() => Int, { description: 'Successful payments' })
  sales!: number;

  @Field(() => ProductStatus, { description: 'Where the product stands, from draft to archived' })
  status!: ProductStatus;

  @Field(() => String, { nullable: true, description: 'Why a listing was rejected' })
  reviewReason!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When the product was created' })
  createdAt!: Date;
}

export const ProductConnection = Connection(ProductView, 'Product');

@InputType({ description: 'A price of a product in one currency' })
export class PriceInput {
  @Field(() => String, { description: 'Currency, ISO 4217' })
  @Matches(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as VND or USD' })
  currency!: string;

  @Field(() => Int, { description: AMOUNT })
  @Min(1)
  @Max(2_000_000_000)
  amount!: number;

  @Field(() => PriceInterval, {
    nullable: true,
    description: 'How often a subscription is paid; null for a one-time price',
  })
  interval?: PriceInterval | null;
}

@InputType({ description: 'A product to create or a listing to submit' })
export class ProductInput {
  @Field(() => ProductKind, { description: 'Whether it sells a subscription, a course or a bundle' })
  kind!: ProductKind;

  @Field(() => LocalizedTextInput, { description: 'Title of the product in each language' })
  @ValidateNested()
  title!: LocalizedTextInput;

  @Field(() => LocalizedTextInput, { description: 'What the product offers, in each language' })
  @ValidateNested()
  description!: LocalizedTextInput;

  @Field(() => [PriceInput], { description: 'Its prices, at most 10' })
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  prices!: PriceInput[];

  @Field(() => Tier, { nullable: true, description: 'Tier a subscription gives; required for a subscription' })
  tier?: Tier | null;

  @Field(() => [ID], { nullable: true, description: 'Courses a course or bundle opens, at most 50' })
  @IsOptional()
  @ArrayMaxSize(50)
  courseIds?: string[] | null;
}

@InputType({ description: 'Changes to a product' })
export class ProductChangeInput {
  @Field(() => LocalizedTextInput, { nullable: true, description: 'New title in each language; kept when omitted' })
  @IsOptional()
  @ValidateNested()
  title?: LocalizedTextInput | null;

  @Field(() => LocalizedTextInput, {
    nullable: true,
    description: 'New description in each language; kept when omitted',
  })
  @IsOptional()
  @ValidateNested()
  description?: LocalizedTextInput | null;

  @Field(() => [PriceInput], {
    nullable: true,
    description: 'New prices, at most 10, replacing the old ones; kept when omitted',
  })
  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  prices?: PriceInput[] | null;

  @Field(() => Tier, { nullable: true, description: 'Tier a subscription gives; kept when omitted' })
  tier?: Tier | null;

  @Field(() => [ID], { nullable: true, description: 'Courses the product opens, at most 50; kept when omitted' })
  @IsOptional()
  @ArrayMaxSize(50)
  courseIds?: string[] | null;
}

@ArgsType()
export class MarketplaceArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Words of the title or description' })
  @IsOptional()
  @MaxLength(100)
  q?: string | null;

  @Field(() => ProductKind, { nullable: true, description: 'Only products of this kind' })
  kind?: ProductKind | null;

  @Field(() => Int, { nullable: true, description: 'In minor units of `currency`' })
  @IsOptional()
  @Min(0)
  minPrice?: number | null;

  @Field(() => Int, { nullable: true, description: 'Highest price, in minor units of currency' })
  @IsOptional()
  @Min(0)
  maxPrice?: number | null;

  @Field(() => String, { nullable: true, description: 'Currency of the price range, ISO 4217' })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code' })
  currency?: string | null;

  @Field(() => String, { nullable: true, description: 'popular | newest | price_asc | price_desc' })
  @IsOptional()
  @IsIn(['popular', 'newest', 'price_asc', 'price_desc'], {
    message: 'must be popular, newest, price_asc or price_desc',
  })
  sort?: 'popular' | 'newest' | 'price_asc' | 'price_desc' | null;
}

@InputType({ description: "A content admin's reason for refusing a listing" })
export class ListingReviewInput {
  @Field(() => String, {
    nullable: true,
    description: "The reviewer's reason, at most 1,000 characters; required to reject",
  })
  @IsOptional()
  @MaxLength(1000)
  reason?: string | null;
}
