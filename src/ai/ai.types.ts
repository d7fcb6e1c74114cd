import { IsOptional, IsString, MaxLength } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Tier } from '../auth';

/** The longest conversation id a chat may name (the chat route's fast path reads it too). */
export const CONVERSATION_ID_MAX_LENGTH = 100;

@InputType({ description: 'A message to the AI tutor' })
export class AiChatInput {
  @Field(() => String, { description: 'At most AI_MESSAGE_MAX_LENGTH characters (4,000 by default)' })
  @IsString({ message: 'must be a string' })
  message!: string;

  @Field(() => ID, { nullable: true, description: 'Continue this conversation; a new one without' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(CONVERSATION_ID_MAX_LENGTH, { message: 'must be a conversation id' })
  conversationId?: string | null;
}

@ObjectType({ description: "The AI tutor's answer to a message" })
export class AiChatReply {
  @Field(() => ID, { description: 'The conversation the message and the answer belong to; pass it to continue' })
  conversationId!: string;

  @Field(() => String, { description: "The AI tutor's answer as text" })
  reply!: string;

  @Field(() => Int, { description: 'Tokens the backend reported for this message' })
  tokens!: number;
}

@ObjectType({ description: "The caller's AI messages: the limit of the period, used and left" })
export class AiQuota {
  @Field(() => Tier, { description: "The caller's subscription tier, which sets the daily limit" })
  tier!: Tier;

  @Field(() => String, { description: 'The quota period: `day`, reset at midnight UTC' })
  period!: string;

  @Field(() => Int, { description: "The tier's messages a day, lowered by a guardian's limit" })
  limit!: number;

  @Field(() => Int, { description: 'Messages the caller has sent in this period' })
  used!: number;

  @Field(() => Int, { description: 'Messages the caller may still send in this period' })
  remaining!: number;

  @Field(() => GraphQLISODateTime, { description: 'When the used count goes back to zero' })
  resetsAt!: Date;
}
