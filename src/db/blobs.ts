import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Db } from './connect';

export function contentHash(data: string | Uint8Array): string {
  return 'sha256:' + createHash('sha256').update(data).digest('hex');
}

/** What a store keeps in memory of the blobs it wrote or read (content-addressed, so never stale). */
export interface BlobCacheLimits {
  maxBytes: number;
  maxEntryBytes: number;
}

export const DEFAULT_BLOB_CACHE: BlobCacheLimits = { maxBytes: 64 * 1024 * 1024, maxEntryBytes: 4 * 1024 * 1024 };

/**
 * Content-addressed storage: writing the same content twice is a no-op, so retries are safe.
 * An instance reads back what its own earlier steps wrote in this process (the project files the
 * agent call stored, the layers the execution stored); those reads are served from memory. Every
 * put still writes to the database; one whose write failed is forgotten.
 */
export class BlobStore {
  private readonly cache = new Map<string, Buffer>();
  private cachedBytes = 0;

  constructor(
    private readonly db: Db,
    private readonly limits: BlobCacheLimits = DEFAULT_BLOB_CACHE,
  ) {}

  async put(data: string | Uint8Array): Promise<string> {
    return this.write(data).written;
  }

  async putJson(value: unknown): Promise<string> {
    return this.put(JSON.stringify(value));
  }

  /**
   * A put whose hash is known at once, before the database has it: the caller may name the blob
   * (and read it back from this store) while it is written. `written` settles with the write.
   */
  write(data: string | Uint8Array): { hash: string; written: Promise<string> } {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
    const hash = contentHash(bytes);
    const fresh = this.remember(hash, bytes);
    const written = this.db
      .insertInto('blobs')
      .values({ hash, size: bytes.length, encoding: 'gzip', content: gzipSync(bytes) })
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute()
      .then(
        () => hash,
        (err: unknown) => {
          // Not in the database: not to be answered from memory either.
          if (fresh) this.forget(hash);
          throw err;
        },
      );
    return { hash, written };
  }

  async get(hash: string): Promise<Buffer> {
    const cached = this.cache.get(hash);
    if (cached) {
      // Most recently used last: Map keeps insertion order, so the first key is the one to evict.
      this.cache.delete(hash);
      this.cache.set(hash, cached);
      return Buffer.from(cached);
    }
    const row = await this.db.selectFrom('blobs').select(['content']).where('hash', '=', hash).executeTakeFirst();
    if (!row) throw new Error(`blob ${hash} is not in the database`);
    const bytes = gunzipSync(Buffer.from(row.content));
    this.remember(hash, bytes);
    return Buffer.from(bytes);
  }

  async getText(hash: string): Promise<string> {
    return (await this.get(hash)).toString('utf8');
  }

  async getJson<T>(hash: string): Promise<T> {
    return JSON.parse(await this.getText(hash)) as T;
  }

  /** Bytes held in memory now (for tests and benchmarks). */
  get cacheBytes(): number {
    return this.cachedBytes;
  }

  /** Keeps `bytes` (a buffer of the store's own, never handed out: readers get copies); whether it was not kept before. */
  private remember(hash: string, bytes: Buffer): boolean {
    if (bytes.length > this.limits.maxEntryBytes || this.cache.has(hash)) return false;
    this.cache.set(hash, bytes);
    this.cachedBytes += bytes.length;
    for (const [oldest, b] of this.cache) {
      if (this.cachedBytes <= this.limits.maxBytes) break;
      this.forget(oldest);
    }
    return true;
  }

  private forget(hash: string): void {
    const b = this.cache.get(hash);
    if (!b) return;
    this.cache.delete(hash);
    this.cachedBytes -= b.length;
  }
}
