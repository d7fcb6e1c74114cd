import { setFlagsFromString } from 'node:v8';
import type { Config } from '../config';

/**
 * `lean`: every full collection gives the pages it emptied back to the system (V8's memory saver
 * mode), and the old generation grows to twice what is live before the next one.
 *
 * By default V8 keeps emptied pages for reuse and returns them only after a memory-reducing
 * collection, which it starts when allocation is low: never under steady load, and on Node 24 hardly
 * ever (it reads the embedder's allocation rate, 0 in a process that never allocates there, as the
 * highest). A busy instance then keeps the pages of its largest swing so far, and its resident memory
 * rises for the better part of an hour. Memory saver mode alone grows the heap only just past what is
 * live (a full collection 1.3 times a second, a third fewer answers); with the factor of 2 they come
 * every 7 s. Set before the service allocates much: V8 reads both at each collection.
 */
export function applyHeapMode(mode: Config['HEAP_MODE']): void {
  if (mode !== 'lean') return;
  setFlagsFromString('--memory-saver-mode');
  setFlagsFromString('--heap-growing-percent=100');
}
