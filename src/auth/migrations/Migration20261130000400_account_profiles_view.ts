import { Migration } from '@mikro-orm/migrations';

/**
 * What other areas may read of an account, as the accounts area declares it: the name shown, the address and language mail goes to, the country (its time zone) and the status. A certificate list or a guardian's report reads these without reading the accounts table.
 */
export class Migration20261130000400_account_profiles_view extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create view account_profiles as select id, display_name, email, locale, country, status from users;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop view if exists account_profiles;`);
  }
}
