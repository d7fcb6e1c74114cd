import { Migration } from '@mikro-orm/migrations';

/**
 * Erasure renames a person's ledger accounts (`customer:<id>`, `payable:creator:<id>`) to their
 * pseudonym, so that the kept ledger cannot be joined to the old id. The ledger stays append-only
 * for every other write: the trigger lets an UPDATE of `ledger_entries` through only when it
 * changes nothing but the account, from `<kind>:<id>` to `<kind>:<pseudonym>`, inside a transaction
 * that named that pair (`ledger.erasure`, set local by the erasure), while an erasure of that person
 * is running (`gdpr_requests`). Amounts, currencies and transactions can never change; deletes and
 * truncates are refused as before.
 */
export class Migration20261127100000_ledger_pseudonyms extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function ledger_entries_refuse_change() returns trigger language plpgsql as $$
      declare
        kind text := substring(old.account from '^(customer|payable:creator):[0-9a-f-]{36}$');
        subject text := substring(old.account from '([0-9a-f-]{36})$');
      begin
        if tg_op = 'UPDATE' and kind is not null
           and new.id = old.id and new.transaction_id = old.transaction_id and new.amount = old.amount
           and new.currency = old.currency and new.created_at = old.created_at
           and current_setting('ledger.erasure', true) = subject || ' ' || substring(new.account from length(kind) + 2)
           and new.account ~ ('^' || kind || ':[0-9a-f-]{36}$')
           and exists (select 1 from gdpr_requests g where g.subject_id::text = subject and g.kind = 'deletion' and g.status = 'running') then
          return new;
        end if;
        raise exception 'the ledger is append-only: % on % refused', tg_op, tg_table_name;
      end $$;`);
    this.addSql(`drop trigger "ledger_entries_append_only" on "ledger_entries";`);
    this.addSql(
      `create trigger "ledger_entries_append_only" before update or delete on "ledger_entries" for each row execute function ledger_entries_refuse_change();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "ledger_entries_append_only" on "ledger_entries";`);
    this.addSql(
      `create trigger "ledger_entries_append_only" before update or delete on "ledger_entries" for each row execute function ledger_refuse_change();`,
    );
    this.addSql(`drop function ledger_entries_refuse_change();`);
  }
}
