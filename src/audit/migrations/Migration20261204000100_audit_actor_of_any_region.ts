import { Migration } from '@mikro-orm/migrations';

/**
 * An entry is written in the database of the region whose rows the action changed, and its actor
 * may live in another (an admin, global's, acting on a Vietnamese account's refund): the actor's
 * account is not in that database, so the foreign key goes. What its cascade did at an erasure, the
 * pseudonymisation now does itself: the erased actor's id becomes the pseudonym, as target and data do.
 */
export class Migration20261204000100_audit_actor_of_any_region extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "audit_entries" drop constraint if exists "audit_entries_actor_id_foreign";`);
    this.addSql(pseudonymise(`update audit_entries set actor_id = pseudonym where actor_id = person;`));
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "audit_entries" add constraint "audit_entries_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on update cascade on delete set null;`,
    );
    this.addSql(pseudonymise(''));
  }
}

/** The owner's pseudonymisation of one account in the trail (its checks as before), with `actor` first. */
const pseudonymise = (actor: string) =>
  `create or replace function audit_pseudonymise(person uuid, pseudonym uuid) returns void language plpgsql security definer set search_path = public as $$
  begin
    if not exists (select 1 from users where id = person) then raise exception 'audit_pseudonymise: the id is not an account''s'; end if;
    if exists (select 1 from users where id = pseudonym) then raise exception 'audit_pseudonymise: the pseudonym is an account''s id'; end if;
    ${actor}
    update audit_entries set target_id = pseudonym::text where target_id = person::text;
    update audit_entries set data = replace(data::text, person::text, pseudonym::text)::jsonb where strpos(data::text, person::text) > 0;
  end $$;`;
