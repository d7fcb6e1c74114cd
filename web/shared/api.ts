/** The service's REST API, as the page uses it: JSON in and out, the error object on failure. */
export interface ApiError {
  error: string;
  message: string;
  reason?: string;
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
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new ApiFailure(response.status, payload as ApiError);
  return payload as T;
}
