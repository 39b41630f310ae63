import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Db } from './connect';

export function contentHash(data: string | Uint8Array): string {
  return 'sha256:' + createHash('sha256').update(data).digest('hex');
}

/** Content-addressed storage: writing the same content twice is a no-op, so retries are safe. */
export class BlobStore {
  constructor(private readonly db: Db) {}

  async put(data: string | Uint8Array): Promise<string> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
    const hash = contentHash(bytes);
    await this.db
      .insertInto('blobs')
      .values({ hash, size: bytes.length, encoding: 'gzip', content: gzipSync(bytes) })
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
    return hash;
  }

  async putJson(value: unknown): Promise<string> {
    return this.put(JSON.stringify(value));
  }

  async get(hash: string): Promise<Buffer> {
    const row = await this.db.selectFrom('blobs').select(['content']).where('hash', '=', hash).executeTakeFirst();
    if (!row) throw new Error(`blob ${hash} is not in the database`);
    return gunzipSync(Buffer.from(row.content));
  }

  async getText(hash: string): Promise<string> {
    return (await this.get(hash)).toString('utf8');
  }

  async getJson<T>(hash: string): Promise<T> {
    return JSON.parse(await this.getText(hash)) as T;
  }
}
