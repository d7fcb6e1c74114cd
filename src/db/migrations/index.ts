import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_accounts } from './Migration20261122000000_accounts';
import { Migration20261122010000_notifications } from './Migration20261122010000_notifications';
import { Migration20261122020000_guardians_consent } from './Migration20261122020000_guardians_consent';
import { Migration20261122030000_ai_usage } from './Migration20261122030000_ai_usage';
import { Migration20261122040000_learning } from './Migration20261122040000_learning';
import { Migration20261122050000_notification_counters } from './Migration20261122050000_notification_counters';
import { Migration20261123000000_course_factory } from './Migration20261123000000_course_factory';
import { Migration20261123100000_schema_as_declared } from './Migration20261123100000_schema_as_declared';
import { Migration20261125000000_outbox } from './Migration20261125000000_outbox';
import { Migration20261129000000_access_changed_function } from './Migration20261129000000_access_changed_function';
import { Migration20261129000500_outbox_reactions_readdressed } from './Migration20261129000500_outbox_reactions_readdressed';

/** Migrations in the order they run; `npm run migration:create` writes a file, and it is added here. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000000_accounts', class: Migration20261122000000_accounts },
  { name: 'Migration20261122010000_notifications', class: Migration20261122010000_notifications },
  { name: 'Migration20261122020000_guardians_consent', class: Migration20261122020000_guardians_consent },
  { name: 'Migration20261122030000_ai_usage', class: Migration20261122030000_ai_usage },
  { name: 'Migration20261122040000_learning', class: Migration20261122040000_learning },
  { name: 'Migration20261122050000_notification_counters', class: Migration20261122050000_notification_counters },
  { name: 'Migration20261123000000_course_factory', class: Migration20261123000000_course_factory },
  { name: 'Migration20261123100000_schema_as_declared', class: Migration20261123100000_schema_as_declared },
  { name: 'Migration20261125000000_outbox', class: Migration20261125000000_outbox },
  { name: 'Migration20261129000000_access_changed_function', class: Migration20261129000000_access_changed_function },
  {
    name: 'Migration20261129000500_outbox_reactions_readdressed',
    class: Migration20261129000500_outbox_reactions_readdressed,
  },
];
