import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000_accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "users" ("id" uuid not null, "email" text not null, "password_hash" text not null, "display_name" text not null, "roles" text[] not null, "birth_date" date null, "country" char(2) not null, "locale" text check ("locale" in ('vi', 'en')) not null default 'en', "tier" text check ("tier" in ('free', 'starter', 'pro')) not null default 'free', "status" text check ("status" in ('active', 'pending_guardian')) not null default 'active', "email_verified_at" timestamptz null, "guardian_email" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "users_pkey" primary key ("id"));`,
    );

    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(`create index "users_created_at_id_index" on "users" ("created_at", "id");`);

    this.addSql(
      `create table "refresh_tokens" ("id" uuid not null, "user_id" uuid not null, "family_id" uuid not null, "token_hash" text not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "revoked_at" timestamptz null, "created_at" timestamptz not null, constraint "refresh_tokens_pkey" primary key ("id"));`,
    );

    this.addSql(`create index "refresh_tokens_user_id_index" on "refresh_tokens" ("user_id");`);

    this.addSql(`create index "refresh_tokens_family_id_index" on "refresh_tokens" ("family_id");`);

    this.addSql(
      `alter table "refresh_tokens" add constraint "refresh_tokens_token_hash_unique" unique ("token_hash");`,
    );

    this.addSql(
      `create table "account_tokens" ("id" uuid not null, "user_id" uuid not null, "purpose" text check ("purpose" in ('verify_email', 'reset_password')) not null, "token_hash" text not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, constraint "account_tokens_pkey" primary key ("id"));`,
    );

    this.addSql(`create index "account_tokens_user_id_index" on "account_tokens" ("user_id");`);

    this.addSql(
      `alter table "account_tokens" add constraint "account_tokens_token_hash_unique" unique ("token_hash");`,
    );

    this.addSql(
      `alter table "refresh_tokens" add constraint "refresh_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "account_tokens" add constraint "account_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "account_tokens" cascade;`);

    this.addSql(`drop table if exists "refresh_tokens" cascade;`);

    this.addSql(`drop table if exists "users" cascade;`);
  }
}
