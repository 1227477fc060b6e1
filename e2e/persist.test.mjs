// Runs that last and travel, on the release build: reload, share link, run
// file, and bad input of every kind — which must leave the run untouched.
import assert from 'node:assert/strict';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BASE_URL, assertNoErrors, openPage, sharedBrowser, text, waitState, watch } from './helpers.mjs';

const browser = sharedBrowser();

// The run files and transcripts the tests write, removed when they end.
const scratch = await mkdtemp(join(tmpdir(), 'a2a-e2e-'));
after(() => rm(scratch, { recursive: true, force: true }));
const tempDir = (prefix) => mkdtemp(join(scratch, prefix));

/** Everything that must come back identical. */
async function snapshot(page) {
  return page.evaluate(() => ({
    state: document.querySelector('[data-testid=task-state]').textContent,
    task: document.querySelector('[data-testid=task-id]').textContent,
    context: document.querySelector('[data-testid=context-id]').textContent,
    position: document.querySelector('[data-testid=timeline-position]').textContent,
    tasks: [...document.querySelectorAll('[data-testid=task-list-item]')].map((e) => e.textContent),
    trace: [...document.querySelectorAll('[data-testid=trace-entry]')].map((e) => e.textContent),
  }));
}

// The checkpoint is written 250 ms after a change; until then the root
// element's data-save is "due".
const settle = (page) => page.waitForFunction(() => document.documentElement.dataset.save === 'idle');

// Listens for the next save another tab makes (a storage event); the
// promise `heard` returns resolves once the page has handled it.
const listen = (page) =>
  page.evaluate(() => {
    window.__heard = new Promise((done) => addEventListener('storage', () => setTimeout(done, 0), { once: true }));
  });
const heard = (page) => page.evaluate(() => window.__heard);

/** A run with an interruption, a clarification, a follow-up and a seek into the past. */
async function someRun(page) {
  await page.getByLabel('Require input before unit').fill('2');
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 4; i++) await step.click();
  await page.getByLabel('Clarification text').fill('<img src=x onerror="window.__pwned=1"> & "quotes"');
  await page.getByRole('button', { name: 'Supply clarification' }).click();
  for (let i = 0; i < 9; i++) await step.click();
  await page.getByRole('button', { name: 'New follow-up task' }).click();
  await step.click();
  await page.getByRole('button', { name: /^Task 1/ }).click();
  await page.getByLabel('Recorded state', { exact: true }).fill('4');
  await settle(page);
  return snapshot(page);
}

test('a reload restores the run exactly', async () => {
  const page = await openPage(browser());
  const before = await someRun(page);
  assert.equal(before.tasks.length, 2);
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(page), before);
  assert.match(await page.getByTestId('notice').innerText(), /Restored the run saved in this browser: the page replayed its own record, which is not A2A task recovery/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'no markup from input is rendered');
  assertNoErrors(page);
  await page.context().close();
});

test('a reload goes on with the experiment set up; a name in storage that is not one is left unread', async () => {
  const page = await openPage(browser());
  await page.locator('.guide').getByRole('button', { name: 'Set up experiment 3' }).click();
  const step = page.getByRole('button', { name: 'Step', exact: true });
  await step.click();
  await step.click();
  await page.getByRole('button', { name: 'Request cancellation' }).click();
  const refused = 'Experiment 3, step 2 of 5: Refused: TaskNotCancelableError (-32002), as the Wire panel shows. Press Play: the task goes on to TASK_STATE_COMPLETED.';
  assert.equal(await text(page, 'guided'), refused);
  await settle(page);
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.equal(await text(page, 'guided'), refused);
  // Its second half, with cancellation accepted, goes on after a reload too.
  await page.getByLabel('Worker accepts cancellation').check();
  await settle(page);
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.match(await text(page, 'guided'), /^Experiment 3, step 4 of 5: /);
  // Storage that names no experiment, or one whose settings the run does
  // not have: no line, and the run as it was.
  for (const name of ['experiment 9', 'experiment 5', '']) {
    await page.evaluate((name) => sessionStorage.setItem('a2a-control-room/experiment', name), name);
    await page.reload();
    await page.getByTestId('task-state').waitFor();
    assert.equal(await page.getByTestId('guided').count(), 0, name);
    assert.equal(await page.getByLabel('Worker accepts cancellation').isChecked(), true);
  }
  assertNoErrors(page);
  await page.context().close();
});

test('a copied link reproduces the run in a fresh browser; a run file imports it', async () => {
  const page = await openPage(browser());
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const before = await someRun(page);
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByLabel('Link to this run').inputValue();
  assert.ok(link.includes('#run='), link);
  // On the clipboard, as the button says.
  await page.waitForFunction((l) => navigator.clipboard.readText().then((t) => t === l), link);
  assert.equal(await page.getByTestId('alert').innerText(), '');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download run' }).click(),
  ]);
  assert.match(await page.getByTestId('notice').innerText(), /^Run saved as a2a-run\.json, in your downloads: Import run opens it/);
  const { readFile } = await import('node:fs/promises');
  const file = join(await tempDir('run-'), 'a2a-run.json');
  await writeFile(file, await readFile(await download.path(), 'utf8'));
  // The shown link is of the run as it was: the next change takes it away.
  await page.getByLabel('Recorded state', { exact: true }).fill('3');
  await page.getByLabel('Link to this run').waitFor({ state: 'detached' });
  assertNoErrors(page);
  await page.context().close();

  const fresh = await openPage(browser(), link);
  assert.deepEqual(await snapshot(fresh), before);
  assert.ok(!fresh.url().includes('#run='), 'the link is consumed');
  assertNoErrors(fresh);
  await fresh.context().close();

  // Opened in a browser that has a run of its own saved: that run stays within reach of Undo.
  const own = await openPage(browser());
  for (let i = 0; i < 2; i++) await own.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(own);
  const saved = await snapshot(own);
  await own.goto('about:blank');
  await own.goto(link);
  await own.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(own), before);
  // The notice says so where the user is, and offers the Undo too.
  assert.equal(await own.getByTestId('notice').innerText(), 'Opened the shared run. Undo (here, or under Configure) brings back the run from before.');
  assert.equal(await own.getByTestId('notice-undo').count(), 1);
  await own.getByRole('button', { name: 'Undo: bring back the run from before' }).click();
  assert.deepEqual(await snapshot(own), saved);
  // Opened again, then replaced by a settings change: Undo brings back the
  // run just replaced, the linked one.
  await own.evaluate((h) => { location.hash = h; }, new URL(link).hash);
  await own.getByTestId('notice').filter({ hasText: 'Opened the shared run' }).waitFor();
  await own.getByLabel('Work units').fill('6');
  await own.getByRole('button', { name: 'Undo: bring back the run from before' }).click();
  assert.deepEqual(await snapshot(own), before);
  assertNoErrors(own);
  await own.context().close();

  // Pasted into the address bar of a page already open: only the fragment changes.
  const open = await openPage(browser());
  await open.getByRole('button', { name: 'Step', exact: true }).click();
  const mine = await snapshot(open);
  await open.evaluate(() => { location.hash = '#run=%E0%A4%A'; });
  await open.getByTestId('alert').filter({ hasText: 'not correctly encoded. The run on the page is unchanged. The link stays in the address bar' }).waitFor();
  assert.deepEqual(await snapshot(open), mine);
  assert.ok(open.url().endsWith('#run=%E0%A4%A'), 'the link that failed stays');
  await open.evaluate((h) => { location.hash = h; }, new URL(link).hash);
  await open.getByTestId('notice').filter({ hasText: 'Opened the shared run' }).waitFor();
  assert.deepEqual(await snapshot(open), before);
  assert.ok(!open.url().includes('#run='), 'the link is consumed');
  // A second run opened before acting on the first: Undo still brings back
  // the user's own run, not the one the link opened.
  await open.locator('#import-run').setInputFiles(file);
  await open.getByTestId('notice').filter({ hasText: 'Imported the run file. Undo (here, or under Configure) brings back the run from before.' }).waitFor();
  // The notice's own Undo, where the user is.
  await open.getByTestId('notice-undo').click();
  assert.deepEqual(await snapshot(open), mine);
  assertNoErrors(open);
  await open.context().close();

  const other = await openPage(browser());
  await other.locator('#import-run').setInputFiles(file);
  await other.getByTestId('notice').filter({ hasText: 'Imported the run file' }).waitFor();
  assert.deepEqual(await snapshot(other), before);
  assertNoErrors(other);
  await other.context().close();
});

/** The link of a fresh run stepped `steps` times, from a browser of its own. */
async function linkOfRun(steps) {
  const page = await openPage(browser());
  for (let i = 0; i < steps; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByLabel('Link to this run').inputValue();
  assertNoErrors(page);
  await page.context().close();
  return link;
}

test('a link opened as the page loads, then another run before acting: Undo brings back the user\'s own run', async () => {
  const [first, second] = [await linkOfRun(2), await linkOfRun(1)];
  const own = await openPage(browser());
  for (let i = 0; i < 3; i++) await own.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(own);
  const saved = await snapshot(own);
  await own.goto('about:blank');
  await own.goto(first);
  await own.getByTestId('notice').filter({ hasText: 'Opened the shared run' }).waitFor();
  const opened = await snapshot(own);
  assert.notDeepEqual(opened, saved);
  // The second run replaces the first before anything was done with it.
  await own.evaluate((h) => { location.hash = h; }, new URL(second).hash);
  await own.waitForFunction((task) => document.querySelector('[data-testid=task-id]').textContent !== task, opened.task);
  await own.getByRole('button', { name: 'Undo: bring back the run from before' }).click();
  assert.deepEqual(await snapshot(own), saved);
  // And it is the run saved in this browser again.
  await settle(own);
  await own.reload();
  await own.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(own), saved);
  assertNoErrors(own);
  await own.context().close();
});

