import { IsEmail, IsIn, IsISO31661Alpha2, IsNotEmpty, IsOptional, Length, Matches, MaxLength } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection } from '../kernel/pagination';
import { Node } from '../kernel/node';
import { AccountStatus, Locale, Role, signupRoles, Tier } from './user.entity';

registerEnumType(Role, {
  name: 'Role',
  description: 'What an account may do on the platform',
  valuesConfig: {
    learner: { description: 'Takes courses and exercises' },
    guardian: { description: 'Looks after linked learners and consents for them' },
    admin: { description: 'Runs the platform: accounts, roles, settings' },
    content_admin: { description: 'Edits courses and reviews generated and creator courses' },
    creator: { description: 'Writes courses and sells them on the marketplace' },
  },
});
registerEnumType(AccountStatus, {
  name: 'AccountStatus',
  description: 'Where an account stands',
  valuesConfig: {
    active: { description: 'In use' },
    pending_guardian: { description: 'A learner under 13 whose guardian has not yet verified and linked' },
    suspended: { description: 'An admin suspended it: log-in and every token are refused' },
    deletion_pending: {
      description: 'Erasure is scheduled; until it runs the account may only read itself and cancel',
    },
    erased: { description: 'Erased: a pseudonym the records the law keeps point to' },
  },
});
registerEnumType(Tier, {
  name: 'Tier',
  description: 'The subscription tier of an account',
  valuesConfig: {
    free: { description: 'No subscription' },
    starter: { description: 'The starter subscription' },
    pro: { description: 'The pro subscription' },
  },
});
registerEnumType(Locale, {
  name: 'Locale',
  description: 'A language the platform speaks',
  valuesConfig: { vi: { description: 'Vietnamese' }, en: { description: 'English' } },
});

/** What leaves the service of an account: never the password hash or tokens. */
@ObjectType('User', {
  implements: Node,
  description:
    'An account. Its edges (courses, progress, certificates, inbox, links, consents, ...) are shown to whom they concern: the account itself, and for a learner their active guardians where the field says so',
})
export class UserView implements Node {
  @Field(() => ID, { description: 'Identifier of the account' })
  id!: string;

  @Field(() => String, { description: 'E-mail address used to log in' })
  email!: string;

  @Field(() => Boolean, { description: 'Whether the e-mail address has been verified' })
  emailVerified!: boolean;

  @Field(() => String, { description: 'Name shown to others' })
  displayName!: string;

  @Field(() => [Role], { description: 'Roles of the account, which decide what it may do' })
  roles!: Role[];

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' })
  birthDate!: string | null;

  @Field(() => String, { description: 'ISO 3166-1 alpha-2' })
  country!: string;

  @Field(() => String, {
    description:
      "Home region: the region whose database keeps the account's personal data (`global`, or `vn` for Viet Nam), from its country at sign-up",
  })
  region!: string;

  @Field(() => Locale, { description: 'Preferred language of mails and content' })
  locale!: Locale;

  @Field(() => Tier, { description: 'Subscription tier, which decides the AI features and limits' })
  tier!: Tier;

  @Field(() => AccountStatus, { description: 'Whether the account may log in, e.g. active or suspended' })
  status!: AccountStatus;

  @Field(() => GraphQLISODateTime, { description: 'When the account was created' })
  createdAt!: Date;
}

export const UserConnection = Connection(UserView, 'User');

@ObjectType({ description: 'A signed-in session: the account and its tokens' })
export class AuthPayload {
  @Field(() => UserView, { description: 'The signed-in account' })
  user!: UserView;

  @Field(() => String, { description: 'JWT for `Authorization: Bearer`' })
  accessToken!: string;

  @Field(() => String, { description: 'Opaque; replaced on every refresh' })
  refreshToken!: string;

  @Field(() => Int, { description: 'Seconds until the access token expires' })
  expiresIn!: number;
}

const email = () => [IsEmail({}, { message: 'must be an e-mail address' }), MaxLength(254)];
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((d) => d(target, key));

@InputType({ description: 'A new account' })
export class SignupInput {
  @Field(() => String, { description: 'E-mail address used to log in; a verification mail is sent to it' })
  @apply(email())
  email!: string;

  @Field(() => String, { description: 'Password, 10 to 128 characters' })
  @Length(10, 128, { message: 'must be 10 to 128 characters long' })
  password!: string;

  @Field(() => String, { description: 'Name shown to others, 1 to 80 characters' })
  @Length(1, 80, { message: 'must be 1 to 80 characters long' })
  displayName!: string;

  @Field(() => Role, { description: 'learner, guardian or creator' })
  @IsIn(signupRoles, { message: 'must be learner, guardian or creator' })
  role!: Role;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD; required for learners' })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD' })
  birthDate?: string | null;

  @Field(() => String, { description: 'ISO 3166-1 alpha-2, such as VN' })
  @IsISO31661Alpha2({ message: 'must be an ISO 3166-1 alpha-2 country code' })
  country!: string;

  @Field(() => Locale, { nullable: true, description: 'Language of mails and content; en when omitted' })
  locale?: Locale | null;

  @Field(() => String, { nullable: true, description: "A parent's address; required for learners under 13" })
  @IsOptional()
  @apply(email())
  guardianEmail?: string | null;
}

@InputType({ description: 'An e-mail address and password' })
export class LoginInput {
  @Field(() => String, { description: 'The e-mail address of the account' })
  @apply(email())
  email!: string;

  @Field(() => String, { description: 'The password of the account' })
  @IsNotEmpty()
  @MaxLength(128)
  password!: string;
}

@InputType({ description: 'A refresh token' })
export class RefreshTokenInput {
  @Field(() => String, { description: 'The refresh token given at log-in or at the last refresh' })
  @IsNotEmpty()
  @MaxLength(200)
  refreshToken!: string;
}

@InputType({ description: 'A token from a mail' })
export class TokenInput {
  @Field(() => String, { description: 'The token from the mail' })
  @IsNotEmpty()
  @MaxLength(200)
  token!: string;
}

@InputType({ description: 'An e-mail address' })
export class EmailInput {
  @Field(() => String, { description: 'An e-mail address' })
  @apply(email())
  email!: string;
}

@InputType({ description: 'The token of a reset mail and the new password' })
export class ResetPasswordInput {
  @Field(() => String, { description: 'The token from the reset mail' })
  @IsNotEmpty()
  @MaxLength(200)
  token!: string;

  @Field(() => String, { description: 'The new password, 10 to 128 characters' })
  @Length(10, 128, { message: 'must be 10 to 128 characters long' })
  password!: string;
}
