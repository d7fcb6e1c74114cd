import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import { isAsyncIterable } from '../kernel/personal-data';

export interface ManifestFile {
  path: string;
  bytes: number;
  sha256: string;
}

const CHUNK = 64 * 1024;

/** JSON text of a value; arrays and async iterables are written element by element. */
async function* jsonText(value: unknown, depth = 0): AsyncGenerator<string> {
  const pad = '\n' + '  '.repeat(depth + 1);
  const end = '\n' + '  '.repeat(depth);
  if (isAsyncIterable(value) || Array.isArray(value)) {
    let first = true;
    yield '[';
    for await (const item of value as AsyncIterable<unknown>) {
      yield (first ? '' : ',') + pad;
      first = false;
      yield* jsonText(item, depth + 1);
    }
    yield first ? ']' : `${end}]`;
    return;
  }
  if (
    value !== null &&
    typeof value === 'object' &&
    !(value instanceof Date) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  ) {
    let first = true;
    yield '{';
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || typeof item === 'function') continue;
      yield `${first ? '' : ','}${pad}${JSON.stringify(key)}: `;
      first = false;
      yield* jsonText(item, depth + 1);
    }
    yield first ? '}' : `${end}}`;
    return;
  }
  yield JSON.stringify(value) ?? 'null';
}

/** Gathers small strings into chunks of about 64 KiB, so the archive gets few, large writes. */
async function* chunked(parts: AsyncIterable<string>): AsyncGenerator<Buffer> {
  let buffer = '';
  for await (const part of parts) {
    buffer += part;
    if (buffer.length >= CHUNK) {
      yield Buffer.from(buffer);
      buffer = '';
    }
  }
  yield Buffer.from(buffer + '\n');
}

/**
 * A ZIP written as it is made: each file streams through a hash on its way in, so nothing larger
 * than a chunk is held, and `manifest.json` (every file and its SHA-256) is written last.
 */
export class ExportArchive {
  private readonly archive = new ZipArchive({ zlib: { level: 6 } });
  private readonly files: ManifestFile[] = [];
  private readonly written: Promise<void>;
  private failure: Error | undefined;

  private constructor(
    private readonly path: string,
    private readonly part: string,
  ) {
    this.archive.on('error', (error: Error) => (this.failure = error));
    this.archive.on('warning', (error: Error) => (this.failure = error));
    this.written = pipeline(this.archive, createWriteStream(part));
    this.written.catch(() => {});
  }

  /**
   * An archive written by one run (`run`, its claim) into a file of its own until it is finished: a
   * run that stalled past its lease and the run that took its export over write side by side instead
   * of into each other's file. What earlier runs of this export left half written (they died, or lost
   * the export) is removed: it holds personal data nobody will fetch.
   */
  static async create(path: string, run: string): Promise<ExportArchive> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const prefix = `${basename(path)}.`;
    for (const name of await readdir(dirname(path)))
      if (name.startsWith(prefix) && name.endsWith('.part')) await rm(join(dirname(path), name), { force: true });
    return new ExportArchive(path, `${path}.${run}.part`);
  }

  get paths(): string[] {
    return this.files.map((f) => f.path);
  }

  json(path: string, value: unknown): Promise<void> {
    return this.add(path, Readable.from(chunked(jsonText(value))));
  }

  buffer(path: string, content: Buffer | string): Promise<void> {
    return this.add(path, Readable.from([Buffer.from(content)]));
  }

  /** Adds one file and waits until the archive has taken all of it. */
  private async add(path: string, source: Readable): Promise<void> {
    if (this.failure) throw this.failure;
    const hash = createHash('sha256');
    let bytes = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    const taken = new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        this.archive.off('entry', onEntry);
        this.archive.off('error', settle);
        if (error) reject(error);
        else resolve();
      };
      const onEntry = (entry: { name: string }) => entry.name === path && settle();
      this.archive.on('entry', onEntry);
      this.archive.on('error', settle);
    });
    this.archive.append(tap, { name: path });
    await Promise.all([pipeline(source, tap), taken]);
    if (this.failure) throw this.failure;
    this.files.push({ path, bytes, sha256: hash.digest('hex') });
  }

  /** Writes the manifest, closes the archive and moves it into place. */
  async finish(manifest: Record<string, unknown>): Promise<void> {
    this.archive.append(JSON.stringify({ ...manifest, files: this.files }, null, 2), { name: 'manifest.json' });
    await this.archive.finalize();
    await this.written;
    await rename(this.part, this.path);
  }

  /**
   * Stops the archive and removes what was written. archiver's `abort()` alone does not end its
   * output stream, so waiting for the file to close never returned: a failed export hung for ever
   * (its request stayed `running`, never retried). Destroying the stream ends the pipeline.
   */
  async abort(): Promise<void> {
    this.archive.abort();
    this.archive.destroy();
    await this.written.catch(() => {});
    await rm(this.part, { force: true });
  }
}
