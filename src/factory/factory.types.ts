import { Node } from '../kernel/node';
import { GraphQLJSONObject } from 'graphql-scalars';
import {
  IsIn,
  Matches,
  Max,
  Min,
  Validate,
  type ValidationArguments,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { CourseLevel } from '../courses';
import { AGE, LIMITS } from '../kernel/limits';
import { Connection } from '../kernel/pagination';
import { GenerationStatus, StageName, StageStatus } from './generation.entity';
import { LocalizedListView, LocalizedTextView } from '../kernel/localized';

registerEnumType(GenerationStatus, {
  name: 'GenerationStatus',
  description: 'Where a course generation stands',
  valuesConfig: {
    queued: { description: 'Waiting for its first stage' },
    running: { description: 'A stage is running' },
    awaiting_approval: { description: 'Done and safe; waits for an admin to approve or reject' },
    flagged: { description: 'The safety stage found problems' },
    failed: { description: 'A stage failed' },
    approved: { description: 'Approved: the course is published' },
    rejected: { description: 'Rejected: no course' },
  },
});
registerEnumType(StageName, {
  name: 'GenerationStageName',
  description: 'A stage of a course generation: research, outline, content, quiz, safety, in this order',
  valuesConfig: {
    research: { description: 'Gathers what the course should cover' },
    outline: { description: 'Plans the lessons' },
    content: { description: 'Writes the lessons' },
    quiz: { description: 'Writes the quizzes' },
    safety: { description: 'Checks everything for the ages' },
  },
});
registerEnumType(StageStatus, {
  name: 'GenerationStageStatus',
  description: 'Where a stage of a generation stands',
  valuesConfig: {
    pending: { description: 'Not started' },
    running: { description: 'Running' },
    done: { description: 'Finished' },
    failed: { description: 'Failed' },
  },
});

@ValidatorConstraint({ name: 'trimmedLength' })
class TrimmedLength implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments) {
    const [min, max] = args.constraints as [number, number];
    return typeof value === 'string' && value.trim().length >= min && value.trim().length <= max;
  }
  defaultMessage(args: ValidationArguments) {
    return `must be ${args.constraints[0]} to ${args.constraints[1]} characters`;
  }
}

@ValidatorConstraint({ name: 'ageRangeWithinCourseAges' })
class AgeRangeWithinCourseAges implements ValidatorConstraintInterface {
  validate(value: unknown) {
    const [min, max] = String(value).split('-').map(Number);
    return min >= AGE.courseMin && min <= max && max <= AGE.courseMax;
  }
  defaultMessage() {
    return `must satisfy ${AGE.courseMin} <= min <= max <= ${AGE.courseMax}`;
  }
}

@InputType({ description: 'What course the factory should generate' })
export class GenerateCourseInput {
  @Field(() => String, { description: '3 to 200 characters' })
  @Validate(TrimmedLength, [LIMITS.factoryTopic.min, LIMITS.factoryTopic.max])
  topic!: string;

  @Field(() => String, { description: 'beginner, intermediate or advanced' })
  @IsIn(Object.values(CourseLevel), { message: 'must be beginner, intermediate or advanced' })
  level!: string;

  @Field(() => String, { description: `<min>-<max>, with ${AGE.courseMin} <= min <= max <= ${AGE.courseMax}` })
  @Matches(/^\d{1,2}-\d{1,2}$/, { message: 'must be <min>-<max>, such as 8-12' })
  @Validate(AgeRangeWithinCourseAges)
  ageRange!: string;

  @Field(() => Int, { description: `${LIMITS.factoryLessons.min} to ${LIMITS.factoryLessons.max}` })
  @Min(LIMITS.factoryLessons.min, { message: `must be ${LIMITS.factoryLessons.min} to ${LIMITS.factoryLessons.max}` })
  @Max(LIMITS.factoryLessons.max, { message: `must be ${LIMITS.factoryLessons.min} to ${LIMITS.factoryLessons.max}` })
  lessonCount!: number;
}

@ObjectType('GenerationStage', { description: 'One stage of a course generation' })
export class GenerationStageView {
  @Field(() => StageName, { description: 'Which of the five stages this is' })
  name!: StageName;

