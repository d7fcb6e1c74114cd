import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { settingDefaults } from '../config';
import { settingsReference } from '../config.docs';

/** Writes docs/settings.md from the settings schema and their descriptions. */
const root = join(__dirname, '..', '..', '..');
writeFileSync(join(root, 'docs', 'settings.md'), settingsReference(settingDefaults()));
console.log('Wrote docs/settings.md.');
