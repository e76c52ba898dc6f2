import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundled } from './worker-bundle.mjs';

describe('worker bundles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'worker-bundle-'));
  const entry = join(dir, 'entry.ts');
  const dep = join(dir, 'dep.ts');
  writeFileSync(
    entry,
    "export { value } from './dep.ts';\nexport const here: string = import.meta.url;\n",
  );
  writeFileSync(dep, 'export const value: number = 1;\n');
  const made: string[] = [];
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const file of made) {
      rmSync(file, { force: true });
      rmSync(file.replace(/\.mjs$/, '.json'), { force: true });
    }
  });

  const load = async (version: number) => {
    const url = await bundled(pathToFileURL(entry));
    if (!url) throw new Error('esbuild is not installed');
    made.push(fileURLToPath(url));
    return {
      file: fileURLToPath(url),
      module: (await import(`${url.href}?v=${version}`)) as { value: number; here: string },
    };
  };

  it('builds once, is used as built while its sources stay, and is built again when one changes', async () => {
    const first = await load(1);
    expect(first.module.value).toBe(1);
    // Each file keeps its own location (a worker's file beside it is still found).
    expect(first.module.here).toBe(pathToFileURL(entry).href);
    const builtAt = statSync(first.file).mtimeMs;

    const again = await load(2);
    expect(again.file).toBe(first.file);
    expect(statSync(again.file).mtimeMs).toBe(builtAt);

    writeFileSync(dep, 'export const value: number = 22;\n');
    const changed = await load(3);
    expect(changed.module.value).toBe(22);
  });
});
