import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { LocalizedTextView } from '../courses';
import { Connection } from '../kernel/pagination';
import { Node } from '../kernel/node';

@ObjectType('Certificate', { description: 'A certificate of a completed course', implements: Node })
export class CertificateView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'Anyone can check it at /certificates/verify/:code' })
  code!: string;

  @Field(() => ID)
  courseId!: string;

  @Field(() => LocalizedTextView)
  courseTitle!: LocalizedTextView;

  @Field(() => String)
  learnerName!: string;

  @Field(() => Int)
  averageScore!: number;

  @Field(() => GraphQLISODateTime)
  issuedAt!: Date;
}

export const CertificateConnection = Connection(CertificateView, 'Certificate');

/** What the public check shows: the name, the course and the date, nothing else. */
@ObjectType({ description: 'What anyone may verify of a certificate by its code' })
export class CertificateCheck {
  @Field(() => String)
  code!: string;

  @Field(() => String)
  learnerName!: string;

  @Field(() => LocalizedTextView)
  courseTitle!: LocalizedTextView;

  @Field(() => GraphQLISODateTime)
  issuedAt!: Date;
}
