import { Node } from '../kernel/node';
import { IsIn, IsOptional, Length } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Connection } from '../kernel/pagination';
import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { CourseLevel } from '../courses';
import { CourseDescriptionChangeInput, CourseDescriptionInput, LocalizedListView, LocalizedTextView } from '../courses';
import { SafetyFindingView } from '../factory';
import { AssistTask } from './creator.assist';
import { DraftStatus } from './creator.entity';

registerEnumType(AssistTask, {
  name: 'AssistTask',
  description: 'What the writing assistant is asked to do',
  valuesConfig: {
    outline: { description: 'Propose an outline of lessons' },
    lesson: { description: 'Write a lesson' },
    quiz: { description: 'Write quiz questions' },
    translate: { description: 'Translate between Vietnamese and English' },
    review: { description: 'Review the course for safety and fit' },
  },
});

registerEnumType(DraftStatus, {
  name: 'CreatorCourseStatus',
  description: "Where a creator's course stands",
  valuesConfig: {
    draft: { description: 'Being written' },
    in_review: { description: 'Submitted; a content admin reviews it' },
    rejected: { description: 'A content admin sent it back' },
    published: { description: 'In the catalog' },
  },
});

@InputType({ description: 'A course a creator starts writing' })
export class CreatorCourseInput extends CourseDescriptionInput {
  @Field(() => String, { nullable: true, description: 'vi (default) or en' })
  @IsOptional()
  @IsIn(['vi', 'en'], { message: 'must be vi or en' })
  language?: string | null;
}

@InputType({ description: "Changes to a creator's course" })
export class CreatorCourseChangeInput extends CourseDescriptionChangeInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(['vi', 'en'], { message: 'must be vi or en' })
  language?: string | null;
}

@InputType({ description: "A reviewer's reason" })
export class ReviewInput {
  @Field(() => String, { nullable: true, description: 'Required to reject' })
  @IsOptional()
  @Length(1, 2000)
  reason?: string | null;
}

@InputType({ description: "A creator's message to the learners of a course" })
export class CreatorMessageInput {
  @Field(() => String)
  @Length(1, 200)
  title!: string;

  @Field(() => String)
  @Length(1, 5000)
  body!: string;
}

@ObjectType('CreatorLesson', { description: "A lesson of a creator's course", implements: Node })
export class CreatorLessonView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => Int)
  position!: number;

  @Field(() => LocalizedTextView)
  title!: LocalizedTextView;

  @Field(() => LocalizedListView)
  objectives!: LocalizedListView;

  @Field(() => LocalizedTextView)
  content!: LocalizedTextView;

  @Field(() => GraphQLJSONObject, { nullable: true, description: '{ questions: [{ prompt, options, answerIndex, explanation }] }' })
  quiz!: Record<string, unknown> | null;
}

@ObjectType('CreatorCourse', { description: "A creator's course: written, reviewed, then published", implements: Node })
export class CreatorCourseView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  creatorId!: string;

  @Field(() => LocalizedTextView)
  title!: LocalizedTextView;

  @Field(() => LocalizedTextView)
  description!: LocalizedTextView;

  @Field(() => CourseLevel)
  level!: CourseLevel;

  @Field(() => Int)
  minAge!: number;

  @Field(() => Int)
  maxAge!: number;

  @Field(() => String)
  language!: string;

  @Field(() => DraftStatus)
  status!: DraftStatus;

  @Field(() => [SafetyFindingView], { description: 'What the safety check found at submission' })
  findings!: SafetyFindingView[];

  @Field(() => String, { nullable: true })
  reviewReason!: string | null;

  @Field(() => ID, { nullable: true, description: 'The published course' })
  courseId!: string | null;

  @Field(() => [CreatorLessonView])
  lessons!: CreatorLessonView[];

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

export const CreatorCourseConnection = Connection(CreatorCourseView, 'CreatorCourse');

@ObjectType({ description: "What sending a creator's message answers: how many learners it reached" })
export class CreatorMessageReceipt {
  @Field(() => Int, { description: 'Learners notified (those who turned creator messages off are not)' })
  recipients!: number;
}

@ObjectType({ description: "A creator's earnings in one currency" })
export class Earning {
  @Field(() => String)
  currency!: string;

  @Field(() => Float)
  amount!: number;
}

@ObjectType({ description: "How a creator's published course does: enrollments, completions, earnings" })
export class CreatorCourseAnalytics {
  @Field(() => ID)
  draftId!: string;

  @Field(() => ID, { nullable: true })
  courseId!: string | null;

  @Field(() => LocalizedTextView)
  title!: LocalizedTextView;

  @Field(() => DraftStatus)
  status!: DraftStatus;

  @Field(() => Int)
  enrollments!: number;

  @Field(() => Int, { description: 'Learners who completed every lesson' })
  completions!: number;

  @Field(() => Int, { nullable: true, description: 'Average of the best score per learner and quiz' })
  averageScore!: number | null;

  @Field(() => [Earning], { description: 'Empty until the commerce area records sales' })
  earnings!: Earning[];
}

@InputType({ description: 'What the writing assistant is asked to do, and with what' })
export class AssistInput {
  @Field(() => AssistTask)
  task!: AssistTask;

  @Field(() => ID, { nullable: true })
  lessonId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 2000)
  prompt?: string | null;
}

@ObjectType({ description: "The writing assistant's suggestion, with the safety findings in it" })
export class AssistResultView {
  @Field(() => AssistTask)
  task!: AssistTask;

  @Field(() => GraphQLJSONObject, { description: 'Proposed only; nothing is saved' })
  suggestion!: Record<string, unknown>;

  @Field(() => [SafetyFindingView], { description: 'The safety check on the answer' })
  findings!: SafetyFindingView[];

  @Field(() => String)
  model!: string;
}
