import { createClient, type Client } from 'graphql-ws';
import { ApiFailure } from '../shared/api';
import { el } from '../shared/dom';
import { accessToken, call as authed, logIn, signedIn, signOut as endSession } from '../shared/session';
import { labelCells } from '../shared/table';
import { words } from '../shared/words';
import { type Generation, restSpelling } from './generation';

/**
 * The course factory's admin page: log in, start a generation, watch every generation's stages
 * live (one subscription per unfinished generation), read a generation's outputs and findings,
 * and decide. Everything goes through the service's public REST and GraphQL endpoints.
 */
const FINISHED = new Set(['awaiting_approval', 'flagged', 'failed', 'approved', 'rejected']);
const SUBSCRIPTION =
  'subscription($id: ID!) { generationStatusChanged(id: $id) { id topic level ageRange lessonCount status currentStage progress courseId error createdAt stages { name status attempts startedAt finishedAt error output } } }';

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
const generations = new Map<string, Generation>();
const watching = new Map<string, () => void>();
let live: Client | null = null;
let openId: string | null = null;

function show(view: 'login' | 'factory'): void {
  $('#login-view').hidden = view !== 'login';
  $('#factory-view').hidden = view !== 'factory';
  $('#logout').hidden = view !== 'factory';
}

/** Back to the log-in form; `end` ends the session too (Log out, or an account the page is not for). */
function backToLogIn(end = false): void {
  if (end) void endSession();
  for (const stop of watching.values()) stop();
  watching.clear();
  void live?.dispose();
  live = null;
  $('#who').textContent = '';
  show('login');
}

/** A call that sends the page back to log in when the session has ended. */
async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  try {
    return await authed<T>(method, path, body);
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 401 && !signedIn()) backToLogIn();
    throw error;
  }
}

async function enter(): Promise<void> {
  const me = await call<{ user: { email: string; roles: string[] } }>('GET', '/auth/me');
  if (!me.user.roles.some((role) => role === 'admin' || role === 'content_admin')) {
    backToLogIn(true);
    $('#login-error').textContent = 'This page is for admins and content admins.';
    return;
  }
  $('#who').textContent = me.user.email;
  live = createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    connectionParams: async () => ({ authorization: `Bearer ${await accessToken()}` }),
  });
  show('factory');
  await refresh();
}

async function refresh(): Promise<void> {
  const page = await call<{ items: Generation[] }>('GET', '/factory/generations?limit=50');
  generations.clear();
  for (const generation of page.items) generations.set(generation.id, generation);
  render();
  for (const generation of page.items) watch(generation);
}

/** Follows a generation until it needs a decision or is decided. */
function watch(generation: Generation): void {
  if (!live || FINISHED.has(generation.status) || watching.has(generation.id)) return;
  const stop = live.subscribe<{ generationStatusChanged: Generation }>(
    { query: SUBSCRIPTION, variables: { id: generation.id } },
    {
      next: ({ data }) => data && update(restSpelling(data.generationStatusChanged)),
      error: () => watching.delete(generation.id),
      complete: () => watching.delete(generation.id),
    },
  );
  watching.set(generation.id, stop);
}

function update(generation: Generation): void {
  generations.set(generation.id, { ...generations.get(generation.id), ...generation });
  if (FINISHED.has(generation.status)) {
    watching.get(generation.id)?.();
    watching.delete(generation.id);
  } else {
    watch(generation);
  }
  render();
  if (openId === generation.id && FINISHED.has(generation.status)) void openDetail(generation.id);
}

