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
  valuesConfig: { all: { description: 'Read and unread' }, unread: { description: 'Not read yet' }, read: { description: 'Already read' } },
});

@ObjectType('Notification', { description: 'A message to an account, in its locale', implements: Node })
export class NotificationView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => NotificationType)
  type!: NotificationType;

  @Field(() => String, { description: "In the recipient's locale" })
  title!: string;

  @Field(() => String)
  body!: string;

  @Field(() => GraphQLJSONObject, { description: 'What the notification is about (ids), by type' })
  data!: Record<string, unknown>;

  @Field(() => Boolean)
  read!: boolean;

  @Field(() => GraphQLISODateTime, { nullable: true })
  readAt!: Date | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

export const NotificationConnection = Connection(NotificationView, 'Notification');

@ArgsType()
export class NotificationsArgs extends PageArgs {
  @Field(() => NotificationFilter, { defaultValue: NotificationFilter.all })
  filter: Filter = NotificationFilter.all;
}

@ObjectType({ description: 'How many notifications are unread' })
export class UnreadCount {
  @Field(() => Int)
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
  @Field(() => [NotificationType], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(Object.keys(NotificationType).length * 2)
  disabledTypes?: NotificationType[] | null;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  weeklyReport?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  monthlyReport?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  inactivityAlert?: boolean | null;
}
