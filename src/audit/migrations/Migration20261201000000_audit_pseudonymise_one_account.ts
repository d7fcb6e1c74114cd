import { Migration } from '@mikro-orm/migrations';

/**
 * `audit_pseudonymise` runs as the owner, past the trail's append-only trigger, and the service's
 * role may call it: it replaced any text with any text, so SQL run as the service could rewrite
 * every entry (`"role": "admin"` into `"role": "learner"`). It now takes an account's id and a
 * pseudonym, both uuids, and replaces that id alone: as the target, and in the data, where a uuid's
 * text cannot stand for anything but itself. The id must be an account's and the pseudonym no
 * account's (erasure pseudonymises the trail before the account's row takes its pseudonym), so it
 * can neither point one person's entries at another nor touch entries that name no account.
 */
export class Migration20261201000000_audit_pseudonymise_one_account extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop function if exists audit_pseudonymise(text, text);`);
    this.addSql(
      `create function audit_pseudonymise(person uuid, pseudonym uuid) returns void language plpgsql security definer set search_path = public as $$
      begin
        if not exists (select 1 from users where id = person) then raise exception 'audit_pseudonymise: the id is not an account''s'; end if;
        if exists (select 1 from users where id = pseudonym) then raise exception 'audit_pseudonymise: the pseudonym is an account''s id'; end if;
        update audit_entries set target_id = pseudonym::text where target_id = person::text;
        update audit_entries set data = replace(data::text, person::text, pseudonym::text)::jsonb where strpos(data::text, person::text) > 0;
      end $$;`,
    );
    this.addSql(`revoke all on function audit_pseudonymise(uuid, uuid) from public;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists audit_pseudonymise(uuid, uuid);`);
    this.addSql(
      `create function audit_pseudonymise(person text, pseudonym text) returns void language sql security definer set search_path = public as $$ update audit_entries set target_id = pseudonym where target_id = person; update audit_entries set data = replace(data::text, person, pseudonym)::jsonb where strpos(data::text, person) > 0; $$;`,
    );
    this.addSql(`revoke all on function audit_pseudonymise(text, text) from public;`);
  }
}
