import 'reflect-metadata';
import { loadConfig } from '../config';
import { withDatabase } from './database';

withDatabase(loadConfig(), async () => console.log('Database migrated.')).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
