import { Migration } from '@mikro-orm/migrations';

/**
 * The bell's unread count, kept by the database as notifications come, are read and go: reading it
 * is one row however many notifications a user has, and no code path can forget to update it.
 */
export class Migration20261122050000_notification_counters extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "notification_counters" ("user_id" uuid not null references "users" ("id") on delete cascade, "unread" integer not null default 0 check ("unread" >= 0), constraint "notification_counters_pkey" primary key ("user_id"));`,
    );
    this.addSql(`create function notification_counters_apply() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'DELETE' and new.read_at is null and (tg_op = 'INSERT' or old.read_at is not null) then
          insert into notification_counters (user_id, unread) values (new.user_id, 1)
            on conflict (user_id) do update set unread = notification_counters.unread + 1;
        end if;
        if tg_op <> 'INSERT' and old.read_at is null and (tg_op = 'DELETE' or new.read_at is not null) then
          update notification_counters set unread = unread - 1 where user_id = old.user_id;
        end if;
        return null;
      end $$;`);
    this.addSql(
      `create trigger notification_counters_apply after insert or update of read_at or delete on "notifications" for each row execute function notification_counters_apply();`,
    );
    this.addSql(
      `insert into notification_counters (user_id, unread) select user_id, count(*) from notifications where read_at is null group by user_id;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists notification_counters_apply on "notifications";`);
    this.addSql(`drop function if exists notification_counters_apply();`);
    this.addSql(`drop table if exists "notification_counters";`);
  }
}
