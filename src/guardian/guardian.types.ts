import {
  IsDefined,
  IsEmail,
  IsISO31661Alpha2,
  IsOptional,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
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
  @Field(() => ID, { description: "The account's id" })
  id!: string;

  @Field(() => String, { description: 'The name the account shows' })
  displayName!: string;

  @Field(() => String, {
    nullable: true,
    description:
      "The account's e-mail address; the guardian's is null to a caller whose own address is not verified (anyone may sign up with a child's)",
  })
  email!: string | null;
}

@ObjectType({ description: "One change of a guardian link's status, and who made it" })
export class GuardianLinkTransitionView {
  @Field(() => LinkStatus, { description: 'The status the link entered' })
  status!: LinkStatus;

  @Field(() => ID, {
    nullable: true,
    description: 'The id of the account that made the change; null when the platform made it',
  })
  actorId!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When the link entered this status' })
  at!: Date;
}

@ObjectType('GuardianLink', { description: 'A link between a guardian and a learner', implements: Node })
export class GuardianLinkView implements Node {
  @Field(() => ID, { description: "The link's global id" })
  id!: string;

  @Field(() => LinkStatus, { description: 'Where the link stands' })
  status!: LinkStatus;

  @Field(() => Boolean, { description: 'The first active link of a learner is the primary one' })
  primary!: boolean;

  /** Resolved by GuardianResolver.guardian: its address only to a caller who proved their own. */
  guardian!: LinkParty;

  /** Resolved by GuardianResolver.learner: null until the link is active. */
  learner!: LinkParty | null;

  @Field(() => String, { description: 'The e-mail address of the learner the guardian declared' })
  learnerEmail!: string;

  @Field(() => GraphQLISODateTime, { description: 'When the guardian declared the learner' })
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the link became active; null while it is not yet',
  })
  activatedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the link was revoked; null while it is not' })
  revokedAt!: Date | null;
}

export const GuardianLinkConnection = Connection(GuardianLinkView, 'GuardianLink');

@InputType({ description: 'The e-mail address of a learner a guardian declares' })
export class DeclareLearnerInput {
  @Field(() => String, { description: "The e-mail address of the learner's account" })
  @IsEmail({}, { message: 'must be an e-mail address' })
  @MaxLength(254)
  learnerEmail!: string;
}

@InputType({ description: 'A child account a guardian makes and links at once' })
export class AddChildInput {
  @Field(() => String, { description: "The child's name as the platform shows it, 1 to 80 characters" })
  @Length(1, 80, { message: 'must be 1 to 80 characters long' })
  displayName!: string;

  @Field(() => String, { description: 'YYYY-MM-DD' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD' })
  birthDate!: string;

  @Field(() => String, { nullable: true, description: "ISO 3166-1 alpha-2; the guardian's by default" })
  @IsOptional()
  @IsISO31661Alpha2({ message: 'must be an ISO 3166-1 alpha-2 country code' })
  country?: string | null;

  @Field(() => Locale, { nullable: true, description: "The child's language; left out: the guardian's" })
  locale?: Locale | null;
}

@InputType({ description: 'The token of a mail that confirms a guardian link' })
export class ConfirmLinkInput {
  @Field(() => String, { description: 'The token from the confirmation mail' })
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
  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether the learner may use the AI tutor; left out: unchanged',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsDefined({ message: 'must be true or false (leave it out to keep it)' })
  enabled?: boolean;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether the AI may remember what it learns about the learner; left out: unchanged',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsDefined({ message: 'must be true or false (leave it out to keep it)' })
  memoryEnabled?: boolean;

  @Field(() => Int, {
    nullable: true,
    description: 'At most this many AI messages a day, 0 to 1000; null: the tier decides',
  })
  @IsOptional()
  @Min(0)
  @Max(1000)
  dailyMessageLimit?: number | null;
}

@ObjectType({ description: 'A learner linked to the caller as guardian' })
export class LinkedLearner extends LinkParty {
  @Field(() => String, { description: "The learner's e-mail address" })
  declare email: string;

  @Field(() => String, { nullable: true, description: "The learner's birth date (YYYY-MM-DD); null when not given" })
  birthDate!: string | null;

  @Field(() => String, { description: "The learner's country (ISO 3166-1 alpha-2)" })
  country!: string;

  @Field(() => Locale, { description: "The learner's language" })
  locale!: Locale;

  @Field(() => AccountStatus, { description: "Where the learner's account stands" })
  status!: AccountStatus;
}
