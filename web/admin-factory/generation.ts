/** A generation as the factory API answers it. */
export interface Stage {
  name: string;
  status: string;
  attempts: number;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  output: unknown;
}

export interface Generation {
  id: string;
  topic: string;
  level: string;
  ageRange: string;
  lessonCount: number;
  status: string;
  currentStage: string | null;
  progress: number;
  courseId: string | null;
  error: string | null;
  createdAt: string;
  stages: Stage[];
  lessons?: GeneratedLesson[];
}

export interface GeneratedLesson {
  position: number;
  title: { en: string; vi: string };
  content: { en: string; vi: string } | null;
  quiz: {
    questions: { prompt: { en: string; vi: string }; options: { en: string; vi: string }[]; answerIndex: number }[];
  } | null;
  findings: { category: string; source: string; field: string; excerpt: string }[];
  flagged: boolean;
}

/**
 * A generation from the live subscription spelled as REST spells it: GraphQL names enum values in
 * ALL_CAPS (`AWAITING_APPROVAL`), the page keeps the REST answers' strings (`awaiting_approval`).
 */
export function restSpelling(g: Generation): Generation {
  const lower = (value: string) => value.toLowerCase();
  return {
    ...g,
    level: lower(g.level),
    status: lower(g.status),
    currentStage: g.currentStage && lower(g.currentStage),
    stages: g.stages.map((s) => ({ ...s, name: lower(s.name), status: lower(s.status) })),
  };
}
