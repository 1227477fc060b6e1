// The control room end to end on the release build: the two experiments of
// the brief, branch discard, and a long random session with no errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertNoErrors, axeViolations, frames, openPage, sharedBrowser, text, waitState } from './helpers.mjs';

const browser = sharedBrowser();


async function setSpeed(page, label) {
  await page.getByLabel('Speed').selectOption({ label });
}

/** A fresh page whose task was stepped to its input gate before unit 2. */
async function pageAtInputGate() {
  const page = await openPage(browser());
  await page.getByLabel('Require input before unit').fill('2');
  const step = page.getByRole('button', { name: 'Step', exact: true });
  while (await step.isEnabled()) await step.click();
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  return page;
}

test('resume an interruption, not a terminal task', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Require input before unit').fill('2');
  assert.match(await text(page, 'notice'), /fresh experiment/);
  await setSpeed(page, '10×');

  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  // Play stopped by itself and says why.
  await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
  assert.match(await text(page, 'status'), /Playback stopped.*clarification/);

  const taskId = await text(page, 'task-id');
  const contextId = await text(page, 'context-id');
  assert.match(await text(page, 'completed-units'), /^1 \/ 4$/);
  assert.ok(await page.getByRole('button', { name: 'Step', exact: true }).isDisabled());

  // A subscription now gets the task and stays open (the spec ends it only at a terminal
  // state): the clarification's stream, not this one, was the one closed.
  await page.getByRole('button', { name: 'Subscribe to task' }).click();
  assert.deepEqual(await page.getByTestId('wire-message').evaluateAll((ms) => ms.map((m) => m.dataset.payloadType)),
    ['SubscribeToTaskRequest', 'StreamResponse']);
  assert.doesNotMatch(await text(page, 'wire-messages'), /the stream's last frame/);
  assert.match(await page.locator('.wire .warning').innerText(), /Later events reach this subscription as they reach the stream the clarification opens .* until the task reaches a terminal state/);
  await page.getByRole('button', { name: 'Latest trace entry', exact: true }).click();

  // The proposed clarification is shown whole, not cut off at the field's edge.
  const field = page.getByLabel('Clarification text');
  assert.match(await field.inputValue(), /Use the EU region .* 100 EUR\./);
  const clipped = await field.evaluate((el) => el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth);
  assert.equal(clipped, false, 'the clarification text fits its field');
  await field.fill('Ship to Lisbon, please');
  await page.getByRole('button', { name: 'Supply clarification' }).click();
  await waitState(page, 'TASK_STATE_WORKING');
  assert.equal(await text(page, 'task-id'), taskId);
  assert.equal(await text(page, 'context-id'), contextId);
  assert.match(await text(page, 'completed-units'), /^1 \/ 4$/);

  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitState(page, 'TASK_STATE_COMPLETED');
  assert.equal(await text(page, 'task-id'), taskId);
  assert.equal(await text(page, 'context-id'), contextId);
  assert.match(await text(page, 'completed-units'), /^4 \/ 4$/);
  assert.match(await text(page, 'active-time'), /^12 s/);
  assert.match(await text(page, 'final-artifact'), /Ship to Lisbon, please/);
  // No unit was redone: unit 1 was worked for exactly its three seconds.
  const unitOne = await page.getByTestId('trace-entry').filter({ hasText: 'work unit 1,' }).count();
  assert.equal(unitOne, 3);
  assert.equal(await page.getByTestId('task-list-item').count(), 1);

  // A terminal task is followed up, not resumed: new task id, same context.
  await page.getByRole('button', { name: 'New follow-up task' }).click();
  await waitState(page, 'TASK_STATE_SUBMITTED');
  assert.notEqual(await text(page, 'task-id'), taskId);
  assert.equal(await text(page, 'context-id'), contextId);
  assert.equal(await page.getByTestId('task-list-item').count(), 2);
  assertNoErrors(page);
  await page.context().close();
});

test('copying says so on the button; Copy JSON copies valid JSON or is off; the status follows the viewed state', async () => {
  const page = await openPage(browser());
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 3; i++) await step.click();
  // The status line says what each Step did: the state it entered, or, in
  // the same state, the second it worked, as the trace entry says it.
  const status = await text(page, 'status');
  assert.equal(status, 'Step: work unit 1, second 3 — unit 1 done.');

  const copyId = page.getByRole('button', { name: 'Copy Task id' });
  await copyId.click();
  // The button's name says what its text says (WCAG 2.5.3), then goes back.
  await page.getByRole('button', { name: 'Copied Task id' }).filter({ hasText: 'Copied ✓' }).waitFor();
  assert.equal(await clipboard(), await text(page, 'task-id'));
  assert.equal(await text(page, 'status'), status, 'the task status line is not taken over');
  await copyId.filter({ hasText: /^Copy$/ }).waitFor({ timeout: 5_000 });

  // The panel keeps the latest exchange in view, not the worked seconds after it.
  assert.match(await text(page, 'wire-heading'), /^Trace entry #2 \(latest to send messages; the worked seconds since sent none\)/);
  // A worked second, selected, has nothing on the wire: nothing to copy.
  await page.getByTestId('trace-entry').last().click();
  assert.match(await text(page, 'wire-heading'), /^Trace entry #5 \(selected\)/);
  const copyJson = page.getByRole('button', { name: 'Copy JSON' });
  assert.ok(await copyJson.isDisabled());
  // The first entry has a request and its frames: copied as one JSON array.
  await page.getByTestId('trace-entry').first().click();
  const shown = await page.getByTestId('wire-message').count();
  assert.ok(shown > 1);
  await copyJson.click();
  await page.getByRole('button', { name: 'Copied ✓' }).waitFor();
  const copied = JSON.parse(await clipboard());
  assert.equal(copied.length, shown);
  assert.equal(copied[0].method, 'SendStreamingMessage');
  // The copy is said in the notice, which floats over the page: it goes by
  // itself six seconds after the latest copy, not after an earlier one's.
  assert.equal(await text(page, 'notice'), 'Messages copied to the clipboard.');
  await page.waitForTimeout(3000);
  await copyJson.click();
  await page.waitForTimeout(4000);
  assert.equal(await text(page, 'notice'), 'Messages copied to the clipboard.', 'still up, 4 s after the second copy');
  await page.waitForFunction(() => document.querySelector('[data-testid=notice]').textContent === '', null, { timeout: 10000 });
  // The start of work is one frame: copied as that message's object.
  await page.getByTestId('trace-entry').nth(1).click();
  assert.equal(await page.getByTestId('wire-message').count(), 1);
  await copyJson.click();
  await page.getByRole('button', { name: 'Copied ✓' }).waitFor();
  const one = JSON.parse(await clipboard());
  assert.ok(!Array.isArray(one), 'one message, not an array of one');
  assert.equal(one.result.statusUpdate.status.state, 'TASK_STATE_WORKING');
  // The copy's notice has been read once the next request is sent: it goes,
  // and the status line says what the agent answered.
  assert.equal(await text(page, 'notice'), 'Messages copied to the clipboard.');
  await page.getByRole('button', { name: 'Get task' }).click();
  assert.equal(await page.getByTestId('notice').textContent(), '');
  assert.match(await text(page, 'status'), /^Get task: the agent answers /);

  // Viewing an earlier state: the status line says what that state is,
  // once the slider rests.
  await page.getByLabel('Recorded state', { exact: true }).fill('0');
  await page.getByTestId('status').filter({ hasText: /Viewing state/ }).waitFor();
  assert.match(
    await text(page, 'status'),
    /^Task 1 is TASK_STATE_SUBMITTED .* Viewing state 1 of 5: an action that changes the task now discards the 4 later recorded states\.$/,
  );
  assertNoErrors(page);
  await page.context().close();
});

test('arrow keys run along the Recorded state slider: the status line says the state once, where it rests', async () => {
  const page = await openPage(browser());
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 6; i++) await step.click();
  // Every text the status line takes from here on, as a screen reader hears it.
  await page.evaluate(() => {
    window.said = [];
    const status = document.querySelector('[data-testid=status]');
    new MutationObserver(() => window.said.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
  });
  const slider = page.getByLabel('Recorded state', { exact: true });
  await slider.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  // Each state is in the slider's own value.
  assert.match(await slider.getAttribute('aria-valuetext'), /^4 of 8 — TASK_STATE_WORKING at \d s$/);
  await page.getByTestId('status').filter({ hasText: /Viewing state 4 of 8/ }).waitFor();
  await page.waitForTimeout(600);
  const said = await page.evaluate(() => window.said.filter((s) => s !== ''));
  assert.equal(said.length, 1, JSON.stringify(said));
  assert.match(said[0], /^Task 1 is TASK_STATE_WORKING .* Viewing state 4 of 8: an action that changes the task now discards the 4 later recorded states\.$/);
  // An action taken before the slider rests is what the line says.
  await slider.press('ArrowRight');
  await step.click();
  await page.waitForTimeout(600);
  assert.doesNotMatch(await text(page, 'status'), /Viewing state/);
  assertNoErrors(page);
  await page.context().close();
});

test('a page without a clipboard (plain http, not localhost) says so when asked to copy', async () => {
  const page = await openPage(browser());
  // What a non-secure context gives a page: no navigator.clipboard.
  await page.context().addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
  });
  await page.reload();
  await page.getByTestId('task-state').waitFor();
  for (const name of ['Copy Task id', 'Copy link']) {
    await page.getByRole('button', { name }).click();
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'no clipboard' }).waitFor();
    assert.match(await alert.innerText(), /select the text and copy it by hand/);
    await page.keyboard.press('Escape');
  }
  // The link to copy by hand is on the page.
  assert.match(await page.getByLabel('Link to this run').inputValue(), /#run=/);
  assertNoErrors(page);
  await page.context().close();
});

