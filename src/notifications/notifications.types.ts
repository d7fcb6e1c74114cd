import { ArrayMaxSize, IsBoolean, IsOptional } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection, PageArgs } from '../kernel/pagination';
import { Node } from '../kernel/node';
import { NotificationType } from './notification.entity';
import type { NotificationFilter as Filter } from './notifications.service';

registerEnumType(NotificationType, {
  name: 'NotificationType',
  description: 'What a notification is about',
  valuesConfig: {
    progress: { description: 'Progress in a course: a lesson, a milestone' },
    certificate: { description: 'A certificate was issued' },
    creator_message: { description: 'A message from a course creator' },
    system: { description: 'A message from the platform' },
    guardian: { description: 'A guardian link to confirm or that changed' },
    consent: { description: 'A consent to give or that changed' },
  },
});

export enum NotificationFilter {
  unread = 'unread',
  read = 'read',
  all = 'all',
}
registerEnumType(NotificationFilter, {
  name: 'NotificationFilter',
  description: 'Which notifications a list shows',
  valuesConfig: {
    all: { description: 'Read and unread' },
    unread: { description: 'Not read yet' },
    read: { description: 'Already read' },
  },
});

@ObjectType('Notification', { description: 'A message to an account, in its locale', implements: Node })
export class NotificationView implements Node {
  @Field(() => ID, { description: "The notification's global id" })
  id!: string;

  @Field(() => NotificationType, { description: 'What the notification is about' })
  type!: NotificationType;

  @Field(() => String, { description: "In the recipient's locale" })
  title!: string;

  @Field(() => String, { description: "The message in the recipient's locale" })
  body!: string;

  @Field(() => GraphQLJSONObject, { description: 'What the notification is about (ids), by type' })
  data!: Record<string, unknown>;

  @Field(() => Boolean, { description: 'True once the recipient has marked it read' })
  read!: boolean;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the recipient marked it read; null while unread',
  })
  readAt!: Date | null;

  @Field(() => GraphQLISODateTime, { description: 'When the notification was made' })
  createdAt!: Date;
}

export const NotificationConnection = Connection(NotificationView, 'Notification');

@ArgsType()
export class NotificationsArgs extends PageArgs {
  @Field(() => NotificationFilter, {
    defaultValue: NotificationFilter.all,
    description: 'Which notifications to list: all, read or unread',
  })
  filter: Filter = NotificationFilter.all;
}

@ObjectType({ description: 'How many notifications are unread' })
export class UnreadCount {
  @Field(() => Int, { description: "How many of the caller's notifications are unread" })
  count!: number;
}

@ObjectType({ description: 'How many notifications were marked read' })
export class ReadAllResult {
  @Field(() => Int, { description: 'How many notifications were unread' })
  updated!: number;
}

@ObjectType({ description: 'Which notifications and mails an account gets' })
export class NotificationSettingsView {
  @Field(() => [NotificationType], { description: 'Types the user does not receive' })
  disabledTypes!: NotificationType[];

  @Field(() => Boolean, { description: "A guardian's weekly report mail (Monday morning)" })
  weeklyReport!: boolean;

  @Field(() => Boolean, { description: "A guardian's monthly report mail (the 1st)" })
  monthlyReport!: boolean;

  @Field(() => Boolean, { description: "A guardian's alert after 7 days without activity" })
  inactivityAlert!: boolean;
}

/** Only what is given changes. */
@InputType({ description: 'Which notifications and mails an account wants' })
export class NotificationSettingsInput {
  @Field(() => [NotificationType], {
    nullable: true,
    description: 'The types the account should not receive; left out: unchanged',
  })
  @IsOptional()
  @ArrayMaxSize(Object.keys(NotificationType).length * 2)
  disabledTypes?: NotificationType[] | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether a guardian gets the weekly report mail; left out: unchanged',
  })
  @IsOptional()
  @IsBoolean()
  weeklyReport?: boolean | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether a guardian gets the monthly report mail; left out: unchanged',
  })
  @IsOptional()
  @IsBoolean()
  monthlyReport?: boolean | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether a guardian gets an alert after 7 days without activity; left out: unchanged',
  })
  @IsOptional()
  @IsBoolean()
  inactivityAlert?: boolean | null;
}