test('a settings change or Restart can be undone until the new run is acted on', async () => {
  const page = await openPage(browser());
  const before = await someRun(page);
  const undo = page.getByRole('button', { name: 'Undo: bring back the run from before' });
  assert.equal(await undo.count(), 0, 'nothing to undo yet');
  // Dragging a slider starts several fresh runs; Undo still brings back the real one.
  await page.getByLabel('Work units').fill('6');
  await page.getByLabel('Work units').fill('7');
  assert.match(await page.getByTestId('notice').innerText(), /Work units changed: a fresh experiment started/);
  await undo.click();
  assert.deepEqual(await snapshot(page), before);
  assert.match(await page.getByTestId('notice').innerText(), /The run from before is back/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setting-work-units', 'focus stays in the settings');
  assert.equal(await undo.count(), 0);
  await settle(page);
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(page), before, 'the run brought back is the one saved');

  // A reload keeps the replaced run within reach of Undo; once the new run
  // is acted on, it is the one kept.
  await page.getByRole('button', { name: 'Restart experiment' }).click();
  await undo.waitFor();
  await settle(page);
  await page.reload();
  await undo.waitFor();
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  assert.equal(await undo.count(), 0);
  assert.equal(await page.getByTestId('notice').innerText(), '', 'the note on the reload has been read');
  await settle(page);
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.equal(await undo.count(), 0, 'acted on: nothing is kept for Undo');
  assert.equal(await page.evaluate(() => localStorage.getItem('a2a-control-room/run.previous')), null);
  assertNoErrors(page);
  await page.context().close();
});

test('Keyboard shortcuts turned off and the speed chosen stay so after a reload', async () => {
  const page = await openPage(browser());
  const shortcuts = page.getByLabel('Keyboard shortcuts');
  assert.ok(await shortcuts.isChecked());
  await shortcuts.uncheck();
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.ok(!(await page.getByLabel('Keyboard shortcuts').isChecked()));
  assert.equal(await page.getByLabel('Speed').evaluate((s) => s.selectedOptions[0].text), '10×');
  // A speed the page does not know leaves the default.
  await page.evaluate(() => localStorage.setItem('a2a-control-room/speed', '1000×'));
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.equal(await page.getByLabel('Speed').evaluate((s) => s.selectedOptions[0].text), '1×');
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getByTestId('task-state').innerText(), 'TASK_STATE_SUBMITTED', '→ is not a shortcut');
  await page.getByLabel('Keyboard shortcuts').check();
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('task-state').filter({ hasText: 'TASK_STATE_WORKING' }).waitFor();
  assertNoErrors(page);
  await page.context().close();
});

