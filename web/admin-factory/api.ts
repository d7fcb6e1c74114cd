/** The service's REST API, as the page uses it: JSON in and out, the error object on failure. */
export interface ApiError {
  error: string;
  message: string;
  details?: { field: string; message: string }[];
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
  ) {
    super(body.details?.length ? body.details.map((d) => `${d.field}: ${d.message}`).join('; ') : body.message);
  }
}

export async function api<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new ApiFailure(response.status, payload as ApiError);
  return payload as T;
}

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
  quiz: { questions: { prompt: { en: string; vi: string }; options: { en: string; vi: string }[]; answerIndex: number }[] } | null;
  findings: { category: string; source: string; field: string; excerpt: string }[];
  flagged: boolean;
}
