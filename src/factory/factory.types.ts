import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LocalizedListView, LocalizedTextView } from '../courses';
import { Connection } from '../kernel/pagination';
import { GenerationStatus, StageName, StageStatus } from './generation.entity';

registerEnumType(GenerationStatus, { name: 'GenerationStatus' });
registerEnumType(StageName, { name: 'GenerationStageName', description: 'research, outline, content, quiz, safety: in this order' });
registerEnumType(StageStatus, { name: 'GenerationStageStatus' });

@InputType()
export class GenerateCourseInput {
  @Field(() => String, { description: '3 to 200 characters' })
  topic!: string;

  @Field(() => String, { description: 'beginner, intermediate or advanced' })
  level!: string;

  @Field(() => String, { description: '<min>-<max>, with 5 <= min <= max <= 18' })
  ageRange!: string;

  @Field(() => Int, { description: '1 to 30' })
  lessonCount!: number;
}

@ObjectType('GenerationStage')
export class GenerationStageView {
  @Field(() => StageName)
  name!: StageName;

  @Field(() => StageStatus)
  status!: StageStatus;

  @Field(() => Int)
  attempts!: number;

  @Field(() => GraphQLISODateTime, { nullable: true })
  startedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  finishedAt!: Date | null;

  @Field(() => String, { nullable: true, description: "The last attempt's error, kept when the stage failed" })
  error!: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'What the stage produced' })
  output!: Record<string, unknown> | null;

  @Field(() => Int, { description: 'Time spent waiting on model providers' })
  providerMs!: number;
}

@ObjectType('SafetyFinding')
export class SafetyFindingView {
  @Field(() => String, { description: 'violence, sexual, self_harm, hate, personal_data, external_link or age_fit' })
  category!: string;

  @Field(() => String, { description: 'builtin or moderation' })
  source!: string;

  @Field(() => String)
  field!: string;

  @Field(() => String)
  excerpt!: string;
}

@ObjectType('GeneratedLesson')
export class GeneratedLessonView {
  @Field(() => Int)
  position!: number;

  @Field(() => LocalizedTextView)
  title!: LocalizedTextView;

  @Field(() => LocalizedListView)
  objectives!: LocalizedListView;

  @Field(() => LocalizedTextView, { nullable: true })
  content!: LocalizedTextView | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Questions with their answers and explanations' })
  quiz!: Record<string, unknown> | null;

  @Field(() => [SafetyFindingView])
  findings!: SafetyFindingView[];

  @Field(() => Boolean)
  flagged!: boolean;

  @Field(() => Int, { description: 'How many times it was written again after being flagged' })
  revision!: number;
}

@ObjectType('CourseGeneration')
export class GenerationView {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  topic!: string;

  @Field(() => String)
  level!: string;

  @Field(() => String)
  ageRange!: string;

  @Field(() => Int)
  lessonCount!: number;

  @Field(() => GenerationStatus)
  status!: GenerationStatus;

  @Field(() => StageName, { nullable: true })
  currentStage!: StageName | null;

  @Field(() => [GenerationStageView])
  stages!: GenerationStageView[];

  @Field(() => Int, { description: '0 to 100' })
  progress!: number;

  @Field(() => ID, { nullable: true, description: 'The published course, once approved' })
  courseId!: string | null;

  @Field(() => String, { nullable: true })
  error!: string | null;

  @Field(() => ID)
  requestedById!: string;

  @Field(() => ID, { nullable: true, description: 'Who approved or rejected it' })
  decidedById!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  decidedAt!: Date | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

export const GenerationConnection = Connection(GenerationView, 'CourseGeneration');