test('the pause encoding, the trace\'s seconds switch and the entry picked for Wire stay so after a reload; a link carries the encoding to its exchange', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Proposed pause/resume').check();
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.getByLabel('Pause encoding').selectOption('ext');
  const seconds = page.getByLabel('Show each worked second and waited minute (proposal)');
  await seconds.uncheck();
  await page.getByTestId('trace-entry').first().click();
  const wire = await text(page, 'wire-messages');
  assert.match(wire, /A2A-Extensions/);
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByLabel('Link to this run').inputValue();
  assert.match(link, /#run=[^&]+&entry=1&encoding=extension$/);
  // In the proposed core, the link says so too: it opens in core whatever the receiver kept.
  await page.getByLabel('Pause encoding').selectOption('core');
  await page.getByRole('button', { name: 'Copy link' }).click();
  const coreLink = await page.getByLabel('Link to this run').inputValue();
  assert.match(coreLink, /#run=[^&]+&entry=1&encoding=core$/);
  await page.getByLabel('Pause encoding').selectOption('ext');
  // A reload keeps both choices, and the entry picked.
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.equal(await page.getByLabel('Pause encoding').inputValue(), 'ext');
  assert.ok(!(await seconds.isChecked()));
  assert.match(await text(page, 'wire-heading'), /^Trace entry #1 \(selected\)/);
  assert.equal(await text(page, 'wire-messages'), wire);
  // The link shows the sender's exchange in the sender's encoding, whatever the receiver kept.
  await page.context().close();
  const fresh = await openPage(browser(), link);
  await fresh.getByTestId('task-state').waitFor();
  assert.equal(await fresh.getByLabel('Pause encoding').inputValue(), 'ext');
  assert.match(await text(fresh, 'wire-heading'), /^Trace entry #1 \(selected\)/);
  assert.equal(await text(fresh, 'wire-messages'), wire);
  assert.equal(await text(fresh, 'alert'), '');
  assertNoErrors(fresh);
  await fresh.context().close();
  // A link made in the proposed core opens in it, though the receiver keeps the extension.
  const receiver = await openPage(browser());
  await receiver.evaluate(() => localStorage.setItem('a2a-control-room/pause-encoding', 'extension'));
  await receiver.reload();
  await receiver.getByTestId('task-state').waitFor();
  await receiver.goto('about:blank');
  await receiver.goto(coreLink);
  await receiver.getByTestId('task-state').waitFor();
  assert.equal(await receiver.getByLabel('Pause encoding').inputValue(), 'core');
  assert.match(await text(receiver, 'wire-messages'), /SendStreamingMessage/);
  assert.doesNotMatch(await text(receiver, 'wire-messages'), /A2A-Extensions/);
  assertNoErrors(receiver);
  await receiver.context().close();
  // An encoding the page does not know is said; the run opens all the same.
  const bad = await openPage(browser(), link.replace(/extension$/, 'nope'));
  await bad.getByTestId('task-state').waitFor();
  assert.match(await text(bad, 'alert'), /^The link's pause encoding is “nope”, where a run's link has “&encoding=core” or “&encoding=extension”: the run opened/);
  assert.match(await text(bad, 'wire-heading'), /^Trace entry #1 \(selected\)/);
  assertNoErrors(bad);
  await bad.context().close();
});

test('a tab told that another tab saved a different run over its own', async () => {
  const a = await openPage(browser());
  for (let i = 0; i < 3; i++) await a.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(a);
  // A second tab of the same browser opens the same saved run: no warning.
  const b = await watch(await a.context().newPage());
  await b.goto(a.url());
  await b.getByTestId('task-state').waitFor();
  await settle(b); // its own save, had it made one, has come
  assert.equal(await a.getByTestId('alert').innerText(), '');
  // The second tab changes its run: the first is told, and keeps its own run.
  const before = await snapshot(a);
  await b.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(b);
  await a.getByRole('alert').filter({ hasText: 'Another tab of this page saved a different run' }).waitFor();
  assert.deepEqual(await snapshot(a), before);
  // Said once: dismissed, it does not come back at the other tab's next saves.
  await a.keyboard.press('Escape');
  await listen(a);
  await b.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(b);
  await heard(a);
  assert.equal(await a.getByTestId('alert').innerText(), '');
  // A reload of each tab brings back its own run, not the last saved.
  const theirs = await snapshot(b);
  const saved = () => b.evaluate(() => localStorage.getItem('a2a-control-room/run'));
  const theirsSaved = await saved();
  await a.reload();
  await a.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(a), before);
  assert.match(await text(a, 'notice'), /^Restored this tab's own run: another tab of this page saved a different run/);
  // Reopened, not changed: the other tab's saved run stays until this one changes.
  await settle(a);
  assert.equal(await saved(), theirsSaved);
  await b.reload();
  await b.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(b), theirs);
  assert.match(await text(b, 'notice'), /^Restored the run saved in this browser/);
  // A tab's copy that cannot be opened is said; the saved run opens.
  await a.evaluate(() => sessionStorage.setItem('a2a-control-room/run', 'not a run'));
  await a.reload();
  await a.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(a), theirs);
  assert.match(await text(a, 'alert'), /^This tab's own copy of its run could not be opened: it is not a valid run .*the run saved in this browser was opened instead/);
  assertNoErrors(b);
  assertNoErrors(a);
  await a.context().close();
});

/** Presses Step on `page`. */
const pressStep = (page) => page.getByRole('button', { name: 'Step', exact: true }).click();

/** A second tab of `page`'s browser that saves a fresh run of its own, stepped once. */
async function otherTabSaves(page) {
  const other = await watch(await page.context().newPage());
  await other.goto(BASE_URL);
  await other.getByTestId('task-state').waitFor();
  await other.getByRole('button', { name: 'Restart experiment' }).click();
  await pressStep(other);
  await settle(other);
  return other;
}

test('over a run another tab saved since, a link loaded in this tab puts this tab\'s own run in its place or within Undo; a forget in another tab is said', async () => {
  const a = await openPage(browser());
  for (let i = 0; i < 3; i++) await pressStep(a);
  await settle(a);
  const mine = await snapshot(a);
  // A second tab saves a different run over it.
  const b = await otherTabSaves(a);
  const theirs = await snapshot(b);
  // A link that cannot be opened, loaded in the first tab: its own run comes
  // back, not the other tab's, as a reload brings it back.
  await a.goto('about:blank');
  await a.goto(new URL('#run=%7Bbroken', BASE_URL).href);
  await a.getByTestId('task-state').waitFor();
  assert.match(await text(a, 'alert'), /^The shared link could not be opened: .*The link stays in the address bar, to copy or mend\. Restored this tab's own run: another tab of this page saved a different run/);
  assert.deepEqual(await snapshot(a), mine);
  // A link that opens, loaded in the first tab: Undo brings back this tab's
  // run, not the other tab's.
  const link = await linkOfRun(5);
  await a.goto('about:blank');
  await a.goto(link);
  await a.getByTestId('notice').filter({ hasText: 'Opened the shared run' }).waitFor();
  assert.match(await text(a, 'notice'), /It replaces in this browser the run another tab of this page saved since; that tab still has it on its page/);
  await a.getByTestId('notice-undo').click();
  assert.deepEqual(await snapshot(a), mine);
  await settle(a);
  // The checkpoint removed otherwise than by Forget (as a start-up sets an
  // unreadable one apart) is no forget: nothing is said, nothing forgotten.
  await listen(a);
  await b.evaluate(() => localStorage.removeItem('a2a-control-room/run'));
  await heard(a);
  assert.equal(await a.getByTestId('alert').innerText(), '');
  assert.notEqual(await a.evaluate(() => sessionStorage.getItem('a2a-control-room/run')), null);
  // The other tab has the browser forget the saved run: this tab is told
  // that a reload would now start afresh, and keeps its run on the page.
  // (The link's run, saved in the first tab, was said there.)
  await b.getByRole('alert').filter({ hasText: 'Another tab of this page saved a different run' }).waitFor();
  await b.keyboard.press('Escape');
  await b.getByRole('button', { name: 'Forget saved run' }).click();
  await a.getByRole('alert').filter({ hasText: 'Another tab of this page had this browser forget the saved run' }).waitFor();
  assert.match(await text(a, 'alert'), /until then a reload of this tab starts a fresh run/);
  assert.deepEqual(await snapshot(a), mine);
  assert.equal(await a.evaluate(() => sessionStorage.getItem('a2a-control-room/run')), null, 'this tab forgot its copy too');
  assert.deepEqual(await snapshot(b), theirs);
  assertNoErrors(a);
  assertNoErrors(b);
  await a.context().close();
});

test('a link pasted into an open tab says it replaces a run another tab saved since; Back from a link that failed takes its alert away', async () => {
  const a = await openPage(browser());
  for (let i = 0; i < 2; i++) await pressStep(a);
  await settle(a);
  const link = await linkOfRun(4);
  // A second tab saves a different run over this tab's; this tab is told.
  const b = await otherTabSaves(a);
  await a.getByRole('alert').filter({ hasText: 'Another tab of this page saved a different run' }).waitFor();
  await a.keyboard.press('Escape');
  // The link, pasted into the first tab's address bar, is saved over it.
  await a.evaluate((h) => { location.hash = h; }, new URL(link).hash);
  await a.getByTestId('notice').filter({ hasText: 'Opened the shared run' }).waitFor();
  assert.match(await text(a, 'notice'), /It replaces in this browser the run another tab of this page saved since; that tab still has it on its page/);
  await settle(a);
  // The other tab saves again; the same link again holds the run on the
  // page, which is not saved anew: nothing is replaced.
  await pressStep(b);
  await settle(b);
  await a.evaluate((h) => { location.hash = h; }, new URL(link).hash);
  await a.waitForFunction(() => !location.hash);
  assert.match(await text(a, 'notice'), /^Opened the shared run\./);
  assert.doesNotMatch(await text(a, 'notice'), /It replaces in this browser the run another tab/);
  // A link that fails says it stays in the address bar; Back takes it out,
  // and the alert with it.
  const before = await snapshot(a);
  await a.evaluate(() => { location.hash = '#run=%7Bbroken'; });
  await a.getByTestId('alert').filter({ hasText: 'The link stays in the address bar' }).waitFor();
  await a.goBack();
  await a.waitForFunction(() => !location.hash);
  await a.waitForFunction(() => document.querySelector('[data-testid=alert]').textContent === '');
  assert.deepEqual(await snapshot(a), before);
  assertNoErrors(a);
  assertNoErrors(b);
  await a.context().close();
});

test('the run a link replaced stays within this tab\'s Undo across a reload, whatever another tab saves', async () => {
  const a = await openPage(browser());
  for (let i = 0; i < 2; i++) await pressStep(a);
  await settle(a);
  const mine = await snapshot(a);
  const link = await linkOfRun(3);
  await a.evaluate((h) => { location.hash = h; }, new URL(link).hash);
  await a.getByTestId('notice').filter({ hasText: 'Opened the shared run' }).waitFor();
  await settle(a);
  // Another tab, with nothing to undo, saves a run of its own.
  const b = await otherTabSaves(a);
  assert.equal(await b.evaluate(() => localStorage.getItem('a2a-control-room/run.previous')), null);
  // A reload of the first tab opens its own run, and its Undo still brings
  // back the run the link replaced.
  await a.reload();
  await a.getByTestId('task-state').waitFor();
  assert.match(await text(a, 'notice'), /^Restored this tab's own run/);
  await a.getByRole('button', { name: 'Undo: bring back the run from before' }).click();
  assert.deepEqual(await snapshot(a), mine);
  // A link whose run is the one saved here replaces nothing of another tab's.
  const c = await watch(await a.context().newPage());
  await c.goto(link);
  await c.getByTestId('notice').filter({ hasText: 'Opened the shared run' }).waitFor();
  await settle(c);
  await b.goto('about:blank');
  await b.goto(link);
  await b.getByTestId('notice').filter({ hasText: 'Opened the shared run' }).waitFor();
  assert.doesNotMatch(await text(b, 'notice'), /It replaces in this browser the run another tab/);
  assertNoErrors(a);
  assertNoErrors(b);
  assertNoErrors(c);
  await a.context().close();
});

test('a checkpoint that decodes but does not replay is set aside and said; this tab\'s own run opens and is saved over it', async () => {
  const page = await openPage(browser());
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(page);
  const mine = await snapshot(page);
  // Another tab (or a hand edit) leaves a run whose script views a state it never recorded.
  const bad = await page.evaluate(() => {
    const run = JSON.parse(localStorage.getItem('a2a-control-room/run'));
    run.script.push({ Seek: 99 });
    const text = JSON.stringify(run);
    localStorage.setItem('a2a-control-room/run', text);
    return text;
  });
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.match(await text(page, 'alert'), /^The run saved in this browser could not be opened: .*script.*This tab's own copy of its run was opened instead; its text is kept .*a2a-control-room\/run\.unreadable/);
  assert.equal(await page.evaluate(() => localStorage.getItem('a2a-control-room/run.unreadable')), bad, 'the text is kept apart as it was');
  assert.deepEqual(await snapshot(page), mine);
  // Saved at once in its place: a reload of this or any tab brings it back.
  await settle(page);
  const saved = await page.evaluate(() => localStorage.getItem('a2a-control-room/run'));
  assert.equal(saved, await page.evaluate(() => sessionStorage.getItem('a2a-control-room/run')));
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(page), mine);
  assert.equal(await text(page, 'alert'), '');
  // A run kept for Undo (a settings change replaced it) stays within reach
  // through such a reload.
  await page.getByLabel('Work units').fill('3');
  await page.getByLabel('Work units').press('Tab');
  await settle(page);
  const previous = await page.evaluate(() => localStorage.getItem('a2a-control-room/run.previous'));
  assert.ok(previous, 'the replaced run is kept for Undo');
  await page.evaluate(() => {
    const run = JSON.parse(localStorage.getItem('a2a-control-room/run'));
    run.script.push({ Seek: 99 });
    localStorage.setItem('a2a-control-room/run', JSON.stringify(run));
  });
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.match(await text(page, 'alert'), /could not be opened: .*This tab's own copy of its run was opened instead/);
  await settle(page);
  assert.equal(await page.evaluate(() => localStorage.getItem('a2a-control-room/run.previous')), previous);
  await page.getByRole('button', { name: /^Undo/ }).first().click();
  assert.deepEqual(await snapshot(page), mine);
  assertNoErrors(page);
  await page.context().close();
});

test('another tab\'s save while an alert is up is said once that alert is gone', async () => {
  const a = await openPage(browser());
  await a.getByLabel('Worker accepts cancellation').uncheck();
  for (let i = 0; i < 2; i++) await a.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(a);
  const b = await watch(await a.context().newPage());
  await b.goto(a.url());
  await b.getByTestId('task-state').waitFor();
  // The worker refuses the cancellation: an alert is up in the first tab.
  await a.getByRole('button', { name: 'Request cancellation' }).click();
  await a.getByRole('alert').filter({ hasText: 'TaskNotCancelableError' }).waitFor();
  await settle(a); // the refusal, traced, is saved before the other tab saves
  const before = await snapshot(a);
  await listen(a);
  await b.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(b);
  await heard(a);
  assert.match(await a.getByTestId('alert').innerText(), /TaskNotCancelableError/, 'the alert up stays as it is');
  await a.keyboard.press('Escape');
  await a.getByRole('alert').filter({ hasText: 'Another tab of this page saved a different run' }).waitFor();
  assert.deepEqual(await snapshot(a), before);
  assertNoErrors(b);
  assertNoErrors(a);
  await a.context().close();
});

test('a save keeps the Undo copy that belongs with it, over one another tab kept there', async () => {
  const page = await openPage(browser());
  const step = page.getByRole('button', { name: 'Step', exact: true });
  const checkpoint = () => page.evaluate(() => localStorage.getItem('a2a-control-room/run'));
  await step.click();
  await settle(page);
  const oneStep = await checkpoint();
  for (let i = 0; i < 2; i++) await step.click();
  await settle(page);
  const threeSteps = await checkpoint();
  for (let i = 0; i < 2; i++) await step.click();
  await settle(page);
  const fiveSteps = await snapshot(page);
  // A run opened from a link: the five-step run is kept for Undo.
  await page.evaluate((t) => { location.hash = '#run=' + encodeURIComponent(t); }, threeSteps);
  const undo = page.getByRole('button', { name: 'Undo: bring back the run from before' });
  await undo.waitFor();
  await settle(page);
  // Another tab keeps its own Undo copy in this browser's one place for it...
  await page.evaluate((t) => localStorage.setItem('a2a-control-room/run.previous', t), oneStep);
  // ...then this tab views an earlier state (not an action: Undo stays) and saves.
  await page.getByLabel('Recorded state', { exact: true }).fill('2');
  await settle(page);
  await page.reload();
  await undo.click();
  assert.deepEqual(await snapshot(page), fiveSteps, "this tab's run from before, not the other tab's");
  assertNoErrors(page);
  await page.context().close();
});

test('a link to the run already on the page opens it without offering an Undo that would change nothing', async () => {
  const page = await openPage(browser());
  for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(page);
  const before = await snapshot(page);
  // A bad link first: its alert goes once the good one opens.
  await page.evaluate(() => { location.hash = '#run=%E0%A4%A'; });
  await page.getByTestId('alert').filter({ hasText: 'could not be opened' }).waitFor();
  await page.evaluate(() => { location.hash = '#run=' + encodeURIComponent(localStorage.getItem('a2a-control-room/run')); });
  await page.getByTestId('notice').filter({ hasText: 'Opened the shared run.' }).waitFor();
  assert.equal(await page.getByTestId('alert').innerText(), '');
  assert.deepEqual(await snapshot(page), before);
  assert.equal(await page.getByRole('button', { name: 'Undo: bring back the run from before' }).count(), 0);
  await settle(page);
  assert.equal(await page.evaluate(() => localStorage.getItem('a2a-control-room/run.previous')), null);
  assertNoErrors(page);
  await page.context().close();
});

test('a corrupt checkpoint gets a message and a fresh run', async () => {
  const page = await openPage(browser());
  await settle(page); // or the page saves its own run over this one when it unloads
  // As a new tab finds it (one that kept its own copy opens that: see above).
  await page.evaluate(() => {
    localStorage.setItem('a2a-control-room/run', '{"format":"a2a-control-room/run","version":1,"config":');
    sessionStorage.clear();
  });
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.match(await page.getByTestId('alert').innerText(), /run saved in this browser could not be opened: it is not a valid run .*A fresh run was started; its text is kept .*a2a-control-room\/run.unreadable/);
  assert.equal(await page.getByTestId('task-state').innerText(), 'TASK_STATE_SUBMITTED');
  assert.equal(await page.getByTestId('trace-entry').count(), 1);
  const kept = await page.evaluate(() => localStorage.getItem('a2a-control-room/run.unreadable'));
  assert.ok(kept.startsWith('{"format"'), 'the unreadable value is kept apart');
  // The Save panel lists it, and downloads its text as it was.
  assert.match(await page.getByTestId('kept-apart').innerText(), /could not be read.*\n.*a2a-control-room\/run\.unreadable/s);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download a2a-control-room/run.unreadable' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'a2a-control-room-run.unreadable.json');
  const { readFile } = await import('node:fs/promises');
  assert.equal(await readFile(await download.path(), 'utf8'), kept);
  assert.match(await page.getByTestId('notice').innerText(), /kept under “a2a-control-room\/run.unreadable” is in your downloads/);
  // Cleared meanwhile (in another tab): the alert says so and the list forgets it.
  await page.evaluate(() => localStorage.removeItem('a2a-control-room/run.unreadable'));
  await page.getByRole('button', { name: 'Download a2a-control-room/run.unreadable' }).click();
  assert.match(await page.getByTestId('alert').innerText(), /Nothing is kept under “a2a-control-room\/run.unreadable” any more/);
  assert.ok(await page.getByTestId('kept-apart').isHidden(), 'nothing is listed');
  await page.evaluate((t) => localStorage.setItem('a2a-control-room/run.unreadable', t), kept);
  // A checkpoint or Undo copy with nothing in it is not a run to keep: it
  // is cleared without an alert, and nothing more is set aside.
  for (const empty of ['', '   ', 'null']) {
    await settle(page);
    await page.evaluate((v) => {
      localStorage.setItem('a2a-control-room/run', v);
      localStorage.setItem('a2a-control-room/run.previous', v);
    }, empty);
    await page.reload();
    await page.getByTestId('task-state').waitFor();
    assert.equal(await page.getByTestId('alert').innerText(), '', `${JSON.stringify(empty)}: no alert`);
    assert.equal(await page.evaluate(() => localStorage.getItem('a2a-control-room/run.unreadable-2')), null);
    assert.equal(await page.evaluate(() => localStorage.getItem('a2a-control-room/run.previous.unreadable')), null);
    // Cleared: the blank Undo copy is gone (the checkpoint holds the fresh run).
    assert.equal(await page.evaluate(() => localStorage.getItem('a2a-control-room/run.previous')), null);
    const checkpoint = await page.evaluate(() => localStorage.getItem('a2a-control-room/run'));
    assert.ok(checkpoint === null || checkpoint.startsWith('{"format"'), `${JSON.stringify(empty)} is gone: ${checkpoint}`);
  }
  assertNoErrors(page);
  await page.context().close();
});

test('a run rewritten by a JavaScript JSON tool keeps its ids: seeds are drawn within 2^53', async () => {
  const page = await openPage(browser());
  for (let i = 0; i < 2; i++) {
    await settle(page);
    const text = await page.evaluate(() => localStorage.getItem('a2a-control-room/run'));
    const seed = BigInt(text.match(/"seed":(\d+)/)[1]);
    assert.ok(seed <= 2n ** 53n - 1n, `seed ${seed}`);
    const rewritten = JSON.stringify(JSON.parse(text), null, 2);
    const taskId = await page.getByTestId('task-id').innerText();
    const other = await openPage(browser(), `#run=${encodeURIComponent(rewritten)}`);
    assert.equal(await other.getByTestId('notice').innerText(), 'Opened the shared run.');
    assert.equal(await other.getByTestId('task-id').innerText(), taskId, 'the same ids');
    assertNoErrors(other);
    await other.context().close();
    await page.getByRole('button', { name: 'Restart experiment' }).click(); // a fresh seed
  }
  // A seed beyond 2^53 that a JavaScript number could hold may have been
  // rounded on its way: the page says its ids may not be the original's.
  await settle(page);
  const text = await page.evaluate(() => localStorage.getItem('a2a-control-room/run'));
  const rounded = text.replace(/"seed":\d+/, '"seed":13675345984917557248');
  const other = await openPage(browser(), `#run=${encodeURIComponent(rounded)}`);
  assert.match(await other.getByTestId('notice').innerText(), /^Opened the shared run\. Its id seed is beyond what a JavaScript number holds exactly: if a JSON tool rewrote it, its task and context ids may differ/);
  assertNoErrors(other);
  await other.context().close();
  assertNoErrors(page);
  await page.context().close();
});

/** A run text cut short: it cannot be read. */
const CORRUPT = '{"format":"a2a-control-room/run","version":1,"config":';

/** From the page's next load on, storage is full for a text kept apart as unreadable. */
const noRoomApart = (page) => page.context().addInitScript(() => {
  const set = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (key.includes('.unreadable')) throw new DOMException('full', 'QuotaExceededError');
    return set.call(this, key, value);
  };
});

test('a corrupt checkpoint that cannot be moved apart stays until the run changes', async () => {
  const page = await openPage(browser());
  await settle(page);
  // Storage is full for the copy: the text cannot be kept apart.
  await noRoomApart(page);
  await page.evaluate((t) => localStorage.setItem('a2a-control-room/run', t), CORRUPT);
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.match(
    await page.getByTestId('alert').innerText(),
    /could not be opened: .*storage is full\), so it stays under “a2a-control-room\/run” until the run on this page changes and is saved there \(until this page is closed, Save and share offers its text to download\)\./,
  );
  const checkpoint = () => page.evaluate(() => localStorage.getItem('a2a-control-room/run'));
  await settle(page); // past any save a change would have made
  assert.equal(await checkpoint(), CORRUPT, 'the fresh run is not saved over it');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(page);
  assert.match(await checkpoint(), /"script":\[\{"Steps":1\}\]/, 'a change is saved, as said');
  // Saved over in storage, the text is still offered as it was read.
  const { readFile } = await import('node:fs/promises');
  const [held] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download a2a-control-room/run, as it was read when the page opened' }).click(),
  ]);
  assert.equal(await readFile(await held.path(), 'utf8'), CORRUPT, 'nothing of it is lost');
  // A link opened over such a text is saved in its place at once: the link
  // leaves the address bar, so a reload would otherwise lose it.
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByLabel('Link to this run').inputValue();
  await page.evaluate((t) => localStorage.setItem('a2a-control-room/run', t), CORRUPT);
  await page.goto('about:blank');
  await page.goto(link);
  await page.getByTestId('task-state').waitFor();
  assert.match(await page.getByTestId('alert').innerText(), /could not be kept apart \(this browser did not let the page keep its text apart \(storage is full\)\), so the shared run is saved over it, unless the browser refuses that too, which a notice would say\./);
  await settle(page);
  assert.match(await checkpoint(), /"script":\[\{"Steps":1\}\]/, 'the shared run is saved');
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.equal(await page.getByTestId('trace-entry').count(), 3, 'the shared run came back after a reload');
  assertNoErrors(page);
  await page.context().close();
});

test('an unreadable Undo copy that cannot be moved apart stays through the saves of the run on the page', async () => {
  const page = await openPage(browser());
  for (let i = 0; i < 2; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(page);
  await noRoomApart(page);
  await page.evaluate((t) => localStorage.setItem('a2a-control-room/run.previous', t), CORRUPT);
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.match(await page.getByTestId('alert').innerText(), /so it stays under “a2a-control-room\/run\.previous” until another run is kept there\./);
  const previous = () => page.evaluate(() => localStorage.getItem('a2a-control-room/run.previous'));
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(page);
  assert.equal(await previous(), CORRUPT, 'a save of the run on the page leaves it, as said');
  // Another run kept for Undo takes its place, as said.
  await page.getByRole('button', { name: 'Restart experiment' }).click();
  await settle(page);
  assert.match(await previous(), /"script":\[\{"Steps":3\}\]/);
  assertNoErrors(page);
  await page.context().close();
});

test('a link opened over an unreadable checkpoint and Undo copy keeps both texts apart and says so', async () => {
  const page = await openPage(browser());
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByLabel('Link to this run').inputValue();
  const shared = await snapshot(page);
  await settle(page);
  const [run, previous] = ['not a run', '{"format":"a2a-control-room/run","version":1,"config":'];
  await page.evaluate(([run, previous]) => {
    localStorage.setItem('a2a-control-room/run', run);
    localStorage.setItem('a2a-control-room/run.previous', previous);
  }, [run, previous]);
  await page.goto('about:blank');
  await page.goto(link);
  await page.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(page), shared, 'the link opened');
  const alert = await page.getByTestId('alert').innerText();
  assert.match(alert, /run saved in this browser before this link could not be read: it is not a valid run .*kept .*under “a2a-control-room\/run.unreadable”/);
  assert.match(alert, /run kept for Undo could not be read: it is not a valid run .*kept .*under “a2a-control-room\/run.previous.unreadable”/);
  await settle(page); // the link's run is now the checkpoint
  const kept = await page.evaluate(() => [
    localStorage.getItem('a2a-control-room/run.unreadable'),
    localStorage.getItem('a2a-control-room/run.previous.unreadable'),
  ]);
  assert.deepEqual(kept, [run, previous], 'both unreadable texts are kept');
  // Another unreadable checkpoint does not take the place of the first.
  await page.evaluate(() => localStorage.setItem('a2a-control-room/run', 'also not a run'));
  await page.goto('about:blank');
  await page.goto(BASE_URL);
  await page.getByTestId('task-state').waitFor();
  assert.match(await page.getByTestId('alert').innerText(), /kept .*under “a2a-control-room\/run.unreadable-2”/);
  const both = await page.evaluate(() => [
    localStorage.getItem('a2a-control-room/run.unreadable'),
    localStorage.getItem('a2a-control-room/run.unreadable-2'),
  ]);
  assert.deepEqual(both, [run, 'also not a run']);
  assertNoErrors(page);
  await page.context().close();
});

test('on a small phone an alert of several problems scrolls within the screen, its Dismiss in reach of a tap', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 320, height: 568 }, hasTouch: true, isMobile: true });
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByLabel('Link to this run').inputValue();
  const run = JSON.parse(decodeURIComponent(new URL(link).hash.slice('#run='.length)));
  // An unknown action of a long name, opened over an unreadable checkpoint
  // and Undo copy: three problems in one alert.
  run.script.push({ Act: { action: 'Explode' + 'x'.repeat(300), ok: true } });
  await settle(page);
  await page.evaluate(() => {
    localStorage.setItem('a2a-control-room/run', 'not a run');
    localStorage.setItem('a2a-control-room/run.previous', 'not a run either');
  });
  await page.goto('about:blank');
  await page.goto(`${BASE_URL}#run=${encodeURIComponent(JSON.stringify(run))}`);
  await page.getByTestId('task-state').waitFor();
  const alert = page.getByTestId('alert');
  const said = await alert.locator('[role=alert]').innerText();
  // What became of the link first, the copy kept for Undo last.
  assert.match(said, /^The shared link could not be opened: .*Explode.* The run kept for Undo could not be read: /s);
  const box = await alert.locator('p').evaluate((p) => {
    const r = p.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, scrolls: p.scrollHeight > p.clientHeight };
  });
  assert.ok(box.top >= 0 && box.bottom <= 568, `the alert lies within the screen: ${JSON.stringify(box)}`);
  assert.ok(box.scrolls, 'the alert is longer than its box: it scrolls');
  // Scrolled to its end, Dismiss is still in view, and a tap dismisses it.
  await alert.locator('p').evaluate((p) => { p.scrollTop = p.scrollHeight; });
  const dismiss = alert.getByRole('button', { name: 'Dismiss' });
  const at = await dismiss.boundingBox();
  assert.ok(at.y >= box.top && at.y + at.height <= box.bottom, `Dismiss in view: ${JSON.stringify(at)}`);
  await dismiss.tap();
  await alert.waitFor({ state: 'hidden' });
  assertNoErrors(page);
  await page.context().close();
});

