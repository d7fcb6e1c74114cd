import { ArrayMaxSize, IsOptional, Max, Min } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { LocalizedTextView } from '../courses';
import { CertificateView } from '../certificates';
import { LinkedLearner } from '../guardian';

@ObjectType('ExerciseProgress', { description: "A learner's best on a CodeLab exercise of the course" })
export class ExerciseProgressView {
  @Field(() => ID)
  exerciseId!: string;

  @Field(() => ID, { nullable: true })
  lessonId!: string | null;

  @Field(() => Int, { description: 'The best score of the judged submissions, 0..100' })
  bestScore!: number;

  @Field(() => Boolean)
  accepted!: boolean;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType('CourseProgress', { description: "A learner's progress in one course" })
export class CourseProgressView {
  @Field(() => ID)
  courseId!: string;

  @Field(() => LocalizedTextView)
  courseTitle!: LocalizedTextView;

  @Field(() => Int)
  lessonsTotal!: number;

  @Field(() => Int)
  lessonsCompleted!: number;

  @Field(() => Int, { description: '0..100' })
  percent!: number;

  @Field(() => Int, { nullable: true, description: 'Average of the best score of each quiz taken' })
  averageScore!: number | null;

  @Field(() => Int)
  timeSpentSeconds!: number;

  @Field(() => GraphQLISODateTime, { nullable: true })
  lastActivityAt!: Date | null;

  @Field(() => Boolean)
  completed!: boolean;

  @Field(() => [ExerciseProgressView], { description: 'CodeLab exercises of the course the learner submitted, with their best score' })
  exercises!: ExerciseProgressView[];

  @Field(() => Int)
  exercisesAccepted!: number;
}

@ObjectType('LearnerProgress', { description: "A learner's activity: streak, time spent, last activity" })
export class LearnerOverviewView {
  @Field(() => ID)
  learnerId!: string;

  @Field(() => Int, { description: 'Days in a row with learning, up to today' })
  streakDays!: number;

  @Field(() => GraphQLISODateTime, { nullable: true })
  lastActivityAt!: Date | null;

  @Field(() => Int)
  timeSpentSeconds!: number;

  @Field(() => [CourseProgressView])
  courses!: CourseProgressView[];
}

@ObjectType({ description: 'Right or wrong, and why; the right option is never sent' })
export class QuizAnswerResult {
  @Field(() => Boolean)
  correct!: boolean;

  @Field(() => LocalizedTextView)
  explanation!: LocalizedTextView;
}

@ObjectType({ description: 'The score of a quiz taken, with the right answers' })
export class QuizResult {
  @Field(() => ID)
  lessonId!: string;

  @Field(() => Int, { description: '0..100' })
  score!: number;

  @Field(() => Int)
  correct!: number;

  @Field(() => Int)
  total!: number;

  @Field(() => Int, { description: 'This attempt is the n-th' })
  attempt!: number;

  @Field(() => [QuizAnswerResult])
  results!: QuizAnswerResult[];
}

@InputType({ description: 'The time spent on a lesson completed' })
export class CompleteLessonInput {
  @Field(() => Int, { nullable: true, description: 'Seconds spent on the lesson' })
  @IsOptional()
  @Min(0)
  @Max(24 * 3600)
  timeSpentSeconds?: number;
}

@InputType({ description: "A learner's answers to a lesson's quiz" })
export class QuizAnswersInput {
  @Field(() => [Int], { description: 'The chosen option of each question, in order' })
  @ArrayMaxSize(30)
  answers!: number[];
}

/** One linked learner on the guardian's dashboard. */
@ObjectType({ description: "A linked learner as a guardian's dashboard shows them" })
export class DashboardLearner {
  @Field(() => LinkedLearner)
  learner!: LinkedLearner;

  @Field(() => LearnerOverviewView)
  progress!: LearnerOverviewView;

  @Field(() => [CertificateView])
  certificates!: CertificateView[];
}
