import { Migration } from '@mikro-orm/migrations';

const userColumns = ['roles', 'birth_date', 'country', 'locale', 'tier', 'status', 'email_verified_at'];

/**
 * The AI area kept two triggers on `users` (src/ai/migrations/Migration20261124100000_ai_access_events):
 * a change of the columns its checks read, and a deletion. The first is covered by the account's own
 * trigger (Migration20261128100000_account_change_events: any change, under the id the row had);
 * the second is the account's own now. No area keeps triggers on another's tables.
 */
export class Migration20261129000400_account_deleted_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop trigger if exists access_changed_notify on "users";`);
    this.addSql(`drop trigger if exists access_changed_notify_delete on "users";`);
    this.addSql(
      `create trigger account_deleted_notify after delete on "users" for each row execute function access_changed_notify('id');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists account_deleted_notify on "users";`);
    const distinct = `(${userColumns.map((c) => `old."${c}"`).join(', ')}) is distinct from (${userColumns.map((c) => `new."${c}"`).join(', ')})`;
    this.addSql(
      `create trigger access_changed_notify after update on "users" for each row when (${distinct}) execute function access_changed_notify('id');`,
    );
    this.addSql(
      `create trigger access_changed_notify_delete after delete on "users" for each row execute function access_changed_notify('id');`,
    );
  }
}
