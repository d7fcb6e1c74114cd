import { Migration } from '@mikro-orm/migrations';

/**
 * Commerce: products, payments, idempotency keys, the webhook inbox, the double-entry ledger
 * (append-only and balanced, enforced by the database), entitlements, purchase requests, refunds
 * and the audit trail of every money-changing action.
 */
export class Migration20261124000000_commerce extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "products" ("id" uuid not null, "kind" text check ("kind" in ('subscription', 'course', 'bundle')) not null, "title" jsonb not null, "description" jsonb not null, "prices" jsonb not null, "tier" text check ("tier" in ('free', 'starter', 'pro')) null, "course_ids" jsonb not null default '[]', "seller_id" uuid null, "status" text check ("status" in ('draft', 'in_review', 'published', 'rejected', 'archived')) not null default 'draft', "review_reason" text null, "sales" integer not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "products_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "products_status_created_at_id_index" on "products" ("status", "created_at", "id");`);
    this.addSql(`create index "products_seller_id_index" on "products" ("seller_id");`);
    this.addSql(
      `alter table "products" add constraint "products_seller_id_foreign" foreign key ("seller_id") references "users" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `create table "payments" ("id" uuid not null, "payer_id" uuid not null, "beneficiary_id" uuid not null, "product_id" uuid not null, "price_id" text not null, "provider" text not null, "amount" bigint not null check ("amount" > 0), "currency" char(3) not null, "status" text check ("status" in ('pending', 'succeeded', 'failed', 'canceled', 'expired', 'partially_refunded', 'refunded')) not null default 'pending', "provider_ref" text null, "provider_charge" text null, "redirect_url" text null, "return_url" text null, "refunded_amount" bigint not null default 0, "expires_at" timestamptz not null, "succeeded_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "payments_pkey" primary key ("id"), constraint "payments_refunded_within" check ("refunded_amount" between 0 and "amount"));`,
    );
    this.addSql(`create index "payments_payer_id_created_at_id_index" on "payments" ("payer_id", "created_at", "id");`);
    this.addSql(`create index "payments_beneficiary_id_index" on "payments" ("beneficiary_id");`);
    this.addSql(`create index "payments_product_id_index" on "payments" ("product_id");`);
    this.addSql(`create index "payments_status_expires_at_index" on "payments" ("status", "expires_at");`);
    this.addSql(
      `create unique index "payments_provider_provider_ref_unique" on "payments" ("provider", "provider_ref") where "provider_ref" is not null;`,
    );
    this.addSql(
      `alter table "payments" add constraint "payments_payer_id_foreign" foreign key ("payer_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "payments" add constraint "payments_beneficiary_id_foreign" foreign key ("beneficiary_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "payments" add constraint "payments_product_id_foreign" foreign key ("product_id") references "products" ("id") on update cascade;`,
    );

    this.addSql(
      `create table "idempotency_keys" ("user_id" uuid not null, "key" text not null, "request_hash" text not null, "response" jsonb null, "created_at" timestamptz not null, constraint "idempotency_keys_pkey" primary key ("user_id", "key"));`,
    );

    this.addSql(
      `create table "webhook_events" ("id" uuid not null, "provider" text not null, "event_id" text not null, "type" text not null, "payment_id" uuid null, "payload" jsonb not null, "received_at" timestamptz not null, constraint "webhook_events_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "webhook_events" add constraint "webhook_events_provider_event_id_unique" unique ("provider", "event_id");`,
    );

    this.addSql(
      `create table "ledger_transactions" ("id" uuid not null, "kind" text check ("kind" in ('payment', 'fee_split', 'refund', 'chargeback')) not null, "payment_id" uuid not null, "refund_id" uuid null, "created_at" timestamptz not null, constraint "ledger_transactions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "ledger_transactions_payment_id_index" on "ledger_transactions" ("payment_id");`);
    this.addSql(
      `create table "ledger_entries" ("id" uuid not null, "transaction_id" uuid not null, "account" text not null, "amount" bigint not null check ("amount" <> 0), "currency" char(3) not null, "created_at" timestamptz not null, constraint "ledger_entries_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "ledger_entries_transaction_id_index" on "ledger_entries" ("transaction_id");`);
    this.addSql(`create index "ledger_entries_account_currency_index" on "ledger_entries" ("account", "currency");`);
    this.addSql(
      `alter table "ledger_entries" add constraint "ledger_entries_transaction_id_foreign" foreign key ("transaction_id") references "ledger_transactions" ("id") on update restrict on delete restrict;`,
    );
    // Balances per account and currency, kept by the database as entries arrive: reading them never
    // scans the ledger. Each account's balance is split over 16 slots, one per connection (its
    // backend pid), so concurrent payments never queue on one hot row (revenue:platform); a read sums them.
    this.addSql(
      `create table "ledger_balances" ("account" text not null, "currency" char(3) not null, "slot" smallint not null, "balance" bigint not null, "entries" bigint not null, constraint "ledger_balances_pkey" primary key ("account", "currency", "slot"));`,
    );
    this.addSql(
      `create function ledger_refuse_change() returns trigger language plpgsql as $$ begin raise exception 'the ledger is append-only: % on % refused', tg_op, tg_table_name; end $$;`,
    );
    for (const table of ['ledger_transactions', 'ledger_entries']) {
      this.addSql(
        `create trigger "${table}_append_only" before update or delete on "${table}" for each row execute function ledger_refuse_change();`,
      );
      this.addSql(
        `create trigger "${table}_no_truncate" before truncate on "${table}" for each statement execute function ledger_refuse_change();`,
      );
    }
    this.addSql(`create function ledger_check_balanced() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from ledger_entries where transaction_id = new.transaction_id group by currency having sum(amount) <> 0) then
          raise exception 'ledger transaction % does not sum to zero', new.transaction_id;
        end if;
        return null;
      end $$;`);
    this.addSql(
      `create constraint trigger "ledger_entries_balanced" after insert on "ledger_entries" deferrable initially deferred for each row execute function ledger_check_balanced();`,
    );
    this.addSql(`create function ledger_add_to_balance() returns trigger language plpgsql as $$
      begin
        insert into ledger_balances (account, currency, slot, balance, entries) values (new.account, new.currency, pg_backend_pid() % 16, new.amount, 1)
          on conflict (account, currency, slot) do update set balance = ledger_balances.balance + excluded.balance, entries = ledger_balances.entries + 1;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "ledger_entries_balance" after insert on "ledger_entries" for each row execute function ledger_add_to_balance();`,
    );

    this.addSql(
      `create table "entitlements" ("id" uuid not null, "user_id" uuid not null, "kind" text check ("kind" in ('tier', 'course')) not null, "tier" text check ("tier" in ('free', 'starter', 'pro')) null, "course_id" uuid null, "source" text check ("source" in ('purchase', 'grant', 'school')) not null, "payment_id" uuid null, "granted_by" uuid null, "starts_at" timestamptz not null, "ends_at" timestamptz null, "status" text check ("status" in ('active', 'expired', 'revoked')) not null default 'active', "created_at" timestamptz not null, constraint "entitlements_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "entitlements_user_id_status_index" on "entitlements" ("user_id", "status");`);
    this.addSql(`create index "entitlements_status_ends_at_index" on "entitlements" ("status", "ends_at");`);
    this.addSql(`create index "entitlements_payment_id_index" on "entitlements" ("payment_id");`);
    this.addSql(
      `alter table "entitlements" add constraint "entitlements_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "entitlements" add constraint "entitlements_payment_id_foreign" foreign key ("payment_id") references "payments" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `create table "purchase_requests" ("id" uuid not null, "learner_id" uuid not null, "product_id" uuid not null, "price_id" text not null, "status" text check ("status" in ('pending', 'approved', 'declined')) not null default 'pending', "decided_by" uuid null, "decided_at" timestamptz null, "payment_id" uuid null, "created_at" timestamptz not null, constraint "purchase_requests_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "purchase_requests_learner_id_index" on "purchase_requests" ("learner_id");`);
    this.addSql(
      `alter table "purchase_requests" add constraint "purchase_requests_learner_id_foreign" foreign key ("learner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "purchase_requests" add constraint "purchase_requests_product_id_foreign" foreign key ("product_id") references "products" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "refunds" ("id" uuid not null, "payment_id" uuid not null, "requested_by_id" uuid not null, "amount" bigint not null check ("amount" > 0), "currency" char(3) not null, "reason" text not null, "status" text check ("status" in ('requested', 'processing', 'succeeded', 'rejected', 'failed')) not null default 'requested', "provider_ref" text null, "decided_by" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "refunds_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "refunds_payment_id_index" on "refunds" ("payment_id");`);
    this.addSql(`create index "refunds_requested_by_id_index" on "refunds" ("requested_by_id");`);
    this.addSql(
      `alter table "refunds" add constraint "refunds_payment_id_foreign" foreign key ("payment_id") references "payments" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "refunds" add constraint "refunds_requested_by_id_foreign" foreign key ("requested_by_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "commerce_audit" ("id" uuid not null, "actor_id" uuid null, "action" text not null, "target" text not null, "data" jsonb not null default '{}', "created_at" timestamptz not null, constraint "commerce_audit_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "commerce_audit_created_at_index" on "commerce_audit" ("created_at");`);
  }

  override async down(): Promise<void> {
    for (const table of [
      'commerce_audit',
      'refunds',
      'purchase_requests',
      'entitlements',
      'ledger_balances',
      'ledger_entries',
      'ledger_transactions',
      'webhook_events',
      'idempotency_keys',
      'payments',
      'products',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
    this.addSql('drop function if exists ledger_refuse_change(), ledger_check_balanced(), ledger_add_to_balance();');
  }
}
