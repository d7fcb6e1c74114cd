// The admin console: stats, users (search, roles, suspend), audit, flags, contact messages. Every
// call goes through the REST API with the admin's token; the API checks the role each time.
import { el } from '../shared/dom';
import { formatMoney } from '../../src/kernel/money';
import { call as api, logIn, signedIn, signOut } from '../shared/session';
import { labelCells } from '../shared/table';
import { noun, words } from '../shared/words';

/** The signed-in admin: the API refuses to let anyone suspend themselves, so their row offers no Suspend. */
let meId: string | null = null;

const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector(selector) as T;

function row(cells: (string | HTMLElement)[]): HTMLTableRowElement {
  const tr = document.createElement('tr');
  for (const cell of cells) {
    const td = document.createElement('td');
    if (typeof cell === 'string') td.textContent = cell;
    else td.append(cell);
    tr.append(td);
  }
  return tr;
}

/** Fills a table's body, each cell named after its column for the narrow-screen layout. */
function fill(selector: string, rows: HTMLTableRowElement[]): void {
  const table = $<HTMLTableElement>(selector);
  table.tBodies[0].replaceChildren(...rows);
  labelCells(table);
}

function showError(error: unknown): void {
  $('#console-error').textContent = error instanceof Error ? error.message : String(error);
}

/** The log-in form, with what ended the session when something did. */
function showLogin(error?: unknown): void {
  $('#who').textContent = '';
  $('#logout').hidden = true;
  $('#login-view').hidden = false;
  $('#console-view').hidden = true;
  if (error instanceof Error && error.message) $('#login-error').textContent = error.message;
}

async function guarded(work: () => Promise<void>): Promise<void> {
  $('#console-error').textContent = '';
  try {
    await work();
  } catch (error) {
    if (signedIn()) showError(error);
    else showLogin(error);
  }
}

interface User {
  id: string;
  email: string;
  displayName: string;
  roles: string[];
  status: string;
}

async function loadStats(): Promise<void> {
  const stats = await api<{
    usersByRole: { role: string; count: number }[];
    usersByStatus: { status: string; count: number }[];
    activeLearners7d: number;
    activeLearners30d: number;
    enrollments: number;
    certificates: number;
    aiMessagesToday: number;
    revenueThisMonth: { currency: string; amount: number }[];
  }>('GET', '/admin/stats');
  const cards: [string, string | number][] = [
    ...stats.usersByRole.map((r): [string, number] => [noun(r.count, words(r.role)), r.count]),
    ...stats.usersByStatus.map((s): [string, number] => [`${words(s.status)} ${noun(s.count, 'account')}`, s.count]),
    [`${noun(stats.activeLearners7d, 'learner')} active (7 days)`, stats.activeLearners7d],
    [`${noun(stats.activeLearners30d, 'learner')} active (30 days)`, stats.activeLearners30d],
    [noun(stats.enrollments, 'enrollment'), stats.enrollments],
    [noun(stats.certificates, 'certificate'), stats.certificates],
    [`AI ${noun(stats.aiMessagesToday, 'message')} today`, stats.aiMessagesToday],
    ...stats.revenueThisMonth.map((r): [string, string] => [
      `revenue this month (${r.currency})`,
      formatMoney(r.amount, r.currency, document.documentElement.lang),
    ]),
  ];
  $('#stats').replaceChildren(
    ...cards.map(([label, value]) => {
      const card = el('div', label, { class: 'card' });
      card.prepend(el('b', String(value)));
      return card;
    }),
  );
}

/** Suspend or Reactivate: what the API allows for someone else's account in its status. */
function userAction(user: User): HTMLElement {
  const suspended = user.status === 'suspended';
  const action = el('button', suspended ? 'Reactivate' : 'Suspend', {
    class: suspended ? 'secondary' : 'danger',
    'data-user': user.email,
  });
  action.addEventListener('click', () =>
    guarded(async () => {
      await api('POST', `/admin/users/${user.id}/${suspended ? 'reactivate' : 'suspend'}`, {});
      await loadUsers();
    }),
  );
  return action;
}

