import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { loadConfig } from './config';

describe('config', () => {
  it('defaults to port 3000 and ./data', () => {
    expect(loadConfig({})).toEqual({ PORT: 3000, DATA_DIR: resolve('./data') });
  });

  it('reads PORT and DATA_DIR from the environment', () => {
    expect(loadConfig({ PORT: '8080', DATA_DIR: '/tmp/x' })).toEqual({
      PORT: 8080,
      DATA_DIR: '/tmp/x',
    });
  });

  it('names every bad setting in one error', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: '' })).toThrow(
      /Invalid configuration:\n {2}PORT: .+\n {2}DATA_DIR: .+/,
    );
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
  });
});
