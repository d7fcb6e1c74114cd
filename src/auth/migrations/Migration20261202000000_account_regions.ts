import { Migration } from '@mikro-orm/migrations';

/**
 * Each account's home region (docs/residency.md): the region whose database keeps its personal data,
 * from its country at sign-up. Accounts made before regions existed are global's, where their rows are.
 */
export class Migration20261202000000_account_regions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users" add column "region" text not null default 'global';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users" drop column "region";`);
  }
}
