import { databaseUnavailable, reasons } from '../kernel/errors';

/** Why the health checks answer upstream_unavailable (docs/errors.md). */

const reason = reasons('health', {
  migrations_pending: 'upstream_unavailable',
  instance_stopping: 'upstream_unavailable',
  outbox_relay_stopped: 'upstream_unavailable',
  mail_transport_down: 'upstream_unavailable',
});

export const databaseUnreachable = () => databaseUnavailable('The database cannot be reached.');
export const migrationsPending = (pending: number) =>
  reason.migrations_pending(`Not ready: ${pending} database migration${pending === 1 ? ' is' : 's are'} not applied.`);
export const instanceLeaving = () => reason.instance_stopping('Not ready: this instance is stopping.');
export const outboxRelayStopped = () => reason.outbox_relay_stopped('Not ready: the outbox relay is not running.');
export const mailTransportDown = (transport: string) =>
  reason.mail_transport_down(`The ${transport === 'smtp' ? 'SMTP server' : 'mail outbox'} is not working.`);