test('with the trace focused, ↑ and ↓ (Home and End) pick the entry the Wire panel shows, and bring it into view', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 1280, height: 800 } });
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 10; i++) await step.click();
  const selected = () => page.locator('[data-testid=trace-entry].selected').getAttribute('data-seq');
  // Latest: the last entry that is not a worked second, the start of work.
  assert.equal(await selected(), '2');
  await page.getByTestId('trace').focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await selected(), '3');
  assert.match(await text(page, 'wire-heading'), /^Trace entry #3/);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
  assert.equal(await selected(), '1', 'stops at the first entry');
  assert.deepEqual(await page.getByTestId('wire-message').evaluateAll((ms) => ms.map((m) => m.dataset.payloadType)),
    ['SendMessageRequest', 'StreamResponse']);
  // The trace followed the newest entry; the first one is now in its view.
  const [view, first] = [await page.getByTestId('trace').boundingBox(), await page.getByTestId('trace-entry').first().boundingBox()];
  assert.ok(first.y >= view.y && first.y + first.height <= view.y + view.height, `#1 in view: ${JSON.stringify({ view, first })}`);
  assert.equal(await page.getByTestId('trace-entry').count(), 12, 'nothing was stepped');
  // End and Home: the last and the first entry listed, the page left where it is.
  const scrolled = await page.evaluate(() => scrollY);
  await page.keyboard.press('End');
  assert.equal(await selected(), '12');
  assert.match(await text(page, 'wire-heading'), /^Trace entry #12/);
  const last = await page.getByTestId('trace-entry').last().boundingBox();
  assert.ok(last.y >= view.y && last.y + last.height <= view.y + view.height + 1, `#12 in view: ${JSON.stringify({ view, last })}`);
  await page.keyboard.press('Home');
  assert.equal(await selected(), '1');
  assert.equal(await page.evaluate(() => scrollY), scrolled, 'the page did not scroll');
  assertNoErrors(page);
  await page.context().close();
});

test('a refusal alert keeps clear of the trace entry it adds and of the button that raised it', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 1280, height: 800 } });
  await page.getByLabel('Worker accepts cancellation').uncheck();
  const step = page.getByRole('button', { name: 'Step', exact: true });
  // Enough entries that the newest is low on the screen once the button
  // is scrolled to.
  for (let i = 0; i < 4; i++) await step.click();
  const cancel = page.getByRole('button', { name: 'Request cancellation' });
  await cancel.click();
  const alert = page.getByTestId('alert');
  await alert.filter({ hasText: '-32002' }).waitFor();
  const newest = page.getByTestId('trace-entry').last();
  assert.match(await newest.innerText(), /request cancellation[\s\S]*refused/);
  const [entry, button] = [await newest.boundingBox(), await cancel.boundingBox()];
  assert.ok(entry.y >= 0 && entry.y + entry.height <= 800, `the refused entry is on screen: ${JSON.stringify(entry)}`);
  // Placed once the entry is drawn, before the next paint.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  const box = await alert.locator('p').boundingBox();
  const apart = (a, b) => a.y + a.height <= b.y || b.y + b.height <= a.y;
  assert.ok(apart(box, entry), `the alert covers the refused entry: ${JSON.stringify({ box, entry })}`);
  assert.ok(apart(box, button), `the alert covers the button: ${JSON.stringify({ box, button })}`);
  await page.keyboard.press('Escape');

  // A browser that does not focus a clicked button (Safari): the alert
  // still keeps clear of the button pressed, low on the screen.
  await page.evaluate(() => {
    document.addEventListener('mousedown', (e) => e.preventDefault(), true);
    document.activeElement.blur();
    const b = document.querySelector('#act-cancel');
    window.scrollBy(0, b.getBoundingClientRect().top - 700);
  });
  await cancel.click();
  await alert.filter({ hasText: '-32002' }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'BODY');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  const [low, bar] = [await cancel.boundingBox(), await alert.locator('p').boundingBox()];
  assert.ok(low.y > 600, `the button is low: ${JSON.stringify(low)}`);
  assert.ok(apart(bar, low), `the alert covers the pressed button: ${JSON.stringify({ bar, low })}`);
  assertNoErrors(page);
  await page.context().close();
});

test('Speed says its pace in the task\'s own seconds, for the settings in use', async () => {
  const page = await openPage(browser());
  // The default 4 units of 3 s: the 12 s path in a minute at 1×.
  assert.equal(await text(page, 'speed-hint'), '1 s of the task every 5.0 s');
  await setSpeed(page, '10×');
  assert.equal(await text(page, 'speed-hint'), '1 s of the task every 500 ms');
  await page.getByLabel('Seconds per unit').fill('1');
  assert.equal(await text(page, 'speed-hint'), '1 s of the task every 1.5 s');
  assertNoErrors(page);
  await page.context().close();
});

test('the messages of an exchange share the Wire list: none is cut while the list has room, and each shows several lines', async () => {
  const page = await pageAtInputGate();
  const boxes = () => page.getByTestId('wire-messages').evaluate((ol) => ({
    list: [ol.clientHeight, ol.scrollHeight],
    used: [...ol.children].reduce((h, li) => h + li.getBoundingClientRect().height, 0),
    json: [...ol.querySelectorAll('.json')].map((j) => [j.clientHeight, j.scrollHeight]),
  }));
  // A clarification's exchange: the request, the task as received, WORKING.
  await page.getByRole('button', { name: 'Supply clarification' }).click();
  let b = await boxes();
  assert.equal(b.json.length, 3);
  assert.ok(b.json.every(([shown, whole]) => shown < whole), `each is cut: ${JSON.stringify(b)}`);
  // Cut, so they fill the list (its fade at the foot aside), not leave space.
  assert.ok(b.used >= b.list[0] - 80, `messages fill the list: ${JSON.stringify(b)}`);
  assert.ok(b.json.every(([shown]) => shown >= 64), `every JSON box shows four lines or more: ${JSON.stringify(b)}`);
  // A short request is shown whole; its answer takes the rest.
  await page.getByRole('button', { name: 'Get task', exact: true }).click();
  b = await boxes();
  assert.equal(b.json[0][0], b.json[0][1], `the request whole: ${JSON.stringify(b)}`);
  assert.ok(b.json[1][0] < b.json[1][1] && b.used >= b.list[0] - 80, `the answer takes the rest: ${JSON.stringify(b)}`);
  // Shown whole, every message is at its full length, and none scrolls.
  await page.getByLabel('Show whole messages').check();
  b = await boxes();
  assert.ok(b.json.every(([shown, whole]) => shown === whole), `each whole: ${JSON.stringify(b)}`);
  assert.equal(b.list[0], b.list[1], `the list does not scroll: ${JSON.stringify(b)}`);
  await page.getByLabel('Show whole messages').uncheck();
  b = await boxes();
  assert.ok(b.json[1][0] < b.json[1][1], `cut again: ${JSON.stringify(b)}`);
  assertNoErrors(page);
  await page.context().close();
});

test('what an action puts on the wire is shown, also from an earlier state; an earlier task takes requests only as it is now', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Worker accepts cancellation').uncheck();
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 4; i++) await step.click();
  // The button says what this worker will answer.
  assert.match(await page.locator('#act-cancel-reason').innerText(), /this one refuses, with TaskNotCancelableError \(-32002\)/);
  await page.getByLabel('Recorded state', { exact: true }).fill('1');
  assert.match(await text(page, 'wire-heading'), /\(viewed state\)/);
  // A refusal records no state: the Wire panel shows it, not the viewed state's entry.
  const cancel = page.getByRole('button', { name: 'Request cancellation' });
  await cancel.scrollIntoViewIfNeeded();
  const before = await cancel.boundingBox();
  await cancel.click();
  assert.match(await text(page, 'wire-heading'), /\(selected\): client request cancellation/i);
  const types = await page.getByTestId('wire-message').evaluateAll((ms) => ms.map((m) => m.dataset.payloadType));
  assert.deepEqual(types, ['CancelTaskRequest', 'error']);
  assert.match(await text(page, 'wire-messages'), /-32002/);
  // Answered as of that earlier state, so not part of the exported transcript.
  assert.match(await page.locator('.wire .warning').innerText(), /Tried on an earlier state.*transcript leaves these messages out/s);
  // A screen reader reads the note before the messages it explains; the eye
  // finds it under them, where it moves no message as it comes and goes.
  assert.deepEqual(await page.evaluate(() => {
    const note = document.querySelector('.wire-view > .warning');
    const list = document.querySelector('.wire-view > .messages-list');
    return {
      readFirst: Boolean(note.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING),
      drawnUnder: note.getBoundingClientRect().top >= list.getBoundingClientRect().bottom,
    };
  }), { readFirst: true, drawnUnder: true });
  // The alert floats over the page: the button did not move under the
  // pointer, and the alert keeps clear of it.
  const alert = page.getByTestId('alert');
  await alert.filter({ hasText: '-32002' }).waitFor();
  assert.deepEqual(await cancel.boundingBox(), before);
  // What a screen reader announces is the message alone, without the
  // Dismiss button's name after it.
  const announced = await page.getByRole('alert').innerText();
  assert.match(announced, /^Request cancellation refused.*-32002/s);
  assert.doesNotMatch(announced, /Dismiss/);
  const box = await alert.locator('p').boundingBox();
  const apart = box.y + box.height <= before.y || before.y + before.height <= box.y;
  assert.ok(apart, `the alert covers the button: ${JSON.stringify({ box, before })}`);
  // Escape dismisses it, and focus goes back to the button, nothing scrolled.
  const scrolled = await page.evaluate(() => scrollY);
  await page.keyboard.press('Escape');
  assert.equal(await alert.innerText(), '');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'act-cancel');
  assert.equal(await page.evaluate(() => scrollY), scrolled);
  // Going to another state clears the alert, which said why not at this one.
  await cancel.click();
  await alert.filter({ hasText: '-32002' }).waitFor();
  await page.getByLabel('Recorded state', { exact: true }).fill('2');
  assert.equal(await alert.innerText(), '');
  // ‹ after an on-demand request goes back from the viewed state's entry,
  // which Latest shows, not from the end of the trace.
  const shownSeq = async () => Number((await text(page, 'wire-heading')).match(/^Trace entry #(\d+)/)[1]);
  await page.getByRole('button', { name: 'Latest trace entry', exact: true }).click();
  const viewed = await shownSeq();
  assert.equal(viewed, 2);
  await page.getByRole('button', { name: 'Get task' }).click();
  assert.match(await text(page, 'wire-heading'), /^On demand: GetTask/);
  // A JSON line too long for the panel wraps under itself, indented, not
  // back at the panel's left edge.
  const hangs = await page.getByTestId('wire-messages').evaluate((el) => [...el.querySelectorAll('pre.json > span')]
    .map((line) => {
      const range = document.createRange();
      range.selectNodeContents(line);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      return rects.length > 1 ? rects[1].left - rects[0].left : null;
    })
    .filter((d) => d !== null));
  assert.ok(hangs.length > 0, 'a long line wraps');
  assert.ok(hangs.every((d) => d > 4), `wrapped lines hang: ${hangs}`);
  await page.getByRole('button', { name: 'Previous trace entry' }).click();
  assert.equal(await shownSeq(), viewed - 1);

  // Space on the focused trace scrolls it; it does not start Play.
  await page.getByTestId('trace').focus();
  await page.keyboard.press(' ');
  assert.equal(await page.locator('#play').innerText(), 'Play');
  // Nor on a panel a link took focus to, to read: Space scrolls the page.
  const states = await page.getByTestId('trace-entry').count();
  await page.getByTestId('to-guide').click();
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('tabindex')), '-1');
  const top = await page.evaluate(() => scrollY);
  await page.keyboard.press(' ');
  await page.waitForFunction((y) => scrollY > y, top);
  assert.equal(await page.locator('#play').innerText(), 'Play');
  assert.equal(await page.getByTestId('trace-entry').count(), states, 'nothing ran');
  // The main area, where focus goes when an alert or a notice is dismissed,
  // is no panel to read: Space is Play's key there (which, at this earlier
  // state, says it plays only from the latest).
  await page.evaluate(() => {
    const main = document.querySelector('main');
    main.setAttribute('tabindex', '-1');
    main.focus();
  });
  await page.keyboard.press(' ');
  await page.getByTestId('notice').filter({ hasText: /^Space plays only from the latest recorded state/ }).waitFor();

  // Finish, follow up, finish again, then view task 1: seen as it is now
  // (terminal), a client may still send it a message, which the agent
  // refuses; at an earlier state of it, the requests are off and say why.
  await page.getByLabel('Worker accepts cancellation').check();
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.locator('#play').click();
  await waitState(page, 'TASK_STATE_COMPLETED');
  await page.getByRole('button', { name: 'New follow-up task' }).click();
  await page.locator('#play').click();
  await waitState(page, 'TASK_STATE_COMPLETED');
  assert.ok(await page.getByRole('button', { name: 'Message to terminal task', exact: true }).isEnabled());
  await page.getByRole('button', { name: /^Task 1/ }).click();
  const toTerminal = page.getByRole('button', { name: 'Message to terminal task', exact: true });
  assert.ok(await toTerminal.isEnabled());
  assert.ok(await page.getByRole('button', { name: 'Cancel terminal task' }).isEnabled());
  await toTerminal.click();
  assert.match(await text(page, 'wire-messages'), /-32004/);
  await page.getByLabel('Recorded state', { exact: true }).fill('1');
  assert.ok(await toTerminal.isDisabled());
  assert.ok(await page.getByRole('button', { name: 'Cancel terminal task' }).isDisabled());
  assert.match(await page.locator('#terminal-requests-reason').innerText(), /earlier state of an earlier task/);
  assertNoErrors(page);
  await page.context().close();
});

