import { Migration } from '@mikro-orm/migrations';

/**
 * Every change of a consent sends `accessChanged` with its subject's id, at commit, to every
 * instance: cached decisions (the AI proxy's) drop that person's entry.
 * The trigger was the AI area's (src/ai/migrations/Migration20261124100000_ai_access_events); it is the consent area's own now: no area keeps triggers on
 * another's tables (its caches only listen to `accessChanged`).
 */
export class Migration20261129000100_consent_access_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop trigger if exists access_changed_notify on "consents";`);
    this.addSql(
      `create trigger consent_access_changed after insert or update or delete on "consents" for each row execute function access_changed_notify('subject_id');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists consent_access_changed on "consents";`);
    this.addSql(
      `create trigger access_changed_notify after insert or update or delete on "consents" for each row execute function access_changed_notify('subject_id');`,
    );
  }
}
