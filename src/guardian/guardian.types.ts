import { IsDefined, IsEmail, IsISO31661Alpha2, IsOptional, Length, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { AccountStatus, Locale } from '../auth';
import { Connection } from '../kernel/pagination';
import { Node } from '../kernel/node';
import { LinkStatus } from './guardian-link.entity';

registerEnumType(LinkStatus, {
  name: 'GuardianLinkStatus',
  description: 'Where a guardian link stands',
  valuesConfig: {
    pending: { description: 'Declared; the other side has not confirmed yet' },
    active: { description: 'Confirmed: the guardian sees and consents for the learner' },
    revoked: { description: 'Ended by the guardian, the learner or an admin' },
  },
});

/** One side of a link as the other side sees it: a name and an address, nothing more. */
@ObjectType({ description: 'One side of a guardian link as the other side sees it: a name and an address' })
export class LinkParty {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  displayName!: string;

  @Field(() => String)
  email!: string;
}

@ObjectType({ description: "One change of a guardian link's status, and who made it" })
export class GuardianLinkTransitionView {
  @Field(() => LinkStatus)
  status!: LinkStatus;

  @Field(() => ID, { nullable: true })
  actorId!: string | null;

  @Field(() => GraphQLISODateTime)
  at!: Date;
}

@ObjectType('GuardianLink', { description: 'A link between a guardian and a learner', implements: Node })
export class GuardianLinkView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => LinkStatus)
  status!: LinkStatus;

  @Field(() => Boolean, { description: 'The first active link of a learner is the primary one' })
  primary!: boolean;

  @Field(() => LinkParty)
  guardian!: LinkParty;

  /** Resolved by GuardianResolver.learner: null until the link is active. */
  learner!: LinkParty | null;

  @Field(() => String)
  learnerEmail!: string;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  activatedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  revokedAt!: Date | null;
}

export const GuardianLinkConnection = Connection(GuardianLinkView, 'GuardianLink');

@InputType({ description: 'The e-mail address of a learner a guardian declares' })
export class DeclareLearnerInput {
  @Field(() => String)
  @IsEmail({}, { message: 'must be an e-mail address' })
  @MaxLength(254)
  learnerEmail!: string;
}

@InputType({ description: 'A child account a guardian makes and links at once' })
export class AddChildInput {
  @Field(() => String)
  @Length(1, 80, { message: 'must be 1 to 80 characters long' })
  displayName!: string;

  @Field(() => String, { description: 'YYYY-MM-DD' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD' })
  birthDate!: string;

  @Field(() => String, { nullable: true, description: "ISO 3166-1 alpha-2; the guardian's by default" })
  @IsOptional()
  @IsISO31661Alpha2({ message: 'must be an ISO 3166-1 alpha-2 country code' })
  country?: string | null;

  @Field(() => Locale, { nullable: true })
  locale?: Locale | null;
}

@InputType({ description: 'The token of a mail that confirms a guardian link' })
export class ConfirmLinkInput {
  @Field(() => String)
  @Length(1, 200)
  token!: string;
}

@ObjectType('LearnerAiAccess', { description: "A learner's AI tutor settings, as their guardian set them" })
export class AiAccessView {
  @Field(() => Boolean, { description: 'The learner may use the AI tutor at all' })
  enabled!: boolean;

  @Field(() => Boolean, { description: 'The AI may remember what it learns about the learner' })
  memoryEnabled!: boolean;

  @Field(() => Int, { nullable: true, description: 'At most this many AI messages a day; null: the tier decides' })
  dailyMessageLimit!: number | null;
}

@InputType({ description: "A guardian's settings of a learner's AI tutor" })
export class AiAccessInput {
  // Left out means unchanged; null is no answer to a yes/no question (it reached the database as null).
  // IsDefined, because type-graphql validates with skipMissingProperties, which passes null by.
  @Field(() => Boolean, { nullable: true })
  @ValidateIf((_, value) => value !== undefined)
  @IsDefined({ message: 'must be true or false (leave it out to keep it)' })
  enabled?: boolean;

  @Field(() => Boolean, { nullable: true })
  @ValidateIf((_, value) => value !== undefined)
  @IsDefined({ message: 'must be true or false (leave it out to keep it)' })
  memoryEnabled?: boolean;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(1000)
  dailyMessageLimit?: number | null;
}

@ObjectType({ description: 'A learner linked to the caller as guardian' })
export class LinkedLearner extends LinkParty {
  @Field(() => String, { nullable: true })
  birthDate!: string | null;

  @Field(() => String)
  country!: string;

  @Field(() => Locale)
  locale!: Locale;

  @Field(() => AccountStatus)
  status!: AccountStatus;
}
