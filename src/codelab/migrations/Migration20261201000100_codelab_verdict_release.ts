import { Migration } from '@mikro-orm/migrations';

/**
 * A submission's verdict is released at a moment fixed when it was submitted (`release_at`), by a job
 * of its own. Submissions judged before are released already; those still waiting get their release
 * job through the outbox, as new submissions do.
 */
export class Migration20261201000100_codelab_verdict_release extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "codelab_submissions" add column "release_at" timestamptz null;`);
    this.addSql(`update "codelab_submissions" set "release_at" = coalesce("finished_at", "created_at");`);
    this.addSql(`alter table "codelab_submissions" alter column "release_at" set not null;`);
    this.addSql(
      `insert into "outbox" ("kind", "name", "payload") select 'job', 'codelab-release', jsonb_build_object('submissionId', "id") from "codelab_submissions" where "status" <> 'completed';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "codelab_submissions" drop column "release_at";`);
  }
}
