import { Migration } from '@mikro-orm/migrations';

/**
 * Where each account lives, kept in global's database for the paths that start without a token (a
 * log-in, a mailed link): the account's id, its region, and a keyed hash of its address, unique, so
 * that one address has one account across every region. Never the address itself.
 */
export class Migration20261203000000_account_directory extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "account_regions" (
      "id" uuid primary key,
      "region" text not null,
      "address_key" text not null unique,
      "created_at" timestamptz not null default now()
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "account_regions";`);
  }
}