test('every kind of bad link or file is named, and the run in front of the user is untouched', async () => {
  const page = await openPage(browser());
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 3; i++) await step.click();
  await settle(page);
  const before = await snapshot(page);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download run' }).click(),
  ]);
  const { readFile } = await import('node:fs/promises');
  const good = await readFile(await download.path(), 'utf8');
  const dir = await tempDir('runs-');
  const latin1 = '{"format":"a2a-control-room/run",\n"note":"caf\u00e9"}';
  const files = [
    ['malformed.json', 'not json at all', /not a valid run/],
    ['truncated.json', good.slice(0, good.length / 2), /not a valid run/],
    ['version.json', good.replace(/"version":\d+/, '"version":7'), /format version 7/],
    ['other.json', '{"format":"something-else","version":1}', /not an a2a-control-room\/run file/],
    ['range.json', good.replace('"work_units":4', '"work_units":99'), /Work units must be between 1 and 12/],
    ['illegal.json', good.replace('"script":[', '"script":[{"Act":{"action":"Authorize","ok":true}},'), /item 1 of its script asks for Authorize/],
    ['oversized.json', 'x'.repeat(10 * 1024 * 1024), /10485760 bytes long/],
    ['nested.json', '['.repeat(10_000), /nests its values too deeply to be a run/],
    // A file saved in Latin-1: refused, not opened with its "é" replaced.
    ['latin1.json', Buffer.from(latin1, 'latin1'),
      new RegExp(`not UTF-8 text \\(byte ${latin1.indexOf('\u00e9') + 1}, on line 2, is not\\)`)],
    // Its settings as one long string: quoted by its start and length.
    ['string.json', JSON.stringify({ ...JSON.parse(good), config: JSON.stringify(JSON.parse(good).config) }),
      /config: invalid type: string "\{\\"work_units\\":4,.{20,40}…" \(\d+ characters\)/],
    // A value of 400 000 characters: said by its start, in a short alert, at once.
    ['long-value.json', good.replace('"work_units":4', `"work_units":"${'A'.repeat(400_000)}"`),
      /config\.work_units: invalid type: string "A{40}…" \(400000 characters\), expected a whole number from 1 to 12/],
  ];
  for (const [name, content, message] of files) {
    const path = join(dir, name);
    await writeFile(path, content);
    // The alert of the file before goes first, so that this one's is read.
    await page.keyboard.press('Escape');
    await page.getByTestId('alert').filter({ hasText: /./ }).waitFor({ state: 'detached' });
    await page.locator('#import-run').setInputFiles(path);
    await page.getByTestId('alert').filter({ hasText: message }).waitFor({ timeout: 10_000 });
    const alert = await page.getByTestId('alert').innerText();
    assert.match(alert, /The run on the page is unchanged/);
    assert.doesNotMatch(alert, /\.\./, 'one full stop per sentence');
    assert.deepEqual(await snapshot(page), before, `${name} left the run untouched`);
    // However long its words or the value it quotes, the alert and its
    // Dismiss stay on the screen.
    const { width, height } = page.viewportSize();
    for (const part of [page.getByTestId('alert').locator('p'), page.getByRole('button', { name: 'Dismiss', exact: true })]) {
      const box = await part.boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= width, `${name}: ${JSON.stringify(box)} within ${width}px`);
      assert.ok(box.y >= 0 && box.y + box.height <= height, `${name}: ${JSON.stringify(box)} within ${height}px`);
    }
  }
  // A file refused while Play runs: its alert stays as Play's Steps go on
  // (they answer no alert), until dismissed or the user's next action.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Restart experiment' }).click();
  await page.locator('#speed').selectOption({ label: '10×' });
  await page.locator('#play').click();
  await page.locator('#import-run').setInputFiles(join(dir, 'truncated.json'));
  const alert = page.getByTestId('alert').filter({ hasText: /not a valid run/ });
  await alert.waitFor();
  const entries = await page.getByTestId('trace-entry').count();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=trace-entry]').length >= n + 3, entries);
  assert.ok(await alert.isVisible(), 'the alert outlasts three of Play\'s Steps');
  assertNoErrors(page);
  await page.context().close();

  // A link that is not even correctly encoded.
  const broken = await openPage(browser(), '#run=%E0%A4%A');
  assert.match(await broken.getByTestId('alert').innerText(), /shared link could not be opened: it is not correctly encoded/);
  assert.equal(await broken.getByTestId('task-state').innerText(), 'TASK_STATE_SUBMITTED');
  assertNoErrors(broken);
  await broken.context().close();
});

