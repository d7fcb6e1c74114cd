import { Node } from '../kernel/node';
import { IsIn, IsOptional, Length } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Connection } from '../kernel/pagination';
import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { CourseLevel } from '../courses';
import { CourseDescriptionChangeInput, CourseDescriptionInput, LessonBodyView } from '../courses';
import { SafetyFindingView } from '../factory';
import { AssistTask } from './creator.assist';
import { DraftStatus } from './creator.entity';
import { LocalizedTextView } from '../kernel/localized';

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
  @Field(() => String, { nullable: true, description: 'New teaching language, vi or en; kept when omitted' })
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
  @Field(() => String, { description: 'Title of the message, 1 to 200 characters' })
  @Length(1, 200)
  title!: string;

  @Field(() => String, { description: 'Text of the message, 1 to 5,000 characters' })
  @Length(1, 5000)
  body!: string;
}

@ObjectType('CreatorLesson', { description: "A lesson of a creator's course", implements: Node })
export class CreatorLessonView extends LessonBodyView implements Node {
  @Field(() => ID, { description: 'Identifier of the lesson' })
  id!: string;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: '{ questions: [{ prompt, options, answerIndex, explanation }] }',
  })
  quiz!: Record<string, unknown> | null;
}

@ObjectType('CreatorCourse', { description: "A creator's course: written, reviewed, then published", implements: Node })
export class CreatorCourseView implements Node {
  @Field(() => ID, { description: "Identifier of the creator's course" })
  id!: string;

  @Field(() => ID, { description: 'Account of the creator who writes the course' })
  creatorId!: string;

  @Field(() => LocalizedTextView, { description: 'Title of the course in each language' })
  title!: LocalizedTextView;

  @Field(() => LocalizedTextView, { description: 'What the course is about, in each language' })
  description!: LocalizedTextView;

  @Field(() => CourseLevel, { description: 'How advanced the course is' })
  level!: CourseLevel;

  @Field(() => Int, { description: 'Youngest age in years the course is meant for' })
  minAge!: number;

  @Field(() => Int, { description: 'Oldest age in years the course is meant for' })
  maxAge!: number;

  @Field(() => String, { description: 'The language the course teaches in, vi or en' })
  language!: string;

  @Field(() => DraftStatus, { description: 'Where the course stands: draft, in review, rejected or published' })
  status!: DraftStatus;

  @Field(() => [SafetyFindingView], { description: 'What the safety check found at submission' })
  findings!: SafetyFindingView[];

  @Field(() => String, {
    nullable: true,
    description: "The reviewer's reason for the last approval or rejection; null when none was given",
  })
  reviewReason!: string | null;

  @Field(() => ID, { nullable: true, description: 'The published course' })
  courseId!: string | null;

  @Field(() => [CreatorLessonView], { description: 'The lessons in order' })
  lessons!: CreatorLessonView[];

  @Field(() => GraphQLISODateTime, { description: 'When the course was started' })
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { description: 'When the course or its lessons last changed' })
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
  @Field(() => String, { description: 'Currency, ISO 4217' })
  currency!: string;

  @Field(() => Float, { description: "Earnings in the currency's minor unit" })
  amount!: number;
}

@ObjectType({ description: "How a creator's published course does: enrollments, completions, earnings" })
export class CreatorCourseAnalytics {
  @Field(() => ID, { description: "The creator's course the figures belong to" })
  draftId!: string;

  @Field(() => ID, { nullable: true, description: 'The published course; null until the course is published' })
  courseId!: string | null;

  @Field(() => LocalizedTextView, { description: 'Title of the course in each language' })
  title!: LocalizedTextView;

  @Field(() => DraftStatus, { description: "Where the creator's course stands" })
  status!: DraftStatus;

  @Field(() => Int, { description: 'Learners enrolled in the published course' })
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
  @Field(() => AssistTask, { description: 'What the assistant should do' })
  task!: AssistTask;

  @Field(() => ID, { nullable: true, description: 'The lesson to work on; the whole draft when omitted' })
  lessonId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'What the creator asks for in their own words, 1 to 2,000 characters',
  })
  @IsOptional()
  @Length(1, 2000)
  prompt?: string | null;
}

@ObjectType({ description: "The writing assistant's suggestion, with the safety findings in it" })
export class AssistResultView {
  @Field(() => AssistTask, { description: 'What the assistant was asked to do' })
  task!: AssistTask;

  @Field(() => GraphQLJSONObject, { description: 'Proposed only; nothing is saved' })
  suggestion!: Record<string, unknown>;

  @Field(() => [SafetyFindingView], { description: 'The safety check on the answer' })
  findings!: SafetyFindingView[];

  @Field(() => String, { description: 'Name of the model that made the suggestion' })
  model!: string;
}
