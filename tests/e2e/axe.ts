/**
 * axe-core for the browser tests: one way to scan a page, shared by the specs that check accessibility.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import fs from 'node:fs';
import { createRequire } from 'node:module';

/** axe-core's minified build: the same version and rules as its default source, less than half the script to inject. */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.2 AA: the rules the accessibility checks run. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * An AxeBuilder for the page as it is now. A page without frames is scanned by axe.run in the page itself: the same
 * rules and results as the default runPartial + finishRun, which opens a blank page and injects axe a second time
 * (more than half of each scan's time); a page with a frame keeps the default, which also scans cross-origin frames.
 */
export function axeFor(page: Page): AxeBuilder {
  const builder = new AxeBuilder({ page, axeSource: AXE_SOURCE });
  return page.frames().length === 1 ? builder.setLegacyMode() : builder;
}

/** Every serious or critical finding of WCAG 2.2 AA on the page as it is now, with its rule, element and what to fix. */
export async function seriousFindings(page: Page, builder: AxeBuilder = axeFor(page).withTags(WCAG_TAGS)): Promise<string[]> {
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? v.help}`),
    );
}
