import { Migration } from '@mikro-orm/migrations';

/**
 * Revocations of `ai_memory` reach the privacy area as the consent area's event now, no longer by a
 * sweep of the consent ledger. The ones recorded before this version and not yet collected are
 * collected once here, so the upgrade forgets none.
 */
export class Migration20261130000200_memory_revocations_told extends Migration {
  override async up(): Promise<void> {
    this
      .addSql(`insert into ai_memory_deletions (ledger_entry_id, subject_id, status, attempts, next_attempt_at, created_at)
      select l.id, l.subject_id, 'pending', 0, l.created_at, now() from consent_ledger l
       where l.type = 'ai_memory' and l.action = 'revoked'
      on conflict do nothing;`);
  }

  override async down(): Promise<void> {
    // What was collected stays: each row is a request to the AI backend, done or still to do.
  }
}
