export { freePort } from '../../src/scripts/fleet/processes';
