import { Node } from '../kernel/node';
import { IsOptional, IsUUID, Length } from 'class-validator';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection, PageArgs } from '../kernel/pagination';
import { GdprRequestKind, GdprRequestStatus } from './gdpr-request.entity';

registerEnumType(GdprRequestKind, {
  name: 'GdprRequestKind',
  description: 'What a privacy request asks',
  valuesConfig: {
    export: { description: 'A copy of the personal data' },
    deletion: { description: 'Erasure of the account' },
  },
});
registerEnumType(GdprRequestStatus, {
  name: 'GdprRequestStatus',
  description: 'Where a privacy request stands',
  valuesConfig: {
    queued: { description: 'Waiting to run' },
    running: { description: 'Being carried out' },
    ready: { description: 'The export can be downloaded' },
    scheduled: { description: 'Erasure will run at its due date' },
    completed: { description: 'Done' },
    canceled: { description: 'Canceled before it ran' },
    failed: { description: 'Could not be carried out' },
  },
});

@ObjectType('GdprRequest', {
  implements: Node,
  description: 'A data export or an erasure of an account (docs/domain.md#privacy-operations)',
})
export class GdprRequestView implements Node {
  @Field(() => ID, { description: "The request's global id" })
  id!: string;

  @Field(() => GdprRequestKind, { description: 'Whether the request is a data export or an erasure' })
  kind!: GdprRequestKind;

  @Field(() => GdprRequestStatus, { description: 'Where the request stands' })
  status!: GdprRequestStatus;

  @Field(() => ID, { description: 'Whose data: the caller, or a learner the caller is guardian of' })
  subjectId!: string;

  @Field(() => ID, { nullable: true, description: 'Who asked' })
  requesterId!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When the request was made' })
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Erasure: when it runs, unless canceled before' })
  dueAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Export: when the download link expires' })
  expiresAt!: Date | null;

  @Field(() => String, {
    nullable: true,
    description: 'Export: a signed link to the ZIP, while it is ready and not expired',
  })
  downloadUrl!: string | null;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the export was ready or the account erased; null until then',
  })
  completedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { description: 'The legal deadline to answer the request (one month under GDPR)' })
  deadline!: Date;

  @Field(() => Boolean, { description: 'Still open and its legal deadline is near or past' })
  nearDeadline!: boolean;
}

export const GdprRequestConnection = Connection(GdprRequestView, 'GdprRequest');

@InputType({ description: 'An export to request, of oneself or a linked learner' })
export class RequestExportInput {
  @Field(() => ID, {
    nullable: true,
    description: "A linked learner's id (guardians); the caller's own data when left out",
  })
  @IsOptional()
  @IsUUID('all', { message: 'must be a learner id' })
  learnerId?: string | null;
}

@InputType({ description: 'An erasure to request: the password, and the learner when a guardian asks' })
export class RequestDeletionInput {
  @Field(() => ID, {
    nullable: true,
    description: "A linked learner's id (guardians); the caller's own account when left out",
  })
  @IsOptional()
  @IsUUID('all', { message: 'must be a learner id' })
  learnerId?: string | null;

  @Field(() => String, { description: "The caller's password, to confirm" })
  @Length(1, 128, { message: 'must be given' })
  password!: string;
}

@ArgsType()
export class AdminGdprRequestsArgs extends PageArgs {
  @Field(() => GdprRequestStatus, {
    nullable: true,
    description: 'Only requests with this status; null or left out: all',
  })
  status?: GdprRequestStatus | null;

  @Field(() => Int, { nullable: true, description: 'Only open requests whose deadline is at most this many days away' })
  dueWithinDays?: number | null;
}