test('a link that cannot be opened brings back the run saved in this browser and never overwrites it', async () => {
  const page = await openPage(browser());
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 3; i++) await step.click();
  await settle(page);
  const before = await snapshot(page);
  for (const [hash, why] of [
    ['#run=%E0%A4%A', /it is not correctly encoded/],
    ['#run=', /it is empty/],
    ['#run=%7B%22format%22%3A%22nope%22%7D', /not an a2a-control-room\/run file/],
    // Mangled by hand: named for what is wrong, not read as the run's JSON or ignored.
    ['#run=%7B%7D&foo=bar', /it has a part this page does not know, “&foo=bar” \(a run's link may add “&entry=N” and “&encoding=extension”, and nothing else\)/],
    ['#run=%7B%7D&entry=2&entry=3', /it names more than one trace entry/],
    ['#RUN=%7B%7D', /its address ends in “#RUN=%7B%7D”, where a run's link has “#run=” first/],
    ['#entry=2&run=%7B%7D', /its address ends in “#entry=2&run=%7B%7D”/],
    // Its # made a ? by a tool on the way.
    ['?run=%7B%7D', /its address has the run after “\?” \(“\?run=%7B%7D”\), where a run's link has it after “#run=”/],
  ]) {
    // A real page load (a new fragment alone would not reload the page).
    await page.goto('about:blank');
    await page.goto(new URL(hash, BASE_URL).href);
    await page.getByTestId('task-state').waitFor();
    const alert = await page.getByTestId('alert').innerText();
    assert.match(alert, why);
    assert.match(alert, /The run saved in this browser was opened instead/);
    // The alert says it: no second message about the restored run.
    assert.equal(await page.getByTestId('notice').textContent(), '', 'no restore notice beside the alert');
    // The link is not lost: it stays in the address bar, to copy or mend.
    assert.match(alert, /The link stays in the address bar/);
    assert.ok(page.url().endsWith(hash), `${page.url()} keeps ${hash}`);
    assert.deepEqual(await snapshot(page), before, `${hash} brought the saved run back`);
    if (hash === '#run=') {
      // The link taken out of the address bar by hand: the alert, which says
      // what opened instead, stays.
      await page.evaluate(() => { location.hash = ''; });
      await page.waitForFunction(() => !location.hash.startsWith('#run'));
      await page.evaluate(() => new Promise(requestAnimationFrame));
      assert.equal(await page.getByTestId('alert').innerText(), alert);
    }
    // Escape dismisses the alert that came with the page, and focus goes to
    // Play, where the page begins, in view.
    await page.keyboard.press('Escape');
    await page.getByTestId('alert').waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement.id), 'play');
    await settle(page);
  }
  await page.goto('about:blank');
  await page.goto(BASE_URL);
  await page.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(page), before, 'the checkpoint survived the bad links');
  assertNoErrors(page);
  await page.context().close();
});

test('a task playing at 10× is saved as it plays, and a reload right after Pause playback keeps every state', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Work units').fill('12');
  await page.getByLabel('Seconds per unit').fill('10');
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  // The script records a run of accepted Steps as one {"Steps": n}: the
  // checkpoint keeps up with Play, long before the 120 Steps end.
  await page.waitForFunction(
    () => (JSON.parse(localStorage.getItem('a2a-control-room/run') ?? '{"script":[]}').script[0]?.Steps ?? 0) > 5,
  );
  const stepsOnPage = await page.getByTestId('trace-entry').count();
  assert.ok(stepsOnPage < 100, `still playing while saved: ${stepsOnPage} entries`);
  await page.getByRole('button', { name: 'Pause playback', exact: true }).click();
  const before = await snapshot(page);
  await page.reload(); // well within the 250 ms a save may wait
  await page.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(page), before);
  assertNoErrors(page);
  await page.context().close();
});

