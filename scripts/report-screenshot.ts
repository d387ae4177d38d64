/**
 * A synthetic long run (test/fixtures/runs/long-run.ts, 200 steps by default), its report, and
 * screenshots of it in headless Chromium, to look at how the report reads at the paper's run
 * lengths. Usage: npx tsx scripts/report-screenshot.ts [--steps 200] [--out test-output/long-run]
 * Writes <out>/run/report.html and <out>/shot-<n>.png (one per 1280x1600 slice of the page).
 */
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { writeRunReport } from '../src/report/write-report.js';
import { writeLongRun } from './lib/long-run.js';

const { values } = parseArgs({ options: { steps: { type: 'string', default: '200' }, out: { type: 'string', default: 'test-output/long-run' } } });
const out = resolve(values.out);
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await writeLongRun(join(out, 'run'), { steps: Number(values.steps) });
const { out: report } = await writeRunReport(join(out, 'run'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
const height = await page.evaluate(() => document.documentElement.scrollHeight);
for (let top = 0, n = 1; top < height; top += 1600, n++) {
  await page.screenshot({ path: join(out, `shot-${n}.png`), clip: { x: 0, y: top, width: 1280, height: Math.min(1600, height - top) }, fullPage: true });
}
await browser.close();
process.stdout.write(`${report}: page height ${height}px, screenshots in ${out}\n`);
