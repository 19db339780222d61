/** The reply desk: the app's bytes, and how soon its first view is on screen in headless Chromium. */
import { statSync } from 'node:fs';
import { DESK_HTML } from '../build-desk.js';
import { haveChromium, launchChromium, showInDesk } from '../desk/browser.js';
import { startDesk } from '../desk/serve.js';
import { type Section, median, percentile, round } from './lib.js';

const RUNS = 10;

export async function desk(): Promise<Section[]> {
  const bytes = statSync(DESK_HTML).size;
  const rows: (string | number | null)[][] = [['app (one self-contained HTML file)', bytes, 'bytes']];
  const warnings: string[] = [];
  if (!haveChromium()) warnings.push('chromium is not installed: first-render time not measured (apt-get install -y chromium).');
  else {
    const d = await startDesk(['--sandbox', '--workspace', 'acme', '--log-level', 'warn']);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(d.url);
      await page.evaluate(() => (globalThis as unknown as { desk: { ready: Promise<void> } }).desk.ready);
      const times: number[] = [];
      // Each show is a fresh frame: the app parses, connects to the host, receives the 20-lead page and draws the board.
      for (let i = 0; i <= RUNS; i++) {
        const f = await showInDesk(page, 'list_leads', { limit: 20 }, 'board');
        const ms = Number(
          await f.evaluate(() => (globalThis as unknown as { document: { body: { dataset: Record<string, string> } } }).document.body.dataset.firstRenderMs),
        );
        if (i > 0) times.push(ms);
      }
      rows.push(['first render of the 20-lead board, median', round(median(times)), 'ms']);
      rows.push(['first render of the 20-lead board, p95', round(percentile(times, 95)), 'ms']);
    } finally {
      await browser.close();
      await d.close();
    }
  }
  return [
    {
      title: 'Reply desk (MCP App): size and first render',
      note: `The app's HTML as the server serves it (budget 800 KB), and the time from the app frame starting to load to its first view on screen (the Triage board of 20 leads), in headless Chromium through the AppBridge host page of npm run desk, ${RUNS} fresh frames after a first one; target at most 300 ms.`,
      columns: ['what', 'value', 'unit'],
      rows,
      ...(warnings.length ? { warnings } : {}),
    },
  ];
}
