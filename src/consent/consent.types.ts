import { Node } from '../kernel/node';
import { IsOptional, IsUUID } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection } from '../kernel/pagination';
import { ConsentAction, ConsentActorRole, ConsentType } from './consent.entity';

registerEnumType(ConsentType, {
  name: 'ConsentType',
  description: 'What a consent allows',
  valuesConfig: {
    basic_data: { description: 'Keeping the basic data an account needs' },
    ai_conversation: { description: 'Talking with the AI tutor' },
    ai_memory: { description: 'The AI tutor remembering past conversations' },
    progress_sharing: { description: 'Sharing progress with teachers and schools' },
    marketing_email: { description: 'Receiving marketing e-mail' },
  },
});
registerEnumType(ConsentAction, {
  name: 'ConsentAction',
  description: 'What was done to a consent',
  valuesConfig: { granted: { description: 'Given' }, revoked: { description: 'Taken back' } },
});
registerEnumType(ConsentActorRole, {
  name: 'ConsentActorRole',
  description: 'Who changed a consent',
  valuesConfig: { self: { description: 'The person it concerns' }, guardian: { description: 'A linked guardian, for a learner' } },
});

@ObjectType({ description: 'Who granted a consent, and when' })
export class ConsentGrantor {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  displayName!: string;
}

@ObjectType('Consent', { description: 'One consent of an account: whether it is granted, and who may grant it' })
export class ConsentView {
  @Field(() => ConsentType)
  consentTypeId!: ConsentType;

  @Field(() => Boolean, { description: 'Whether the feature may be used today' })
  granted!: boolean;

  @Field(() => Boolean, { description: 'A linked guardian must give it (age and country)' })
  needsGuardian!: boolean;

  @Field(() => Boolean, { description: 'The person must give it themselves (alone, or beside the guardian)' })
  needsOwnConsent!: boolean;

  @Field(() => Boolean, { description: 'The person may grant it without a guardian' })
  canGrantAlone!: boolean;

  @Field(() => ConsentGrantor, { nullable: true, description: 'The guardian who gave it' })
  guardianGrantedBy!: ConsentGrantor | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  guardianGrantedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  ownGrantedAt!: Date | null;

  @Field(() => Int, { nullable: true, description: 'Country policy version it was last changed under' })
  policyVersion!: number | null;
}

@ObjectType({ description: 'One change of a consent, as the append-only ledger keeps it', implements: Node })
export class ConsentLedgerEntryView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  subjectId!: string;

  @Field(() => ConsentType)
  consentTypeId!: ConsentType;

  @Field(() => ConsentAction)
  action!: ConsentAction;

  @Field(() => ID, { nullable: true })
  actorId!: string | null;

  @Field(() => ConsentActorRole)
  actorRole!: ConsentActorRole;

  @Field(() => String)
  country!: string;

  @Field(() => Int)
  policyVersion!: number;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

@InputType({ description: 'A consent to grant or revoke, for oneself or a linked learner' })
export class ConsentChangeInput {
  @Field(() => ConsentType)
  consentTypeId!: ConsentType;

  @Field(() => ID, { nullable: true, description: 'A linked learner, when a guardian acts for them' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a learner id' })
  learnerId?: string | null;
}

export const ConsentLedgerConnection = Connection(ConsentLedgerEntryView, 'ConsentLedger');