test('stepping from an earlier recorded state discards exactly the later branch', async () => {
  const page = await openPage(browser());
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 6; i++) await step.click();
  assert.equal(await page.getByTestId('trace-entry').count(), 8);
  const first = await page.getByTestId('trace-entry').first().elementHandle();
  const playAt = async () => (await page.locator('#play').boundingBox()).y;
  const playBefore = await playAt();

  await page.getByLabel('Recorded state', { exact: true }).fill('2');
  await page.getByTestId('discard-warning').waitFor();
  assert.equal(await playAt(), playBefore, 'the warning beside the buttons does not move them');
  assert.match(await text(page, 'discard-warning'), /5 later recorded states/);
  // Heard before acting: Step's description includes the warning.
  const described = await page.getByRole('button', { name: 'Step', exact: true }).evaluate((el) =>
    el.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
  );
  assert.match(described, /5 later recorded states/);
  assert.match(await text(page, 'timeline-position'), /^State 3 of 8/);
  const valuetext = await page.getByLabel('Recorded state', { exact: true }).getAttribute('aria-valuetext');
  assert.equal(valuetext, '3 of 8 — TASK_STATE_WORKING at 1 s');

  await step.click();
  await page.getByTestId('timeline-position').filter({ hasText: 'State 4 of 4' }).waitFor();
  assert.equal(await page.getByTestId('trace-entry').count(), 4);
  assert.equal(await page.getByTestId('discard-warning').count(), 0);
  // The list was edited in place, not re-rendered: the first entry is the same node.
  assert.ok(await first.evaluate((el) => el.isConnected));

  // A click from the wrong state is undone: the discarded branch comes back
  // whole, viewed from the state acted from, and is what this browser keeps.
  assert.equal(await text(page, 'undo-discard'), 'Step discarded 5 later recorded states. Undo: bring them back');
  await page.getByRole('button', { name: 'Undo: bring them back' }).click();
  await page.getByTestId('timeline-position').filter({ hasText: 'State 3 of 8' }).waitFor();
  assert.equal(await page.getByTestId('trace-entry').count(), 8);
  assert.equal(await page.getByTestId('undo-discard').count(), 0);
  assert.match(await text(page, 'discard-warning'), /5 later recorded states/);
  assert.match(await text(page, 'notice'), /^The 5 discarded recorded states are back/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'recorded-state', 'focus stays in the panel');
  await page.locator('html[data-save="idle"]').waitFor();
  await page.reload();
  await page.getByTestId('timeline-position').filter({ hasText: 'State 3 of 8' }).waitFor();
  assert.equal(await page.getByTestId('trace-entry').count(), 8);

  // Undo reaches only the last action: after another Step, a seek or a Play,
  // it is gone.
  const undo = page.getByTestId('undo-discard');
  await step.click();
  await undo.waitFor();
  await step.click();
  assert.equal(await undo.count(), 0);
  assert.equal(await page.getByTestId('trace-entry').count(), 5);
  const back = async () => {
    await page.getByLabel('Recorded state', { exact: true }).fill('1');
    await step.click();
    await undo.waitFor();
  };
  await back();
  await page.getByLabel('Recorded state', { exact: true }).fill('0');
  assert.equal(await undo.count(), 0, 'a seek ends it');
  await step.click();
  await undo.waitFor();
  assert.match(await text(page, 'undo-discard'), /^Step discarded 2 later recorded states\./);
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.getByRole('button', { name: 'Pause playback' }).click();
  assert.equal(await undo.count(), 0, 'a Play ends it');
  // A Play that discarded keeps its Undo while it plays, which brings back
  // the run as it was before that Play.
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.getByLabel('Recorded state', { exact: true }).fill('1');
  const viewed = await text(page, 'timeline-position');
  const trace = await page.getByTestId('trace').innerText();
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.getByTestId('timeline-position').filter({ hasText: /^State [5-9] of/ }).waitFor();
  await page.getByRole('button', { name: 'Pause playback' }).click();
  assert.match(await text(page, 'undo-discard'), /^Play discarded \d+ later recorded states?\./);
  await page.getByRole('button', { name: /^Undo: bring (it|them) back$/ }).click();
  await page.getByTestId('timeline-position').filter({ hasText: viewed }).waitFor();
  assert.equal(await page.getByTestId('trace').innerText(), trace);
  assertNoErrors(page);
  await page.context().close();
});

test('on a phone or a tablet the state stays in sight of a control far down the page; on a wide screen it stands at the masthead\'s end', async () => {
  const phone = await openPage(browser(), '', { viewport: { width: 390, height: 844 } });
  await phone.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).click();
  const step = phone.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 4; i++) await step.click();
  // The state, then at the end the way back to the masthead's links.
  const strip = phone.getByTestId('state-strip');
  const said = strip.locator(':scope > span');
  assert.equal(await said.innerText(), 'INPUT_REQUIRED · 1/4 units · 3 s active');
  const supply = phone.getByRole('button', { name: 'Supply clarification' });
  // Scrolled to the very top of the screen, as a link or a focus move may.
  await supply.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  const [s, b] = [await strip.boundingBox(), await supply.boundingBox()];
  assert.ok(b.y >= s.y + s.height, `the strip covers the button it was scrolled to: ${JSON.stringify({ s, b })}`);
  await supply.click();
  await said.filter({ hasText: /^WORKING/ }).waitFor();
  const box = await strip.boundingBox();
  assert.ok(box.y === 0 && box.width === 390, `the strip is across the top of the screen: ${JSON.stringify(box)}`);
  // The Wire panel's JSON keeps each timestamp whole on a phone: it goes to
  // the line under its key rather than break at a hyphen.
  const stampLines = await phone.getByTestId('wire-messages').evaluate((el) => {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const lines = [];
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      const at = node.data.search(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 24);
      lines.push(new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size);
    }
    return lines;
  });
  assert.ok(stampLines.length > 0 && stampLines.every((n) => n === 1), `lines each timestamp takes: ${stampLines}`);
  assert.equal(await strip.evaluate((el) => getComputedStyle(el.querySelector('code')).color),
    await phone.locator('.badge').first().evaluate((el) => getComputedStyle(el).color), 'in the colour of the state\'s kind');
  await phone.getByLabel('Recorded state', { exact: true }).fill('1');
  assert.match(await said.innerText(), /^WORKING · state 2\/7 · 0\/4 units · 0 s active$/);
  assertNoErrors(phone);
  await phone.context().close();

  // On a 360 px phone too, a paused task's strip is said whole, not cut off.
  const small = await openPage(browser(), '', { viewport: { width: 360, height: 740 } });
  await small.getByRole('button', { name: 'Set up experiment 5' }).click();
  await small.getByRole('button', { name: 'Step', exact: true }).click();
  await small.locator('#act-pause').click();
  await small.getByRole('button', { name: 'Step', exact: true }).click();
  await small.getByRole('button', { name: 'Step', exact: true }).click();
  const paused = small.getByTestId('state-strip').locator(':scope > span');
  await paused.filter({ hasText: /^PAUSED · proposal · \d\/\d units · \d+ s active$/ }).waitFor();
  assert.equal(await paused.evaluate((el) => el.scrollWidth <= el.clientWidth), true, await paused.innerText());
  assertNoErrors(small);
  await small.context().close();

  // On a wide screen the state stands at the masthead's end, clear of its
  // title and links, down to the narrowest width that has room for it.
  for (const width of [1101, 1280]) {
    const desk = await openPage(browser(), '', { viewport: { width, height: 800 } });
    const card = desk.getByTestId('state-strip');
    await desk.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).click();
    for (let i = 0; i < 4; i++) await desk.getByRole('button', { name: 'Step', exact: true }).click();
    assert.equal(await card.locator('code').innerText(), 'INPUT_REQUIRED');
    assert.equal(await card.evaluate((el) => getComputedStyle(el.querySelector('code')).color),
      await desk.locator('.badge').first().evaluate((el) => getComputedStyle(el).color), 'in the colour of the state\'s kind');
    assert.match(await card.innerText(), /^INPUT_REQUIRED\n1\/4 units · 3 s active$/);
    const box = await card.boundingBox();
    assert.ok(box.x + box.width <= width && box.y >= 0, `${width}: the card is on the screen: ${JSON.stringify(box)}`);
    await assertCardClearOfMasthead(desk, `${width}`);
    assertNoErrors(desk);
    await desk.context().close();
  }
  // On a tablet, where the masthead's links leave no room for the card, the
  // phone's strip says it across the top of the screen, scrolled or not.
  for (const width of [1100, 768]) {
    const tablet = await openPage(browser(), '', { viewport: { width, height: 800 } });
    const card = tablet.getByTestId('state-strip');
    await tablet.getByRole('button', { name: 'Request cancellation' }).click();
    await tablet.locator('section.wire').scrollIntoViewIfNeeded();
    assert.equal(await card.locator(':scope > span').innerText(), 'CANCELED · 0/4 units · 0 s active');
    const box = await card.boundingBox();
    assert.ok(box.y === 0 && box.width === width, `${width}: the strip is across the top of the screen: ${JSON.stringify(box)}`);
    assertNoErrors(tablet);
    await tablet.context().close();
  }
});