test('a change is saved at once when the page is hidden, not 250 ms later', async () => {
  const page = await openPage(browser());
  await settle(page);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.waitForFunction(() => document.documentElement.dataset.save === 'due');
  // A phone may end a hidden page with no pagehide: hidden is the last sure moment.
  const [save, run] = await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    return [document.documentElement.dataset.save, localStorage.getItem('a2a-control-room/run')];
  });
  assert.equal(save, 'idle');
  assert.match(run, /"script":\[\{"Steps":1\}\]/);
  assertNoErrors(page);
  await page.context().close();
});

test('importing another run of the same context shows that run\'s trace, not the one on screen', async () => {
  const page = await openPage(browser());
  const dir = await tempDir('runs-');
  const { readFile } = await import('node:fs/promises');
  const download = async (name) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download run' }).click()]);
    const file = join(dir, name);
    await writeFile(file, await readFile(await d.path(), 'utf8'));
    return file;
  };
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 3; i++) await step.click();
  const base = await download('base.json');
  await page.getByRole('button', { name: 'Request cancellation' }).click();
  const canceled = await download('canceled.json');
  const expected = await snapshot(page);

  // Same context, same seqs, different entries: the trace must be rebuilt.
  await page.locator('#import-run').setInputFiles(base);
  await page.getByTestId('notice').filter({ hasText: 'Imported the run file' }).waitFor();
  await step.click();
  await page.locator('#import-run').setInputFiles(canceled);
  await page.getByTestId('task-state').filter({ hasText: 'TASK_STATE_CANCELED' }).waitFor();
  assert.deepEqual(await snapshot(page), expected);
  assertNoErrors(page);
  await page.context().close();
});

test('a run at its limit of Steps and actions says so to the keys, not that Step branches', async () => {
  const page = await openPage(browser());
  // 8 333 whole tasks of 120 Steps, each from the first state again, then 40
  // Steps: 1 000 000 Steps, the most one run may take.
  const script = [];
  for (let i = 0; i < 8333; i++) script.push({ Steps: 120 }, { Seek: 0 });
  script.push({ Steps: 40 });
  const run = {
    format: 'a2a-control-room/run', version: 2,
    config: { work_units: 12, seconds_per_unit: 10, input_gate: 0, auth_gate: 0, fail_during: 0, reject_before_execution: false, worker_accepts_cancellation: true, follow_ups_fail_too: false, pause_proposal: false, self_park_before: 0, resume_event: '', self_park_timeout: 0, on_timeout: 'Fail' },
    ids: { seed: 12345, drawn: 0 }, started_ms: 1767225600000, script,
  };
  await page.locator('#import-run').setInputFiles({ name: 'limit.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
  await page.getByTestId('notice').filter({ hasText: 'Imported the run file' }).waitFor({ timeout: 60_000 });
  const step = page.getByRole('button', { name: 'Step', exact: true });
  assert.ok(await step.isDisabled());
  await page.locator('main').focus();
  await page.keyboard.press('[');
  await page.keyboard.press('ArrowRight');
  await page.getByRole('alert').filter({ hasText: 'Step is not possible now' }).waitFor();
  assert.match(await page.getByRole('alert').innerText(), /1000000 Steps and actions, the most one run may/);
  await page.keyboard.press(' ');
  await page.getByRole('alert').filter({ hasText: 'Play refused' }).waitFor();
  const notice = page.getByTestId('notice');
  assert.ok(!(await notice.count()) || !/branches from here/.test(await notice.innerText()), 'no way forward through a disabled button');
  assertNoErrors(page);
  await page.context().close();
});

test('Forget saved run is not undone by a save that was due; a message is in view wherever the user is', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 390, height: 844 } });
  const step = page.getByRole('button', { name: 'Step', exact: true });
  await step.click();
  await settle(page);
  // A settings change (the run before is kept for Undo) and Forget in one
  // go: a save is due when Forget is clicked.
  await page.evaluate(() => {
    // A copy kept apart as unreadable goes too.
    localStorage.setItem('a2a-control-room/run.unreadable', '{"not":"a run"}');
    const units = document.getElementById('setting-work-units');
    units.value = '5';
    units.dispatchEvent(new Event('input', { bubbles: true }));
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Forget saved run').click();
  });
  await settle(page);
  assert.equal(await page.getByRole('button', { name: 'Undo: bring back the run from before' }).count(), 0);
  const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('a2a-control-room/')));
  assert.deepEqual(kept, [], 'nothing of a run stays in this browser');
  await step.click();
  await settle(page);
  assert.ok(await page.evaluate(() => localStorage.getItem('a2a-control-room/run')), 'the next change saves the run again');
  // The notice is announced, and an alert from the bottom of a phone's page is in view.
  assert.equal(await page.getByTestId('notice').getAttribute('role'), 'status');
  const dir = await tempDir('a2a-');
  const file = join(dir, 'transcript.jsonl');
  await writeFile(file, '{"seq":1,"from":"client","transport":"jsonrpc","payloadType":"SendMessageRequest","message":{}}\n');
  const field = page.getByLabel('Import run');
  await field.scrollIntoViewIfNeeded();
  assert.ok((await page.evaluate(() => scrollY)) > 1000, 'the import field is far down the page');
  await field.focus(); // as a click on it does
  await field.setInputFiles(file);
  const alert = page.getByTestId('alert');
  await alert.filter({ hasText: 'it is a wire transcript (Export transcript), not a run' }).waitFor();
  const box = await alert.boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 844, `the alert is on screen: ${JSON.stringify(box)}`);
  // The alert floats clear of the field that raised it (here at the top of
  // the screen, as the field is low on it), and a control focused elsewhere
  // on the page is scrolled clear of it.
  const fieldBox = await field.boundingBox();
  const clear = (a, b) => a.y + a.height <= b.y || b.y + b.height <= a.y;
  assert.ok(clear(fieldBox, box), `the alert covers the field: ${JSON.stringify({ fieldBox, box })}`);
  const far = page.getByRole('button', { name: 'Set up experiment 5' });
  await far.focus();
  const [link, bar] = [await far.boundingBox(), await alert.boundingBox()];
  assert.ok(link.y >= 0 && link.y + link.height <= 844 && clear(link, bar), `the focused control is under the alert: ${JSON.stringify({ link, bar })}`);
  // Forget saved run ends what the alert said of an opened run.
  await page.getByRole('button', { name: 'Forget saved run' }).click();
  assert.equal(await alert.innerText(), '');
  assert.match(await page.getByTestId('notice').innerText(), /forgot the saved run/);
  assertNoErrors(page);
  await page.context().close();
});