function render(): void {
  const newestFirst = [...generations.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const rows = newestFirst.map((g) => {
    const stages = el('div', null, { class: 'stages' });
    stages.append(
      ...g.stages.map((s) => el('span', null, { class: `stage ${s.status}`, title: `${s.name}: ${words(s.status)}` })),
    );
    const fill = el('div');
    // Set through the DOM: the page's CSP refuses inline style attributes.
    fill.style.width = `${g.progress}%`;
    const bar = el('div', null, {
      class: 'bar',
      role: 'progressbar',
      'aria-label': `Progress of “${g.topic}”`,
      'aria-valuenow': String(g.progress),
      'aria-valuemin': '0',
      'aria-valuemax': '100',
    });
    bar.append(fill);
    const row = el('tr', null, { 'data-id': g.id });
    for (const cell of [
      g.topic,
      g.level,
      g.ageRange,
      el('span', words(g.status), { class: 'status', 'data-status': g.status }),
      stages,
      bar,
    ]) {
      const td = el('td');
      td.append(cell);
      row.append(td);
    }
    row.addEventListener('click', () => void openDetail(g.id));
    return row;
  });
  $('#generations tbody').replaceChildren(...rows);
  labelCells($<HTMLTableElement>('#generations'));
}

async function openDetail(id: string): Promise<void> {
  openId = id;
  const g = await call<Generation>('GET', `/factory/generations/${id}`);
  generations.set(id, g);
  // Fetched before the detail is cleared, so that two openings at once cannot both fill it.
  const published = g.courseId ? await publishedCourse(g.courseId) : null;
  const detail = $('#detail');
  detail.hidden = false;
  detail.replaceChildren();
  const heading = document.createElement('h2');
  heading.textContent = `${g.topic} — ${words(g.status)}`;
  detail.append(heading);
  if (g.error) detail.append(paragraph(g.error, 'error'));
  if (published) detail.append(published);
  detail.append(actions(g));
  for (const stage of g.stages) {
    const block = el('details');
    block.append(el('summary', `${stage.name}: ${words(stage.status)} (attempts ${stage.attempts})`));
    if (stage.error) block.append(paragraph(stage.error, 'error'));
    const pre = document.createElement('pre');
    pre.textContent = stage.output ? JSON.stringify(stage.output, null, 2) : 'no output yet';
    block.append(pre);
    detail.append(block);
  }
  for (const lesson of g.lessons ?? []) {
    const block = el('details', null, { class: 'lesson' });
    block.append(
      el(
        'summary',
        `Lesson ${lesson.position}: ${lesson.title.en} / ${lesson.title.vi}${lesson.flagged ? ' — flagged' : ''}`,
      ),
    );
    for (const finding of lesson.findings)
      block.append(
        paragraph(`${finding.category} (${finding.source}) in ${finding.field}: ${finding.excerpt}`, 'finding'),
      );
    const pre = document.createElement('pre');
    pre.textContent = [lesson.content?.en, lesson.content?.vi, lesson.quiz ? JSON.stringify(lesson.quiz, null, 2) : '']
      .filter(Boolean)
      .join('\n\n---\n\n');
    block.append(pre);
    detail.append(block);
  }
  render();
}

function actions(g: Generation): HTMLElement {
  const bar = document.createElement('div');
  bar.className = 'actions';
  const button = (label: string, path: string, kind = '') => {
    const b = document.createElement('button');
    b.textContent = label;
    b.className = kind;
    b.addEventListener('click', async () => {
      b.disabled = true;
      try {
        update(await call<Generation>('POST', `/factory/generations/${g.id}/${path}`));
        await openDetail(g.id);
      } catch (error) {
        bar.append(paragraph((error as Error).message, 'error'));
        b.disabled = false;
      }
    });
    bar.append(b);
  };
  if (g.status === 'awaiting_approval') button('Approve', 'approve');
  if (g.status === 'flagged') button('Regenerate flagged lessons', 'regenerate', 'secondary');
  if (g.status === 'failed') button('Retry', 'retry', 'secondary');
  if (['awaiting_approval', 'flagged', 'failed'].includes(g.status)) button('Reject', 'reject', 'danger');
  return bar;
}

/** "Published as <the course's title>", a link to the course as the API serves it. */
async function publishedCourse(courseId: string): Promise<HTMLParagraphElement> {
  const course = await call<{ title: { en: string } }>('GET', `/courses/${courseId}`);
  const p = paragraph('Published as ', 'published');
  const link = document.createElement('a');
  link.href = `/courses/${courseId}`;
  link.textContent = course.title.en;
  p.append(link);
  return p;
}

function paragraph(text: string, className = ''): HTMLParagraphElement {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}

$<HTMLFormElement>('#login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  $('#login-error').textContent = '';
  try {
    await logIn(String(form.get('email')), String(form.get('password')));
    await enter();
  } catch (error) {
    $('#login-error').textContent = (error as Error).message;
  }
});

$<HTMLFormElement>('#generate-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  $('#generate-error').textContent = '';
  try {
    const generation = await call<Generation>('POST', '/factory/generate', {
      topic: form.get('topic'),
      level: form.get('level'),
      ageRange: form.get('ageRange'),
      lessonCount: Number(form.get('lessonCount')),
    });
    update(generation);
  } catch (error) {
    $('#generate-error').textContent = (error as Error).message;
  }
});

$('#logout').addEventListener('click', () => backToLogIn(true));

if (signedIn()) enter().catch(() => backToLogIn(true));
else show('login');