/** Whether boxes `a` and `b` ({x, y, width, height}) overlap. */
const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The masthead's state card lies clear of its title's, links' and lede's text. */
async function assertCardClearOfMasthead(page, where) {
  const box = await page.getByTestId('state-strip').boundingBox();
  for (const other of [page.locator('h1'), page.locator('.to-panels'), page.locator('.lede')]) {
    const range = await other.evaluate((el) => {
      const r = document.createRange();
      r.selectNodeContents(el);
      return [...r.getClientRects()].map(({ x, y, width, height }) => ({ x, y, width, height }));
    });
    assert.ok(range.every((r) => !overlap(box, r)), `${where}: the card lies over the masthead: ${JSON.stringify({ box, range })}`);
  }
}

test('with the browser\'s text size enlarged, the page\'s text grows, its layout narrows as for a narrower window, and no text runs out of its box or leaves its punctuation behind', async () => {
  // The reader's default text size, as the browser's settings set it (WCAG
  // 1.4.4 asks for 200 % without loss of content; at 640 px, twice the size
  // is 1.4.10's 320 px reflow), and the layout the page then takes.
  for (const [width, size, layout] of [[1280, 32, 'phone'], [640, 32, 'phone'], [1280, 24, 'tablet'], [1920, 24, 'desk'], [1024, 16, 'tablet']]) {
    const page = await openPage(browser(), '', { viewport: { width, height: 800 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: size, fixed: Math.round(size * 13 / 16) } });
    const at = `${width} px at ${size} px text`;
    for (const what of ['body', '#play', '.field label']) {
      assert.equal(await page.locator(what).first().evaluate((el) => getComputedStyle(el).fontSize), `${size * 7 / 8}px`, `${at}: ${what} grew with the text size`);
    }
    const strip = await page.getByTestId('state-strip').evaluate((el) => getComputedStyle(el).position);
    const columns = await page.locator('main.room').evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
    assert.deepEqual([strip, columns], { phone: ['fixed', 1], tablet: ['fixed', 2], desk: ['absolute', 3] }[layout], `${at}: the ${layout} layout`);
    await page.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).click();
    for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
    await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
    const out = await page.evaluate(() => {
      const bad = [];
      const name = (el) => `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} "${el.textContent.slice(0, 30)}"`;
      for (const panel of document.querySelectorAll('section.panel')) {
        const edge = panel.getBoundingClientRect();
        for (const el of panel.querySelectorAll('*')) {
          const r = el.getBoundingClientRect();
          // Hidden, or within a box that scrolls or clips (a message, the
          // trace), or Step's copy, which floats beside the button.
          if (r.width === 0 || r.height <= 1 || el.closest('.step-copy')) continue;
          let up = el.parentElement;
          while (up !== panel && getComputedStyle(up).overflowX === 'visible') up = up.parentElement;
          if (up !== panel) continue;
          if (r.right > edge.right + 1 || r.left < edge.left - 1) {
            bad.push(`${name(el)} at ${Math.round(r.left)}–${Math.round(r.right)}, its panel ${Math.round(edge.left)}–${Math.round(edge.right)}`);
          }
          // Its own text (a long word) wider than its box.
          if (el.clientWidth > 0 && getComputedStyle(el).overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1) {
            bad.push(`${name(el)} holds ${el.scrollWidth} px in ${el.clientWidth}`);
          }
        }
      }
      // A link's punctuation is not left alone at the start of a line.
      for (const link of document.querySelectorAll('main button.link')) {
        const after = link.nextSibling;
        if (link.offsetParent === null || after?.nodeType !== Node.TEXT_NODE || !/^[.,;:)]/.test(after.data)) continue;
        const range = document.createRange();
        range.setStart(after, 0);
        range.setEnd(after, 1);
        if (range.getBoundingClientRect().top >= link.getBoundingClientRect().bottom - 2) bad.push(`"${after.data[0]}" after ${name(link)} starts a line`);
      }
      const trace = document.querySelector('.trace-scroll');
      return { bad, page: document.documentElement.scrollWidth, trace: trace.scrollWidth - trace.clientWidth };
    });
    assert.deepEqual(out.bad, [], `${at}: runs out of its box`);
    assert.equal(out.page, width, `${at}: the page scrolls sideways`);
    assert.equal(out.trace, 0, `${at}: the trace scrolls sideways`);
    if (layout === 'desk') await assertCardClearOfMasthead(page, at);
    assertNoErrors(page);
    await page.context().close();
  }
});

test('on a phone, the last control of the page can be focused clear of a notice', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 390, height: 844 } });
  await page.getByLabel('Worker accepts cancellation').uncheck();
  const notice = page.getByTestId('notice').locator('..');
  await page.getByTestId('notice').filter({ hasText: 'a fresh experiment started' }).waitFor();
  // The page's last control, reached as Tab reaches it: the page has room
  // below it to scroll it above the notice at the foot of the screen.
  await page.evaluate(() => {
    const all = [...document.querySelectorAll('button, input, select, textarea, a[href]')];
    all.filter((el) => el.getBoundingClientRect().height > 0 && !el.closest('.messages')).pop().dataset.lastControl = '';
  });
  const last = page.locator('[data-last-control]');
  await last.focus();
  const [control, cover] = [await last.boundingBox(), await notice.boundingBox()];
  assert.ok(control.y + control.height <= cover.y, `the notice covers the focused control: ${JSON.stringify({ control, cover })}`);
  assertNoErrors(page);
  await page.context().close();
});

test('a notice can be dismissed, with its button or Escape', async () => {
  const page = await openPage(browser());
  await page.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).click();
  assert.match(await text(page, 'notice'), /^Experiment 1/);
  await page.getByRole('button', { name: 'Dismiss notice' }).click();
  assert.equal(await page.getByTestId('notice').innerText(), '');
  assert.equal(await page.getByRole('button', { name: 'Dismiss notice' }).count(), 0);
  // From the keyboard: Dismiss gives focus back to the control it came from.
  const units = page.getByLabel('Work units');
  await units.focus();
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('notice').filter({ hasText: 'Work units changed' }).waitFor();
  await page.getByRole('button', { name: 'Dismiss notice' }).focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.getByTestId('notice').innerText(), '');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setting-work-units');
  await page.getByRole('button', { name: 'Restart experiment' }).click();
  assert.match(await text(page, 'notice'), /^Experiment restarted/);
  await page.keyboard.press('Escape');
  assert.equal(await page.getByTestId('notice').innerText(), '');
  assertNoErrors(page);
  await page.context().close();
});

test('1 000 random clicks and key presses: no panic, no console error', async () => {
  const page = await openPage(browser());
  // Markup typed into a field stays text: no script of it ever runs (a
  // dialog it opened would be among the page's problems).
  let seed = 0xa2a;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const keys = [' ', 'ArrowRight', 'ArrowRight', '[', ']'];
  // The clicks must land and move the task, or the run proves nothing.
  let [tried, clicked] = [0, 0];
  const states = new Set();
  for (let i = 0; i < 1000; i++) {
    if (i % 10 === 0) states.add(await text(page, 'task-state'));
    const kind = rand(10);
    if (kind < 3) {
      await page.keyboard.press(keys[rand(keys.length)]);
      continue;
    }
    // Not the state strip's, shown only on a phone.
    const handles = await page.$$(
      'button:not([disabled]):not(.state-strip button), input[type=range], input[type=checkbox], input[type=text]:not([readonly]), select',
    );
    const el = handles[rand(handles.length)];
    const tag = await el.evaluate((e) => `${e.tagName}:${e.type || ''}`);
    if (tag === 'INPUT:range') {
      const [min, max] = await el.evaluate((e) => [Number(e.min), Number(e.max)]);
      await el.fill(String(min + rand(max - min + 1)));
    } else if (tag === 'INPUT:text') {
      // Hostile text: markup must stay text (no dialog, no CSP report), long input is refused.
      const samples = ['pr.merged', '<img src=x onerror=alert(1)>', 'x'.repeat(600), ''];
      await el.fill(samples[rand(samples.length)]);
      await el.press('Tab');
    } else if (tag.startsWith('SELECT')) {
      const options = await el.evaluate((e) => e.options.length);
      await el.selectOption({ index: rand(options) });
    } else {
      tried++;
      await el.click({ timeout: 2_000 }).then(() => clicked++, () => {});
    }
  }
  assert.ok(clicked >= tried * 0.8, `${clicked} of ${tried} clicks landed`);
  assert.ok(states.size >= 3, `states seen: ${[...states].join(', ')}`);
  // Still alive and consistent.
  assert.match(await text(page, 'task-state'), /^TASK_STATE_[A-Z_]+( \(proposal\))?$/);
  assertNoErrors(page);
  await page.context().close();
});

