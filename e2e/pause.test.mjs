// The proposed pause/resume lifecycle (not part of A2A v1.0) on the release
// build: the RFC's reference scenarios (a)–(h), driven from the page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertNoErrors, axeViolations, openPage, sharedBrowser, text, waitState } from './helpers.mjs';

const browser = sharedBrowser();

const click = (page, id) => page.locator(`#${id}`).click();

/** A fresh page with the proposal on and the given proposal settings. */
async function proposalPage({ park = 0, event = '', timeout = 0, onTimeout = 'fail', viewport } = {}) {
  const page = await openPage(browser(), '', viewport ? { viewport } : {});
  assert.equal(await page.locator('#act-pause').count(), 0, 'nothing of the proposal while off');
  await page.getByLabel('Proposed pause/resume').check();
  if (park) await page.getByLabel('Agent self-parks before unit').fill(String(park));
  if (event) {
    await page.getByLabel('Resume event name').fill(event);
    await page.getByLabel('Resume event name').press('Enter');
    await page.getByLabel('Resume event name').blur();
  }
  if (timeout) await page.getByLabel('Self-park timeout (minutes)').fill(String(timeout));
  await page.getByLabel('On timeout').selectOption(onTimeout);
  return page;
}

async function done(page) {
  assertNoErrors(page);
  await page.context().close();
}

test('(a) client pause, then resume with the token, completes with the work kept', async () => {
  const page = await proposalPage();
  // Which states a pause is for, and the way from PAUSED to a question.
  // Folded under the mode, so that the buttons come first.
  await page.getByText('When a task can be paused, and where the modes come from').click();
  assert.match(await text(page, 'pause-rules'), /Only a TASK_STATE_WORKING task can be paused.*\(PAUSED → WORKING → INPUT_REQUIRED\)/);
  await click(page, 'step');
  await click(page, 'act-pause');
  assert.match(await text(page, 'pause-pending'), /finish_step/);
  // Inspect says it is coming, where the pause's details will be.
  assert.equal(await text(page, 'pause-requested'),
    'Pause requested (finish_step, proposal): it takes effect when the in-flight unit completes.');
  await click(page, 'step');
  await click(page, 'step');
  await waitState(page, 'TASK_STATE_PAUSED');
  assert.equal(await page.getByTestId('pause-requested').count(), 0, 'in effect, no longer requested');
  assert.match(await text(page, 'pause-details'), /client \(PauseTask\)/);
  // The Wire panel compares the PAUSED frame with the same pause in v1.0,
  // opened from the keyboard.
  await page.getByTestId('wire-compare').locator('summary').focus();
  await page.keyboard.press('Enter');
  const compared = page.getByTestId('wire-compare-message');
  await compared.first().waitFor();
  assert.deepEqual(await compared.evaluateAll((ms) => ms.map((m) => m.dataset.payloadType)), ['StreamResponse']);
  assert.match(await compared.innerText(), /"state": "TASK_STATE_WORKING"[\s\S]*extensions\/pause\/v1/);
  const violations = (await axeViolations(page)).map((v) => `${v.id}: ${v.help}`);
  assert.deepEqual(violations, [], 'axe-core with the proposal on, paused, both encodings shown');
  await click(page, 'act-resume');
  await waitState(page, 'TASK_STATE_WORKING');
  assert.match(await text(page, 'completed-units'), /^1 \/ 4$/);
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitState(page, 'TASK_STATE_COMPLETED');
  await done(page);
});

