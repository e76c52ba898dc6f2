/**
 * The documents a catch-up over empty collections has written, as a Bloom filter: `mayHold` false
 * means surely absent, so the store is not asked for the many documents each event creates. A
 * false "maybe" costs only the read it saves. Fixed memory: at most 2^27 bits (16 MiB), three probes.
 */
export class WrittenIds {
  private readonly words: Uint32Array;
  private readonly mask: number;
  private readonly seeds = new Map<string, number>();

  constructor(bits: number) {
    let size = 1 << 16;
    while (size < bits && size < 1 << 27) size *= 2;
    this.words = new Uint32Array(size >>> 5);
    this.mask = size - 1;
  }

  /** Sized for a catch-up of `events` events (about 32 bits each). */
  static forEvents(events: number): WrittenIds {
    return new WrittenIds(events * 32);
  }

  add(collection: string, id: string): void {
    const h1 = this.hash(collection, id);
    const h2 = mix(h1) | 1;
    for (let i = 0; i < 3; i++) {
      const bit = (h1 + Math.imul(i, h2)) & this.mask;
      this.words[bit >>> 5] = (this.words[bit >>> 5] ?? 0) | (1 << (bit & 31));
    }
  }

  /** False only when the document was never added. */
  mayHold(collection: string, id: string): boolean {
    const h1 = this.hash(collection, id);
    const h2 = mix(h1) | 1;
    for (let i = 0; i < 3; i++) {
      const bit = (h1 + Math.imul(i, h2)) & this.mask;
      if (((this.words[bit >>> 5] ?? 0) & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  /** FNV-1a over the id, from a seed made of the collection's name. */
  private hash(collection: string, id: string): number {
    let h = this.seeds.get(collection);
    if (h === undefined) {
      h = 0x811c9dc5;
      for (let i = 0; i < collection.length; i++) {
        h = Math.imul(h ^ collection.charCodeAt(i), 16777619);
      }
      h = Math.imul(h ^ 0xff, 16777619);
      this.seeds.set(collection, h);
    }
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
    return mix(h);
  }
}

/** Murmur3's finaliser: every input bit moves every output bit. */
const mix = (value: number): number => {
  let h = value ^ (value >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};