test('the trace can hide the seconds and minutes that change no state, leaving the transitions', async () => {
  const page = await pageAtInputGate();
  const visible = () => page.getByTestId('trace-entry').filter({ visible: true });
  const all = await visible().count();
  await page.getByLabel('Show each worked second', { exact: true }).uncheck();
  const states = await visible().evaluateAll((es) => es.map((e) => e.querySelector('.states').textContent));
  assert.ok(states.length < all, `${states.length} of ${all}`);
  // What is left: every change of state (and its creation), and the second
  // that finished unit 1, the work a resume keeps; nothing else.
  assert.deepEqual(states, [
    '— → TASK_STATE_SUBMITTED',
    'TASK_STATE_SUBMITTED → TASK_STATE_WORKING',
    'TASK_STATE_WORKING, unchanged',
    'TASK_STATE_WORKING → TASK_STATE_INPUT_REQUIRED',
  ]);
  assert.match(await visible().nth(2).innerText(), /work unit 1, second 3.*unit 1 done/s);
  assert.equal(await text(page, 'trace-count'), `(${states.length} of ${all} entries shown; seconds hidden)`);
  // ↑ ↓ and ‹ › move through the entries listed, never to a hidden one.
  const listed = await visible().evaluateAll((es) => es.map((e) => e.dataset.seq));
  const selected = () => page.locator('[data-testid=trace-entry].selected').getAttribute('data-seq');
  assert.equal(await selected(), listed.at(-1));
  await page.getByTestId('trace').focus();
  for (const seq of listed.slice(0, -1).reverse()) {
    await page.keyboard.press('ArrowUp');
    assert.equal(await selected(), seq);
  }
  assert.equal(await page.getByRole('button', { name: 'Previous trace entry' }).getAttribute('aria-disabled'), 'true', 'at the first entry listed');
  await page.getByRole('button', { name: 'Next trace entry' }).click();
  assert.equal(await selected(), listed[1]);
  await page.getByRole('button', { name: 'Next trace entry' }).click();
  assert.equal(await selected(), listed[2], 'over the hidden seconds of unit 1');
  await page.getByRole('button', { name: 'Next trace entry' }).click();
  assert.equal(await selected(), listed[3]);
  assert.equal(await page.getByRole('button', { name: 'Next trace entry' }).getAttribute('aria-disabled'), 'true', 'at the last entry listed');
  await page.getByLabel('Show each worked second', { exact: true }).check();
  assert.equal(await visible().count(), all);
  // Shown, a second that changes no state is told apart from a transition.
  const colour = (e) => e.locator('.states').evaluate((n) => getComputedStyle(n).color);
  const entries = page.getByTestId('trace-entry');
  const tick = entries.filter({ hasText: 'work unit 1, second 1' });
  const transition = entries.filter({ hasText: 'TASK_STATE_SUBMITTED → TASK_STATE_WORKING' });
  assert.notEqual(await colour(tick), await colour(transition));
  // On a desktop an entry takes two lines: its outcome follows its states.
  const tops = await transition.evaluate((e) => ['.seq', '.states', '.outcome'].map((c) => e.querySelector(c).getBoundingClientRect().top));
  assert.ok(tops[1] > tops[0] && tops[2] === tops[1], `tops of #, states, outcome: ${tops}`);
  assert.equal(await text(page, 'trace-count'), `(${all} entries)`);
  assertNoErrors(page);
  await page.context().close();
});

test('Export transcript downloads the whole run as JSON Lines', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Require authorization before unit').fill('1');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await waitState(page, 'TASK_STATE_AUTH_REQUIRED');
  await page.getByRole('button', { name: 'Authorize' }).click();
  await setSpeed(page, '10×');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitState(page, 'TASK_STATE_COMPLETED');
  await page.getByRole('button', { name: 'New follow-up task' }).click();
  await waitState(page, 'TASK_STATE_SUBMITTED');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export transcript' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'a2a-transcript.jsonl');
  const { readFile } = await import('node:fs/promises');
  const lines = (await readFile(await download.path(), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(lines.length >= 6, `${lines.length} lines`);
  assert.equal(await page.getByTestId('notice').innerText(),
    `Transcript saved as a2a-transcript.jsonl, in your downloads: ${lines.length} messages of 2 tasks, one JSON object per line.`);
  lines.forEach((l, i) => {
    assert.deepEqual(Object.keys(l), ['seq', 'from', 'transport', 'payloadType', 'message']);
    assert.equal(l.seq, i + 1);
    assert.ok(['client', 'agent'].includes(l.from));
    assert.ok(['jsonrpc', 'sse'].includes(l.transport));
    assert.equal(l.message.jsonrpc, '2.0');
  });
  const types = lines.map((l) => l.payloadType);
  assert.ok(types.includes('SendMessageRequest') && types.includes('StreamResponse'));
  const states = lines.map((l) => l.message.result?.statusUpdate?.status?.state).filter(Boolean);
  assert.deepEqual(states.slice(0, 4), [
    'TASK_STATE_WORKING',
    'TASK_STATE_AUTH_REQUIRED',
    'TASK_STATE_WORKING',
    'TASK_STATE_COMPLETED',
  ]);
  // The follow-up is a new task in the same context that references the first.
  const followUp = lines.filter((l) => l.message.method === 'SendStreamingMessage').at(-1).message.params.message;
  const first = lines[1].message.result.task;
  assert.equal(followUp.contextId, first.contextId);
  assert.deepEqual(followUp.referenceTaskIds, [first.id]);
  assertNoErrors(page);
  await page.context().close();
});

test('axe-core finds no accessibility violation: idle, playing, interrupted, viewing the past, terminal', async () => {
  const page = await openPage(browser());
  const check = async (when) => {
    const violations = await axeViolations(page);
    const summary = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    assert.deepEqual(summary, [], `axe violations when ${when}`);
  };
  await check('idle');
  // The folded texts, opened: the primer, the keys, how to read the trace.
  for (const summary of ['New to A2A tasks? The lifecycle in five lines', 'Which keys', 'How to read the trace']) {
    await page.getByText(summary, { exact: true }).click();
  }
  assert.match(await page.getByTestId('primer').innerText(), /COMPLETED, FAILED, CANCELED or REJECTED/);
  await check('idle, with the folded texts open');
  await page.getByLabel('Speed').selectOption({ label: '0.5×' });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.getByRole('button', { name: 'Pause playback' }).waitFor();
  await check('playing');
  await page.getByRole('button', { name: 'Pause playback' }).click();
  await page.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).click();
  for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  await check('interrupted');
  await page.getByLabel('Recorded state', { exact: true }).fill('1');
  await page.getByTestId('discard-warning').waitFor();
  await check('viewing the past');
  await page.getByRole('button', { name: 'Restart experiment' }).click();
  await page.getByLabel('Reject before execution').check();
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await waitState(page, 'TASK_STATE_REJECTED');
  assert.match(await page.locator('#terminal-requests-reason').innerText(), /both requests are refused on purpose/);
  await page.getByRole('button', { name: 'Cancel terminal task' }).click();
  await check('terminal, with an error envelope shown');
  assertNoErrors(page);
  await page.context().close();
});

test('setting up an experiment brings Play into view and focus: Space then plays it', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 1280, height: 800 } });
  await page.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).click();
  const play = page.getByRole('button', { name: 'Play', exact: true });
  await frames(page);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'play');
  const box = await play.boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 800, `Play is on screen: ${JSON.stringify(box)}`);
  const task = await page.getByTestId('task-id').innerText();
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Pause playback' }).waitFor();
  await waitState(page, 'TASK_STATE_WORKING');
  assert.equal(await page.getByTestId('task-id').innerText(), task, 'the same experiment plays, not a new one');
  // From a task whose Play is off (it waits for input): focus still goes to
  // Play, once the new run has turned it on.
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
  const step = page.getByRole('button', { name: 'Step', exact: true });
  while (await step.isEnabled()) await step.click();
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  assert.ok(await play.isDisabled());
  await page.getByRole('button', { name: 'Set up experiment 2' }).focus();
  await page.keyboard.press('Enter');
  await frames(page);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'play');
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Pause playback' }).waitFor();
  assertNoErrors(page);
  await page.context().close();
});

test('a notice stays until it is dismissed or the next action has read it', async () => {
  const page = await openPage(browser());
  await page.clock.install();
  await page.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).click();
  await page.clock.fastForward(60_000);
  assert.match(await text(page, 'notice'), /^Experiment 1 set up \(Require input before unit 2\)\.$/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'play');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  assert.equal(await page.getByTestId('notice').innerText(), '');
  assertNoErrors(page);
  await page.context().close();
});

test('the notice of a set-up experiment leaves Play to be seen, on a desktop and on a phone', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const page = await openPage(browser(), '', { viewport });
    // The longest notice: experiment 5 names six settings.
    const setUp = page.getByRole('button', { name: 'Set up experiment 5' });
    await setUp.scrollIntoViewIfNeeded();
    await setUp.click();
    await frames(page);
    assert.match(await page.getByTestId('notice').innerText(), /^Experiment 5 set up \(/);
    // The whole box, its × included.
    const notice = page.locator('.messages .notice');
    const [n, p] = [await notice.boundingBox(), await page.locator('#play').boundingBox()];
    assert.ok(p.y >= 0 && p.y + p.height <= viewport.height, `Play is on screen: ${JSON.stringify(p)}`);
    assert.ok(n.y >= 0 && n.y + n.height <= viewport.height, `the notice is on screen: ${JSON.stringify(n)}`);
    const clear = n.y + n.height <= p.y || p.y + p.height <= n.y;
    assert.ok(clear, `${viewport.width} px: the notice covers Play: ${JSON.stringify({ n, p })}`);
    assertNoErrors(page);
    await page.context().close();
  }
});

/** A page with 12 units of `seconds` s each, scrolled so the trace is on screen. */
async function traceOnScreen(viewport, seconds) {
  const page = await openPage(browser(), '', { viewport });
  await page.getByLabel('Work units').fill('12');
  await page.getByLabel('Seconds per unit').fill(seconds);
  const trace = page.getByTestId('trace');
  await trace.scrollIntoViewIfNeeded();
  return { page, trace };
}

