import { Migration } from '@mikro-orm/migrations';

/**
 * Every change of a guardian's AI settings for a learner sends `accessChanged` with the learner's
 * id, at commit, to every instance: cached decisions (the AI proxy's) drop that learner's entry.
 * The trigger was the AI area's (src/ai/migrations/Migration20261124100000_ai_access_events); it is the guardian area's own now: no area keeps triggers on
 * another's tables (its caches only listen to `accessChanged`).
 */
export class Migration20261129000200_ai_access_setting_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop trigger if exists access_changed_notify on "learner_ai_access";`);
    this.addSql(
      `create trigger ai_access_setting_changed after insert or update or delete on "learner_ai_access" for each row execute function access_changed_notify('learner_id');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists ai_access_setting_changed on "learner_ai_access";`);
    this.addSql(
      `create trigger access_changed_notify after insert or update or delete on "learner_ai_access" for each row execute function access_changed_notify('learner_id');`,
    );
  }
}
