import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect as vitestExpect } from 'vitest';

const require = createRequire(import.meta.url);
/** axe-core's browser build, injected into the page under test as a script. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  /** Each failing node: its selector and axe's summary of why. */
  readonly nodes: readonly { readonly target: string; readonly summary: string }[];
}

/** Runs axe-core (WCAG 2 A and AA rules) over the page as it stands and returns what fails. */
export const axeViolations = async (page: Page): Promise<AxeViolation[]> => {
  // Evaluated rather than added as a <script>: the server's Content-Security-Policy (script-src
  // 'self') refuses inline scripts, and rightly so.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })) as {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      }[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String).join(' '),
        summary: n.failureSummary ?? '',
      })),
    }));
  });
};

/** Fails with every violation listed (rule, selector, why) when axe finds any on the page. */
export const expectNoAxeViolations = async (page: Page): Promise<void> => {
  const violations = await axeViolations(page);
  const report = violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact ?? 'n/a'}): ${n.target} — ${n.summary}`),
  );
  vitestExpect(report).toEqual([]);
};
