import { Migration } from '@mikro-orm/migrations';

/**
 * The audit trail is append-only, as the ledger is: the service's role can neither change nor delete
 * an entry. Erasure pseudonymises the erased person's id in it through `audit_pseudonymise`, a
 * function of the owner's; the foreign key's `set null` on an erased actor also runs as the owner.
 * Both run as the owner, not as the session's role, and that is what the trigger tells apart.
 */
export class Migration20261125100000_audit_append_only extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create function audit_refuse_change() returns trigger language plpgsql as $$ begin if current_user = session_user then raise exception 'the audit trail is append-only: % on % refused', tg_op, tg_table_name; end if; return case when tg_op = 'DELETE' then old else new end; end $$;`,
    );
    this.addSql(
      `create trigger "audit_entries_append_only" before update or delete on "audit_entries" for each row execute function audit_refuse_change();`,
    );
    this.addSql(
      `create function audit_pseudonymise(person text, pseudonym text) returns void language sql security definer set search_path = public as $$ update audit_entries set target_id = pseudonym where target_id = person; update audit_entries set data = replace(data::text, person, pseudonym)::jsonb where strpos(data::text, person) > 0; $$;`,
    );
    this.addSql(`revoke all on function audit_pseudonymise(text, text) from public;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists audit_pseudonymise(text, text);`);
    this.addSql(`drop trigger if exists "audit_entries_append_only" on "audit_entries";`);
    this.addSql(`drop function if exists audit_refuse_change();`);
  }
}