test('the trace follows the newest entry while playing, on a phone too, and leaves a reader where they are', async () => {
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    // 120 Steps over 15 s: Play is still on well after the last check below.
    const { page, trace } = await traceOnScreen(viewport, '10');
    await setSpeed(page, '4×');
    // How far the newest entry's bottom is below the trace's visible bottom.
    const below = () =>
      trace.evaluate((ol) => {
        const entries = ol.querySelectorAll('[data-testid=trace-entry]');
        return entries[entries.length - 1].getBoundingClientRect().bottom - ol.getBoundingClientRect().bottom;
      });
    const count = () => page.getByTestId('trace-entry').count();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    // Sampled through playback once the entries outgrow the trace, each
    // sample after a new entry.
    await trace.evaluate((ol) => new Promise((done) => {
      const check = () => (ol.scrollHeight > 2 * ol.clientHeight ? done() : requestAnimationFrame(check));
      check();
    }));
    const gaps = [];
    for (let i = 0; i < 8; i++) {
      const n = await count();
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid=trace-entry]').length > n, n);
      gaps.push(Math.round(await below()));
    }
    assert.deepEqual(gaps.filter((g) => g > 1), [], `${viewport.width}px: newest entry below the visible end: ${gaps}`);

    // A reader who scrolls up stays on the entries they are reading.
    await trace.evaluate((ol) => {
      ol.scrollTop -= ol.scrollHeight / 3;
    });
    const firstSeen = () =>
      trace.evaluate((ol) => {
        const y = ol.getBoundingClientRect().top;
        return [...ol.querySelectorAll('[data-testid=trace-entry]')].find((e) => e.getBoundingClientRect().bottom > y)?.dataset.seq;
      });
    const seen = await firstSeen();
    const before = await count();
    // Still playing: a few entries later the reader is where they were.
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=trace-entry]').length > n + 2, before);
    assert.equal(await firstSeen(), seen);

    // Back at the end, it follows again.
    await trace.evaluate((ol) => {
      ol.scrollTop = ol.scrollHeight;
    });
    // Following again: the entries that come next stay in view.
    for (let i = 0; i < 3; i++) {
      const n = await count();
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid=trace-entry]').length > n, n);
    }
    assert.ok((await below()) <= 1, 'following again');
    assertNoErrors(page);
    await page.context().close();
  }
});

test('across blocks of 100 entries the trace keeps following the newest one, and a reader further up is not moved', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page, trace } = await traceOnScreen(viewport, '10');
    // Steps (following up each finished task) until `until` entries; after each
    // painted Step, how far the newest entry is below the trace's visible end,
    // and where entry `watch` is from the trace's top.
    const steps = (until, watch) =>
      trace.evaluate(
        async (scroller, [until, watch]) => {
          const frame = () => new Promise((r) => requestAnimationFrame(r));
          const entries = () => scroller.querySelectorAll('[data-testid=trace-entry]');
          const out = [];
          while (entries().length < until) {
            const step = document.getElementById('step');
            if (step.disabled) document.getElementById('act-follow-up').click();
            else step.click();
            await frame();
            await frame();
            const all = entries();
            const top = scroller.getBoundingClientRect();
            const newest = all[all.length - 1].getBoundingClientRect();
            const watched = scroller.querySelector(`[data-seq="${watch}"]`).getBoundingClientRect();
            out.push({ n: all.length, below: Math.round(newest.bottom - top.bottom), watched: Math.round(watched.top - top.top) });
          }
          return out;
        },
        [until, watch],
      );
    const following = await steps(330, 1);
    const lost = following.filter((s) => s.n > 20 && s.below > 1);
    assert.deepEqual(lost.slice(0, 3), [], `${viewport.width}px: the newest entry below the visible end`);
    assert.ok(await trace.evaluate((s) => s.querySelectorAll('.block.full').length >= 1), 'old blocks skip layout');

    // Read entry #260 at the top of the trace while 250 more entries (two more
    // blocks, so its block starts skipping layout) arrive.
    await trace.evaluate((s) => {
      const e = s.querySelector('[data-seq="260"]');
      s.scrollTop += e.getBoundingClientRect().top - s.getBoundingClientRect().top;
    });
    const reading = await steps(580, 260);
    const moved = reading.filter((s) => Math.abs(s.watched) > 1);
    assert.deepEqual(moved.slice(0, 3), [], `${viewport.width}px: the entry being read moved`);

    // Viewing an earlier state brings its entry into the trace's view, and
    // moves nothing but the trace's content.
    await trace.evaluate((s) => {
      s.scrollTop = s.scrollHeight;
    });
    const traceTop = () => trace.evaluate((s) => s.getBoundingClientRect().top);
    const before = await traceTop();
    // Set without Playwright's own scrolling to the slider.
    const seek = (to) =>
      page.evaluate((to) => {
        const slider = document.getElementById('recorded-state');
        slider.value = to === 'last' ? slider.max : to;
        slider.dispatchEvent(new Event('input', { bubbles: true }));
      }, to);
    await seek('3');
    await page.getByTestId('timeline-position').filter({ hasText: 'State 4 of' }).waitFor();
    const seen = () =>
      trace.evaluate((s) => {
        const e = s.querySelector('.viewed').getBoundingClientRect();
        const v = s.getBoundingClientRect();
        return e.top >= v.top - 1 && e.bottom <= v.bottom + 1;
      });
    assert.ok(await seen(), `${viewport.width}px: the viewed entry is in view`);
    // Within a pixel: the browser's scroll anchoring moves the page by whole
    // pixels while content above it (off screen) changes by fractions.
    const shift = Math.abs((await traceTop()) - before);
    assert.ok(shift <= 1, `${viewport.width}px: the page moved by ${shift}px`);
    // And back to the newest state: its entry comes back into view.
    await seek('last');
    assert.ok(await seen(), `${viewport.width}px: the newest entry is in view again`);
    assert.equal(await trace.evaluate((s) => s.querySelector('.viewed') === [...s.querySelectorAll('[data-testid=trace-entry]')].pop()), true);
    assertNoErrors(page);
    await page.context().close();
  }
});

test('a long follow-up chain scrolls within the Tasks panel, the viewed task in view', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Work units').fill('1');
  await page.getByLabel('Seconds per unit').fill('1');
  const step = page.getByRole('button', { name: 'Step', exact: true });
  const followUp = page.getByRole('button', { name: 'New follow-up task' });
  for (let n = 1; n < 14; n++) {
    while (await followUp.isDisabled()) await step.click();
    await followUp.click();
  }
  const list = page.getByTestId('task-list');
  await page.getByTestId('task-list-item').nth(13).waitFor();
  const box = () => list.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const viewed = el.querySelector('li.viewed').getBoundingClientRect();
    return { scrolls: el.scrollHeight > el.clientHeight, height: r.height, inView: viewed.top >= r.top && viewed.bottom <= r.bottom };
  });
  // The list scrolls in the frame after the new row is drawn: two frames.
  await frames(page);
  const b = await box();
  assert.ok(b.scrolls && b.height < 500, JSON.stringify(b));
  assert.ok(b.inView, 'the newest task, viewed, is in the list\'s view');
  // A reader scrolled up the list is not moved back by the task's state changing.
  await list.evaluate((el) => { el.scrollTop = 0; });
  const before = await page.getByTestId('task-state').innerText();
  await step.click();
  assert.notEqual(await page.getByTestId('task-state').innerText(), before);
  await frames(page);
  assert.equal(await list.evaluate((el) => el.scrollTop), 0);
  assertNoErrors(page);
  await page.context().close();
});

test('a request sent to an earlier task shows its new trace entry in view, beside the Wire panel', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Fail during unit').fill('2');
  const step = page.getByRole('button', { name: 'Step', exact: true });
  const followUp = page.getByRole('button', { name: 'New follow-up task' });
  while (await followUp.isDisabled()) await step.click();
  await followUp.click();
  while (await step.isEnabled()) await step.click();
  // Back to the first task: its entries are in view, the latest are not.
  await page.getByRole('button', { name: /^Task 1/ }).click();
  await frames(page);
  await page.getByRole('button', { name: 'Cancel terminal task' }).click();
  assert.match(await page.getByTestId('wire-heading').innerText(), /^Trace entry #\d+/);
  await frames(page);
  const seen = await page.getByTestId('trace').evaluate((scroller) => {
    const el = scroller.querySelector('.selected');
    const [v, r] = [scroller.getBoundingClientRect(), el.getBoundingClientRect()];
    return { text: el.textContent, inView: r.top >= v.top - 1 && r.bottom <= v.bottom + 1, scrolls: scroller.scrollHeight > scroller.clientHeight };
  });
  assert.ok(seen.scrolls, 'the trace is longer than its panel');
  assert.match(seen.text, /cancel/i);
  assert.ok(seen.inView, `the refused cancel, shown in the Wire panel, is in the trace's view: ${JSON.stringify(seen)}`);
  assertNoErrors(page);
  await page.context().close();
});

test('streamed unit by unit, the result comes as appended chunks, and a canceled task keeps them', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Stream the result unit by unit').check();
  assert.match(await text(page, 'notice'), /Stream the result unit by unit changed/);
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 4; i++) await step.click(); // start, then unit 1's 3 s
  // Unit 1 done: its chunk is on the wire, and Inspect shows it.
  assert.match(await text(page, 'wire-messages'), /artifactUpdate result-1 \(first chunk\)/);
  assert.equal(await text(page, 'final-artifact'), 'Unit 1 of 4 done.');
  assert.equal(await text(page, 'partial-artifact'),
    'So far: the chunks of 1 / 4 units; the summary comes at completion.');
  for (let i = 0; i < 3; i++) await step.click();
  const wire = await text(page, 'wire-messages');
  assert.match(wire, /artifactUpdate result-1 \(appended chunk\)/);
  assert.match(wire, /"append": true/);
  await page.getByRole('button', { name: 'Request cancellation' }).click();
  await waitState(page, 'TASK_STATE_CANCELED');
  assert.equal(await text(page, 'final-artifact'), 'Unit 1 of 4 done.\nUnit 2 of 4 done.');
  assert.match(await text(page, 'partial-artifact'), /^Partial: the chunks of the 2 \/ 4 units done, which the canceled task keeps/);
  // The CancelTask answer carries them.
  assert.match(await text(page, 'wire-messages'), /"artifacts": \[[\s\S]*"text": "Unit 2 of 4 done\."/);
  assertNoErrors(page);
  await page.context().close();
});

