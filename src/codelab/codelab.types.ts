import {
  ArrayMaxSize,
  ArrayMinSize,
  IsIn,
  IsOptional,
  IsUUID,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Node } from '../kernel/node';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Connection, PageArgs } from '../kernel/pagination';
import { languages, runStatuses } from './sandbox';
import { LocalizedTextInput, LocalizedTextView } from '../kernel/localized';

const CODE_LIMIT = 64 * 1024;

@ObjectType('CodeRunResult', { description: 'What a run of a program showed' })
export class RunResultView {
  @Field(() => String, { description: `How the run ended: ${runStatuses.map((s) => `\`${s}\``).join(', ')}` })
  status!: string;

  @Field(() => String, { description: 'What the program wrote to standard output' })
  stdout!: string;

  @Field(() => String, { description: 'What the program wrote to standard error' })
  stderr!: string;

  @Field(() => Int, { description: 'How long the program ran, in milliseconds' })
  timeMs!: number;
}

@InputType({ description: 'A program to run in the sandbox' })
export class RunCodeInput {
  @Field(() => String, { description: 'python or javascript' })
  @IsIn(languages, { message: 'must be python or javascript' })
  language!: string;

  @Field(() => String, { description: 'The source code to run, at most 64 KiB' })
  @MaxLength(CODE_LIMIT, { message: 'must be at most 64 KiB' })
  code!: string;

  @Field(() => String, { nullable: true, description: 'Standard input of the run, at most 64 KiB; empty when omitted' })
  @IsOptional()
  @MaxLength(CODE_LIMIT, { message: 'must be at most 64 KiB' })
  stdin?: string | null;
}

@ObjectType('ExerciseTest', {
  description: 'A hidden test shows its name only: input and expected are null for learners',
})
export class ExerciseTestView {
  @Field(() => String, { description: 'Name of the test' })
  name!: string;

  @Field(() => Boolean, { description: "Whether learners see only the test's name" })
  hidden!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'The standard input, or the JSON array of arguments of a function-call test',
  })
  input!: string | null;

  @Field(() => String, { nullable: true, description: 'The expected output, or the JSON of the expected return value' })
  expected!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The function a function-call test calls; null for stdin/stdout tests',
  })
  call!: string | null;
}

@ObjectType('Exercise', { description: 'A code exercise, judged by its tests', implements: Node })
export class ExerciseView implements Node {
  @Field(() => ID, { description: 'Identifier of the exercise' })
  id!: string;

  @Field(() => LocalizedTextView, { description: 'Title of the exercise in each language' })
  title!: LocalizedTextView;

  @Field(() => LocalizedTextView, { description: 'The task the learner must solve, in each language' })
  prompt!: LocalizedTextView;

  @Field(() => String, { description: 'Programming language of the solution, python or javascript' })
  language!: string;

  @Field(() => String, { description: 'Code the editor starts with; empty when there is none' })
  starterCode!: string;

  @Field(() => String, { description: 'How hard the exercise is: `easy`, `medium` or `hard`' })
  difficulty!: string;

  @Field(() => ID, { nullable: true, description: 'The course the exercise belongs to; null when it stands alone' })
  courseId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The lesson the exercise belongs to; null when it belongs to none' })
  lessonId!: string | null;

  @Field(() => [ExerciseTestView], {
    description: 'The tests a solution is judged by, hidden ones without their input and output for learners',
  })
  tests!: ExerciseTestView[];

  @Field(() => GraphQLISODateTime, { description: 'When the exercise was created' })
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { description: 'When the exercise last changed' })
  updatedAt!: Date;
}

export const ExerciseConnection = Connection(ExerciseView, 'Exercise');

@ArgsType()
export class ExerciseArgs extends PageArgs {
  @Field(() => String, {
    nullable: true,
    description: 'Only exercises in this programming language, python or javascript',
  })
  @IsOptional()
  @IsIn(languages, { message: 'must be python or javascript' })
  language?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only exercises of this course' })
  @IsOptional()
  @IsUUID('all', { message: 'must be an id' })
  courseId?: string | null;
}

@InputType({ description: 'A test of an exercise: its input and the output expected' })
export class ExerciseTestInput {
  @Field(() => String, { description: 'Name of the test shown to learners, 1 to 100 characters' })
  @Length(1, 100)
  name!: string;

  @Field(() => Boolean, {
    defaultValue: false,
    description: "Whether learners see only the test's name and whether it passed",
  })
  hidden!: boolean;

  @Field(() => String, {
    defaultValue: '',
    description: 'The standard input, or the JSON array of arguments of a function-call test',
  })
  @MaxLength(CODE_LIMIT)
  input!: string;

  @Field(() => String, {
    description: 'The expected output, or the JSON of the expected return value of a function-call test',
  })
  @MaxLength(CODE_LIMIT)
  expected!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The function a function-call test calls; omit for a stdin/stdout test',
  })
  @IsOptional()
  @Matches(/^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/, { message: 'must be the name of a function' })
  call?: string | null;
}

@InputType({ description: 'A code exercise to create' })
export class ExerciseInput {
  @Field(() => LocalizedTextInput, { description: 'Title of the exercise in each language' })
  @ValidateNested()
  title!: LocalizedTextInput;

  @Field(() => LocalizedTextInput, { description: 'The task the learner must solve, in each language' })
  @ValidateNested()
  prompt!: LocalizedTextInput;

  @Field(() => String, { description: 'Programming language of the solution, python or javascript' })
  @IsIn(languages, { message: 'must be python or javascript' })
  language!: string;

  @Field(() => String, { defaultValue: '', description: 'Code the editor starts with, at most 64 KiB' })
  @MaxLength(CODE_LIMIT)
  starterCode!: string;

  @Field(() => String, { description: 'How hard the exercise is: easy, medium or hard' })
  @IsIn(['easy', 'medium', 'hard'], { message: 'must be easy, medium or hard' })
  difficulty!: string;

  @Field(() => ID, { nullable: true, description: 'The course the exercise belongs to; none when omitted' })
  @IsOptional()
  @IsUUID('all', { message: 'must be an id' })
  courseId?: string | null;

  @Field(() => ID, {
    nullable: true,
    description: 'The lesson of the course the exercise belongs to; none when omitted',
  })
  @IsOptional()
  @IsUUID('all', { message: 'must be an id' })
  lessonId?: string | null;

  @Field(() => [ExerciseTestInput], { description: 'The tests a solution is judged by, at most 50' })
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  tests!: ExerciseTestInput[];
}

@ObjectType('SubmissionTestResult', {
  description: 'A hidden test shows its name and whether it passed; its message and time are null',
})
export class TestResultView {
  @Field(() => String, { description: 'Name of the test' })
  name!: string;

  @Field(() => Boolean, { description: 'Whether the test is hidden from learners' })
  hidden!: boolean;

  @Field(() => Boolean, { description: 'Whether the solution passed the test' })
  passed!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'What went wrong, such as the difference in output; null when passed or hidden',
  })
  message!: string | null;

  @Field(() => Int, { nullable: true, description: 'How long the test ran, in milliseconds; null for a hidden test' })
  timeMs!: number | null;
}

@ObjectType('Submission', { description: 'A solution submitted to an exercise, and its verdict', implements: Node })
export class SubmissionView implements Node {
  @Field(() => ID, { description: 'Identifier of the submission' })
  id!: string;

  @Field(() => ID, { description: 'The exercise the solution was submitted to' })
  exerciseId!: string;

  @Field(() => String, { description: 'Where judging stands: `queued`, `running` or `completed`' })
  status!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'The verdict once judged: `accepted`, `wrong_answer`, `runtime_error`, `syntax_error`, `time_limit_exceeded`, `memory_limit_exceeded` or `output_limit_exceeded`',
  })
  verdict!: string | null;

  @Field(() => Int, { description: '0..100: the share of tests passed' })
  score!: number;

  @Field(() => [TestResultView], {
    description: "Result of each test, in the order of the exercise's tests; empty until judged",
  })
  tests!: TestResultView[];

  @Field(() => GraphQLISODateTime, { description: 'When the solution was submitted' })
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description:
      'When the verdict was given, a fixed time after the submission whatever judging took; null while queued or running',
  })
  finishedAt!: Date | null;
}

export const SubmissionConnection = Connection(SubmissionView, 'Submission');

@ObjectType('SubmissionHint', { description: "The AI tutor's hint about a submission" })
export class HintView {
  @Field(() => ID, { description: 'The submission the hint is about' })
  submissionId!: string;

  @Field(() => String, { description: "The AI tutor's hint as text" })
  hint!: string;

  @Field(() => String, { description: 'The AI conversation the hint belongs to; pass it to aiChat to ask more' })
  conversationId!: string;
}