test('(b) an unconditioned self-park stops Play and wakes only on ResumeTask', async () => {
  const page = await proposalPage({ park: 2 });
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitState(page, 'TASK_STATE_PAUSED');
  await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
  assert.match(await text(page, 'status'), /Playback stopped/);
  // Steps would only add waiting minutes: Play is off, and says so by the button.
  assert.ok(await page.locator('#play').isDisabled());
  assert.match(await page.locator('#step-reason').innerText(), /Step waits one minute; Play has nothing to run/);
  assert.match(await text(page, 'pause-details'), /agent \(AwaitTaskResumption\)/);
  // A minute on the waiting clock sends nothing, and wakes nothing: the
  // Wire panel keeps the self-park in view and says what came after it.
  await click(page, 'step');
  assert.equal(await text(page, 'task-state'), 'TASK_STATE_PAUSED (proposal)');
  assert.match(await text(page, 'pause-details'), /agent \(AwaitTaskResumption\)/);
  assert.match(await text(page, 'wire-heading'), /\(latest to send messages; the waited minutes since sent none\)/);
  // In the v1.0 extension encoding the self-park travels in metadata on the
  // task's first stream: the request that opened it activated the extension.
  await page.getByLabel('Pause encoding').selectOption('ext');
  const wire = await text(page, 'wire-messages');
  assert.match(wire, /statusUpdate TASK_STATE_WORKING \(paused\)/);
  assert.doesNotMatch(wire, /TASK_STATE_PAUSED/);
  await page.getByTestId('trace-entry').first().click();
  const http = page.getByTestId('wire-message').locator('.http');
  assert.match(await http.first().innerText(),
    /^POST .* A2A-Version: 1\.0 .* Accept: text\/event-stream · A2A-Extensions: https:\/\/a2a-control-room\.example\/extensions\/pause\/v1 \(pause extension, a proposal: not A2A v1\.0\)$/);
  // The agent's stream starts with the response head, echoing the extension.
  assert.equal(await http.nth(1).innerText(),
    'HTTP 200 OK · Content-Type: text/event-stream · A2A-Extensions: https://a2a-control-room.example/extensions/pause/v1 (pause extension, a proposal: not A2A v1.0)');
  assert.equal(await http.count(), 2, 'later frames travel in the same response');
  // The frame is one server-sent event.
  assert.equal(await text(page, 'wire-sse'),
    'Each SSE frame travels as one server-sent event: a data: line holding its JSON-RPC response on one line, then a blank line. The first here: data: {"jsonrpc":"2.0","id":1,"result":{"task":…}}');
  // In the proposed core the client has no extension to activate.
  await page.getByLabel('Pause encoding').selectOption('core');
  assert.doesNotMatch(await http.first().innerText(), /A2A-Extensions/);
  assert.equal(await http.nth(1).innerText(), 'HTTP 200 OK · Content-Type: text/event-stream');
  // No event wakes it: it waits for none.
  await page.locator('#event-to-fire').fill('pr.merged');
  await click(page, 'act-fire-event');
  assert.equal(await text(page, 'task-state'), 'TASK_STATE_PAUSED (proposal)');
  assert.match(await text(page, 'status'), /nothing waits for the event “pr\.merged”; nothing changed/);
  await click(page, 'act-resume');
  await waitState(page, 'TASK_STATE_WORKING');
  await done(page);
});

test('Play stops where a self-park with a timeout takes effect; Play again runs its waiting clock', async () => {
  const page = await proposalPage({ park: 2, event: 'pr.merged', timeout: 5, onTimeout: 'resume_with_summary' });
  // Play's ticks run on a clock the test moves.
  await page.clock.install();
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.clock.runFor(5_000);
  assert.equal(await text(page, 'task-state'), 'TASK_STATE_PAUSED (proposal)');
  assert.equal(await page.locator('#play').innerText(), 'Play');
  assert.match(
    await text(page, 'status'),
    /Playback stopped: the task paused\. Resume it or fire its event, or press Play to let its waiting clock run\./,
  );
  // The client's turn: nothing ran past it, for a minute of Play's ticks.
  const entries = await page.getByTestId('trace-entry').count();
  await page.clock.runFor(60_000);
  assert.equal(await page.getByTestId('trace-entry').count(), entries);
  assert.equal(await text(page, 'task-state'), 'TASK_STATE_PAUSED (proposal)');
  assert.ok(!(await page.locator('#play').isDisabled()), 'Play can run the waiting clock');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.clock.runFor(60_000);
  assert.equal(await text(page, 'task-state'), 'TASK_STATE_COMPLETED');
  assert.match(await page.getByTestId("trace").innerText(), /self-park timeout/);
  await done(page);
});

