import { Migration } from '@mikro-orm/migrations';

/**
 * Every change of a country policy sends `accessChanged` for everybody (`*`), at commit, to every
 * instance: cached decisions drop every entry, as a policy may concern anyone.
 * The trigger was the AI area's (src/ai/migrations/Migration20261124100000_ai_access_events); it is the country policy area's own now: no area keeps triggers on
 * another's tables (its caches only listen to `accessChanged`).
 */
export class Migration20261129000300_country_policy_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop trigger if exists access_changed_notify on "country_policies";`);
    this.addSql(
      `create trigger country_policy_changed after insert or update or delete on "country_policies" for each row execute function access_changed_notify();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists country_policy_changed on "country_policies";`);
    this.addSql(
      `create trigger access_changed_notify after insert or update or delete on "country_policies" for each row execute function access_changed_notify();`,
    );
  }
}
