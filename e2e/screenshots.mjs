// Screenshots of the release build for the README: desktop and phone, light
// and dark, in the middle of experiment 1 (interrupted for clarification).
// Usage: BASE_URL=http://127.0.0.1:PORT/ node e2e/screenshots.mjs [OUTDIR]
import { launch, openPage, assertNoErrors } from './helpers.mjs';

const out = process.argv[2] || 'docs';
const browser = await launch();
for (const [name, viewport, fullPage] of [
  ['desktop', { width: 1280, height: 800 }, false],
  ['phone', { width: 390, height: 844 }, false],
]) {
  for (const scheme of ['light', 'dark']) {
    const page = await openPage(browser, '', { viewport });
    await page.emulateMedia({ colorScheme: scheme });
    await page.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).click();
    for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
    await page.getByTestId('task-state').filter({ hasText: 'TASK_STATE_INPUT_REQUIRED' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${out}/${name}-${scheme}.png`, fullPage });
    assertNoErrors(page);
    await page.context().close();
  }
}
// The pause/resume proposal: a client pause in effect, both panels showing it.
const page = await openPage(browser, '', { viewport: { width: 1280, height: 800 } });
await page.getByLabel('Proposed pause/resume').check();
await page.getByRole('button', { name: 'Step', exact: true }).click();
await page.locator('#act-pause').click();
await page.getByRole('button', { name: 'Step', exact: true }).click();
await page.getByRole('button', { name: 'Step', exact: true }).click();
await page.getByTestId('task-state').filter({ hasText: 'TASK_STATE_PAUSED' }).waitFor();
await page.screenshot({ path: `${out}/proposal-paused.png`, fullPage: true });
assertNoErrors(page);
await page.context().close();
await browser.close();
console.log(`screenshots written to ${out}/`);