test('(c) the matching event wakes a conditioned self-park', async () => {
  const page = await proposalPage({ park: 1, event: 'pr.merged' });
  await click(page, 'step');
  await waitState(page, 'TASK_STATE_PAUSED');
  await page.getByLabel('Event to fire').fill('build.done');
  await click(page, 'act-fire-event');
  assert.equal(await text(page, 'task-state'), 'TASK_STATE_PAUSED (proposal)');
  assert.match(await text(page, 'status'), /nothing waits for the event “build\.done”; nothing changed/);
  // A pasted name too long for any task is kept whole and refused, not cut
  // short to a name that might wake the wrong wait.
  const long = 'pr.merged.' + 'x'.repeat(60);
  await page.getByLabel('Event to fire').fill(long);
  assert.equal(await page.getByLabel('Event to fire').inputValue(), long);
  assert.ok(await page.locator('#act-fire-event').isDisabled());
  assert.equal(
    await page.locator('#act-fire-event-reason').innerText(),
    'The event name is longer than 64 bytes, so no task waits for it.',
  );
  await page.getByLabel('Event to fire').fill('pr.merged');
  await click(page, 'act-fire-event');
  await waitState(page, 'TASK_STATE_WORKING');
  await done(page);
});

test('a resume event name too long stays in its field to mend, marked as not in use', async () => {
  const page = await proposalPage({ event: 'pr.merged' });
  const field = page.getByLabel('Resume event name');
  await field.fill('é'.repeat(40)); // 40 characters, 80 bytes
  await field.press('Tab');
  await page.getByTestId('alert').filter({ hasText: 'longer than 64 bytes' }).waitFor();
  await page.keyboard.press('Escape');
  // The text stays to be mended; the field says it is not the one in use.
  assert.equal(await field.inputValue(), 'é'.repeat(40));
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.equal(
    await text(page, 'resume-event-refused'),
    'Not in use: the resume event name (proposal) is longer than 64 bytes. The experiment keeps “pr.merged”.',
  );
  // Another setting changed, a Step taken: the text and its mark stay together.
  await page.getByLabel('Work units').fill('5');
  await click(page, 'step');
  assert.equal(await field.inputValue(), 'é'.repeat(40));
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  // The proposal switched off and on draws the field again, with the name
  // in use and no mark.
  await page.getByLabel('Proposed pause/resume').uncheck();
  await page.getByLabel('Proposed pause/resume').check();
  assert.equal(await field.inputValue(), 'pr.merged');
  assert.equal(await field.getAttribute('aria-invalid'), null);
  await field.fill('é'.repeat(40));
  await field.press('Tab');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  // A pasted ASCII name too long is kept whole to mend too, not cut short.
  await field.fill('deploy.'.repeat(10)); // 70 bytes
  await field.press('Tab');
  assert.equal(await field.inputValue(), 'deploy.'.repeat(10));
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  // So is a name of invisible characters only, which no Fire event could send.
  await field.fill('\u200B\u2060');
  await field.press('Tab');
  assert.equal(await field.inputValue(), '\u200B\u2060');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.equal(
    await text(page, 'resume-event-refused'),
    'Not in use: the resume event name (proposal) is only spaces and invisible characters, which Fire event refuses as empty. The experiment keeps “pr.merged”.',
  );
  await page.keyboard.press('Escape');
  // A name that fits is put in use, and the mark goes.
  await field.fill('build.done');
  await field.press('Tab');
  assert.equal(await field.getAttribute('aria-invalid'), null);
  assert.equal(await page.getByTestId('resume-event-refused').count(), 0);
  await page.getByLabel('Agent self-parks before unit').fill('1');
  await click(page, 'step');
  await waitState(page, 'TASK_STATE_PAUSED');
  await page.getByLabel('Event to fire').fill('build.done');
  await click(page, 'act-fire-event');
  await waitState(page, 'TASK_STATE_WORKING');
  await done(page);
});

