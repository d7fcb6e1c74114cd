import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261125000000_outbox } from './Migration20261125000000_outbox';
import { Migration20261129000000_access_changed_function } from './Migration20261129000000_access_changed_function';
import { Migration20261129000500_outbox_reactions_readdressed } from './Migration20261129000500_outbox_reactions_readdressed';

/**
 * The kernel's migrations (the outbox and what every area's triggers call); each area's tables are
 * created in its own migrations folder. All run in the order of their names.
 */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261125000000_outbox', class: Migration20261125000000_outbox },
  { name: 'Migration20261129000000_access_changed_function', class: Migration20261129000000_access_changed_function },
  {
    name: 'Migration20261129000500_outbox_reactions_readdressed',
    class: Migration20261129000500_outbox_reactions_readdressed,
  },
];
