import { Node } from '../kernel/node';
import { IsEmail, IsOptional, Length, MaxLength } from 'class-validator';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { Locale } from '../auth';
import { Connection, PageArgs } from '../kernel/pagination';
import { ContactStatus } from './contact-message.entity';

registerEnumType(ContactStatus, {
  name: 'ContactStatus',
  description: 'Where a contact message stands',
  valuesConfig: { open: { description: 'Not answered yet' }, resolved: { description: 'An admin resolved it' } },
});

@InputType({ description: 'A message to the platform through the contact form' })
export class ContactInput {
  @Field(() => String, { description: 'Name of the sender, 1 to 100 characters' })
  @Length(1, 100)
  name!: string;

  @Field(() => String, { description: 'E-mail address to answer to, at most 254 characters' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @Field(() => String, { description: 'Subject line, 1 to 200 characters' })
  @Length(1, 200)
  subject!: string;

  @Field(() => String, { description: 'Text of the message, 1 to 5,000 characters' })
  @Length(1, 5000)
  message!: string;

  @Field(() => Locale, { nullable: true, description: 'The language of the acknowledgement (en by default)' })
  locale?: Locale | null;

  @Field(() => String, { nullable: true, description: 'Leave empty' })
  @IsOptional()
  @MaxLength(500)
  website?: string | null;
}

@ObjectType({ description: 'What the contact form answers: the id of the message' })
export class ContactReceipt {
  @Field(() => ID, { description: 'Identifier of the stored message' })
  id!: string;
}

@ObjectType('ContactMessage', { description: 'A message sent through the contact form', implements: Node })
export class ContactMessageView implements Node {
  @Field(() => ID, { description: 'Identifier of the message' })
  id!: string;

  @Field(() => String, { description: 'Name the sender gave' })
  name!: string;

  @Field(() => String, { description: 'E-mail address to answer to' })
  email!: string;

  @Field(() => String, { description: 'Subject line of the message' })
  subject!: string;

  @Field(() => String, { description: 'Text of the message' })
  message!: string;

  @Field(() => Locale, { description: 'Language the sender wrote in and gets answers in' })
  locale!: Locale;

  @Field(() => ContactStatus, { description: 'Whether the message is open or resolved' })
  status!: ContactStatus;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When an admin resolved it; null while open' })
  resolvedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { description: 'When the message was sent' })
  createdAt!: Date;
}

export const ContactMessageConnection = Connection(ContactMessageView, 'ContactMessage');

@ArgsType()
export class ContactMessagesArgs extends PageArgs {
  @Field(() => ContactStatus, { nullable: true, description: 'Only messages in this status; all when omitted' })
  status?: ContactStatus | null;
}
