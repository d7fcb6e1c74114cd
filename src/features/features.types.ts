import { ArrayMaxSize, IsISO31661Alpha2, IsOptional, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { Field, Float, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql';
import { Role, Tier } from '../auth';

@InputType('FlagRuleInput', { description: 'A rule of a feature flag' })
@ObjectType('FlagRule', { description: 'Who a feature flag is on for: roles, tiers, countries, ages, a share' })
export class FlagRuleType {
  @Field(() => [Role], { nullable: true, description: 'Any of these roles' })
  @IsOptional()
  @ArrayMaxSize(10)
  roles?: Role[] | null;

  @Field(() => [Tier], { nullable: true, description: 'Any of these tiers' })
  @IsOptional()
  @ArrayMaxSize(10)
  tiers?: Tier[] | null;

  @Field(() => [String], { nullable: true, description: 'Any of these countries (ISO 3166-1 alpha-2)' })
  @IsOptional()
  @ArrayMaxSize(300)
  @IsISO31661Alpha2({ each: true })
  countries?: string[] | null;

  @Field(() => Int, { nullable: true, description: 'Only learners at least this old, in years; null: any age' })
  @IsOptional()
  @Min(0)
  @Max(120)
  minAge?: number | null;

  @Field(() => Int, { nullable: true, description: 'Only learners at most this old, in years; null: any age' })
  @IsOptional()
  @Min(0)
  @Max(120)
  maxAge?: number | null;

  @Field(() => Float, { nullable: true, description: '0..100: the share of users, stable per user' })
  @IsOptional()
  @Min(0)
  @Max(100)
  percentage?: number | null;
}

@InputType({ description: 'A feature flag as it should be' })
export class FeatureFlagInput {
  @Field(() => String, {
    nullable: true,
    description: 'What the feature is, for the admins; null or left out keeps the current text',
  })
  @IsOptional()
  @MaxLength(500)
  description?: string | null;

  @Field(() => Boolean, { description: 'False switches the feature off for everybody, whatever the rules' })
  enabled!: boolean;

  @Field(() => [FlagRuleType], {
    nullable: true,
    description: 'On for whoever any rule holds for; no rules: on for everybody',
  })
  @IsOptional()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  rules?: FlagRuleType[] | null;
}

@ObjectType('FeatureFlag', { description: 'A feature switched on for the callers its rules match' })
export class FeatureFlagView {
  @Field(() => String, { description: "The flag's unique name, used in code" })
  key!: string;

  @Field(() => String, { description: 'What the feature is, for the admins' })
  description!: string;

  @Field(() => Boolean, { description: 'False: off for everybody, whatever the rules' })
  enabled!: boolean;

  @Field(() => [FlagRuleType], { description: 'On for whoever any rule holds for; empty: on for everybody' })
  rules!: FlagRuleType[];

  @Field(() => String, {
    nullable: true,
    description: 'The id of the admin who last changed the flag; null when nobody has',
  })
  updatedBy!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When the flag last changed' })
  updatedAt!: Date;
}
