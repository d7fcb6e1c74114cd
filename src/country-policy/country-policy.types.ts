import { ArrayMaxSize, IsISO31661Alpha2, IsOptional, Max, MaxLength, Min } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('CountryPolicy', { description: "A country's ages of consent and what a guardian must approve" })
export class CountryPolicyView {
  @Field(() => String, { description: 'ISO 3166-1 alpha-2' })
  country!: string;

  @Field(() => String, { description: 'EU, US, VN or OTHER' })
  region!: string;

  @Field(() => Int, { description: 'Under this age a guardian consents to basic data processing' })
  guardianConsentAge!: number;

  @Field(() => Int, { nullable: true, description: "From this age the child's own consent is needed too" })
  childConsentAge!: number | null;

  @Field(() => Int, { description: 'Under this age a guardian consents to AI and progress sharing' })
  aiGuardianConsentAge!: number;

  @Field(() => String, { nullable: true, description: 'Country where the data must be kept' })
  dataResidency!: string | null;

  @Field(() => [String], { description: 'The rules of the country explained in plain words, for people to read' })
  rules!: string[];

  @Field(() => Int, { description: 'Recorded with every consent given under this policy' })
  version!: number;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Null while the defaults apply' })
  updatedAt!: Date | null;
}

@ObjectType({ description: "One change of a country's policy: by whom, and before and after" })
export class CountryPolicyChangeView {
  @Field(() => Int, { description: 'Policy version the change created' })
  version!: number;

  @Field(() => ID, { nullable: true, description: 'Admin who made the change; null when made from the command line' })
  authorId!: string | null;

  @Field(() => GraphQLJSONObject, { description: 'The policy values before the change' })
  before!: object;

  @Field(() => GraphQLJSONObject, { description: 'The policy values after the change' })
  after!: object;

  @Field(() => GraphQLISODateTime, { description: 'When the change was made' })
  createdAt!: Date;
}

@InputType({ description: "New ages of a country's policy" })
export class CountryPolicyInput {
  @Field(() => Int, {
    nullable: true,
    description: 'Under this age a guardian consents to basic data processing, 1 to 21; kept when omitted',
  })
  @IsOptional()
  @Min(1)
  @Max(21)
  guardianConsentAge?: number;

  @Field(() => Int, { nullable: true, description: 'null: the child is not asked' })
  @IsOptional()
  @Min(1)
  @Max(21)
  childConsentAge?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Under this age a guardian consents to AI and progress sharing, 1 to 21; kept when omitted',
  })
  @IsOptional()
  @Min(1)
  @Max(21)
  aiGuardianConsentAge?: number;

  @Field(() => String, {
    nullable: true,
    description: 'Country where the data must be kept, ISO 3166-1 alpha-2; null for none, kept when omitted',
  })
  @IsOptional()
  @IsISO31661Alpha2({ message: 'must be an ISO 3166-1 alpha-2 country code' })
  dataResidency?: string | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Rules explained in plain words, at most 20 of 500 characters; kept when omitted',
  })
  @IsOptional()
  @ArrayMaxSize(20)
  @MaxLength(500, { each: true })
  rules?: string[];
}