async function loadUsers(): Promise<void> {
  const form = new FormData($<HTMLFormElement>('#user-search'));
  const query = new URLSearchParams({ limit: '50' });
  for (const key of ['email', 'role']) if (form.get(key)) query.set(key, String(form.get(key)));
  const { items } = await api<{ items: User[] }>('GET', `/admin/users?${query}`);
  fill(
    '#users',
    items.map((user) => {
      const tr = row([
        user.email,
        user.displayName,
        user.roles.map(words).join(', '),
        words(user.status),
        user.id === meId ? '' : userAction(user),
      ]);
      tr.dataset.email = user.email;
      return tr;
    }),
  );
}

async function loadAudit(): Promise<void> {
  const { items } = await api<{
    items: {
      createdAt: string;
      actorEmail: string | null;
      action: string;
      targetType: string | null;
      targetId: string | null;
      data: unknown;
    }[];
  }>('GET', '/admin/audit?limit=100');
  fill(
    '#audit',
    items.map((e) =>
      row([
        new Date(e.createdAt).toLocaleString(),
        e.actorEmail ?? 'system',
        e.action,
        `${e.targetType ?? ''} ${e.targetId ?? ''}`.trim(),
        el('pre', JSON.stringify(e.data)),
      ]),
    ),
  );
}

async function loadFlags(): Promise<void> {
  const { items } = await api<{ items: { key: string; description: string; enabled: boolean; rules: unknown[] }[] }>(
    'GET',
    '/admin/features',
  );
  fill(
    '#flags',
    items.map((flag) => {
      const toggle = el('button', flag.enabled ? 'Turn off' : 'Turn on', {
        class: flag.enabled ? 'danger' : 'secondary',
      });
      toggle.addEventListener('click', () =>
        guarded(async () => {
          await api('PUT', `/admin/features/${encodeURIComponent(flag.key)}`, {
            enabled: !flag.enabled,
            description: flag.description,
            rules: flag.rules,
          });
          await loadFlags();
        }),
      );
      return row([
        flag.key,
        flag.description,
        flag.enabled ? 'on' : 'off',
        el('pre', JSON.stringify(flag.rules)),
        toggle,
      ]);
    }),
  );
}

async function loadContact(): Promise<void> {
  const { items } = await api<{
    items: { id: string; createdAt: string; name: string; email: string; subject: string; status: string }[];
  }>('GET', '/contact/messages?limit=100');
  fill(
    '#contact',
    items.map((m) => {
      const resolve = el('button', 'Resolve', { class: 'secondary' });
      resolve.toggleAttribute('disabled', m.status === 'resolved');
      resolve.addEventListener('click', () =>
        guarded(async () => {
          await api('POST', `/contact/messages/${m.id}/resolve`, {});
          await loadContact();
        }),
      );
      return row([
        new Date(m.createdAt).toLocaleString(),
        `${m.name} <${m.email}>`,
        m.subject,
        words(m.status),
        resolve,
      ]);
    }),
  );
}

const loaders: Record<string, () => Promise<void>> = {
  stats: loadStats,
  users: loadUsers,
  audit: loadAudit,
  flags: loadFlags,
  contact: loadContact,
};

function showTab(tab: string): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('nav button'))
    button.classList.toggle('active', button.dataset.tab === tab);
  for (const panel of document.querySelectorAll<HTMLElement>('[data-panel]'))
    panel.hidden = panel.dataset.panel !== tab;
  void guarded(loaders[tab]);
}

async function enter(): Promise<void> {
  try {
    const me = await api<{ user: User }>('GET', '/auth/me');
    if (!me.user.roles.includes('admin')) throw new Error('This console is for admins.');
    meId = me.user.id;
    $('#who').textContent = me.user.email;
    $('#logout').hidden = false;
    $('#login-view').hidden = true;
    $('#console-view').hidden = false;
    showTab('stats');
  } catch (error) {
    await signOut();
    showLogin(error);
  }
}

$('#login-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  $('#login-error').textContent = '';
  logIn(String(form.get('email')), String(form.get('password')))
    .then(enter)
    .catch((error: Error) => ($('#login-error').textContent = error.message));
});

$('#logout').addEventListener('click', () => void signOut().then(() => location.reload()));

$('#user-search').addEventListener('submit', (event) => {
  event.preventDefault();
  void guarded(loadUsers);
});

for (const button of document.querySelectorAll<HTMLButtonElement>('nav button'))
  button.addEventListener('click', () => showTab(button.dataset.tab!));

if (signedIn()) void enter();
else showLogin();
