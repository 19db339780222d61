import { existsSync } from 'node:fs';
import { type Browser, type Frame, type Page, chromium } from 'playwright-core';

/** Debian's chromium (.ci/run installs it when missing); no browser is downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function haveChromium(): boolean {
  return existsSync(CHROMIUM);
}

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  // Run as root in CI containers, where Chromium's own sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', ...extraArgs] });
}

/** Show a tool through the host page and return the app's frame once `view` is on screen. */
export async function showInDesk(
  page: Page,
  tool: string,
  args: Record<string, unknown>,
  view: string,
  timeout = 30_000,
  opts: { cancelled?: boolean } = {},
): Promise<Frame> {
  const before = new Set(page.frames());
  await page.evaluate(([t, a, o]) => (globalThis as unknown as DeskWindow).desk.show(t as string, a as Record<string, unknown>, o), [
    tool,
    args,
    opts,
  ] as const);
  return appFrame(page, view, timeout, before);
}

/** The app's frame (the sandbox proxy's srcdoc child) with `view` rendered: waits on the DOM, never on the clock. */
export async function appFrame(page: Page, view: string, timeout = 30_000, notAmong: ReadonlySet<Frame> = new Set()): Promise<Frame> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const frame = page.frames().find((f) => f.url() === 'about:srcdoc' && !f.isDetached() && !notAmong.has(f));
    if (frame) {
      await frame.waitForSelector(`body[data-view="${view}"]`, { timeout: Math.max(1, deadline - Date.now()) });
      return frame;
    }
    if (Date.now() > deadline) throw new Error(`no app frame showing ${view}`);
    // The proxy's inner frame is attached blank, then navigated to its srcdoc: wait for either.
    const left = { timeout: Math.max(1, deadline - Date.now()) };
    await Promise.race([page.waitForEvent('frameattached', left), page.waitForEvent('framenavigated', left)]).catch(() => undefined);
  }
}

/** What the host page (scripts/desk/page/host.ts) puts on its window, as the tests and the bench see it. */
export interface DeskWindow {
  desk: {
    show(tool: string, args: Record<string, unknown>, opts?: { cancelled?: boolean }): Promise<void>;
    setTheme(t: 'light' | 'dark'): Promise<void>;
    ready: Promise<void>;
    asked: { kind: string; text: string; answer: string }[];
    /** What the app told the model (ui/update-model-context), in order. */
    modelContext: string[];
  };
  /** Set only if hostile text ever ran. */
  pwned?: number;
}
