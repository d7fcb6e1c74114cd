import { Migration } from '@mikro-orm/migrations';

/**
 * An entry is kept in the database of the region whose rows the action touched, and its actor may
 * be an account of another region (a platform admin is global's, acting on a school of Viet Nam):
 * the actor's id is no longer a foreign key to this database's users. Erasure, which the key's
 * cascade followed, now replaces the actor's id itself, with the target's and the data's.
 */
export class Migration20261204000100_audit_actors_of_any_region extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "audit_entries" drop constraint if exists "audit_entries_actor_id_foreign";`);
    this.addSql(pseudonymise(`update audit_entries set actor_id = pseudonym where actor_id = person;`));
  }

  override async down(): Promise<void> {
    this.addSql(pseudonymise(''));
    this.addSql(
      `alter table "audit_entries" add constraint "audit_entries_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }
}

/** `audit_pseudonymise` as Migration20261201000000 made it, with `actor` run first. */
const pseudonymise = (actor: string) =>
  `create or replace function audit_pseudonymise(person uuid, pseudonym uuid) returns void language plpgsql security definer set search_path = public as $$
      begin
        if not exists (select 1 from users where id = person) then raise exception 'audit_pseudonymise: the id is not an account''s'; end if;
        if exists (select 1 from users where id = pseudonym) then raise exception 'audit_pseudonymise: the pseudonym is an account''s id'; end if;
        ${actor}
        update audit_entries set target_id = pseudonym::text where target_id = person::text;
        update audit_entries set data = replace(data::text, person::text, pseudonym::text)::jsonb where strpos(data::text, person::text) > 0;
      end $$;`;