test('experiment 4: authorization, failure and rejection each set up in one click and played to their state', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  const cases = [
    ['authorization', /^Experiment 4 \(authorization\) set up \(Require authorization before unit 2\)\.( Undo .*)?$/, 'TASK_STATE_AUTH_REQUIRED',
      'Press Play: the task stops at TASK_STATE_AUTH_REQUIRED before unit 2.',
      'Experiment 4 (authorization), step 2 of 4: Press Authorize, in Act: it stands for credentials that reach the agent out of band.'],
    ['failure', /^Experiment 4 \(failure\) set up \(Fail during unit 2\)\.( Undo .*)?$/, 'TASK_STATE_FAILED',
      'Press Play: the task fails during unit 2.',
      'Experiment 4 (failure) done: TASK_STATE_FAILED, final, with 1 unit done; the failed unit is not counted. Set up experiment 4: rejection'],
    ['rejection', /^Experiment 4 \(rejection\) set up \(Reject before execution on\)\.( Undo .*)?$/, 'TASK_STATE_REJECTED',
      'Press Play: the agent rejects the task before any work.',
      'Experiment 4 (rejection) done: TASK_STATE_REJECTED, final, before any work: no unit, no artifact. Set up experiment 5'],
  ];
  for (const [what, notice, state, first, last] of cases) {
    await page.locator('.guide').getByRole('button', { name: `experiment 4: ${what}` }).click();
    assert.match(await text(page, 'notice'), notice);
    // What to do is said under Play, from the first step to the last.
    assert.equal(await text(page, 'guided'), `Experiment 4 (${what}), step 1 of ${what === 'authorization' ? 4 : 2}: ${first}`);
    await waitState(page, 'TASK_STATE_SUBMITTED');
    await frames(page);
    await page.keyboard.press('Space'); // Play has the focus
    await waitState(page, state);
    assert.equal(await text(page, 'guided'), last);
    // The Wire panel shows the transition's frame.
    await page.getByTestId('wire-messages').filter({ hasText: `"state": "${state}"` }).waitFor();
  }
  // Authorize carries the same task on to the end.
  await page.locator('.guide').getByRole('button', { name: 'experiment 4: authorization' }).click();
  await frames(page);
  await page.keyboard.press('Space');
  await waitState(page, 'TASK_STATE_AUTH_REQUIRED');
  const task = await text(page, 'task-id');
  await page.getByRole('button', { name: 'Authorize' }).click();
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitState(page, 'TASK_STATE_COMPLETED');
  assert.equal(await text(page, 'task-id'), task);
  assertNoErrors(page);
  await page.context().close();
});

test('experiment 3: a cancel refused while Play runs stops it, so the refusal stays on the wire', async () => {
  const page = await openPage(browser());
  await page.locator('.guide').getByRole('button', { name: 'Set up experiment 3' }).click();
  assert.match(await text(page, 'notice'),
    /^Experiment 3 set up \(Worker accepts cancellation off\)\.$/);
  assert.equal(await text(page, 'guided'), 'Experiment 3, step 1 of 5: Press Play or Step, then Request cancellation, in Act, while the task is TASK_STATE_WORKING.');
  assert.equal(await page.getByLabel('Worker accepts cancellation').isChecked(), false);
  await frames(page);
  await page.keyboard.press('Space'); // Play has the focus
  await page.getByRole('button', { name: 'Pause playback' }).waitFor();
  await waitState(page, 'TASK_STATE_WORKING');
  await page.getByRole('button', { name: 'Request cancellation' }).click();
  await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
  assert.equal(await text(page, 'guided'), 'Experiment 3, step 2 of 5: Refused: TaskNotCancelableError (-32002), as the Wire panel shows. Press Play: the task goes on to TASK_STATE_COMPLETED.');
  // The refusal the experiment asks for is said, not raised as an alert.
  assert.equal(await text(page, 'status'), 'Request cancellation refused, as Experiment 3 expects: the worker refused the cancellation with TaskNotCancelableError (-32002); the task stays in the state it was in. Wire shows the error the agent answers. Playback paused at the refusal; Play goes on.');
  assert.equal(await page.getByTestId('alert').isVisible(), false);
  assert.equal(await page.locator('[role=alert]').textContent(), '');
  // Nothing moves on under the refusal: Wire keeps its error in view.
  const heading = await text(page, 'wire-heading');
  assert.match(heading, /request cancellation/);
  await page.waitForTimeout(1200);
  assert.equal(await text(page, 'wire-heading'), heading);
  assert.match(await text(page, 'wire-messages'), /"code": -32002/);
  // Under the button, a way to Play, which takes the focus from the button
  // (Space there would only send the refused request again).
  assert.match(await page.locator('#act-cancel-reason').innerText(),
    /^Refused\. The worker refused the cancellation with TaskNotCancelableError \(-32002\); the task stays in the state it was in\. Playback paused at the refusal, and Play carries the task on\. Go to Play$/);
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Go to Play');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'play');
  // Play goes on from there, to the end.
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitState(page, 'TASK_STATE_COMPLETED');
  // The experiment's second half: the switch it names keeps it going.
  assert.equal(await text(page, 'guided'), 'Experiment 3, step 3 of 5: Now switch Worker accepts cancellation on, under Configure, and try again. Go to Worker accepts cancellation');
  // Play, now off, hands the focus to the link to the switch the step names,
  // far down the page: from there the keyboard takes one press to it.
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Go to Worker accepts cancellation');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'switch-cancel-accepted');
  assert.ok(await page.evaluate(() => {
    const r = document.activeElement.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  }), 'the switch is on screen');
  await page.keyboard.press('Space');
  assert.equal(await page.getByLabel('Worker accepts cancellation').isChecked(), true);
  assert.equal(await text(page, 'guided'), 'Experiment 3, step 4 of 5: Press Play or Step, then Request cancellation, in Act: this time the worker accepts it.');
  // The notice agrees with the line: the experiment goes on where it says.
  assert.match(await text(page, 'notice'), /Experiment 3 goes on with these settings: its line under Play says where\./);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.getByRole('button', { name: 'Request cancellation' }).click();
  await waitState(page, 'TASK_STATE_CANCELED');
  assert.equal(await text(page, 'guided'), 'Experiment 3 done: TASK_STATE_CANCELED, final. The units done leave no artifact unless Stream the result unit by unit is on. Set up experiment 4: authorization');
  assertNoErrors(page);
  await page.context().close();
});

test('a set-up experiment says its next step under Play, from the first to the next experiment', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  assert.equal(await page.getByTestId('guided').count(), 0, 'nothing is said before one is set up');
  await page.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).click();
  assert.equal(await text(page, 'guided'), 'Experiment 1, step 1 of 4: Press Play: the task stops at TASK_STATE_INPUT_REQUIRED before unit 2.');
  await frames(page);
  await page.keyboard.press('Space'); // Play has the focus
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  // The step stays in view after the notice that set it up has gone.
  assert.equal(await page.getByTestId('notice').innerText(), '');
  assert.equal(await text(page, 'guided'), 'Experiment 1, step 2 of 4: Note the task id, the context id and 1 unit done (Inspect shows them); then Supply clarification, in Act.');
  const task = await text(page, 'task-id');
  await page.getByRole('button', { name: 'Supply clarification' }).click();
  assert.equal(await text(page, 'guided'), 'Experiment 1, step 3 of 4: Press Play again: the task id, the context id and the 1 unit done before the question stay as they were.');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitState(page, 'TASK_STATE_COMPLETED');
  assert.equal(await text(page, 'task-id'), task);
  assert.equal(await text(page, 'guided'), 'Experiment 1 done: One task id and one context id throughout, and no unit worked twice: interrupted, not ended. Set up experiment 2');
  // Play, now off, hands focus to the next experiment, not to a follow-up
  // (no step of this one).
  await frames(page);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'guided-next');
  assert.equal(await page.getByTestId('go-to-answer').count(), 0);
  // Back to the gate: the line follows the viewed state.
  await page.getByLabel('Recorded state', { exact: true }).fill('5');
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  assert.match(await text(page, 'guided'), /^Experiment 1, step 2 of 4: /);
  await page.getByLabel('Recorded state', { exact: true }).fill('15');
  await waitState(page, 'TASK_STATE_COMPLETED');
  // One click on to the next experiment, Play focused.
  await page.getByTestId('guided-next').click();
  assert.equal(await text(page, 'notice'), 'Experiment 2 set up (the default settings). Undo (here, or under Configure) brings back the run from before.');
  assert.equal(await text(page, 'guided'), 'Experiment 2, step 1 of 4: Press Play: the task runs to TASK_STATE_COMPLETED.');
  await frames(page);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'play');
  await page.keyboard.press('Space');
  await waitState(page, 'TASK_STATE_COMPLETED');
  assert.equal(await text(page, 'guided'), 'Experiment 2, step 2 of 4: Press New follow-up task, in Act: a new task in the same context.');
  await page.getByRole('button', { name: 'New follow-up task' }).click();
  assert.equal(await text(page, 'guided'), 'Experiment 2, step 3 of 4: The follow-up: a new task id, the same context id, and Task 1 referenced (Inspect shows them). Now press Task 1, in Tasks in this context, below Inspect. Go to Task 1');
  // Each step that asks for a control far from Play links to it: the link
  // focuses it, and Enter there does the step.
  await page.getByTestId('guided-go').click();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'task-row-1');
  await page.keyboard.press('Enter');
  assert.equal(await text(page, 'guided'), 'Experiment 2, step 4 of 4: Task 1 is terminal for good: press Message to terminal task, in the Wire panel, and see the agent refuse it. Go to Message to terminal task');
  await page.getByTestId('guided-go').click();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'wire-message-terminal');
  await page.keyboard.press('Enter');
  assert.equal(await text(page, 'guided'), 'Experiment 2 done: The agent refused the request to Task 1, as the Wire panel shows: a terminal task is final, and more work goes in a follow-up. Set up experiment 3');
  // A settings change its steps do not hold for ends it, and says so.
  await page.getByLabel('Reject before execution').check();
  assert.equal(await page.getByTestId('guided').count(), 0);
  assert.match(await text(page, 'notice'), /a fresh experiment started \(new task and context ids\)\. The steps of Experiment 2 end here\./);
  assertNoErrors(page);
  await page.context().close();
});

