import { Migration } from '@mikro-orm/migrations';

/**
 * Who moved a guardian link may be an account of another region: an admin (whose account is kept in
 * global's database) approves or ends the link of a family kept in vn's. The actor's id stays in the
 * history; no foreign key can point at a row of another database.
 */
export class Migration20261204000000_transition_actor_of_any_region extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "guardian_link_transitions" drop constraint "guardian_link_transitions_actor_id_foreign";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `update "guardian_link_transitions" set "actor_id" = null where "actor_id" not in (select "id" from "users");`,
    );
    this.addSql(
      `alter table "guardian_link_transitions" add constraint "guardian_link_transitions_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }
}
