import { allow } from 'graphql-shield';
import { isContentEditor as staff } from '../permissions/rules';

export const factoryRules = {
  Query: { factoryGenerations: staff, factoryGeneration: staff },
  Mutation: {
    generateCourse: staff,
    approveGeneration: staff,
    rejectGeneration: staff,
    retryGeneration: staff,
    regenerateFlaggedLessons: staff,
  },
  // Checked when the subscription opens (server/ws.ts) and again on each event.
  Subscription: { generationStatusChanged: staff },
  CourseGeneration: allow,
  CourseGenerationConnection: allow,
  CourseGenerationEdge: allow,
  GenerationStage: allow,
  GeneratedLesson: allow,
  SafetyFinding: allow,
};
