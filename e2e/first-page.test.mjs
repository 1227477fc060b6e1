import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertNoErrors, BASE_URL, openPage, sharedBrowser, takeErrors, watch } from './helpers.mjs';

const browser = sharedBrowser();

test('first page: a new task is submitted, Step moves it to working', async () => {
  const page = await openPage(browser());

  // The product's name above the lesson it teaches, as the design card has them.
  assert.match(await page.locator('.eyebrow').innerText(), /A2A · Task Control Room/i);
  assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Task lifecycle: resume interrupted work');
  assert.match(
    await page.getByTestId('task-id').innerText(),
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i,
  );
  const state = page.getByTestId('task-state');
  assert.match(await state.innerText(), /TASK_STATE_SUBMITTED/);

  await page.getByRole('button', { name: 'Step', exact: true }).click();
  // Leptos updates the DOM after a tick: poll until the new state shows.
  await state.filter({ hasText: 'TASK_STATE_WORKING' }).waitFor({ timeout: 5_000 });

  assertNoErrors(page);
  await page.context().close();
});

test('a strict Content-Security-Policy holds: no inline script runs but the hashed bootstrap', async () => {
  const page = await openPage(browser());
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(policy, /default-src 'self'/);
  assert.match(policy, /script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/]+=*'/);
  assert.doesNotMatch(policy, /unsafe-inline|nonce-/);
  // The app itself ran under it (it mounted), with no violation so far.
  assertNoErrors(page);
  // An injected inline script is refused and reported.
  const outcome = await page.evaluate(
    () =>
      new Promise((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true });
        const s = document.createElement('script');
        s.textContent = 'window.__ran = true';
        document.head.append(s);
        setTimeout(() => resolve(window.__ran ? 'ran' : 'no event'), 5000);
      }),
  );
  assert.match(outcome, /^script-src/);
  // Reported as the harness sees every problem: what the check after each test would catch.
  // The browser's console line and the violation event: nothing else.
  const taken = takeErrors(page).sort();
  assert.equal(taken.length, 2, taken.join('\n'));
  assert.match(taken[0], /^CSP violation: script-src-elem blocked inline/);
  // Chromium's console line names the policy; its exact words vary by version.
  assert.match(taken[1], /^console\.error: .*Content Security Policy/);
  await page.context().close();
});

test('while it loads the page says so, and a page that cannot start says why instead of staying blank', async () => {
  const page = await openPage(browser());
  assert.equal(await page.locator('#loading').count(), 0, 'mounted: the loading line is gone');
  assertNoErrors(page);
  await page.context().close();

  // The WebAssembly cannot be fetched (a blocked or failed download), with
  // reduced motion asked for: the delayed explanation still shows.
  const context = await browser().newContext({ reducedMotion: 'reduce' });
  const blocked = await watch(await context.newPage());
  await blocked.route('**/*.wasm', (route) => route.abort());
  await blocked.goto(BASE_URL);
  const loading = blocked.locator('#loading');
  assert.match(await loading.innerText(), /^Loading the control room…/);
  const why = loading.locator('span');
  await why.waitFor({ state: 'visible', timeout: 15_000 });
  assert.match(await why.innerText(), /may block JavaScript or WebAssembly.*reload/s);
  // The failed download is all that went wrong.
  const seen = takeErrors(blocked);
  assert.ok(seen.length > 0 && seen.every((e) => /wasm|WebAssembly|Failed to (load|fetch)|ERR_FAILED/i.test(e)), seen.join('\n'));
  await context.close();
});
