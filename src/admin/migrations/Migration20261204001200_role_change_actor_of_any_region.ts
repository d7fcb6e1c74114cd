import { Migration } from '@mikro-orm/migrations';

/**
 * A role change is kept with the account, in its home region's database, and its actor is an admin
 * whose account may be in another region's: the actor's foreign key to this database's accounts
 * cannot hold there, so it goes. An erased actor's changes are given the pseudonym by the admin
 * area's erasure, as the key's `on update cascade` did.
 */
export class Migration20261204001200_role_change_actor_of_any_region extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "role_changes" drop constraint if exists "role_changes_actor_id_foreign";`);
  }

  override async down(): Promise<void> {
    this.addSql(`update "role_changes" set "actor_id" = null where "actor_id" not in (select "id" from "users");`);
    this.addSql(
      `alter table "role_changes" add constraint "role_changes_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }
}
