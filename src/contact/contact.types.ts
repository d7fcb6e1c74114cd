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
  @Field(() => String)
  @Length(1, 100)
  name!: string;

  @Field(() => String)
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @Field(() => String)
  @Length(1, 200)
  subject!: string;

  @Field(() => String)
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
  @Field(() => ID)
  id!: string;
}

@ObjectType('ContactMessage', { description: 'A message sent through the contact form', implements: Node })
export class ContactMessageView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String)
  subject!: string;

  @Field(() => String)
  message!: string;

  @Field(() => Locale)
  locale!: Locale;

  @Field(() => ContactStatus)
  status!: ContactStatus;

  @Field(() => GraphQLISODateTime, { nullable: true })
  resolvedAt!: Date | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

export const ContactMessageConnection = Connection(ContactMessageView, 'ContactMessage');

@ArgsType()
export class ContactMessagesArgs extends PageArgs {
  @Field(() => ContactStatus, { nullable: true })
  status?: ContactStatus | null;
}