test('(d, e) a timeout on the waiting clock resumes or fails the task', async () => {
  for (const [onTimeout, after] of [
    ['resume_with_summary', 'TASK_STATE_WORKING'],
    ['fail', 'TASK_STATE_FAILED'],
  ]) {
    const page = await proposalPage({ park: 1, timeout: 5, onTimeout });
    await click(page, 'step');
    await waitState(page, 'TASK_STATE_PAUSED');
    for (let i = 0; i < 5; i++) await click(page, 'step');
    await waitState(page, after);
    assert.match(await text(page, 'waiting-time'), /^5 min$/);
    // The trace and the recorded state say the waiting time beside the active time.
    assert.match(await page.getByTestId('trace-entry').last().locator('.states').innerText(), / · waiting 5 min$/);
    const valuetext = await page.getByLabel('Recorded state', { exact: true }).getAttribute('aria-valuetext');
    assert.match(valuetext, / at 0 s active, 5 min waiting$/);
    assert.ok(await page.locator('#act-resume').isDisabled(), 'nothing left to resume');
    assert.match(await page.locator('#act-resume-reason').innerText(), /-3201[01]/);
    await done(page);
  }
});

test('work thrown away by interrupt_immediate is added to the plan, which the task then meets', async () => {
  const page = await proposalPage();
  for (let i = 0; i < 4; i++) await click(page, 'step'); // 1 s into unit 2
  await page.getByLabel('Pause mode').selectOption('interrupt_immediate');
  await click(page, 'act-pause');
  await waitState(page, 'TASK_STATE_PAUSED');
  await click(page, 'act-resume');
  await waitState(page, 'TASK_STATE_WORKING');
  // That second stays active time, and is worked again.
  assert.equal(await text(page, 'active-time'), '4 s of 13 s (1 s of it lost to a pause, proposal)');
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitState(page, 'TASK_STATE_COMPLETED');
  assert.equal(await text(page, 'active-time'), '13 s of 13 s (1 s of it lost to a pause, proposal)');
  assert.match(await text(page, 'completed-units'), /^4 \/ 4$/);
  await done(page);
});

test('(f, g, h) wrong token, re-pause, cancel while paused', async () => {
  const page = await proposalPage();
  await click(page, 'step');
  await page.getByLabel('Pause mode').selectOption('interrupt_immediate');
  await click(page, 'act-pause');
  await waitState(page, 'TASK_STATE_PAUSED');
  const entries = await page.getByTestId('trace-entry').count();
  await click(page, 'act-pause'); // (h) re-pause: the current pause, nothing new recorded
  await page.getByTestId('trace-entry').nth(entries).waitFor();
  assert.match(await page.getByTestId('trace-entry').last().textContent(), /unchanged/);
  assert.match(await text(page, 'timeline-position'), /TASK_STATE_PAUSED \(proposal\)/);
  // The slider's value in words is the line under it, the proposal named in both.
  const valuetext = await page.getByLabel('Recorded state', { exact: true }).getAttribute('aria-valuetext');
  assert.equal(await text(page, 'timeline-position'), `State ${valuetext}`);
  assert.match(await text(page, 'status'), /nothing changed/);
  await click(page, 'act-resume-wrong'); // (f) a wrong token is refused
  // The refusal the user asked to see: a status line, not an alert.
  assert.match(await text(page, 'status'), /^Resume with wrong token \(proposal\) refused, as it should be: .*-32011/);
  assert.equal(await text(page, 'alert'), '');
  await page.getByRole('button', { name: 'Request cancellation' }).click(); // (g)
  await waitState(page, 'TASK_STATE_CANCELED');
  assert.ok(await page.locator('#act-resume').isDisabled());
  await done(page);
});

