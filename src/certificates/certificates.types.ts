import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { Connection } from '../kernel/pagination';
import { Node } from '../kernel/node';
import { LocalizedTextView } from '../kernel/localized';

@ObjectType('Certificate', { description: 'A certificate of a completed course', implements: Node })
export class CertificateView implements Node {
  @Field(() => ID, { description: 'Identifier of the certificate' })
  id!: string;

  @Field(() => String, { description: 'Anyone can check it at /certificates/verify/:code' })
  code!: string;

  @Field(() => ID, { description: 'The completed course' })
  courseId!: string;

  @Field(() => LocalizedTextView, { description: 'Title of the course in each language' })
  courseTitle!: LocalizedTextView;

  @Field(() => String, { description: 'Name of the learner as printed on the certificate' })
  learnerName!: string;

  @Field(() => Int, { description: 'Average quiz score over the course, from 0 to 100' })
  averageScore!: number;

  @Field(() => GraphQLISODateTime, { description: 'When the certificate was issued' })
  issuedAt!: Date;
}

export const CertificateConnection = Connection(CertificateView, 'Certificate');

/** What the public check shows: the name, the course and the date, nothing else. */
@ObjectType({ description: 'What anyone may verify of a certificate by its code' })
export class CertificateCheck {
  @Field(() => String, { description: 'The code that was checked' })
  code!: string;

  @Field(() => String, { description: 'Name of the learner as printed on the certificate' })
  learnerName!: string;

  @Field(() => LocalizedTextView, { description: 'Title of the completed course in each language' })
  courseTitle!: LocalizedTextView;

  @Field(() => GraphQLISODateTime, { description: 'When the certificate was issued' })
  issuedAt!: Date;
}
