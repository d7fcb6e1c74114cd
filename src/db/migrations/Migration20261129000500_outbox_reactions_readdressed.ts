import { Migration } from '@mikro-orm/migrations';

/**
 * Reactions waiting in the outbox when the areas were split go to the areas that react
 * now, so none is lost to "area ... does not react": a payment's sales count was commerce's and is
 * the catalog's; a revoked consent's hiding of public work was CodeLab's and is now the projects'
 * and the portfolio's, each a row of its own. Rows already given up (`failed_at`) move too, so that
 * retrying them by hand still works.
 */
export class Migration20261129000500_outbox_reactions_readdressed extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `update "outbox" set "name" = 'catalog' where "kind" = 'event' and "name" = 'commerce' and "payload" ->> 'type' = 'payment.succeeded';`,
    );
    this
      .addSql(`insert into "outbox" ("kind", "name", "payload", "attempts", "available_at", "failed_at", "last_error", "created_at")
      select "kind", 'portfolio', "payload", "attempts", "available_at", "failed_at", "last_error", "created_at" from "outbox"
      where "kind" = 'event' and "name" = 'codelab' and "payload" ->> 'type' = 'consentRevoked';`);
    this.addSql(
      `update "outbox" set "name" = 'projects' where "kind" = 'event' and "name" = 'codelab' and "payload" ->> 'type' = 'consentRevoked';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `update "outbox" set "name" = 'commerce' where "kind" = 'event' and "name" = 'catalog' and "payload" ->> 'type' = 'payment.succeeded';`,
    );
    this.addSql(
      `delete from "outbox" where "kind" = 'event' and "name" = 'portfolio' and "payload" ->> 'type' = 'consentRevoked';`,
    );
    this.addSql(
      `update "outbox" set "name" = 'codelab' where "kind" = 'event' and "name" = 'projects' and "payload" ->> 'type' = 'consentRevoked';`,
    );
  }
}
