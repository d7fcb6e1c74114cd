import { declaredReasons, errorStatus } from '../kernel/errors';
// Every declaration loaded, wherever the table is written from: the areas', and the WebSocket
// front's (declared where it is, which the areas do not load).
import '../areas';
import '../server/server.errors';

const START = '<!-- The table below is written by `npm run schema:emit` from the reasons the code declares. -->';
const END = '<!-- End of the written table. -->';

/** Every declared reason, by area, with its status and kind, as docs/errors.md shows them. */
export function reasonsTable(): string {
  const rows = [...declaredReasons]
    .sort(([a, x], [b, y]) => x.area.localeCompare(y.area) || a.localeCompare(b))
    .map(([reason, { area, kind }]) => `| ${area} | \`${reason}\` | ${errorStatus[kind]} | \`${kind}\` |`);
  return [START, '', '| declared by | `reason` | HTTP | `error` |', '|---|---|---|---|', ...rows, '', END].join('\n');
}

/** docs/errors.md with its table of reasons as the code declares them now. */
export function withReasonsTable(doc: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error('docs/errors.md has lost the markers of its table of reasons.');
  return doc.slice(0, start) + reasonsTable() + doc.slice(end + END.length);
}
