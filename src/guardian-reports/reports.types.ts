import { Node } from '../kernel/node';
import { Field, GraphQLISODateTime, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection } from '../kernel/pagination';
import { ReportKind } from './report.entity';

registerEnumType(ReportKind, {
  name: 'GuardianReportKind',
  description: 'Why a guardian report was sent',
  valuesConfig: { weekly: { description: 'The weekly summary' }, monthly: { description: 'The monthly summary' }, inactivity: { description: 'The learner has been inactive for a while' } },
});

@ObjectType('GuardianReport', { implements: Node, description: 'A report mail sent to the guardian about a learner' })
export class GuardianReportView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  learnerId!: string;

  @Field(() => ReportKind)
  kind!: ReportKind;

  @Field(() => String, { description: '2026-W47, 2026-11, or since-<last activity> for an inactivity alert' })
  period!: string;

  @Field(() => Int, { description: 'Lessons and quizzes in the period' })
  activityCount!: number;

  @Field(() => GraphQLISODateTime, { nullable: true })
  sentAt!: Date | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

export const GuardianReportConnection = Connection(GuardianReportView, 'GuardianReport');
