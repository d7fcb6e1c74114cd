import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../kernel/context';
import type { NodeSource } from '../kernel/node';
import { toConnection } from '../kernel/pagination';
import { contactRules } from './contact.rules';
import {
  ContactInput,
  ContactMessageConnection,
  ContactMessagesArgs,
  ContactMessageView,
  ContactReceipt,
} from './contact.types';

export const contactNodes: NodeSource[] = [
  {
    type: 'ContactMessage',
    table: 'contact_messages',
    rule: contactRules.Query.contactMessages,
    field: 'Query.contactMessages',
    loadMany: (ctx, ids) => ctx.services.contact.byIds(ids),
  },
];

@Resolver()
export class ContactResolver {
  @Mutation(() => ContactReceipt, {
    description: 'Write to the platform (anyone; 5 an hour per IP); acknowledged by mail',
  })
  async sendContactMessage(
    @Arg('input', () => ContactInput, { description: 'The message' }) input: ContactInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.contact.send(input);
  }

  @Query(() => ContactMessageConnection, { description: 'Contact messages, newest first (admins only)' })
  async contactMessages(@Args(() => ContactMessagesArgs) args: ContactMessagesArgs, @Ctx() ctx: Context) {
    return toConnection(await ctx.services.contact.list(args.status, args.first, args.after));
  }

  @Mutation(() => ContactMessageView, { description: 'Marks a contact message resolved (admins only); audited' })
  async resolveContactMessage(
    @Arg('id', () => ID, { description: 'The message to mark resolved' }) id: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.contact.resolve(await ctx.viewer(), id);
  }
}
