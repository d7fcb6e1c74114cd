import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { type User, UserView } from '../auth';
import type { NodeSource } from '../kernel/node';
import { notificationsRules } from './notifications.rules';
import type { Context } from '../kernel/context';
import { toConnection } from '../kernel/pagination';
import { NOTIFICATION_ADDED, type NotificationAddedEvent, UNREAD_COUNT_CHANGED } from './notifications.service';
import {
  NotificationConnection,
  NotificationSettingsInput,
  NotificationSettingsView,
  NotificationsArgs,
  NotificationView,
  ReadAllResult,
  UnreadCount,
} from './notifications.types';

/** The caller's id; shield has already refused callers without one. */
const me = (ctx: Context) => ctx.auth.userId!;
const ownTopic = ({ context }: { context: unknown }) => (context as Context).auth.userId;

/** The inbox as an edge of the account: only the account itself reads it (a guardian does not). */
@Resolver(() => UserView)
export class NotificationsUserEdges {
  @FieldResolver(() => NotificationConnection, {
    nullable: true,
    description: "The account's notifications, newest first, unread or read or all (the account itself)",
  })
  async notifications(@Root() user: User, @Args(() => NotificationsArgs) args: NotificationsArgs, @Ctx() ctx: Context) {
    return toConnection(await ctx.services.notifications.list(user.id, args.filter, args.first, args.after));
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: 'How many notifications are unread, for the bell (the account itself)',
  })
  unreadNotificationCount(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.notifications.unreadCount(user.id);
  }
}

export const notificationsNodes: NodeSource[] = [
  {
    type: 'Notification',
    table: 'notifications',
    rule: notificationsRules.Query.notifications,
    field: 'Query.notifications',
    loadMany: (ctx, ids) => ctx.services.notifications.findMany(ctx.auth.userId!, ids),
  },
];

@Resolver()
export class NotificationsResolver {
  @Query(() => NotificationConnection, { description: "The caller's notifications, newest first" })
  async notifications(@Args(() => NotificationsArgs) args: NotificationsArgs, @Ctx() ctx: Context) {
    return toConnection(await ctx.services.notifications.list(me(ctx), args.filter, args.first, args.after));
  }

  @Query(() => UnreadCount, { description: 'For the bell' })
  async unreadNotificationCount(@Ctx() ctx: Context): Promise<UnreadCount> {
    return { count: await ctx.services.notifications.unreadCount(me(ctx)) };
  }

  @Query(() => NotificationSettingsView, { description: 'Which notifications and mails the caller gets' })
  async notificationSettings(@Ctx() ctx: Context): Promise<NotificationSettingsView> {
    return ctx.services.notifications.settings(me(ctx));
  }

  @Mutation(() => NotificationView, { description: 'Harmless on a notification already read' })
  markNotificationRead(
    @Arg('id', () => ID, { description: "The notification's global id" }) id: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.notifications.markRead(me(ctx), id);
  }

  @Mutation(() => ReadAllResult, { description: "Marks every unread notification of the caller's read" })
  async markAllNotificationsRead(@Ctx() ctx: Context): Promise<ReadAllResult> {
    return { updated: await ctx.services.notifications.markAllRead(me(ctx)) };
  }

  @Mutation(() => Boolean, { description: "Deletes one of the caller's notifications; true once it is gone" })
  async deleteNotification(
    @Arg('id', () => ID, { description: "The notification's global id" }) id: string,
    @Ctx() ctx: Context,
  ): Promise<boolean> {
    await ctx.services.notifications.delete(me(ctx), id);
    return true;
  }

  @Mutation(() => NotificationSettingsView, {
    description:
      'Disabled types are not created for the caller from now on; report toggles turn guardian report mails off or on',
  })
  updateNotificationSettings(
    @Arg('input', () => NotificationSettingsInput, { description: 'The settings to change' })
    input: NotificationSettingsInput,
    @Ctx() ctx: Context,
  ): Promise<NotificationSettingsView> {
    return ctx.services.notifications.updateSettings(me(ctx), {
      disabledTypes: input.disabledTypes ?? undefined,
      weeklyReport: input.weeklyReport ?? undefined,
      monthlyReport: input.monthlyReport ?? undefined,
      inactivityAlert: input.inactivityAlert ?? undefined,
    });
  }

  @Subscription(() => NotificationView, {
    description: "Each new notification of the caller's",
    topics: NOTIFICATION_ADDED,
    topicId: ownTopic,
  })
  notificationAdded(@Root() event: NotificationAddedEvent, @Ctx() ctx: Context) {
    // Read fresh, with the other subscribers of the events that arrived together.
    return ctx.services.notifications.added(me(ctx), event.notificationId);
  }

  @Subscription(() => UnreadCount, {
    description: "The caller's unread count after each change",
    topics: UNREAD_COUNT_CHANGED,
    topicId: ownTopic,
  })
  async unreadCountChanged(@Ctx() ctx: Context): Promise<UnreadCount> {
    return { count: await ctx.services.notifications.unreadCount(me(ctx)) };
  }
}
