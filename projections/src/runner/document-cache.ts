import type { Doc, Write } from '../read-store/read-store';

/**
 * One projection's documents as its runner last read or committed them, so hot documents skip the
 * store. True only while the runner is the one writer, so it is emptied on any lease change, failed
 * batch or rebuild. `uow.put` documents are not remembered: the store's guard may have refused them.
 * Least recently used go first.
 */
export class DocumentCache {
  private readonly docs = new Map<string, Doc | null>();

  constructor(private readonly capacity: number) {}

  /** The document (null: absent in the store), or undefined when the cache does not know it. */
  get(collection: string, id: string): Doc | null | undefined {
    const key = keyOf(collection, id);
    const doc = this.docs.get(key);
    if (doc !== undefined) {
      this.docs.delete(key);
      this.docs.set(key, doc);
    }
    return doc;
  }

  /** What a read from the store found (null: nothing). */
  remember(collection: string, id: string, doc: Doc | null): void {
    if (this.capacity === 0) return;
    const key = keyOf(collection, id);
    this.docs.delete(key);
    this.docs.set(key, doc);
    if (this.docs.size > this.capacity) this.docs.delete(this.docs.keys().next().value as string);
  }

  /** A batch the store has committed: the documents the cache holds take their new state. */
  committed(writes: readonly Write[]): void {
    for (const write of writes) {
      const id = write.kind === 'put' ? write.doc._id : write.id;
      const key = keyOf(write.collection, id);
      if (!this.docs.has(key)) continue;
      this.docs.set(key, write.kind === 'put' ? write.doc : null);
    }
  }

  clear(): void {
    this.docs.clear();
  }

  get size(): number {
    return this.docs.size;
  }
}

const keyOf = (collection: string, id: string): string => `${collection}\u0000${id}`;
