import { ArrayMaxSize, IsOptional, Max, Min } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { CertificateView } from '../certificates';
import { LinkedLearner } from '../guardian';
import { LocalizedTextView } from '../kernel/localized';

@ObjectType('ExerciseProgress', { description: "A learner's best on a CodeLab exercise of the course" })
export class ExerciseProgressView {
  @Field(() => ID, { description: "The CodeLab exercise's id" })
  exerciseId!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'The lesson the exercise belongs to; null when it belongs to the course only',
  })
  lessonId!: string | null;

  @Field(() => Int, { description: 'The best score of the judged submissions, 0..100' })
  bestScore!: number;

  @Field(() => Boolean, { description: 'True once a submission passed every test' })
  accepted!: boolean;

  @Field(() => GraphQLISODateTime, { description: "When the learner's result on the exercise last changed" })
  updatedAt!: Date;
}

@ObjectType('CourseProgress', { description: "A learner's progress in one course" })
export class CourseProgressView {
  @Field(() => ID, { description: "The course's id" })
  courseId!: string;

  @Field(() => LocalizedTextView, { description: "The course's title in each locale" })
  courseTitle!: LocalizedTextView;

  @Field(() => Int, { description: 'How many lessons the course has' })
  lessonsTotal!: number;

  @Field(() => Int, { description: 'How many of them the learner completed' })
  lessonsCompleted!: number;

  @Field(() => Int, { description: '0..100' })
  percent!: number;

  @Field(() => Int, { nullable: true, description: 'Average of the best score of each quiz taken' })
  averageScore!: number | null;

  @Field(() => Int, { description: 'Time the learner spent in the course, in seconds' })
  timeSpentSeconds!: number;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the learner last did something in the course; null if never',
  })
  lastActivityAt!: Date | null;

  @Field(() => Boolean, { description: 'True once the learner completed every lesson' })
  completed!: boolean;

  @Field(() => [ExerciseProgressView], {
    description: 'CodeLab exercises of the course the learner submitted, with their best score',
  })
  exercises!: ExerciseProgressView[];

  @Field(() => Int, { description: "How many of the course's CodeLab exercises the learner passed" })
  exercisesAccepted!: number;
}

@ObjectType('LearnerProgress', { description: "A learner's activity: streak, time spent, last activity" })
export class LearnerOverviewView {
  @Field(() => ID, { description: "The learner's id" })
  learnerId!: string;

  @Field(() => Int, { description: 'Days in a row with learning, up to today' })
  streakDays!: number;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the learner last did something; null if never',
  })
  lastActivityAt!: Date | null;

  @Field(() => Int, { description: 'Time the learner spent in all courses, in seconds' })
  timeSpentSeconds!: number;

  @Field(() => [CourseProgressView], { description: "The learner's progress in each course they are enrolled in" })
  courses!: CourseProgressView[];
}

@ObjectType({ description: 'Right or wrong, and why; the right option is never sent' })
export class QuizAnswerResult {
  @Field(() => Boolean, { description: 'True when the answer given was right' })
  correct!: boolean;

  @Field(() => LocalizedTextView, { description: 'Why the right answer is right, in each locale' })
  explanation!: LocalizedTextView;
}

@ObjectType({ description: 'The score of a quiz taken, with the right answers' })
export class QuizResult {
  @Field(() => ID, { description: 'The lesson whose quiz was taken' })
  lessonId!: string;

  @Field(() => Int, { description: '0..100' })
  score!: number;

  @Field(() => Int, { description: 'How many answers were right' })
  correct!: number;

  @Field(() => Int, { description: 'How many questions the quiz has' })
  total!: number;

  @Field(() => Int, { description: 'This attempt is the n-th' })
  attempt!: number;

  @Field(() => [QuizAnswerResult], { description: 'The result of each answer, in the order of the questions' })
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
  @Field(() => LinkedLearner, { description: "The learner's account" })
  learner!: LinkedLearner;

  @Field(() => LearnerOverviewView, { description: "The learner's activity and progress" })
  progress!: LearnerOverviewView;

  @Field(() => [CertificateView], { description: 'The certificates the learner earned' })
  certificates!: CertificateView[];
}
