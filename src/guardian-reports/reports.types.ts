import { Node } from '../kernel/node';
import { Field, GraphQLISODateTime, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection } from '../kernel/pagination';
import { ReportKind } from './report.entity';

registerEnumType(ReportKind, {
  name: 'GuardianReportKind',
  description: 'Why a guardian report was sent',
  valuesConfig: {
    weekly: { description: 'The weekly summary' },
    monthly: { description: 'The monthly summary' },
    inactivity: { description: 'The learner has been inactive for a while' },
  },
});

@ObjectType('GuardianReport', { implements: Node, description: 'A report mail sent to the guardian about a learner' })
export class GuardianReportView implements Node {
  @Field(() => ID, { description: "The report's global id" })
  id!: string;

  @Field(() => ID, { description: 'The id of the learner the report is about' })
  learnerId!: string;

  @Field(() => ReportKind, { description: 'Why the report was sent' })
  kind!: ReportKind;

  @Field(() => String, { description: '2026-W47, 2026-11, or since-<last activity> for an inactivity alert' })
  period!: string;

  @Field(() => Int, { description: 'Lessons and quizzes in the period' })
  activityCount!: number;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the mail left; null while it waits to be sent',
  })
  sentAt!: Date | null;

  @Field(() => GraphQLISODateTime, { description: 'When the report was made' })
  createdAt!: Date;
}

export const GuardianReportConnection = Connection(GuardianReportView, 'GuardianReport');
