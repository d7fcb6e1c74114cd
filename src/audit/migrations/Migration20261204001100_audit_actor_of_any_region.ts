import { Migration } from '@mikro-orm/migrations';

const PSEUDONYMISE_HEAD = `create or replace function audit_pseudonymise(person uuid, pseudonym uuid) returns void language plpgsql security definer set search_path = public as $$
      begin
        if not exists (select 1 from users where id = person) then raise exception 'audit_pseudonymise: the id is not an account''s'; end if;
        if exists (select 1 from users where id = pseudonym) then raise exception 'audit_pseudonymise: the pseudonym is an account''s id'; end if;`;
const PSEUDONYMISE_TAIL = `
        update audit_entries set target_id = pseudonym::text where target_id = person::text;
        update audit_entries set data = replace(data::text, person::text, pseudonym::text)::jsonb where strpos(data::text, person::text) > 0;
      end $$;`;

/**
 * An entry is recorded in the region where the action was done: an admin's action on a vn account in
 * vn's database, naming as actor an admin whose account is in global's. The actor's foreign key to
 * this database's accounts cannot hold there, so it goes. Its `on update cascade` made an erased
 * actor's entries name the pseudonym: `audit_pseudonymise` now does that itself.
 */
export class Migration20261204001100_audit_actor_of_any_region extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "audit_entries" drop constraint if exists "audit_entries_actor_id_foreign";`);
    this.addSql(
      `${PSEUDONYMISE_HEAD}
        update audit_entries set actor_id = pseudonym where actor_id = person;${PSEUDONYMISE_TAIL}`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`${PSEUDONYMISE_HEAD}${PSEUDONYMISE_TAIL}`);
    // Actors of another region named nobody here: they are left out, as an erased actor was (set null).
    this.addSql(`alter table "audit_entries" disable trigger "audit_entries_append_only";`);
    this.addSql(`update "audit_entries" set "actor_id" = null where "actor_id" not in (select "id" from "users");`);
    this.addSql(`alter table "audit_entries" enable trigger "audit_entries_append_only";`);
    this.addSql(
      `alter table "audit_entries" add constraint "audit_entries_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }
}
