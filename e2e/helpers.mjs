// Small Playwright harness for node's built-in test runner (`node --test e2e/`).
// Uses playwright-core with Debian's Chromium; no browser is downloaded.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, afterEach, before } from 'node:test';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);

export const BASE_URL = process.env.BASE_URL || 'http://127.0.0.1:8080/';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// Flags for headless Chromium as root, offline. Playwright already passes
// --no-sandbox (chromiumSandbox defaults to false) and a fresh temp --user-data-dir.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** Launches headless Chromium. Close it with `browser.close()`. */
export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/**
 * One headless Chromium for the calling test file: launched before its first
 * test, closed after its last. Returns a function that gives the browser.
 * After each test, every page the test watched (each `openPage`) must have
 * seen no console error, page error or CSP violation, whenever it came.
 */
export function sharedBrowser() {
  let browser;
  before(async () => {
    browser = await launch();
  });
  afterEach(() => {
    const pages = watched.splice(0);
    for (const page of pages) assertNoErrors(page);
  });
  after(async () => {
    await browser?.close();
  });
  return () => browser;
}

/** The text of the element with `data-testid` `id`. */
export const text = (page, id) => page.getByTestId(id).innerText();

/** Waits until the Inspect panel shows state `name` (e.g. `TASK_STATE_WORKING`). */
export const waitState = (page, name, timeout = 15_000) =>
  page.getByTestId('task-state').filter({ hasText: name }).waitFor({ timeout });

// Problems seen by each page: console errors, uncaught exceptions, CSP violations.
const problems = new WeakMap();
// The pages the running test watches, checked after it.
const watched = [];
let axeSource;

/**
 * Opens BASE_URL + path in a new context (`options` are Playwright's context
 * options: viewport, hasTouch, isMobile…) and waits until the app has mounted.
 */
export async function openPage(browser, path = '', options = {}) {
  const page = await watch(await (await browser.newContext(options)).newPage());
  await page.goto(new URL(path, BASE_URL).href);
  try {
    await page.locator('[data-testid="task-state"]').waitFor({ state: 'visible', timeout: 15_000 });
  } catch (err) {
    throw new Error(`app did not mount at ${page.url()}\n${problems.get(page).join('\n')}\n${err.message}`);
  }
  return page;
}

/**
 * Collects a page's console errors, page errors and CSP violations, for
 * assertNoErrors and for the check after the test. Call it before the page
 * loads anything.
 */
export async function watch(page) {
  const seen = [];
  problems.set(page, seen);
  watched.push(page);

  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      const loc = msg.location();
      seen.push(`console.error: ${msg.text()}${loc.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
    }
  });
  page.on('pageerror', (err) => seen.push(`pageerror: ${err.stack || err.message}`));
  // The page opens no dialogs: one would be a script of the user's text running.
  page.on('dialog', (d) => {
    seen.push(`dialog (${d.type()}): ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  await page.exposeFunction('__reportCspViolation', (v) => seen.push(`CSP violation: ${v}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__reportCspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'}${e.sourceFile ? ` (${e.sourceFile}:${e.lineNumber})` : ''}`,
      );
    });
  });
  return page;
}

/** The problems a page has seen so far, which it then forgets (for a test that causes them). */
export function takeErrors(page) {
  return (problems.get(page) || []).splice(0);
}

/** Resolves once the page has painted two more frames (after work it defers with requestAnimationFrame). */
export const frames = (page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/** Fails listing every console error, page error and CSP violation collected so far. */
export function assertNoErrors(page) {
  const seen = problems.get(page) || [];
  assert.equal(seen.length, 0, `errors on ${page.url()}:\n  ${seen.join('\n  ')}`);
}

/** What axe-core checks: WCAG 2.0 to 2.2, A and AA (target size included), and its best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** Runs axe-core in the page; returns its violations (empty when accessible). */
export async function axeViolations(page, options = {}) {
  // Evaluated (not a <script> tag) so that the page's CSP does not block it.
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const result = await page.evaluate((opts) => window.axe.run(document, opts), { runOnly: AXE_TAGS, ...options });
  return result.violations;
}
