import { Migration } from '@mikro-orm/migrations';
import { createdBefore } from '../../kernel/migration-parts';

/**
 * The certificates area's tables, once created by Migration20261122040000_learning with other areas'
 * tables: a database that ran it under that name has them (createdBefore), a new one gets them here.
 */
export class Migration20261122040000_learning_certificates extends Migration {
  override async up(): Promise<void> {
    if (await createdBefore(this, 'certificates')) return;
    this.addSql(
      `create table "certificates" ("id" uuid not null, "learner_id" uuid not null, "course_id" uuid not null, "code" text not null, "average_score" smallint not null, "issued_at" timestamptz not null, constraint "certificates_pkey" primary key ("id"));`,
    );

    this.addSql(`alter table "certificates" add constraint "certificates_code_unique" unique ("code");`);

    this.addSql(
      `alter table "certificates" add constraint "certificates_learner_id_course_id_unique" unique ("learner_id", "course_id");`,
    );

    this.addSql(
      `alter table "certificates" add constraint "certificates_learner_id_foreign" foreign key ("learner_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "certificates" add constraint "certificates_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "certificates" drop constraint "certificates_course_id_foreign";`);

    this.addSql(`drop table if exists "certificates" cascade;`);
  }
}
