import { describe, expect, it } from 'vitest';
import { murmur2, partitionOf } from './partitioner';

// Printed by Apache Kafka 4.3.1's own org.apache.kafka.common.utils.Utils.murmur2 and
// toPositive(murmur2(key)) % 12, run on these keys' UTF-8 bytes.
const kafka: readonly (readonly [string, number, number])[] = [
  ['21', -973932308, 0],
  ['foobar', -790332482, 6],
  ['a-little-bit-long-string', -985981536, 8],
  ['6f1c2a3e-1d2b-4c5d-8e9f-0a1b2c3d4e5f', -1528228340, 0],
  ['enchère-€-ü', -529101398, 6],
  ['x', 2121525046, 10],
];

describe('partitionOf', () => {
  it.each(kafka)('agrees with Kafka on %s', (key, hash, partition) => {
    expect(murmur2(Buffer.from(key, 'utf8'))).toBe(hash);
    expect(partitionOf(key, 12)).toBe(partition);
  });

  it('spreads auction ids over every partition', () => {
    const counts = new Array<number>(12).fill(0);
    for (let i = 0; i < 1200; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      counts[partitionOf(id, 12)]! += 1;
    }
    for (const count of counts) expect(count).toBeGreaterThan(50);
  });
});