test('Export transcript writes the chosen pause encoding: the proposed core, or v1.0 with the extension', async () => {
  const page = await proposalPage();
  await click(page, 'step');
  await click(page, 'act-pause');
  await click(page, 'step');
  await click(page, 'step');
  await waitState(page, 'TASK_STATE_PAUSED');
  await click(page, 'act-resume');
  await waitState(page, 'TASK_STATE_WORKING');
  const exported = async (encoding) => {
    await page.getByLabel('Pause encoding').selectOption(encoding);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export transcript' }).click(),
    ]);
    const { readFile } = await import('node:fs/promises');
    return (await readFile(await download.path(), 'utf8')).trim().split('\n');
  };
  const core = await exported('core');
  const types = core.map((l) => JSON.parse(l).payloadType);
  for (const t of ['proposal:PauseTaskRequest', 'proposal:PauseTaskResponse', 'proposal:ResumeTaskRequest']) {
    assert.ok(types.includes(t), `${t} in ${types.join(' ')}`);
  }
  assert.ok(core.some((l) => l.includes('"TASK_STATE_PAUSED"')));
  // Every line the proposal has a part in says so, in the encoding it travels in;
  // the task's creation, before any pause, is v1.0's alone.
  const marks = (lines) => lines.map((l) => JSON.parse(l).pauseProposal);
  assert.deepEqual(core.filter((l) => /"payloadType":"proposal:/.test(l) && !l.endsWith(',"pauseProposal":"core"}')), []);
  assert.equal(marks(core)[0], undefined);
  const ext = await exported('ext');
  assert.equal(ext.length, core.length, 'the same exchanges, encoded another way');
  assert.deepEqual(ext.filter((l) => /"payloadType":"proposal:|TASK_STATE_PAUSED/.test(l)), []);
  const extension = ext.filter((l) => l.includes('https://a2a-control-room.example/extensions/pause/v1'));
  assert.ok(extension.length > 0);
  assert.deepEqual(extension.filter((l) => JSON.parse(l).pauseProposal !== 'extension'), []);
  assert.ok(!marks(ext).includes('core'));
  await done(page);
});

// Whether each message of the Wire panel's exchange shows its start (its
// words and its JSON's first three lines) without scrolling the list.
const startsShown = (page) =>
  page.getByTestId('wire-messages').evaluate((list) => {
    const box = list.getBoundingClientRect();
    return [...list.querySelectorAll('[data-testid=wire-message]')].map((m) => {
      const head = m.querySelector('.explain').getBoundingClientRect();
      const third = m.querySelectorAll('.json .l')[2].getBoundingClientRect();
      return head.top >= box.top && third.bottom <= box.bottom;
    });
  });

test('the Wire panel shows where each message of an exchange starts: a long request does not hide its answer', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }, { width: 320, height: 640 }]) {
    const page = await proposalPage({ park: 3, event: 'pr.merged', timeout: 5, onTimeout: 'resume_with_summary', viewport });
    const step = page.locator('#step');
    while (!(await text(page, 'task-state')).startsWith('TASK_STATE_PAUSED')) await step.click();
    // AwaitTaskResumption, its result, and the PAUSED statusUpdate on the stream.
    assert.equal(await page.getByTestId('wire-message').count(), 3);
    assert.deepEqual(await startsShown(page), [true, true, true], `${viewport.width} px, self-park`);
    await done(page);
    // A client's pause with the longest reason, in both encodings (the
    // extension's request carries it twice, and one more header).
    const client = await proposalPage({ viewport });
    for (let i = 0; i < 2; i++) await click(client, 'step');
    await client.getByLabel('Pause mode').selectOption('interrupt_immediate');
    await client.getByLabel('Pause reason').fill(`${'R'.repeat(250)} ${'word '.repeat(49)}`);
    await click(client, 'act-pause');
    for (const encoding of ['core', 'ext']) {
      await client.getByLabel('Pause encoding').selectOption(encoding);
      assert.equal(await client.getByTestId('wire-message').count(), 3);
      assert.deepEqual(await startsShown(client), [true, true, true], `${viewport.width} px, ${encoding}`);
    }
    await done(client);
  }
});
