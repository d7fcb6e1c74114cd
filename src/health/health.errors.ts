import { AppError } from '../kernel/errors';

/** Why the health checks answer upstream_unavailable (DESIGN.md 4.2). */

export const databaseUnreachable = () => new AppError('upstream_unavailable', 'The database cannot be reached.');
export const migrationsPending = (pending: number) => new AppError('upstream_unavailable', `Not ready: ${pending} database migration${pending === 1 ? ' is' : 's are'} not applied.`);
export const instanceLeaving = () => new AppError('upstream_unavailable', 'Not ready: this instance is stopping.');
export const outboxRelayStopped = () => new AppError('upstream_unavailable', 'Not ready: the outbox relay is not running.');
export const mailTransportDown = (transport: string) => new AppError('upstream_unavailable', `The ${transport === 'smtp' ? 'SMTP server' : 'mail outbox'} is not working.`);
