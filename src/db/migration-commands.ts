import { Migration } from '@mikro-orm/migrations';
import type { MigrationObject } from '@mikro-orm/core';
import type { Orm } from './orm';

export interface MigrationState {
  name: string;
  applied: boolean;
  /** When it was applied (absent while pending). */
  executedAt?: Date;
}

/** Thrown when a revert is refused before anything ran: the message is for the operator. */
export class MigrationRefused extends Error {}

/** Every migration this build knows, in order, with whether the database has it; then any the build does not know. */
export async function migrationStatus(orm: Orm, known: readonly MigrationObject[]): Promise<MigrationState[]> {
  const executed = await orm.getMigrator().getExecutedMigrations();
  const appliedAt = new Map(executed.map((row) => [row.name, row.executed_at]));
  const states: MigrationState[] = known.map(({ name }) => ({
    name,
    applied: appliedAt.has(name),
    executedAt: appliedAt.get(name),
  }));
  const unknown = executed.filter((row) => !known.some((m) => m.name === row.name));
  return [...states, ...unknown.map((row) => ({ name: row.name, applied: true, executedAt: row.executed_at }))];
}

/**
 * Reverts the last applied migration, or (with `to`) every migration applied after `to`, which
 * stays applied. The whole plan is checked first: a migration this build does not know, or one
 * without its own `down`, refuses the command before any SQL runs, so a database is never left
 * half-reverted. The reverts then run in one transaction (`allOrNothing` in orm.ts).
 */
export async function revertMigrations(orm: Orm, known: readonly MigrationObject[], to?: string): Promise<string[]> {
  const migrator = orm.getMigrator();
  const applied = (await migrator.getExecutedMigrations()).map((row) => row.name);
  let plan: string[];
  if (to === undefined) {
    plan = applied.slice(-1);
    if (!plan.length) throw new MigrationRefused('No migration is applied: nothing to revert.');
  } else {
    const index = applied.indexOf(to);
    if (index < 0)
      throw new MigrationRefused(`${to} is not an applied migration (npm run db:migrate -- --status lists them).`);
    plan = applied.slice(index + 1);
  }
  plan.reverse();
  for (const name of plan) {
    const migration = known.find((m) => m.name === name);
    if (!migration) throw new MigrationRefused(`${name} is applied but unknown to this build: nothing was reverted.`);
    if (!hasDown(migration))
      throw new MigrationRefused(`${name} has no down(): it cannot be reverted, and nothing was reverted.`);
  }
  if (plan.length) await migrator.down({ migrations: plan });
  return plan;
}

/** A migration reverts only when it says how: MikroORM's base `down` throws. */
function hasDown(migration: MigrationObject): boolean {
  const down = (migration.class.prototype as Migration).down;
  return typeof down === 'function' && down !== Migration.prototype.down;
}
