import { Migration } from '@mikro-orm/migrations';

const channel = 'learning_platform_events';
/** Each table whose rows decide what a person may do with the AI tutor, and the column naming the person (none: everybody). */
const watched: { table: string; person?: string }[] = [
  { table: 'consents', person: 'subject_id' },
  { table: 'learner_ai_access', person: 'learner_id' },
  { table: 'country_policies' },
];
/** The account's columns that the AI checks read (status, tier, roles, age, country, locale, verification). */
const userColumns = ['roles', 'birth_date', 'country', 'locale', 'tier', 'status', 'email_verified_at'];

/**
 * Every change to what the AI proxy's cached decisions are made of sends `accessChanged` with the
 * person's id (or `*`) on the event channel, from the database itself: no code path, admin tool or
 * hand-written SQL can change a consent, a guardian's switch, a policy or an account without every
 * instance dropping its cached decision. NOTIFY is sent at commit, never for a rolled-back change.
 */
export class Migration20261124100000_ai_access_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function access_changed_notify() returns trigger language plpgsql as $$
      declare
        changed jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
      begin
        perform pg_notify('${channel}', json_build_object('type', 'accessChanged', 'detail', coalesce(changed ->> tg_argv[0], '*'))::text);
        return null;
      end $$;`);
    for (const { table, person } of watched) {
      this.addSql(
        `create trigger access_changed_notify after insert or update or delete on "${table}" for each row execute function access_changed_notify(${person ? `'${person}'` : ''});`,
      );
    }
    const distinct = `(${userColumns.map((c) => `old."${c}"`).join(', ')}) is distinct from (${userColumns.map((c) => `new."${c}"`).join(', ')})`;
    this.addSql(
      `create trigger access_changed_notify after update on "users" for each row when (${distinct}) execute function access_changed_notify('id');`,
    );
    this.addSql(
      `create trigger access_changed_notify_delete after delete on "users" for each row execute function access_changed_notify('id');`,
    );
  }

  override async down(): Promise<void> {
    for (const { table } of watched) this.addSql(`drop trigger if exists access_changed_notify on "${table}";`);
    this.addSql(`drop trigger if exists access_changed_notify on "users";`);
    this.addSql(`drop trigger if exists access_changed_notify_delete on "users";`);
    this.addSql(`drop function if exists access_changed_notify();`);
  }
}