// The experiment's next step, said under Play, once the user acts far below
// it: a copy over the page, for the eye, until the next press or key, or
// until it has been there long enough to read.
for (const [width, height, options] of [[1280, 800, {}], [900, 700, {}], [390, 844, { hasTouch: true, isMobile: true }]]) {
  test(`${width}px: an experiment's next step out of sight comes up over the page until the next press, or for as long as it takes to read`, async () => {
    const page = await openPage(browser(), '', { viewport: { width, height }, ...options });
    const copy = page.getByTestId('step-copy');
    const shown = async () => (await copy.isVisible()) ? (await copy.innerText()).replace(/\s+/g, ' ') : null;
    // Where it is drawn, it covers neither the control pressed (which has the focus) nor the notice.
    const coversNothing = () => page.evaluate(() => {
      const c = document.querySelector('[data-testid=step-copy]').getBoundingClientRect();
      return [document.activeElement, document.querySelector('.messages .notice.shown')].filter(Boolean).every((el) => {
        const r = el.getBoundingClientRect();
        return r.bottom <= c.top || r.top >= c.bottom || r.right <= c.left || r.left >= c.right;
      });
    });
    await setSpeed(page, '10×');
    await page.locator('.guide').getByRole('button', { name: 'Set up experiment 2' }).click();
    await frames(page);
    assert.equal(await shown(), null, 'set up, the line is in view: no copy');
    await page.locator('#play').click();
    await waitState(page, 'TASK_STATE_COMPLETED');
    await page.getByRole('button', { name: 'New follow-up task' }).click();
    // Act says where the experiment goes on, and offers no Go to Play.
    assert.equal(await page.locator('#act-follow-up-said').innerText(),
      'Done: follow-up task 2 (a new task id, the same context) is TASK_STATE_SUBMITTED. Experiment 2 goes on with Task 1: see the line under Play.');
    assert.equal(await page.locator('#act-follow-up-reason [data-testid=go-to-answer]').count(), 0);
    await page.getByRole('button', { name: /^Task 1/ }).click();
    await frames(page);
    assert.equal(await shown(), 'Experiment 2, step 4 of 4: Task 1 is terminal for good: press Message to terminal task, in the Wire panel, and see the agent refuse it. The experiment\'s line, under Play');
    assert.ok(await coversNothing(), 'the copy covers neither the control pressed nor the notice');
    assert.equal(await copy.getAttribute('aria-hidden'), 'true', 'the line itself is the live region');
    // It takes no pointer: what lies under it is pressed.
    const box = await copy.boundingBox();
    const under = await page.evaluate(([x, y]) => !document.elementFromPoint(x, y).closest('[data-testid=step-copy]'), [box.x + box.width / 2, box.y + box.height / 2]);
    assert.ok(under, 'a press on the copy reaches the page under it');
    assert.deepEqual(await axeViolations(page), []);
    // The next key hides it.
    await page.keyboard.press('Shift');
    assert.equal(await shown(), null, 'a key hides the copy');
    await page.getByRole('button', { name: 'Message to terminal task', exact: true }).click();
    await frames(page);
    const since = Date.now();
    assert.equal(await shown(), 'Experiment 2 done: The agent refused the request to Task 1, as the Wire panel shows: a terminal task is final, and more work goes in a follow-up. The experiment\'s line, under Play');
    assert.ok(await coversNothing(), 'the copy covers neither the control pressed nor the notice');
    if (width === 1280) {
      // Left alone, it goes once it has had time to be read (25 words: 9.25 s),
      // and no sooner: it lies over the Wire panel that shows the refusal.
      await copy.waitFor({ state: 'hidden', timeout: 20000 });
      assert.ok(Date.now() - since >= 8000, `gone after ${Date.now() - since} ms`);
      assert.match(await text(page, 'guided'), /^Experiment 2 done: /, 'the line itself stays');
    } else {
      // Scrolled to, the line needs no copy.
      await page.evaluate(() => document.querySelector('[data-testid=guided]').scrollIntoView({ block: 'center' }));
      await frames(page);
      assert.equal(await shown(), null, 'the line in view, the copy goes');
    }
    assertNoErrors(page);
    await page.context().close();
  });
}

test('a move through recorded states brings no copy of the experiment\'s line over the page', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await setSpeed(page, '10×');
  await page.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).click();
  await frames(page);
  await page.locator('#play').click();
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  const before = await text(page, 'guided');
  // The line out of sight, the slider moved back by a script, as a drag would.
  await page.evaluate(() => {
    window.scrollTo(0, document.body.scrollHeight);
    const slider = document.getElementById('recorded-state');
    slider.value = '2';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await frames(page);
  assert.notEqual(await text(page, 'guided'), before, 'the line follows the move');
  assert.equal(await page.getByTestId('step-copy').isVisible(), false);
  assertNoErrors(page);
  await page.context().close();
});

test('Replay plays the later recorded states back without acting, and stops where the user moves', async () => {
  const page = await openPage(browser());
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 6; i++) await step.click();
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.getByLabel('Recorded state', { exact: true }).fill('1');
  const replay = page.getByTestId('replay');
  assert.equal(await replay.innerText(), 'Replay them');
  await replay.click();
  assert.equal(await replay.innerText(), 'Stop replay');
  // Its ticks are quiet, as Play's Steps are: the status says it replays.
  await page.getByTestId('timeline-position').filter({ hasText: /^State [3-5] of 8/ }).waitFor();
  assert.equal(await text(page, 'status'), 'Replaying the recorded states to the newest, without acting.');
  // To the newest, one state at a time; nothing discarded, nothing traced.
  await page.getByTestId('timeline-position').filter({ hasText: 'State 8 of 8' }).waitFor();
  assert.equal(await page.getByTestId('trace-entry').count(), 8);
  assert.equal(await page.getByTestId('replay').count(), 0, 'at the newest, nothing is left to replay');
  assert.match(await text(page, 'status'), /Replay ended\.$/);
  // Stopped by the user: where it is, it stays. From SUBMITTED, the state
  // it comes to is said, as Play says it.
  await page.getByLabel('Recorded state', { exact: true }).fill('0');
  await replay.click();
  await page.getByTestId('timeline-position').filter({ hasText: /^State [3-7] of 8/ }).waitFor();
  assert.match(await text(page, 'status'), /^Task 1 is TASK_STATE_WORKING/);
  await replay.click();
  const at = await text(page, 'timeline-position');
  assert.equal(await replay.innerText(), 'Replay them');
  await page.waitForTimeout(1200);
  assert.equal(await text(page, 'timeline-position'), at);
  // A seek of the user's ends it too.
  await replay.click();
  await page.getByLabel('Recorded state', { exact: true }).fill('1');
  await page.waitForTimeout(1200);
  assert.match(await text(page, 'timeline-position'), /^State 2 of 8/);
  assert.equal(await page.getByTestId('trace-entry').count(), 8);
  // The states move as under Play, and the Play button pauses the replay
  // where it is: a Play there would discard the states ahead.
  const play = page.locator('#play');
  await page.getByLabel('Recorded state', { exact: true }).fill('0');
  await replay.click();
  assert.equal(await play.innerText(), 'Pause replay');
  await page.getByTestId('timeline-position').filter({ hasText: /^State 2 of 8/ }).waitFor();
  await play.click();
  assert.equal(await play.innerText(), 'Play');
  assert.equal(await replay.innerText(), 'Replay them');
  assert.match(await text(page, 'status'), /^Replay stopped\./);
  await page.waitForTimeout(1200);
  assert.match(await text(page, 'timeline-position'), /^State 2 of 8/);
  assert.equal(await page.getByTestId('trace-entry').count(), 8, 'nothing discarded');
  // Space, the Play button's key, does the same.
  await replay.click();
  await page.getByTestId('timeline-position').filter({ hasText: /^State 3 of 8/ }).waitFor();
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press(' ');
  assert.equal(await play.innerText(), 'Play');
  await page.waitForTimeout(1200);
  assert.match(await text(page, 'timeline-position'), /^State 3 of 8/);
  assert.equal(await page.getByTestId('trace-entry').count(), 8, 'nothing discarded');
  assertNoErrors(page);
  await page.context().close();
});

test('Undo of a branch or of a fresh run shows the trace exactly as before, one entry marked viewed, wherever the branch cut a block of 100', async () => {
  // One task of 254 recorded states: parked by the pause proposal with
  // nothing to wake it, it records a minute waited at each Step.
  const run = {
    format: 'a2a-control-room/run', version: 2, ids: { seed: 7, drawn: 0 }, started_ms: 0,
    config: {
      work_units: 4, seconds_per_unit: 3, input_gate: 0, auth_gate: 0, fail_during: 0,
      reject_before_execution: false, worker_accepts_cancellation: true, pause_proposal: true,
      self_park_before: 2, resume_event: '', self_park_timeout: 0, on_timeout: 'Fail',
    },
    script: [{ Steps: 250 }],
  };
  const page = await openPage(browser(), `#run=${encodeURIComponent(JSON.stringify(run))}`);
  await page.getByTestId('task-state').waitFor();
  const step = page.getByRole('button', { name: 'Step', exact: true });
  // The rows as drawn, with their marks.
  const rows = () => page.locator('.trace [data-testid=trace-entry]').evaluateAll((es) => es.map((e) =>
    `${e.dataset.seq}|${[...e.classList].sort().join(' ')}|${e.getAttribute('aria-current')}|${e.getAttribute('aria-describedby')}|${e.textContent}`));
  const before = await rows();
  assert.ok(before.length > 200, `${before.length} entries: three blocks`);
  const slider = page.locator('#recorded-state');
  const states = Number(await slider.getAttribute('max'));
  // Branch points inside a block, at its first and its last row, and early.
  for (const at of [states - 20, 100, 99, 101, 5]) {
    await slider.fill(String(at));
    const viewed = await rows();
    await step.click();
    assert.notDeepEqual(await rows(), viewed, `state ${at}: the branch changed the trace`);
    await page.getByRole('button', { name: 'Undo: bring them back' }).click();
    assert.deepEqual(await rows(), viewed, `state ${at}: back as it was`);
    assert.equal(await page.locator('.trace .entry.viewed').count(), 1);
  }
  // A fresh run (a settings change) and its Undo.
  await slider.fill(String(states));
  const newest = await rows();
  assert.deepEqual(newest.map((r) => r.split('|')[4]), before.map((r) => r.split('|')[4]));
  await page.getByLabel('Work units').fill('3');
  await page.getByLabel('Work units').press('Tab');
  assert.equal(await page.locator('.trace [data-testid=trace-entry]').count(), 1);
  await page.getByRole('button', { name: /^Undo/ }).first().click();
  assert.deepEqual(await rows(), newest);
  assertNoErrors(page);
  await page.context().close();
});

test('from the trace, one tap goes to the picked entry\'s messages: the Wire panel comes into view with focus', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const step = page.getByRole('button', { name: 'Step', exact: true });
  await step.tap();
  await step.tap();
  const entry = page.locator('.trace [data-seq="1"]');
  await entry.scrollIntoViewIfNeeded();
  await entry.tap();
  const wire = page.getByTestId('wire-heading');
  assert.match(await wire.innerText(), /^Trace entry #1 \(selected\)/);
  assert.ok(!(await wire.evaluate((h) => { const r = h.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })), 'the Wire panel is out of sight from the trace');
  await page.getByTestId('trace-to-wire').tap();
  await page.waitForFunction(() => document.activeElement?.matches('section.wire'));
  assert.ok(await wire.evaluate((h) => { const r = h.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }), 'in view');
  assert.match(await wire.innerText(), /^Trace entry #1 \(selected\)/, 'on the entry picked');
  assertNoErrors(page);
  await page.context().close();
});