test('a run whose link would be too long for a browser to open says so and points to Download run', async () => {
  const page = await openPage(browser());
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await settle(page);
  // A run under the size limit, whose text outside ASCII grows threefold in
  // a link: 900 refused messages to the terminal task, 500 × "é" each.
  const run = JSON.parse(await page.evaluate(() => localStorage.getItem('a2a-control-room/run')));
  const text = 'é'.repeat(500);
  run.script = [{ Steps: 12 }, ...Array.from({ length: 900 }, () => ({ Act: { action: { SupplyClarification: text }, ok: false } }))];
  const file = join(await tempDir('long-'), 'long.json');
  await writeFile(file, JSON.stringify(run));
  await page.locator('#import-run').setInputFiles(file);
  await page.getByTestId('notice').filter({ hasText: 'Imported the run file' }).waitFor();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const alert = await page.getByTestId('alert').filter({ hasText: 'characters long' }).innerText();
  assert.match(alert, /more than the 2097152 a browser opens: use Download run instead/);
  assert.equal(await page.getByLabel('Link to this run').count(), 0, 'no link that cannot open is shown');
  assertNoErrors(page);
  await page.context().close();
});

test('a link opened at start-up over a run that cannot be kept for Undo says a reload loses that run', async () => {
  const page = await openPage(browser());
  const step = page.getByRole('button', { name: 'Step', exact: true });
  await step.click();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByLabel('Link to this run').inputValue();
  for (let i = 0; i < 3; i++) await step.click();
  await settle(page);
  const own = await page.evaluate(() => localStorage.getItem('a2a-control-room/run'));
  // Full for Undo's copy only.
  await page.context().addInitScript(() => {
    const set = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key === 'a2a-control-room/run.previous') throw new DOMException('full', 'QuotaExceededError');
      return set.call(this, key, value);
    };
  });
  await page.goto('about:blank');
  await page.goto(link);
  const notice = page.getByTestId('notice');
  await notice.filter({ hasText: 'keep the run from before' }).waitFor();
  assert.match(await notice.innerText(), /^Opened the shared run\..* This browser did not let the page keep the run from before \(storage is full\): Undo brings it back until you reload\.$/s);
  // Until then, Undo does.
  await page.getByRole('button', { name: 'Undo: bring back the run from before' }).click();
  await settle(page);
  assert.equal(await page.evaluate(() => localStorage.getItem('a2a-control-room/run')), own);
  assertNoErrors(page);
  await page.context().close();
});

test('storage that is full says so after what the page said, and Undo says a reload loses its run', async () => {
  const page = await openPage(browser());
  // Full for Undo's copy only: the checkpoint is saved, the run kept for Undo is not.
  await page.context().addInitScript(() => {
    const set = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key === 'a2a-control-room/run.previous' || window.__full) throw new DOMException('full', 'QuotaExceededError');
      return set.call(this, key, value);
    };
  });
  await page.reload();
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 4; i++) await step.click();
  await page.getByLabel('Work units').fill('6');
  const notice = page.getByTestId('notice');
  await notice.filter({ hasText: 'keep the run from before' }).waitFor();
  assert.match(await notice.innerText(), /^Work units changed: a fresh experiment started.* Undo brings it back until you reload\.$/s);
  // Now full for everything: a discard is still said, and the failed save after it.
  // (The seek is saved first: the refusal is said once, at the first save refused.)
  for (let i = 0; i < 4; i++) await step.click();
  await page.getByLabel('Recorded state', { exact: true }).fill('1');
  await settle(page);
  await page.evaluate(() => { window.__full = true; });
  await step.click();
  await notice.filter({ hasText: 'did not let the page save the run' }).waitFor();
  assert.match(await notice.innerText(), /^Step discarded \d+ later recorded states\. Undo \(here, or under Recorded states\) brings them back until your next action or a reload\. This browser did not let the page save the run \(storage is full or off\): Download run or Copy link, under Save and share, keeps it\. It is said once, until a save succeeds\./);
  // Said once: the next refused save does not bring it back after the user has read on;
  // Save and share goes on saying it until a save succeeds.
  const notSaved = page.getByTestId('not-saved');
  await step.click();
  await settle(page);
  assert.equal(await notice.innerText(), '');
  // This tab's own copy was refused too: a reload loses the changes as well.
  assert.match(await notSaved.innerText(), /^Not saved now: this browser refuses to store the run \(storage is full or off\), so closing or reloading this tab loses what changed since the last save\./);
  // A save that succeeds again, then one refused: said again.
  await page.evaluate(() => { window.__full = false; });
  await step.click();
  await settle(page);
  assert.ok(await notSaved.isHidden());
  await page.evaluate(() => { window.__full = true; });
  await step.click();
  await notice.filter({ hasText: 'did not let the page save the run' }).waitFor();
  assert.ok(await notSaved.isVisible());
  assertNoErrors(page);
  await page.context().close();
});

/**
 * A page whose `storage` ('localStorage' or 'sessionStorage') refuses the
 * run's key from the moment this returns (while sessionStorage has `full`),
 * stepped once and saved before that; and its Step button.
 */
async function refusingRunIn(storage) {
  const page = await openPage(browser());
  await page.context().addInitScript((which) => {
    const set = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (this === window[which] && key === 'a2a-control-room/run' && sessionStorage.getItem('full')) {
        throw new DOMException('full', 'QuotaExceededError');
      }
      return set.call(this, key, value);
    };
  }, storage);
  await page.reload();
  const step = page.getByRole('button', { name: 'Step', exact: true });
  await step.click();
  await settle(page);
  await page.evaluate(() => sessionStorage.setItem('full', '1'));
  return { page, step };
}

test('a reload after refused saves brings back this tab\'s newer run, and says why, not another tab', async () => {
  // Full for the run saved in this browser (localStorage) only; this tab's copy is kept.
  const { page, step } = await refusingRunIn('localStorage');
  for (let i = 0; i < 3; i++) await step.click();
  await settle(page);
  assert.match(await text(page, 'not-saved'), /so closing this tab loses what changed since the last save \(a reload of this tab brings it back\)\./);
  const mine = await snapshot(page);
  // Still full at the reload: the run comes back, and is still said not to be saved.
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(page), mine, 'the newer run, not the one saved before');
  const said = "Restored this tab's own run: this browser refused to save its latest changes (storage is full or off), and this tab kept its own copy, which was opened.";
  assert.equal(await text(page, 'notice'), said);
  await page.getByTestId('not-saved').waitFor();
  // Room again by the next reload: the newer run is saved at once, not at its next change.
  await page.evaluate(() => sessionStorage.removeItem('full'));
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(page), mine);
  assert.equal(await text(page, 'notice'), said);
  await page.waitForFunction(() => localStorage.getItem('a2a-control-room/run') === sessionStorage.getItem('a2a-control-room/run'));
  await settle(page);
  assert.equal(await page.evaluate(() => sessionStorage.getItem('a2a-control-room/unsaved')), null);
  assert.ok(await page.getByTestId('not-saved').isHidden());
  assertNoErrors(page);
  await page.context().close();
});

test('a reload after this tab\'s own copy was refused opens the run saved in this browser, not that older copy', async () => {
  // Full for this tab's copy (sessionStorage) only; the run is saved in this browser.
  const { page, step } = await refusingRunIn('sessionStorage');
  for (let i = 0; i < 2; i++) await step.click();
  await settle(page);
  assert.ok(await page.getByTestId('not-saved').isHidden(), 'the run is saved');
  const mine = await snapshot(page);
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  assert.deepEqual(await snapshot(page), mine, 'the run saved last, not the older copy of this tab');
  assert.doesNotMatch(await text(page, 'notice'), /another tab/);
  assertNoErrors(page);
  await page.context().close();
});

test('a run grown past 1 MiB is no longer saved, linked or downloaded, and the page says so', async () => {
  const MAX = 1 << 20;
  const page = await openPage(browser());
  await page.getByLabel('Require input before unit').fill('2');
  const step = page.getByRole('button', { name: 'Step', exact: true });
  while (await step.isEnabled()) await step.click();
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download run' }).click(),
  ]);
  const { readFile } = await import('node:fs/promises');
  const run = JSON.parse(await readFile(await download.path(), 'utf8'));
  // Clarifications sent while the task was SUBMITTED, each refused, fill the
  // file to just under the limit: a file the page opens.
  const refused = (n) => ({ Act: { action: { SupplyClarification: 'x'.repeat(n) }, ok: false } });
  const size = () => Buffer.byteLength(JSON.stringify(run));
  const item = Buffer.byteLength(JSON.stringify(refused(500))) + 1;
  const target = MAX - 300;
  while (size() + item <= target) run.script.unshift(refused(500));
  run.script.unshift(refused(Math.max(1, 500 - (size() + item - target))));
  await page.locator('#import-run').setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
  await page.getByTestId('notice').filter({ hasText: 'Imported the run file' }).waitFor();
  await settle(page);
  const checkpoint = () => page.evaluate(() => localStorage.getItem('a2a-control-room/run'));
  const saved = await checkpoint();
  assert.ok(saved.length <= MAX && saved.length > MAX - 500, `the opened run is just under the limit: ${saved.length} bytes`);
  assert.equal(await text(page, 'task-state'), 'TASK_STATE_INPUT_REQUIRED');
  // One accepted clarification of 500 characters takes it past.
  await page.getByLabel('Clarification text').fill('y'.repeat(500));
  await page.getByRole('button', { name: 'Supply clarification' }).click();
  await waitState(page, 'TASK_STATE_WORKING');
  await settle(page);
  const over = /This run is now (\d+) bytes long, more than the 1048576 a run may have: it is no longer saved, and a link or file of it would not open\./;
  const said = (await page.getByTestId('notice').innerText()).match(over);
  assert.ok(said && Number(said[1]) > MAX, await page.getByTestId('notice').innerText());
  assert.equal(await checkpoint(), saved, 'the last run that fits stays saved');
  // Neither a link nor a file: an alert says why, and nothing is downloaded.
  await page.getByRole('button', { name: 'Copy link' }).click();
  assert.match(await page.getByTestId('alert').innerText(), over);
  assert.equal(await page.getByLabel('Link to this run').count(), 0);
  await page.getByRole('button', { name: 'Dismiss', exact: true }).click();
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.getByRole('button', { name: 'Download run' }).click();
  assert.match(await page.getByTestId('alert').innerText(), over);
  assert.equal(downloads, 0);
  // The run on the page goes on: it plays as before.
  await step.click();
  assert.equal(await text(page, 'task-state'), 'TASK_STATE_WORKING');
  assertNoErrors(page);
  await page.context().close();
});