  @Field(() => StageStatus, { description: 'Where the stage stands' })
  status!: StageStatus;

  @Field(() => Int, { description: 'How many times the stage has been tried, retries included' })
  attempts!: number;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the stage last started; null before it first starts',
  })
  startedAt!: Date | null;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the stage finished; null while it waits or runs',
  })
  finishedAt!: Date | null;

  @Field(() => String, { nullable: true, description: "The last attempt's error, kept when the stage failed" })
  error!: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'What the stage produced' })
  output!: Record<string, unknown> | null;

  @Field(() => Int, { description: 'Time spent waiting on model providers' })
  providerMs!: number;
}

@ObjectType('SafetyFinding', { description: 'Something the safety checks found in generated or written content' })
export class SafetyFindingView {
  @Field(() => String, {
    description:
      'What kind of finding: `violence`, `sexual`, `self_harm`, `hate`, `personal_data`, `external_link` or `age_fit`',
  })
  category!: string;

  @Field(() => String, { description: 'Which check found it: `builtin` or `moderation`' })
  source!: string;

  @Field(() => String, { description: 'The text the finding is in, with its language, such as `objectives.en`' })
  field!: string;

  @Field(() => String, { description: 'The words found, with some of the text around them' })
  excerpt!: string;
}

@ObjectType('GeneratedLesson', { description: 'A lesson the factory generated' })
export class GeneratedLessonView {
  @Field(() => Int, { description: 'Where the lesson comes in the course, from 1' })
  position!: number;

  @Field(() => LocalizedTextView, { description: "The lesson's title in each locale" })
  title!: LocalizedTextView;

  @Field(() => LocalizedListView, {
    description: 'What the learner will be able to do after the lesson, in each locale',
  })
  objectives!: LocalizedListView;

  @Field(() => LocalizedTextView, {
    nullable: true,
    description: "The lesson's text in each locale; null until the writing stage produced it",
  })
  content!: LocalizedTextView | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Questions with their answers and explanations' })
  quiz!: Record<string, unknown> | null;

  @Field(() => [SafetyFindingView], { description: 'What the safety checks found in the lesson; empty when nothing' })
  findings!: SafetyFindingView[];

  @Field(() => Boolean, {
    description: 'True when the safety checks found problems and an admin should look before approving',
  })
  flagged!: boolean;

  @Field(() => Int, { description: 'How many times it was written again after being flagged' })
  revision!: number;
}

@ObjectType('CourseGeneration', {
  description: 'A course the factory generates in five stages, then an admin approves or rejects',
  implements: Node,
})
export class GenerationView implements Node {
  @Field(() => ID, { description: "The generation's global id" })
  id!: string;

  @Field(() => String, { description: 'The topic the admin asked for' })
  topic!: string;

  @Field(() => String, { description: 'The course level asked for: beginner, intermediate or advanced' })
  level!: string;

  @Field(() => String, { description: "The learners' ages asked for, as <min>-<max> such as 8-12" })
  ageRange!: string;

  @Field(() => Int, { description: 'How many lessons the course should have' })
  lessonCount!: number;

  @Field(() => GenerationStatus, { description: 'Where the generation stands as a whole' })
  status!: GenerationStatus;

  @Field(() => StageName, {
    nullable: true,
    description: 'The stage running or last failed; null before the first stage and after the last',
  })
  currentStage!: StageName | null;

  @Field(() => [GenerationStageView], { description: 'The five stages, in the order they run' })
  stages!: GenerationStageView[];

  @Field(() => Int, { description: '0 to 100' })
  progress!: number;

  @Field(() => ID, { nullable: true, description: 'The published course, once approved' })
  courseId!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Why the generation failed, for the admins; null unless it failed',
  })
  error!: string | null;

  @Field(() => ID, { description: 'The id of the admin who asked for the course' })
  requestedById!: string;

  @Field(() => ID, { nullable: true, description: 'Who approved or rejected it' })
  decidedById!: string | null;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When an admin approved or rejected the course; null until then',
  })
  decidedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { description: 'When the generation was asked for' })
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { description: 'When the generation last changed' })
  updatedAt!: Date;
}

export const GenerationConnection = Connection(GenerationView, 'CourseGeneration');
