import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, Info, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { selectsOnly } from '../kernel/selection';
import type { Account } from './account-cache';
import type { Context } from '../kernel/context';
import { ACCOUNT_CHANGED } from './auth.service';
import {
  AuthPayload,
  EmailInput,
  LoginInput,
  RefreshTokenInput,
  ResetPasswordInput,
  SignupInput,
  TokenInput,
  UserView,
} from './auth.types';
import type { User } from './user.entity';

/** UserView's fields that are the account's own columns (auth.types.ts): a plain account answers them. */
const ACCOUNT_FIELDS = new Set([
  '__typename',
  'id',
  'email',
  'emailVerified',
  'displayName',
  'roles',
  'birthDate',
  'country',
  'region',
  'locale',
  'tier',
  'status',
  'createdAt',
]);

@Resolver()
export class AuthResolver {
  @Query(() => UserView, { description: 'The signed-in account' })
  me(@Ctx() ctx: Context, @Info() info: GraphQLResolveInfo): Promise<User | Account | null> {
    // The account's own fields (GET /auth/me's twin) come from the plain cached account; fields
    // that other areas resolve on an account are handed the managed entity they expect.
    return selectsOnly(info, ACCOUNT_FIELDS) ? ctx.caller() : ctx.viewer();
  }

  @Mutation(() => AuthPayload, { description: 'Creates an account and signs it in; a verification mail is sent' })
  signup(@Arg('input', () => SignupInput, { description: 'The new account' }) input: SignupInput, @Ctx() ctx: Context) {
    return ctx.services.homeRegion.signup(input);
  }

  @Mutation(() => AuthPayload, {
    description: 'Signs in with e-mail address and password and returns a new token pair',
  })
  login(
    @Arg('input', () => LoginInput, { description: 'The e-mail address and password' }) input: LoginInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.homeRegion.login(input.email, input.password, ctx.ip);
  }

  @Mutation(() => AuthPayload, { description: 'Trades a refresh token for a new pair; the old token stops working' })
  refreshSession(
    @Arg('input', () => RefreshTokenInput, { description: 'The refresh token to trade' }) input: RefreshTokenInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.homeRegion.refresh(input.refreshToken);
  }

  @Mutation(() => Boolean, { description: 'Ends the session of the refresh token' })
  async logout(
    @Arg('input', () => RefreshTokenInput, { description: 'The refresh token of the session to end' })
    input: RefreshTokenInput,
    @Ctx() ctx: Context,
  ) {
    await ctx.services.homeRegion.logout(input.refreshToken);
    return true;
  }

  @Mutation(() => UserView, {
    description: "Marks the e-mail address of the token's account as verified and returns the account",
  })
  verifyEmail(
    @Arg('input', () => TokenInput, { description: 'The token of the verification mail' }) input: TokenInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.homeRegion.verifyEmail(input.token);
  }

  @Mutation(() => Boolean, { description: 'Sends a new verification mail if the account exists and is not verified' })
  async resendVerification(
    @Arg('input', () => EmailInput, { description: 'The address to send a new verification mail to' })
    input: EmailInput,
    @Ctx() ctx: Context,
  ) {
    await ctx.services.homeRegion.resendVerification(input.email);
    return true;
  }

  @Mutation(() => Boolean, { description: 'Always true: whether the address has an account is not told' })
  async forgotPassword(
    @Arg('input', () => EmailInput, { description: 'The address to send a reset mail to' }) input: EmailInput,
    @Ctx() ctx: Context,
  ) {
    await ctx.services.homeRegion.forgotPassword(input.email);
    return true;
  }

  @Mutation(() => Boolean, { description: 'Sets a new password; every session of the account ends' })
  async resetPassword(
    @Arg('input', () => ResetPasswordInput, { description: 'The token of the reset mail and the new password' })
    input: ResetPasswordInput,
    @Ctx() ctx: Context,
  ) {
    await ctx.services.homeRegion.resetPassword(input.token, input.password);
    return true;
  }

  @Subscription(() => UserView, {
    description: "The caller's own account after each change (verification, roles)",
    topics: ACCOUNT_CHANGED,
    topicId: ({ context }) => (context as Context).auth.userId,
  })
  async accountChanged(@Root() event: { userId: string }, @Ctx() ctx: Context): Promise<User | null> {
    // Each event is read fresh: this operation's unit of work lives as long as the subscription.
    ctx.em.clear();
    return ctx.services.auth.findUser(event.userId);
  }
}
