import { ArrayMaxSize, ArrayMinSize, IsIn, IsOptional, Length, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { AGE } from '../kernel/limits';
import { Connection, PageArgs } from '../kernel/pagination';
import { Node } from '../kernel/node';
import { CourseLevel } from './course.entity';

registerEnumType(CourseLevel, {
  name: 'CourseLevel',
  description: 'How far along a course starts',
  valuesConfig: {
    beginner: { description: 'For learners new to the subject' },
    intermediate: { description: 'For learners who know the basics' },
    advanced: { description: 'For experienced learners' },
  },
});

@ObjectType('LocalizedText', { description: 'A text in Vietnamese and English' })
export class LocalizedTextView {
  @Field(() => String)
  en!: string;

  @Field(() => String)
  vi!: string;
}

@ObjectType('LocalizedList', { description: 'A list of texts in Vietnamese and English' })
export class LocalizedListView {
  @Field(() => [String])
  en!: string[];

  @Field(() => [String])
  vi!: string[];
}

/** A quiz question as learners see it: no answer, no explanation before they submit. */
@ObjectType({ description: 'A question of a quiz, without its answer' })
export class QuizQuestionView {
  @Field(() => LocalizedTextView)
  prompt!: LocalizedTextView;

  @Field(() => [LocalizedTextView])
  options!: LocalizedTextView[];
}

@ObjectType('Lesson', { description: 'A lesson of a course, with its quiz', implements: Node })
export class LessonView implements Node {
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

  @Field(() => [QuizQuestionView], { nullable: true, description: 'Null when the lesson has no quiz' })
  quiz!: QuizQuestionView[] | null;
}

@ObjectType('Course', { implements: Node, description: 'A course: its lessons, and for the signed-in caller their enrollment and progress in it' })
export class CourseView implements Node {
  @Field(() => ID)
  id!: string;

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

  @Field(() => String, { description: 'The language it teaches in (vi or en)' })
  language!: string;

  @Field(() => Int, { description: 'Quiz average (0..100) for the certificate' })
  passMark!: number;

  @Field(() => Boolean)
  published!: boolean;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

export const CourseConnection = Connection(CourseView, 'Course');

@ObjectType('Enrollment', { implements: Node, description: "A learner's place in a course: the course, when they joined, and their progress" })
export class EnrollmentView implements Node {
  @Field(() => ID)
  id!: string;

  /** Whose enrollment it is, and its place in the order of lists (not fields). */
  learnerId!: string;
  createdAt!: Date;

  @Field(() => CourseView)
  course!: CourseView;

  @Field(() => GraphQLISODateTime)
  enrolledAt!: Date;
}

export const EnrollmentConnection = Connection(EnrollmentView, 'Enrollment');

@ArgsType()
export class CatalogArgs extends PageArgs {
  @Field(() => CourseLevel, { nullable: true })
  level?: CourseLevel | null;

  @Field(() => Int, { nullable: true, description: "Courses for this age; a learner's own age by default" })
  @IsOptional()
  @Min(3)
  @Max(99)
  age?: number | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(['vi', 'en'], { message: 'must be vi or en' })
  language?: string | null;

  @Field(() => String, { nullable: true, description: 'Words of the title or description' })
  @IsOptional()
  @MaxLength(100)
  q?: string | null;
}

@InputType({ description: 'A text in Vietnamese and English' })
export class LocalizedTextInput {
  @Field(() => String)
  @Length(1, 20_000)
  en!: string;

  @Field(() => String)
  @Length(1, 20_000)
  vi!: string;
}

@InputType({ description: 'A list of texts in Vietnamese and English' })
export class LocalizedListInput {
  @Field(() => [String])
  @ArrayMaxSize(20)
  en!: string[];

  @Field(() => [String])
  @ArrayMaxSize(20)
  vi!: string[];
}

@InputType({ description: 'A question of a quiz' })
export class QuizQuestionInput {
  @Field(() => LocalizedTextInput)
  @ValidateNested()
  prompt!: LocalizedTextInput;

  @Field(() => [LocalizedTextInput])
  @ArrayMinSize(2)
  @ArrayMaxSize(8)
  @ValidateNested({ each: true })
  options!: LocalizedTextInput[];

  @Field(() => Int)
  @Min(0)
  answerIndex!: number;

  @Field(() => LocalizedTextInput)
  @ValidateNested()
  explanation!: LocalizedTextInput;
}

@InputType({ description: 'A lesson to add to a course' })
export class LessonInput {
  @Field(() => LocalizedTextInput)
  @ValidateNested()
  title!: LocalizedTextInput;

  @Field(() => LocalizedListInput)
  objectives!: LocalizedListInput;

  @Field(() => LocalizedTextInput)
  @ValidateNested()
  content!: LocalizedTextInput;

  @Field(() => [QuizQuestionInput], { nullable: true })
  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(30)
  @ValidateNested({ each: true })
  quiz?: QuizQuestionInput[] | null;
}

/** What describes a course, whoever writes it (content admins here, creators in their studio). */
@InputType()
export abstract class CourseDescriptionInput {
  @Field(() => LocalizedTextInput)
  @ValidateNested()
  title!: LocalizedTextInput;

  @Field(() => LocalizedTextInput)
  @ValidateNested()
  description!: LocalizedTextInput;

  @Field(() => CourseLevel)
  level!: CourseLevel;

  @Field(() => Int)
  @Min(AGE.courseMin)
  @Max(AGE.courseMax)
  minAge!: number;

  @Field(() => Int)
  @Min(AGE.courseMin)
  @Max(AGE.courseMax)
  maxAge!: number;
}

/** A change to a course's description: each field optional. */
@InputType()
export abstract class CourseDescriptionChangeInput {
  @Field(() => LocalizedTextInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  title?: LocalizedTextInput | null;

  @Field(() => LocalizedTextInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  description?: LocalizedTextInput | null;

  @Field(() => CourseLevel, { nullable: true })
  level?: CourseLevel | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(AGE.courseMin)
  @Max(AGE.courseMax)
  minAge?: number | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(AGE.courseMin)
  @Max(AGE.courseMax)
  maxAge?: number | null;
}

@InputType({ description: 'A course to create' })
export class CourseInput extends CourseDescriptionInput {
  @Field(() => String)
  @IsIn(['vi', 'en'], { message: 'must be vi or en' })
  language!: string;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(100)
  passMark?: number;

  @Field(() => [LessonInput])
  @ArrayMaxSize(30)
  @ValidateNested({ each: true })
  lessons!: LessonInput[];
}

@InputType({ description: 'Changes to a course' })
export class CourseChangeInput extends CourseDescriptionChangeInput {
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(100)
  passMark?: number;
}
