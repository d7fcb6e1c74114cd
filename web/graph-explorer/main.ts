// The GraphQL explorer at /graphql (a browser asking for HTML): GraphiQL, bundled by esbuild at
// `npm run build` with React, CodeMirror and graphql, so nothing comes from a CDN and the page runs
// under a strict Content-Security-Policy. It signs in through POST /auth/login and sends every
// query with that token: the API answers exactly what that account may see, as for any client.
import 'graphiql/graphiql.css';
import { GraphiQL } from 'graphiql';
import { createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';

const TOKEN_KEY = 'explorerToken';
const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
/** `admins` in production, `signed-in` (any account: developers) elsewhere; written by the server. */
const access =
  document.querySelector<HTMLMetaElement>('meta[name=explorer-access]')?.content === 'admins' ? 'admins' : 'signed-in';

const DEFAULT_QUERY = `# The graph starts at viewer (the signed-in account). Every list is a connection:
# first (at most 100) and after, edges { cursor node } or nodes, pageInfo, totalCount.
# Open the docs (the book icon) to read what each field is and who may see it.
query Dashboard {
  viewer {
    displayName
    unreadNotificationCount
    linkedLearners(first: 5) {
      nodes {
        displayName
        progress { streakDays }
        enrollments(first: 20) { nodes { course { title { en } } progress { percent } } }
        certificates { totalCount }
      }
    }
  }
}
`;

let token: string | null = sessionStorage.getItem(TOKEN_KEY);
let root: Root | null = null;

async function call<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(path, {
    ...init,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.headers ?? {}),
    },
  });
  return { status: response.status, body: (await response.json()) as T };
}

interface Me {
  user: { email: string; roles: string[] };
}

async function enter(): Promise<void> {
  const me = await call<Me & { message?: string }>('/auth/me');
  if (me.status !== 200) throw new Error(me.body.message ?? 'Log in again.');
  if (access === 'admins' && !me.body.user.roles.includes('admin'))
    throw new Error('In production the explorer is for admins.');
  $('#who').textContent = me.body.user.email;
  $('#login-view').hidden = true;
  $('#explorer-view').hidden = false;
  root ??= createRoot($('#graphiql'));
  root.render(
    createElement(GraphiQL, {
      fetcher: async (params) =>
        (await call('/graphql', { method: 'POST', body: JSON.stringify(params) })).body as never,
      defaultQuery: DEFAULT_QUERY,
      isHeadersEditorEnabled: false,
      shouldPersistHeaders: false,
    }),
  );
}

function leave(message = ''): void {
  token = null;
  sessionStorage.removeItem(TOKEN_KEY);
  $('#explorer-view').hidden = true;
  $('#login-view').hidden = false;
  $('#login-error').textContent = message;
}

$('#access-note').textContent =
  access === 'admins'
    ? 'Log in with an admin account to explore the API.'
    : 'Log in with any account: queries run as that account, with its permissions.';

$<HTMLFormElement>('#login-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  $('#login-error').textContent = '';
  call<{ accessToken?: string; message?: string }>('/auth/login', {
    method: 'POST',
    body: JSON.stringify({ email: form.get('email'), password: form.get('password') }),
  })
    .then(async (reply) => {
      if (!reply.body.accessToken) throw new Error(reply.body.message ?? 'The log-in failed.');
      token = reply.body.accessToken;
      sessionStorage.setItem(TOKEN_KEY, token);
      await enter();
    })
    .catch((error: Error) => leave(error.message));
});

$('#logout').addEventListener('click', () => leave());

if (token) enter().catch((error: Error) => leave(error.message));
else $('#login-view').hidden = false;
