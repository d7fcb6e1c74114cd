import { ArrayMaxSize, ArrayMinSize, IsIn, IsOptional, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { AGE } from '../kernel/limits';
import { Connection, PageArgs } from '../kernel/pagination';
import { Node } from '../kernel/node';
import { CourseLevel } from './course.entity';
import type { LessonBody, NewLesson } from './lesson-body';
import { LocalizedListInput, LocalizedListView, LocalizedTextInput, LocalizedTextView } from '../kernel/localized';

registerEnumType(CourseLevel, {
  name: 'CourseLevel',
  description: 'How far along a course starts',
  valuesConfig: {
    beginner: { description: 'For learners new to the subject' },
    intermediate: { description: 'For learners who know the basics' },
    advanced: { description: 'For experienced learners' },
  },
});

/** A quiz question as learners see it: no answer, no explanation before they submit. */
@ObjectType({ description: 'A question of a quiz, without its answer' })
export class QuizQuestionView {
  @Field(() => LocalizedTextView, { description: 'The question' })
  prompt!: LocalizedTextView;

  @Field(() => [LocalizedTextView], { description: 'The options to choose from, in order' })
  options!: LocalizedTextView[];
}

/**
 * What every view of a lesson shows of its body, with the same words (the course's lessons and a
 * creator's draft lessons); each adds its id and its quiz as its readers may see it. Not a type of
 * the schema. The id is not here: a type implementing Node takes the interface's description of
 * `id` over a superclass's, so each view declares its own.
 */
@ObjectType()
export abstract class LessonBodyView {
  @Field(() => Int, { description: 'Place of the lesson in its course, starting at 1' })
  position!: number;

  @Field(() => LocalizedTextView, { description: 'Title of the lesson in each language' })
  title!: LocalizedTextView;

  @Field(() => LocalizedListView, {
    description: 'What the learner should be able to do after the lesson, in each language',
  })
  objectives!: LocalizedListView;

  @Field(() => LocalizedTextView, { description: 'Text of the lesson in each language' })
  content!: LocalizedTextView;
}

/** A lesson's id and body as the views of a lesson show them. */
export function presentLessonBody(lesson: LessonBody): LessonBodyView & { id: string } {
  return {
    id: lesson.id,
    position: lesson.position,
    title: lesson.title,
    objectives: lesson.objectives,
    content: lesson.content,
  };
}

@ObjectType('Lesson', { description: 'A lesson of a course, with its quiz', implements: Node })
export class LessonView extends LessonBodyView implements Node {
  @Field(() => ID, { description: 'Identifier of the lesson' })
  id!: string;

  @Field(() => [QuizQuestionView], { nullable: true, description: 'Null when the lesson has no quiz' })
  quiz!: QuizQuestionView[] | null;
}

@ObjectType('Course', {
  implements: Node,
  description: 'A course: its lessons, and for the signed-in caller their enrollment and progress in it',
})
export class CourseView implements Node {
  @Field(() => ID, { description: 'Identifier of the course' })
  id!: string;

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

  @Field(() => String, { description: 'The language it teaches in (vi or en)' })
  language!: string;

  @Field(() => Int, { description: 'Quiz average (0..100) for the certificate' })
  passMark!: number;

  @Field(() => Boolean, { description: 'Whether learners can find and enroll in the course' })
  published!: boolean;

  @Field(() => GraphQLISODateTime, { description: 'When the course was created' })
  createdAt!: Date;
}

export const CourseConnection = Connection(CourseView, 'Course');

@ObjectType('Enrollment', {
  implements: Node,
  description: "A learner's place in a course: the course, when they joined, and their progress",
})
export class EnrollmentView implements Node {
  @Field(() => ID, { description: 'Identifier of the enrollment' })
  id!: string;

  /** Whose enrollment it is, and its place in the order of lists (not fields). */
  learnerId!: string;
  createdAt!: Date;

  @Field(() => CourseView, { description: 'The course the learner is enrolled in' })
  course!: CourseView;

  @Field(() => GraphQLISODateTime, { description: 'When the learner enrolled' })
  enrolledAt!: Date;
}

export const EnrollmentConnection = Connection(EnrollmentView, 'Enrollment');

@ArgsType()
export class CatalogArgs extends PageArgs {
  @Field(() => CourseLevel, { nullable: true, description: 'Only courses of this level' })
  level?: CourseLevel | null;

  @Field(() => Int, { nullable: true, description: "Courses for this age; a learner's own age by default" })
  @IsOptional()
  @Min(3)
  @Max(99)
  age?: number | null;

  @Field(() => String, { nullable: true, description: 'Only courses taught in this language, vi or en' })
  @IsOptional()
  @IsIn(['vi', 'en'], { message: 'must be vi or en' })
  language?: string | null;

  @Field(() => String, { nullable: true, description: 'Words of the title or description' })
  @IsOptional()
  @MaxLength(100)
  q?: string | null;
}

@InputType({ description: 'A question of a quiz' })
export class QuizQuestionInput {
  @Field(() => LocalizedTextInput, { description: 'The question' })
  @ValidateNested()
  prompt!: LocalizedTextInput;

  @Field(() => [LocalizedTextInput], { description: 'The options to choose from, at most 8' })
  @ArrayMinSize(2)
  @ArrayMaxSize(8)
  @ValidateNested({ each: true })
  options!: LocalizedTextInput[];

  @Field(() => Int, { description: 'Position of the right option, starting at 0' })
  @Min(0)
  answerIndex!: number;

  @Field(() => LocalizedTextInput, { description: 'Why the right option is right, shown after answering' })
  @ValidateNested()
  explanation!: LocalizedTextInput;
}

@InputType({ description: 'A lesson to add to a course' })
export class LessonInput {
  @Field(() => LocalizedTextInput, { description: 'Title of the lesson in each language' })
  @ValidateNested()
  title!: LocalizedTextInput;

  @Field(() => LocalizedListInput, {
    description: 'What the learner should be able to do after the lesson, in each language',
  })
  objectives!: LocalizedListInput;

  @Field(() => LocalizedTextInput, { description: 'Text of the lesson in each language' })
  @ValidateNested()
  content!: LocalizedTextInput;

  @Field(() => [QuizQuestionInput], {
    nullable: true,
    description: 'Questions of the quiz, at most 30; no quiz when omitted',
  })
  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(30)
  @ValidateNested({ each: true })
  quiz?: QuizQuestionInput[] | null;
}

/** A lesson as written in the API, as the model holds it: the quiz's questions within a quiz. */
export function lessonOf(input: LessonInput): NewLesson {
  const { quiz, ...rest } = input;
  return { ...rest, quiz: quiz ? { questions: quiz } : null };
}

/** What describes a course, whoever writes it (content admins here, creators in their studio). */
@InputType()
export abstract class CourseDescriptionInput {
  @Field(() => LocalizedTextInput, { description: 'Title of the course in each language' })
  @ValidateNested()
  title!: LocalizedTextInput;

  @Field(() => LocalizedTextInput, { description: 'What the course is about, in each language' })
  @ValidateNested()
  description!: LocalizedTextInput;

  @Field(() => CourseLevel, { description: 'How advanced the course is' })
  level!: CourseLevel;

  @Field(() => Int, { description: 'Youngest age in years the course is meant for, 5 to 18' })
  @Min(AGE.courseMin)
  @Max(AGE.courseMax)
  minAge!: number;

  @Field(() => Int, { description: 'Oldest age in years the course is meant for, 5 to 18' })
  @Min(AGE.courseMin)
  @Max(AGE.courseMax)
  maxAge!: number;
}

/** A change to a course's description: each field optional. */
@InputType()
export abstract class CourseDescriptionChangeInput {
  @Field(() => LocalizedTextInput, { nullable: true, description: 'New title in each language; kept when omitted' })
  @IsOptional()
  @ValidateNested()
  title?: LocalizedTextInput | null;

  @Field(() => LocalizedTextInput, {
    nullable: true,
    description: 'New description in each language; kept when omitted',
  })
  @IsOptional()
  @ValidateNested()
  description?: LocalizedTextInput | null;

  @Field(() => CourseLevel, { nullable: true, description: 'New level; kept when omitted' })
  level?: CourseLevel | null;

  @Field(() => Int, { nullable: true, description: 'New youngest age in years, 5 to 18; kept when omitted' })
  @IsOptional()
  @Min(AGE.courseMin)
  @Max(AGE.courseMax)
  minAge?: number | null;

  @Field(() => Int, { nullable: true, description: 'New oldest age in years, 5 to 18; kept when omitted' })
  @IsOptional()
  @Min(AGE.courseMin)
  @Max(AGE.courseMax)
  maxAge?: number | null;
}

@InputType({ description: 'A course to create' })
export class CourseInput extends CourseDescriptionInput {
  @Field(() => String, { description: 'The language the course teaches in, vi or en' })
  @IsIn(['vi', 'en'], { message: 'must be vi or en' })
  language!: string;

  @Field(() => Int, {
    nullable: true,
    description: 'Quiz average from 0 to 100 needed for the certificate; 70 when omitted',
  })
  @IsOptional()
  @Min(0)
  @Max(100)
  passMark?: number;

  @Field(() => [LessonInput], { description: 'The lessons in order, at most 30' })
  @ArrayMaxSize(30)
  @ValidateNested({ each: true })
  lessons!: LessonInput[];
}

@InputType({ description: 'Changes to a course' })
export class CourseChangeInput extends CourseDescriptionChangeInput {
  @Field(() => Int, {
    nullable: true,
    description: 'New quiz average from 0 to 100 needed for the certificate; kept when omitted',
  })
  @IsOptional()
  @Min(0)
  @Max(100)
  passMark?: number;
}
