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
  valuesConfig: {
    self: { description: 'The person it concerns' },
    guardian: { description: 'A linked guardian, for a learner' },
  },
});

@ObjectType({ description: 'Who granted a consent, and when' })
export class ConsentGrantor {
  @Field(() => ID, { description: "Identifier of the guardian's account" })
  id!: string;

  @Field(() => String, { description: 'Name of the guardian shown to others' })
  displayName!: string;
}

@ObjectType('Consent', { description: 'One consent of an account: whether it is granted, and who may grant it' })
export class ConsentView {
  @Field(() => ConsentType, { description: 'What the consent allows' })
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

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the guardian gave it; null when no guardian has',
  })
  guardianGrantedAt!: Date | null;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the person gave it themselves; null when they have not',
  })
  ownGrantedAt!: Date | null;

  @Field(() => Int, { nullable: true, description: 'Country policy version it was last changed under' })
  policyVersion!: number | null;
}

@ObjectType({ description: 'One change of a consent, as the append-only ledger keeps it', implements: Node })
export class ConsentLedgerEntryView implements Node {
  @Field(() => ID, { description: 'Identifier of the ledger entry' })
  id!: string;

  @Field(() => ID, { description: 'Account the consent concerns' })
  subjectId!: string;

  @Field(() => ConsentType, { description: 'What the consent allows' })
  consentTypeId!: ConsentType;

  @Field(() => ConsentAction, { description: 'Whether the consent was granted or revoked' })
  action!: ConsentAction;

  @Field(() => ID, { nullable: true, description: 'Account that made the change; null when it has been deleted' })
  actorId!: string | null;

  @Field(() => ConsentActorRole, { description: 'Whether the person or a guardian made the change' })
  actorRole!: ConsentActorRole;

  @Field(() => String, { description: 'Country of the person at the time, ISO 3166-1 alpha-2' })
  country!: string;

  @Field(() => Int, { description: 'Version of the country policy the change was made under' })
  policyVersion!: number;

  @Field(() => GraphQLISODateTime, { description: 'When the change was made' })
  createdAt!: Date;
}

@InputType({ description: 'A consent to grant or revoke, for oneself or a linked learner' })
export class ConsentChangeInput {
  @Field(() => ConsentType, { description: 'What the consent allows' })
  consentTypeId!: ConsentType;

  @Field(() => ID, { nullable: true, description: 'A linked learner, when a guardian acts for them' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a learner id' })
  learnerId?: string | null;
}

export const ConsentLedgerConnection = Connection(ConsentLedgerEntryView, 'ConsentLedger');
