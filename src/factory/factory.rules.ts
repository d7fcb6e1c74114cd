import { allow } from 'graphql-shield';
import { isContentEditor as staff } from '../permissions/rules';

export const factoryRules = {
  Query: { factoryGenerations: staff, factoryGeneration: staff },
  Mutation: { generateCourse: staff, approveGeneration: staff, rejectGeneration: staff, retryGeneration: staff, regenerateFlaggedLessons: staff },
  // Checked at subscribe time by @Authorized, and again on each event here.
  Subscription: { generationStatusChanged: staff },
  CourseGeneration: allow,
  CourseGenerationConnection: allow,
  CourseGenerationEdge: allow,
  GenerationStage: allow,
  GeneratedLesson: allow,
  SafetyFinding: allow,
};
