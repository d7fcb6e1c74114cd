import { Migration } from '@mikro-orm/migrations';

/**
 * The courses that published products sell, kept by entitlements (told by the catalog from now on),
 * filled once from the products and courses as they stand.
 */
export class Migration20261130000300_courses_on_sale extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "courses_on_sale" ("course_id" uuid not null, "product_id" uuid not null, "author_id" uuid null, constraint "courses_on_sale_pkey" primary key ("course_id", "product_id"));`,
    );
    this.addSql(`create index "courses_on_sale_product_id_index" on "courses_on_sale" ("product_id");`);
    this.addSql(
      `alter table "courses_on_sale" add constraint "courses_on_sale_author_id_foreign" foreign key ("author_id") references "users" ("id") on update cascade on delete set null;`,
    );
    this.addSql(`insert into "courses_on_sale" ("course_id", "product_id", "author_id")
      select co.id, p.id, co.created_by_id from products p
        cross join lateral jsonb_array_elements_text(p.course_ids) as listed(course_id)
        join courses co on co.id = listed.course_id::uuid
       where p.status = 'published' and p.kind <> 'subscription'
      on conflict do nothing;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "courses_on_sale" cascade;`);
  }
}
