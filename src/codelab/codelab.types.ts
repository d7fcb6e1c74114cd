import { ArrayMaxSize, ArrayMinSize, IsIn, IsOptional, IsUUID, Length, Matches, MaxLength, ValidateNested } from 'class-validator';
import { Node } from '../kernel/node';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { LocalizedTextInput, LocalizedTextView } from '../courses';
import { Connection, PageArgs } from '../kernel/pagination';
import { languages, runStatuses } from './sandbox';

const CODE_LIMIT = 64 * 1024;

@ObjectType('CodeRunResult', { description: 'What a run of a program showed' })
export class RunResultView {
  @Field(() => String, { description: `How the run ended: ${runStatuses.map((s) => `\`${s}\``).join(', ')}` })
  status!: string;

  @Field(() => String)
  stdout!: string;

  @Field(() => String)
  stderr!: string;

  @Field(() => Int)
  timeMs!: number;
}

@InputType({ description: 'A program to run in the sandbox' })
export class RunCodeInput {
  @Field(() => String, { description: 'python or javascript' })
  @IsIn(languages, { message: 'must be python or javascript' })
  language!: string;

  @Field(() => String)
  @MaxLength(CODE_LIMIT, { message: 'must be at most 64 KiB' })
  code!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(CODE_LIMIT, { message: 'must be at most 64 KiB' })
  stdin?: string | null;
}

@ObjectType('ExerciseTest', { description: 'A hidden test shows its name only: input and expected are null for learners' })
export class ExerciseTestView {
  @Field(() => String)
  name!: string;

  @Field(() => Boolean)
  hidden!: boolean;

  @Field(() => String, { nullable: true, description: 'The standard input, or the JSON array of arguments of a function-call test' })
  input!: string | null;

  @Field(() => String, { nullable: true, description: 'The expected output, or the JSON of the expected return value' })
  expected!: string | null;

  @Field(() => String, { nullable: true, description: 'The function a function-call test calls; null for stdin/stdout tests' })
  call!: string | null;
}

@ObjectType('Exercise', { description: 'A code exercise, judged by its tests', implements: Node })
export class ExerciseView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => LocalizedTextView)
  title!: LocalizedTextView;

  @Field(() => LocalizedTextView)
  prompt!: LocalizedTextView;

  @Field(() => String)
  language!: string;

  @Field(() => String)
  starterCode!: string;

  @Field(() => String, { description: 'How hard the exercise is: `easy`, `medium` or `hard`' })
  difficulty!: string;

  @Field(() => ID, { nullable: true })
  courseId!: string | null;

  @Field(() => ID, { nullable: true })
  lessonId!: string | null;

  @Field(() => [ExerciseTestView])
  tests!: ExerciseTestView[];

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

export const ExerciseConnection = Connection(ExerciseView, 'Exercise');

@ArgsType()
export class ExerciseArgs extends PageArgs {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(languages, { message: 'must be python or javascript' })
  language?: string | null;

  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID('all', { message: 'must be an id' })
  courseId?: string | null;
}

@InputType({ description: 'A test of an exercise: its input and the output expected' })
export class ExerciseTestInput {
  @Field(() => String)
  @Length(1, 100)
  name!: string;

  @Field(() => Boolean, { defaultValue: false })
  hidden!: boolean;

  @Field(() => String, { defaultValue: '' })
  @MaxLength(CODE_LIMIT)
  input!: string;

  @Field(() => String)
  @MaxLength(CODE_LIMIT)
  expected!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(/^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/, { message: 'must be the name of a function' })
  call?: string | null;
}

@InputType({ description: 'A code exercise to create' })
export class ExerciseInput {
  @Field(() => LocalizedTextInput)
  @ValidateNested()
  title!: LocalizedTextInput;

  @Field(() => LocalizedTextInput)
  @ValidateNested()
  prompt!: LocalizedTextInput;

  @Field(() => String)
  @IsIn(languages, { message: 'must be python or javascript' })
  language!: string;

  @Field(() => String, { defaultValue: '' })
  @MaxLength(CODE_LIMIT)
  starterCode!: string;

  @Field(() => String)
  @IsIn(['easy', 'medium', 'hard'], { message: 'must be easy, medium or hard' })
  difficulty!: string;

  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID('all', { message: 'must be an id' })
  courseId?: string | null;

  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID('all', { message: 'must be an id' })
  lessonId?: string | null;

  @Field(() => [ExerciseTestInput])
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  tests!: ExerciseTestInput[];
}

@ObjectType('SubmissionTestResult', { description: 'A hidden test shows its name and whether it passed; its message and time are null' })
export class TestResultView {
  @Field(() => String)
  name!: string;

  @Field(() => Boolean)
  hidden!: boolean;

  @Field(() => Boolean)
  passed!: boolean;

  @Field(() => String, { nullable: true })
  message!: string | null;

  @Field(() => Int, { nullable: true, description: 'How long the test ran, in milliseconds; null for a hidden test' })
  timeMs!: number | null;
}

@ObjectType('Submission', { description: 'A solution submitted to an exercise, and its verdict', implements: Node })
export class SubmissionView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  exerciseId!: string;

  @Field(() => String, { description: 'Where judging stands: `queued`, `running` or `completed`' })
  status!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The verdict once judged: `accepted`, `wrong_answer`, `runtime_error`, `syntax_error`, `time_limit_exceeded`, `memory_limit_exceeded` or `output_limit_exceeded`',
  })
  verdict!: string | null;

  @Field(() => Int, { description: '0..100: the share of tests passed' })
  score!: number;

  @Field(() => [TestResultView])
  tests!: TestResultView[];

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  finishedAt!: Date | null;
}

export const SubmissionConnection = Connection(SubmissionView, 'Submission');

@ObjectType('SubmissionHint', { description: "The AI tutor's hint about a submission" })
export class HintView {
  @Field(() => ID)
  submissionId!: string;

  @Field(() => String)
  hint!: string;

  @Field(() => String)
  conversationId!: string;
}

@ObjectType('ProjectFile', { description: 'A file of a code project' })
export class ProjectFileView {
  @Field(() => String)
  path!: string;

  @Field(() => String)
  content!: string;
}

@ObjectType('Project', { description: "A learner's code project", implements: Node })
export class ProjectView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  ownerId!: string;

  @Field(() => String)
  title!: string;

  @Field(() => String)
  description!: string;

  @Field(() => String)
  language!: string;

  @Field(() => [ProjectFileView])
  files!: ProjectFileView[];

  @Field(() => String, { description: 'Who may see it: `private`, `unlisted` (whoever has the link) or `public`' })
  visibility!: string;

  @Field(() => ID, { nullable: true })
  remixOf!: string | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

export const ProjectConnection = Connection(ProjectView, 'Project');

@InputType({ description: 'A file of a code project' })
export class ProjectFileInput {
  @Field(() => String)
  @Matches(/^(?!\/)(?!.*\.\.)[A-Za-z0-9_\-./]{1,200}$/, { message: 'must be a relative path of letters, digits, _, -, . and /' })
  path!: string;

  @Field(() => String)
  content!: string;
}

@InputType({ description: 'A code project to create or save' })
export class ProjectInput {
  @Field(() => String)
  @Length(1, 200)
  title!: string;

  @Field(() => String, { defaultValue: '' })
  @MaxLength(5000)
  description!: string;

  @Field(() => String)
  @IsIn(languages, { message: 'must be python or javascript' })
  language!: string;

  @Field(() => [ProjectFileInput])
  @ArrayMinSize(1)
  @ArrayMaxSize(50, { message: 'at most 50 files' })
  @ValidateNested({ each: true })
  files!: ProjectFileInput[];

  @Field(() => String, { defaultValue: 'private' })
  @IsIn(['private', 'unlisted', 'public'], { message: 'must be private, unlisted or public' })
  visibility!: string;
}

@ObjectType('Portfolio', { description: "A learner's public page: projects and certificates they chose to show" })
export class PortfolioView {
  @Field(() => String, { nullable: true, description: 'Null until the owner chooses one' })
  handle!: string | null;

  @Field(() => String)
  headline!: string;

  @Field(() => String)
  bio!: string;

  @Field(() => [ID])
  projectIds!: string[];

  @Field(() => [ID])
  certificateIds!: string[];

  @Field(() => String, { description: 'Who may see it: `private` or `public`' })
  visibility!: string;
}

@ObjectType('PortfolioCertificate', { description: 'A certificate as a portfolio shows it' })
export class PortfolioCertificateView {
  @Field(() => ID)
  id!: string;

  @Field(() => LocalizedTextView, { nullable: true })
  courseTitle!: LocalizedTextView | null;

  @Field(() => GraphQLISODateTime)
  issuedAt!: Date;
}

@ObjectType('PublicPortfolio', { description: 'What anyone sees: never e-mail, birth date or country' })
export class PublicPortfolioView {
  @Field(() => String)
  handle!: string;

  @Field(() => String)
  displayName!: string;

  @Field(() => String)
  headline!: string;

  @Field(() => String)
  bio!: string;

  @Field(() => [ProjectView])
  projects!: ProjectView[];

  @Field(() => [PortfolioCertificateView])
  certificates!: PortfolioCertificateView[];
}

@InputType({ description: 'A portfolio as it should be' })
export class PortfolioInput {
  @Field(() => String)
  @Matches(/^[a-z0-9_-]{3,30}$/, { message: 'must be 3 to 30 of a-z, 0-9, - and _' })
  handle!: string;

  @Field(() => String, { defaultValue: '' })
  @MaxLength(200)
  headline!: string;

  @Field(() => String, { defaultValue: '' })
  @MaxLength(5000)
  bio!: string;

  @Field(() => [ID], { defaultValue: [] })
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true, message: 'must be ids' })
  projectIds!: string[];

  @Field(() => [ID], { defaultValue: [] })
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true, message: 'must be ids' })
  certificateIds!: string[];

  @Field(() => String, { defaultValue: 'private' })
  @IsIn(['private', 'public'], { message: 'must be private or public' })
  visibility!: string;
}
