/**
 * Kafka's own default partitioner for keyed messages (murmur2, made positive, modulo the count), so
 * any client keying by auction id picks the same partition. The count must never change once the
 * topic holds commands: an auction's commands would then have two owners at once.
 */
export const partitionOf = (key: string, partitions: number): number =>
  (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % partitions;

/** Kafka's `Utils.murmur2`: MurmurHash2, 32 bits, seed 0x9747b28c, as a signed 32-bit integer. */
export const murmur2 = (data: Uint8Array): number => {
  const m = 0x5bd1e995;
  const r = 24;
  const length = data.length;
  let h = (0x9747b28c ^ length) | 0;
  const whole = length - (length % 4);
  for (let i = 0; i < whole; i += 4) {
    let k =
      (data[i] as number) |
      ((data[i + 1] as number) << 8) |
      ((data[i + 2] as number) << 16) |
      ((data[i + 3] as number) << 24);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const tail = length % 4;
  if (tail === 3) h ^= (data[whole + 2] as number) << 16;
  if (tail >= 2) h ^= (data[whole + 1] as number) << 8;
  if (tail >= 1) {
    h ^= data[whole] as number;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
};
