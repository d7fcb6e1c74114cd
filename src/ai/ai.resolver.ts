import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { type User, UserView } from '../auth';
import type { Context } from '../kernel/context';
import { AiChatInput, AiChatReply, AiQuota } from './ai.types';

const viewer = async (ctx: Context): Promise<User> => (await ctx.viewer())!;

/** The account's AI conversations: the account itself only, with the same checks as `aiConversations` (never a guardian). */
@Resolver(() => UserView)
export class AiUserEdges {
  @FieldResolver(() => [GraphQLJSONObject], {
    nullable: true,
    description: "The account's AI conversations, as the backend keeps them (the account itself; not its guardians)",
  })
  aiConversations(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.ai.conversations(user, ctx.requestId);
  }
}

/** GraphQL answers whole; streaming is REST's `POST /ai/chat` with `Accept: text/event-stream`. */
@Resolver()
export class AiResolver {
  @Mutation(() => AiChatReply, { description: 'Sends a message to the AI tutor' })
  async aiChat(
    @Arg('input', () => AiChatInput, { description: 'The message and, to continue one, the conversation' })
    input: AiChatInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.ai.chat(await viewer(ctx), input, ctx.requestId);
  }

  @Query(() => AiQuota, { description: "The caller's AI messages today" })
  async aiQuota(@Ctx() ctx: Context) {
    return ctx.services.ai.quota(await viewer(ctx));
  }

  @Query(() => [GraphQLJSONObject], { description: "The caller's conversations, as the backend keeps them" })
  async aiConversations(@Ctx() ctx: Context) {
    return ctx.services.ai.conversations(await viewer(ctx), ctx.requestId);
  }

  @Query(() => [GraphQLJSONObject], { description: 'What the AI remembers of the caller (Starter tier and above)' })
  async aiMemory(@Ctx() ctx: Context) {
    return ctx.services.ai.memory(await viewer(ctx), ctx.requestId);
  }

  @Mutation(() => Boolean, { description: 'Makes the AI forget what it remembers of the caller' })
  async forgetAiMemory(@Ctx() ctx: Context) {
    await ctx.services.ai.forgetMemory(await viewer(ctx), ctx.requestId);
    return true;
  }
}