test('a link made with a trace entry picked opens with the Wire panel on that entry, in view', async () => {
  const page = await openPage(browser());
  for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
  // The run's first exchange: the message that created the task.
  await page.getByTestId('trace-entry').first().click();
  assert.match(await text(page, 'wire-heading'), /^Trace entry #1 \(selected\)/);
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByLabel('Link to this run').inputValue();
  assert.match(link, /#run=[^&]+&entry=1$/);
  // Another entry picked: the link shown is of the one before, so it goes.
  await page.getByTestId('trace-entry').nth(1).click();
  await page.getByLabel('Link to this run').waitFor({ state: 'detached' });
  await page.context().close();

  const fresh = await openPage(browser(), link, { viewport: { width: 1280, height: 800 } });
  await fresh.getByTestId('task-state').waitFor();
  assert.match(await text(fresh, 'wire-heading'), /^Trace entry #1 \(selected\)/);
  assert.match(await text(fresh, 'wire-messages'), /SendStreamingMessage/);
  await fresh.waitForFunction(() => {
    const r = document.querySelector('section.wire').getBoundingClientRect();
    return r.top < innerHeight && r.bottom > 0;
  });
  assert.ok(!fresh.url().includes('#run='), 'the link is consumed');
  assert.equal(await text(fresh, 'alert'), '');
  assertNoErrors(fresh);
  await fresh.context().close();

  // An entry the run does not have is said; the run opens all the same.
  const bad = await openPage(browser(), link.replace(/&entry=1$/, '&entry=99'));
  await bad.getByTestId('task-state').waitFor();
  assert.match(await text(bad, 'alert'),
    /^The link names trace entry “99”, which this run does not have \(its entries are #1 to #7\): the run opened, and the Wire panel shows its latest exchange\./);
  assert.match(await text(bad, 'wire-heading'), /\(latest/);
  assertNoErrors(bad);
  await bad.context().close();
  // Entry 0: not an entry of any run.
  const zero = await openPage(browser(), link.replace(/&entry=1$/, '&entry=0'));
  await zero.getByTestId('task-state').waitFor();
  assert.match(await text(zero, 'alert'), /^The link names trace entry “0”, which this run does not have/);
  assertNoErrors(zero);
  await zero.context().close();
  // Written otherwise than the page writes it: said too.
  const signed = await openPage(browser(), link.replace(/&entry=1$/, '&entry=+1'));
  await signed.getByTestId('task-state').waitFor();
  assert.match(await text(signed, 'alert'), /^The link's trace entry is “\+1”, not a number as the page writes it \(&entry=7 names this run's latest\): the run opened/);
  assertNoErrors(signed);
  await signed.context().close();
  // Quoted as written, not as the address encodes it.
  const circled = await openPage(browser(), link.replace(/&entry=1$/, '&entry=%E2%91%A0'));
  await circled.getByTestId('task-state').waitFor();
  assert.match(await text(circled, 'alert'), /^The link's trace entry is “①”, not a number/);
  assertNoErrors(circled);
  await circled.context().close();

  // An entry a branch discarded is said as such, not as out of range.
  const branched = await openPage(browser());
  for (let i = 0; i < 4; i++) await branched.getByRole('button', { name: 'Step', exact: true }).click();
  for (let i = 0; i < 2; i++) await branched.getByRole('button', { name: 'Previous recorded state' }).click();
  await branched.getByRole('button', { name: 'Step', exact: true }).click();
  const [, gone] = (await branched.locator('.trace').innerText()).match(/\(#(\d+)(?:–#\d+)?\) discarded here by branching/);
  await branched.getByRole('button', { name: 'Copy link' }).click();
  const withGap = `${await branched.getByLabel('Link to this run').inputValue()}&entry=${gone}`;
  await branched.context().close();
  const gap = await openPage(browser(), withGap);
  await gap.getByTestId('task-state').waitFor();
  assert.match(await text(gap, 'alert'),
    new RegExp(`^The link names trace entry “${gone}”, which a branch of this run discarded \\(the trace marks where; its entries are #1 to #\\d+, less the \\d+ a branch discarded\\): the run opened`));
  assertNoErrors(gap);
  // The numbers it gives are those the trace shows: its last, and as many
  // entries as it lists besides the discarded ones.
  const [, last, less] = (await text(gap, 'alert')).match(/#1 to #(\d+), less the (\d+) a branch/);
  const kept = await gap.getByTestId('trace-entry').count();
  assert.equal(kept + Number(less), Number(last));
  await gap.context().close();
  // Past the end of a branched run: the same numbers.
  const past = await openPage(browser(), withGap.replace(/&entry=\d+$/, '&entry=99'));
  await past.getByTestId('task-state').waitFor();
  assert.match(await text(past, 'alert'),
    new RegExp(`^The link names trace entry “99”, which this run does not have \\(its entries are #1 to #${last}, less the ${less} a branch discarded\\)`));
  assertNoErrors(past);
  await past.context().close();
});

test('the task list follows each Step in its newest row, and another run of the same context in every row', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Work units').fill('1');
  // With the pause proposal, whose resume tokens draw from the same ids as the tasks.
  await page.getByLabel('Proposed pause/resume').check();
  const step = page.getByRole('button', { name: 'Step', exact: true });
  const rows = () => page.getByTestId('task-list-item').evaluateAll((li) => li.map((e) => e.querySelector('.badge').textContent));
  // Each row names its task as Inspect does when that task is viewed.
  const named = async () => {
    const n = await page.getByTestId('task-list-item').count();
    for (let i = 0; i < n; i++) {
      await page.getByTestId('task-list-item').nth(i).getByRole('button').click();
      assert.equal(await page.getByTestId('task-list-item').nth(i).locator('code').innerText(),
        await page.getByTestId('task-id').innerText(), `row ${i + 1}`);
    }
  };
  await step.click();
  await settle(page);
  // The run so far, shared as a link; two futures of it: task 1 completed, or canceled.
  const start = await page.evaluate(() => localStorage.getItem('a2a-control-room/run'));
  const link = (run) => `#run=${encodeURIComponent(run)}`;
  while (await step.isEnabled()) await step.click();
  await waitState(page, 'TASK_STATE_COMPLETED');
  await page.locator('#act-follow-up').click();
  await step.click();
  assert.deepEqual(await rows(), ['TASK_STATE_COMPLETED', 'TASK_STATE_WORKING']);
  await settle(page);
  const completed = await page.evaluate(() => localStorage.getItem('a2a-control-room/run'));
  await page.evaluate((hash) => { location.hash = hash; }, link(start));
  await page.getByTestId('notice').filter({ hasText: 'Opened the shared run' }).waitFor();
  assert.deepEqual(await rows(), ['TASK_STATE_WORKING']);
  // This future pauses and resumes first: its follow-up gets another task id.
  await page.getByLabel('Pause mode').selectOption('interrupt_immediate');
  await page.locator('#act-pause').click();
  await page.locator('#act-resume').click();
  await waitState(page, 'TASK_STATE_WORKING');
  await page.locator('#act-cancel').click();
  await waitState(page, 'TASK_STATE_CANCELED');
  assert.deepEqual(await rows(), ['TASK_STATE_CANCELED']);
  await page.locator('#act-follow-up').click();
  assert.deepEqual(await rows(), ['TASK_STATE_CANCELED', 'TASK_STATE_SUBMITTED']);
  await named();
  const canceledIds = await page.getByTestId('task-list-item').locator('code').allInnerTexts();
  // The other future, the same context and as many tasks: each row says its own.
  await page.evaluate((hash) => { location.hash = hash; }, link(completed));
  await page.waitForFunction(() => document.querySelector('[data-testid=task-list-item] .badge').textContent === 'TASK_STATE_COMPLETED');
  assert.deepEqual(await rows(), ['TASK_STATE_COMPLETED', 'TASK_STATE_WORKING']);
  assert.notEqual((await page.getByTestId('task-list-item').locator('code').allInnerTexts())[1], canceledIds[1]);
  await named();
  await page.getByTestId('task-list-item').nth(1).getByRole('button').click();
  const newest = await page.getByTestId('task-list-item').nth(1).innerText();
  assert.match(newest, /newest/);
  // Viewing an earlier state of the newest task is said on its row alone.
  await page.getByRole('button', { name: 'Previous recorded state' }).click();
  assert.match(await page.getByTestId('task-list-item').nth(1).innerText(), /its latest state; you are viewing an earlier one/);
  assert.doesNotMatch(await page.getByTestId('task-list-item').nth(0).innerText(), /viewing an earlier one/);
  assertNoErrors(page);
  await page.context().close();
});
