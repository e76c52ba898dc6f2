import { expect as vitestExpect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

export type { Locator, Page };

const POLL_MS = 100;
const TIMEOUT_MS = 15_000;

/** Waits until `check` passes (or the time runs out, then throws its last failure). */
export const eventually = async (check: () => unknown, timeoutMs = TIMEOUT_MS) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
};

/** Web-first assertions over playwright-core locators and pages, retried until they hold. */
export const expect = (target: Locator | Page) => ({
  toHaveURL: (pattern: RegExp) =>
    eventually(() => vitestExpect((target as Page).url()).toMatch(pattern)),
  toBeVisible: (timeoutMs = TIMEOUT_MS) =>
    eventually(
      async () => vitestExpect(await (target as Locator).first().isVisible()).toBe(true),
      timeoutMs,
    ),
  toBeHidden: () =>
    eventually(async () => vitestExpect(await (target as Locator).first().isVisible()).toBe(false)),
  toHaveText: (pattern: RegExp | string, timeoutMs = TIMEOUT_MS) =>
    eventually(async () => {
      const text = (await (target as Locator).first().innerText()).trim();
      if (typeof pattern === 'string') vitestExpect(text).toBe(pattern);
      else vitestExpect(text).toMatch(pattern);
    }, timeoutMs),
  toHaveValue: (value: string) =>
    eventually(async () =>
      vitestExpect(await (target as Locator).first().inputValue()).toBe(value),
    ),
  toContainText: (text: string) =>
    eventually(async () =>
      vitestExpect(await (target as Locator).first().innerText()).toContain(text),
    ),
  toHaveCount: (count: number) =>
    eventually(async () => vitestExpect(await (target as Locator).count()).toBe(count)),
});
