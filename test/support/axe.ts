/**
 * axe-core in a page: the one runner for the accessibility checks. Injected with page.evaluate, which
 * our Content-Security-Policy does not govern (a script tag would need a context with bypassCSP).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One rule's violation: where (CSS selectors of the nodes), how bad, and what it asks for. */
export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

export interface AxeOptions {
  /** A CSS selector of the element to audit; the whole document when absent. */
  within?: string;
  /** Which violations the caller counts (see seriousOrCritical). */
  keep: (finding: AxeFinding) => boolean;
}

/** What the accessibility tests fail on: axe's two highest impacts. */
export const seriousOrCritical = (finding: AxeFinding): boolean =>
  finding.impact === 'serious' || finding.impact === 'critical';

/** Runs axe-core on the page as it is now and returns the violations `options.keep` counts. */
export async function axeFindings(page: Page, options: AxeOptions): Promise<AxeFinding[]> {
  await page.evaluate(AXE_SOURCE);
  const all = await page.evaluate(async (within) => {
    interface Violation {
      id: string;
      impact: string | null;
      help: string;
      nodes: Array<{ target: unknown[] }>;
    }
    const axe = (
      window as unknown as {
        axe: { run(context: Element | Document, options: object): Promise<{ violations: Violation[] }> };
      }
    ).axe;
    const context = within === null ? document : document.querySelector(within);
    if (!context) throw new Error(`axe: nothing matches ${within}`);
    const { violations } = await axe.run(context, { resultTypes: ['violations'] });
    return violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  }, options.within ?? null);
  return all.filter(options.keep);
}

/** Findings as lines a failed assertion shows: rule, impact, advice and the first few nodes. */
export const describeFindings = (findings: AxeFinding[]): string[] =>
  findings.map((f) => `${f.id} (${f.impact}): ${f.help} — ${f.targets.slice(0, 3).join(', ')}`);
