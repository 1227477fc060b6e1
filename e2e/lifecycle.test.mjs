// The state diagram and the time bar on the release build, and a whole
// experiment driven with the keyboard alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertNoErrors, axeViolations, frames, openPage, sharedBrowser, text, waitState } from './helpers.mjs';

const browser = sharedBrowser();

const current = (page) => page.locator('[data-testid=diagram] .node.current').getAttribute('data-state');
const edgeClass = (page, edge) => page.locator(`[data-testid=diagram] [data-edge="${edge}"]`).getAttribute('class');
const cursorX = (page) => page.locator('[data-testid=timebar] line.cursor').getAttribute('data-x');
// The link to the control that answers where Play or Step stopped, when it has keyboard focus.
const focusedAnswer = (page) =>
  page.waitForFunction(() => document.activeElement?.dataset.testid === 'go-to-answer').then(() =>
    page.evaluate(() => document.activeElement.innerText),
  );

// Whether the control with keyboard focus is wholly on screen.
const focusInView = (page) =>
  page.evaluate(() => {
    const r = document.activeElement.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });

// The action whose box (button and reason) has keyboard focus.
const focusedAction = (page) =>
  page.waitForFunction(() => document.activeElement?.matches('.action')).then(() =>
    page.evaluate(() => document.activeElement.querySelector('button').id),
  );

test('the state diagram follows playback and seek', async () => {
  const page = await openPage(browser());
  assert.equal(await current(page), 'TASK_STATE_SUBMITTED');
  assert.equal(await page.locator('[data-testid=diagram] .node').count(), 8, 'the eight v1.0 states');
  assert.equal(await page.locator('[data-testid=diagram] [data-state=TASK_STATE_PAUSED]').count(), 0);
  assert.equal(await edgeClass(page, 'SUBMITTED-WORKING'), 'edge possible');

  await page.getByLabel('Require input before unit').fill('2');
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  assert.equal(await current(page), 'TASK_STATE_INPUT_REQUIRED');
  assert.equal(await edgeClass(page, 'SUBMITTED-WORKING'), 'edge taken');
  assert.equal(await edgeClass(page, 'WORKING-INPUT_REQUIRED'), 'edge taken');
  assert.equal(await edgeClass(page, 'INPUT_REQUIRED-WORKING'), 'edge possible');
  assert.equal(await edgeClass(page, 'INPUT_REQUIRED-CANCELED'), 'edge possible');
  assert.equal(await edgeClass(page, 'WORKING-COMPLETED'), 'edge');
  assert.match(await text(page, 'possible-now'), /INPUT_REQUIRED → WORKING \(client clarifies\)/);

  // Seeking back redraws the past: nothing taken yet at the first state.
  await page.getByLabel('Recorded state', { exact: true }).fill('0');
  assert.equal(await current(page), 'TASK_STATE_SUBMITTED');
  assert.equal(await page.locator('[data-testid=diagram] .edge.taken').count(), 0);

  // A worker that refuses cancellation takes the cancel edges out of "possible".
  await page.getByLabel('Worker accepts cancellation').uncheck();
  assert.equal(await edgeClass(page, 'SUBMITTED-CANCELED'), 'edge');

  // The proposal adds PAUSED, its edges and the forbidden pair, all labelled.
  await page.getByLabel('Proposed pause/resume').check();
  assert.equal(await page.locator('[data-testid=diagram] .node').count(), 9);
  assert.equal(await edgeClass(page, 'WORKING-PAUSED'), 'edge proposal');
  assert.equal(await page.locator('[data-testid=diagram] [data-edge=forbidden]').count(), 1);
  assert.match(
    await page.locator('[data-testid=diagram] [data-edge=forbidden] title').textContent(),
    /TASK_STATE_INPUT_REQUIRED ↔ TASK_STATE_PAUSED: never adjacent \(proposal\)/,
  );
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  assert.equal(await edgeClass(page, 'WORKING-PAUSED'), 'edge possible proposal');
  await page.getByLabel('Pause mode').selectOption('interrupt_immediate');
  await page.getByRole('button', { name: 'Pause task' }).click();
  await waitState(page, 'TASK_STATE_PAUSED');
  assert.equal(await current(page), 'TASK_STATE_PAUSED');
  assert.equal(await edgeClass(page, 'WORKING-PAUSED'), 'edge taken proposal');
  assert.equal(await edgeClass(page, 'PAUSED-WORKING'), 'edge possible proposal');
  assert.equal(await page.getByTestId('timebar').locator('rect.wait.paused').count(), 1);
  assertNoErrors(page);
  await page.context().close();
});

test('the time bar draws work, waits and the failure, follows seek, and seeks when clicked', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Work units').fill('3');
  await page.getByLabel('Seconds per unit').fill('4');
  await page.getByLabel('Require input before unit').fill('2');
  await page.getByLabel('Fail during unit').fill('3');
  const bar = page.getByTestId('timebar');
  // The whole plan is outlined before any work: up to the failure, and the
  // rest of unit 3, which the task never reaches, drawn as after a failure.
  assert.equal(await bar.locator('rect.planned:not(.abandoned)').count(), 1);
  assert.equal(await bar.locator('rect.planned.abandoned').count(), 1);
  // On it, what is ahead: units 1 to 3, the input gate before unit 2, the failure in unit 3.
  assert.deepEqual(await bar.locator('text.plan:not(.gate)').allTextContents(), ['1', '2', '3']);
  assert.deepEqual(await bar.locator('text.plan.gate').allTextContents(), ['input', 'fail']);
  assert.match(await bar.getAttribute('aria-label'), /Still ahead on the plan: the input gate, then the configured failure\./);

  for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  assert.equal(await bar.locator('rect.wait.input').count(), 1, 'the interruption is a waiting gap');
  // The legend keys what the bar draws: the wait, and the cursor on it.
  const keys = await page.locator('.bar-legend .key').allInnerTexts();
  assert.ok(keys.includes('input wait (width not to scale)') && keys.includes('viewed state'), `${keys}`);
  assert.equal(await bar.locator('line.cursor').count(), 1);
  assert.equal(await bar.locator('line.plan.input').count(), 0, 'the gate reached is no longer ahead');
  assert.equal(await bar.locator('line.plan.fail').count(), 1);
  // The viewed state is that wait: not a wait before it.
  assert.match(await bar.getAttribute('aria-label'), /; the wait it is in \(input\), drawn as a gap\./);
  await page.getByLabel('Clarification text').fill('EU only');
  await page.getByRole('button', { name: 'Supply clarification' }).click();
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitState(page, 'TASK_STATE_FAILED');
  assert.equal(await bar.locator('rect.work').count(), 3, 'units 1, 2 and the failed part of 3');
  assert.equal(await bar.locator('line.mark.failed').count(), 1);
  assert.equal(await bar.locator('rect.planned.abandoned').count(), 1, 'the rest of the plan is abandoned');
  assert.equal(await bar.locator('.plan').count(), 0, 'nothing is ahead of a failed task');
  const end = Number(await cursorX(page));
  assert.ok(end > 0);
  assert.match(
    await bar.getAttribute('aria-label'),
    /Time bar: state \d+ of \d+ at 10 s active; 1 wait before it \(input\), drawn as a gap\. The task ends TASK_STATE_FAILED with 2 of 3 units done \(the work on unit 3 not counted\)\./,
  );
  // How it ended is written on the plan it left undone, as the picture shows.
  assert.equal(await bar.locator('text.end.failed').textContent(), 'FAILED');

  // Seeking moves the cursor; the wait is now after the viewed state.
  await page.getByLabel('Recorded state', { exact: true }).fill('3');
  assert.ok(Number(await cursorX(page)) < end);
  assert.match(await bar.getAttribute('aria-label'), /; 1 wait after it \(input\), drawn as a gap\./);
  // Clicking near the start of the bar seeks there: the discard warning names the later states.
  const box = await bar.boundingBox();
  await page.mouse.click(box.x + box.width * 0.1, box.y + box.height / 2);
  const x = Number(await cursorX(page));
  assert.ok(x >= 1 && x <= 2, `cursor at ${x} after clicking 10% in`);
  assert.match(await text(page, 'timeline-position'), /^State \d+ of \d+ — TASK_STATE_WORKING at [12] s$/);
  await page.getByTestId('discard-warning').waitFor();
  // Clicking the far end returns to the latest state.
  await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
  assert.equal(Number(await cursorX(page)), end);
  assert.equal(await current(page), 'TASK_STATE_FAILED');
  assertNoErrors(page);
  await page.context().close();
});

/** Presses Tab (or Shift+Tab) until the focused element has accessible name `name`. */
async function tabTo(page, name, { back = false, limit = 120 } = {}) {
  for (let i = 0; i < limit; i++) {
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return '';
      const label = el.labels?.[0]?.textContent ?? '';
      return (el.getAttribute('aria-label') || label || el.textContent || '').trim();
    });
    if (focused === name) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`could not reach "${name}" with ${back ? 'Shift+' : ''}Tab`);
}

test('a whole experiment with the keyboard alone', async () => {
  const page = await openPage(browser());
  // Require clarification before unit 2: the slider moves with the arrow keys.
  await tabTo(page, 'Require input before unit');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.match(await text(page, 'notice'), /fresh experiment/);
  // Play at 10× (the speed select answers the arrow keys too).
  await tabTo(page, 'Speed', { back: true });
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await tabTo(page, 'Play', { back: true });
  await page.keyboard.press('Enter');
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  // Play disabled itself: focus goes to the link to what answers the stop
  // (not to the page, nor to Restart experiment, the next control Tab reaches).
  assert.equal(await focusedAnswer(page), 'Go to clarification');
  const taskId = await text(page, 'task-id');

  // Supply the clarification: type it, then press the button.
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'clarification-text');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Keyboard only, please');
  await tabTo(page, 'Supply clarification');
  await page.keyboard.press('Enter');
  await waitState(page, 'TASK_STATE_WORKING');

  // Space (outside text fields) plays; → steps when paused.
  await page.keyboard.press('Escape');
  await page.evaluate(() => document.activeElement?.blur());
  const active = await text(page, 'active-time');
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('active-time').filter({ hasNotText: active }).waitFor();
  await page.keyboard.press(' ');
  await waitState(page, 'TASK_STATE_COMPLETED');
  assert.equal(await text(page, 'task-id'), taskId, 'the same task resumed');
  assert.match(await text(page, 'final-artifact'), /Keyboard only, please/);
  // → on a terminal task does what the disabled Step button does: nothing but say why.
  const entries = await page.getByTestId('trace-entry').count();
  await page.keyboard.press('ArrowRight');
  assert.match(await text(page, 'alert'), /Step is not possible now: .*TASK_STATE_COMPLETED/);
  assert.equal(await page.getByTestId('trace-entry').count(), entries, 'no refused Step is recorded');

  // [ goes back one recorded state, ] forward again.
  const latest = await text(page, 'timeline-position');
  await page.keyboard.press('[');
  assert.notEqual(await text(page, 'timeline-position'), latest);
  await page.keyboard.press(']');
  assert.equal(await text(page, 'timeline-position'), latest);

  // Follow up the terminal task.
  await tabTo(page, 'New follow-up task');
  await page.keyboard.press('Enter');
  await waitState(page, 'TASK_STATE_SUBMITTED');
  assert.notEqual(await text(page, 'task-id'), taskId);
  assert.equal(await page.getByTestId('task-list-item').count(), 2);
  // Focus is never lost to a hidden element, and axe finds nothing.
  assert.deepEqual((await axeViolations(page)).map((v) => v.id), []);
  assertNoErrors(page);
  await page.context().close();
});

test('Pause playback and Play again keep the pace: the next Step comes at Play\'s next tick, not at each press', async () => {
  const page = await openPage(browser());
  const active = () => text(page, 'active-time');
  const play = page.locator('#play');
  assert.match(await text(page, 'speed-hint'), /every 5\.0 s$/);
  await play.click();
  // Play's first Step comes at once.
  await page.getByTestId('active-time').filter({ hasText: /^1 s/ }).waitFor();
  const after = await active();
  // Paused and played again, quickly, again and again: no Step comes with a press.
  for (let i = 0; i < 6; i++) {
    await play.click();
    assert.match(await play.innerText(), /^(Play|Pause playback)$/);
  }
  assert.equal(await play.innerText(), 'Pause playback');
  assert.equal(await active(), after, 'six presses took no Step');
  // The next comes at a tick of Play's clock.
  await page.getByTestId('active-time').filter({ hasText: /^2 s/ }).waitFor({ timeout: 8_000 });
  // Something done between (a Step) makes the next Play take its Step at once.
  await play.click();
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.getByTestId('active-time').filter({ hasText: /^3 s/ }).waitFor();
  await play.click();
  await page.getByTestId('active-time').filter({ hasText: /^4 s/ }).waitFor({ timeout: 1_000 });
  await play.click();
  assertNoErrors(page);
  await page.context().close();
});

test('while Play runs, a line along its foot fills until the next Step, anew at each; not with reduced motion', async () => {
  const page = await openPage(browser());
  const line = () => page.evaluate(() => {
    const after = getComputedStyle(document.querySelector('#play'), '::after');
    return { content: after.content, name: after.animationName, duration: after.animationDuration };
  });
  assert.equal((await line()).content, 'none', 'no line before Play');
  await page.getByLabel('Speed').selectOption({ label: '10×' });
  assert.match(await text(page, 'speed-hint'), /every 500 ms$/);
  await page.locator('#play').click();
  const first = await line();
  assert.equal(first.duration, '0.5s', 'the line fills in one Step\'s time');
  assert.match(first.name, /^tick-(odd|even)$/);
  // Each of Play's Steps starts it again (the other name restarts the
  // animation): three Steps, three restarts.
  const restarts = await page.evaluate(() => new Promise((done) => {
    const play = document.querySelector('#play');
    const name = () => getComputedStyle(play, '::after').animationName;
    const entries = () => document.querySelector('[data-testid=trace-count]')?.textContent;
    let [n, e, steps, flips] = [name(), entries(), 0, 0];
    const watch = () => {
      if (name() !== n) [n, flips] = [name(), flips + 1];
      if (entries() !== e) [e, steps] = [entries(), steps + 1];
      if (steps < 3) requestAnimationFrame(watch); else done({ steps, flips });
    };
    requestAnimationFrame(watch);
  }));
  assert.deepEqual(restarts, { steps: 3, flips: 3 });
  // A Step pressed between two of Play's leaves the line as it was: Play's
  // next Step still comes when the line is full.
  const before = (await line()).name;
  await page.keyboard.press('ArrowRight');
  assert.equal((await line()).name, before, 'a Step pressed does not restart the line');
  await page.locator('#play').click(); // Pause playback
  assert.equal((await line()).content, 'none', 'no line once playback is paused');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.locator('#play').click();
  assert.equal(await page.locator('#play').innerText(), 'Pause playback');
  assert.equal((await line()).content, 'none', 'no line with reduced motion');
  assertNoErrors(page);
  await page.context().close();
});

/**
 * Watches what moves on `page` while a task plays: the layout shifts the
 * browser reports (`window.__allShifts()`), and where each panel, its
 * heading and the Wire list are on the whole page (`window.__moved`).
 * Returns `watchUntil(state)`: from after a press (what it moves, it moves
 * under the user's hand) until `state` comes by itself.
 */
async function watchShifts(page) {
  // Layout shifts not caused by recent input, as the browser reports them.
  await page.evaluate(() => {
    window.__shifts = [];
    const record = (entries) => {
      for (const e of entries) {
        if (!e.hadRecentInput) {
          const name = (n) => {
            const el = n?.nodeType === 3 ? n.parentElement : n;
            return el ? `${el.nodeName.toLowerCase()}.${el.className || el.dataset?.testid || ''}` : '?';
          };
          const nodes = e.sources.map((s) => name(s.node)).join(', ');
          window.__shifts.push(`${e.value.toFixed(6)} (${nodes})`);
        }
      }
    };
    const observer = new PerformanceObserver((list) => record(list.getEntries()));
    observer.observe({ type: 'layout-shift' });
    // Every shift so far, those not yet delivered to the callback included.
    window.__allShifts = () => {
      record(observer.takeRecords());
      return window.__shifts;
    };
    // The browser reports shifts on the screen only: each panel, its
    // heading and the Wire list must also keep their place on the whole
    // page, off the screen too, while Play runs (a reader scrolled down to
    // them sees nothing move), from where they were when Play started.
    const where = () => [...document.querySelectorAll('section.panel, section.panel h2, .messages-list')]
      .map((e) => {
        const r = e.getBoundingClientRect();
        return [e.id || e.getAttribute('aria-labelledby') || e.className, Math.round(r.top + scrollY), Math.round(r.left + scrollX)];
      });
    window.__moved = new Set();
    window.__watch = (on) => { window.__from = on ? where() : null; };
    new MutationObserver(() => requestAnimationFrame(() => {
      if (!window.__from) return;
      where().forEach(([name, y, x], i) => {
        const [, y0, x0] = window.__from[i] || [];
        if (y !== y0 || x !== x0) window.__moved.add(`${name} ${y0},${x0} -> ${y},${x}`);
      });
    })).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return async (state) => {
    await frames(page);
    await page.evaluate(() => window.__watch(true));
    await waitState(page, state);
    await frames(page);
    await page.evaluate(() => window.__watch(false));
  };
}

test('nothing on the page shifts while a task plays', async () => {
  // [width, height, proposal on, work units]: a laptop and a phone with
  // 60 trace entries and more (the trace scrolls while the task plays),
  // then other screens: the narrowest phones, a tablet, a short laptop, a
  // wide screen, and a laptop at 200 % zoom.
  for (const [width, height, proposal, units] of [
    [1280, 800, false, 12],
    [390, 844, false, 12],
    [1280, 800, true, 12],
    [390, 844, true, 12],
    [320, 568, true, 6],
    [360, 640, false, 6],
    [768, 1024, true, 6],
    [1024, 600, true, 6],
    [1920, 1080, false, 6],
    [640, 400, true, 6],
  ]) {
    const viewport = { width, height };
    const page = await openPage(browser(), '', { viewport });
    if (proposal) await page.getByLabel('Proposed pause/resume').check();
    await page.getByLabel('Work units').fill(String(units));
    await page.getByLabel('Seconds per unit').fill(units > 6 ? '5' : '2');
    await page.getByLabel('Require input before unit').fill('2');
    // Both gates: the reasons under Act's buttons keep their height in each.
    await page.getByLabel('Require authorization before unit').fill('3');
    await page.getByLabel('Speed').selectOption({ label: '10×' });
    // The settings are drawn before watching: Playwright sets them from script,
    // which the browser does not count as recent input.
    await frames(page);
    const watchUntil = await watchShifts(page);
    const play = async (state) => {
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await watchUntil(state);
    };
    await play('TASK_STATE_INPUT_REQUIRED');
    await page.getByRole('button', { name: 'Supply clarification' }).click();
    await play('TASK_STATE_AUTH_REQUIRED');
    // Where this agent departs from A2A's SHOULD, said beside the way forward.
    assert.match(await page.locator('#act-authorize-reason').innerText(), /A2A says an agent SHOULD also accept messages now; this page sends none/);
    await page.getByRole('button', { name: 'Authorize' }).click();
    if (proposal) {
      // A pause asked for while Play runs takes effect by itself a moment later.
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await waitState(page, 'TASK_STATE_WORKING');
      await page.getByRole('button', { name: 'Pause task' }).click();
      await watchUntil('TASK_STATE_PAUSED');
      await page.getByRole('button', { name: 'Resume task', exact: true }).click();
      await waitState(page, 'TASK_STATE_WORKING');
    }
    await play('TASK_STATE_COMPLETED');
    assert.deepEqual(await page.evaluate(() => window.__allShifts()), [], `layout shifts at ${viewport.width}px${proposal ? ', proposal on' : ''}`);
    assert.deepEqual(await page.evaluate(() => [...window.__moved]), [], `moved on the page at ${viewport.width}px${proposal ? ', proposal on' : ''}`);
    assertNoErrors(page);
    await page.context().close();
  }
});

test('an experiment set up and played to each of its stops moves nothing on the page, its line included', async () => {
  for (const [width, height] of [[1280, 800], [768, 1024], [390, 844], [320, 568]]) {
    const page = await openPage(browser(), '', { viewport: { width, height } });
    await page.getByLabel('Speed').selectOption({ label: '10×' });
    const watchUntil = await watchShifts(page);
    const play = async (state) => {
      await page.locator('#play').click();
      await watchUntil(state);
    };
    for (const [experiment, stops] of [
      ['Set up experiment 1', ['TASK_STATE_INPUT_REQUIRED', 'Supply clarification', 'TASK_STATE_COMPLETED']],
      ['Set up experiment 2', ['TASK_STATE_COMPLETED']],
      ['experiment 4: authorization', ['TASK_STATE_AUTH_REQUIRED', 'Authorize', 'TASK_STATE_COMPLETED']],
      ['experiment 4: failure', ['TASK_STATE_FAILED']],
      ['experiment 4: rejection', ['TASK_STATE_REJECTED']],
    ]) {
      await page.locator('.guide').getByRole('button', { name: experiment }).click();
      await page.getByRole('button', { name: 'Dismiss notice' }).click();
      for (const stop of stops) {
        if (stop.startsWith('TASK_STATE_')) await play(stop);
        else await page.getByRole('button', { name: stop, exact: true }).click();
      }
      const said = await text(page, 'guided');
      assert.deepEqual(await page.evaluate(() => window.__allShifts()), [], `layout shifts at ${width}px, ${experiment}: ${said}`);
      assert.deepEqual(await page.evaluate(() => [...window.__moved]), [], `moved at ${width}px, ${experiment}: ${said}`);
    }
    assertNoErrors(page);
    await page.context().close();
  }
});

test('an agent\'s self-park taking effect while Play runs moves nothing on the page (proposal)', async () => {
  for (const [width, height] of [[1280, 800], [390, 844], [320, 568]]) {
    const page = await openPage(browser(), '', { viewport: { width, height } });
    await page.locator('.guide').getByRole('button', { name: 'Set up experiment 5' }).click();
    await page.getByLabel('Speed').selectOption({ label: '10×' });
    const watchUntil = await watchShifts(page);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await watchUntil('TASK_STATE_PAUSED');
    assert.match(await text(page, 'pause-details'), /agent \(AwaitTaskResumption\)/);
    assert.deepEqual(await page.evaluate(() => window.__allShifts()), [], `layout shifts at ${width}px`);
    assert.deepEqual(await page.evaluate(() => [...window.__moved]), [], `moved on the page at ${width}px`);
    assertNoErrors(page);
    await page.context().close();
  }
});

test('a Wire request brings its exchange into view: on a desktop under the button pressed, on a phone first, from the keyboard under the button', async () => {
  for (const [width, height, options] of [[1280, 800, {}], [390, 844, { hasTouch: true, isMobile: true }]]) {
    const page = await openPage(browser(), '', { viewport: { width, height }, ...options });
    const where = (button) => page.evaluate((id) => ({
      list: document.querySelector('.wire .messages-list').getBoundingClientRect().top,
      button: document.getElementById(id).getBoundingClientRect(),
    }), button);
    for (const [name, id] of [['Get task', 'wire-get-task'], ['Get unknown task', 'wire-get-unknown']]) {
      // The button at the foot of the screen, the exchange below it.
      await page.evaluate((id) => document.getElementById(id).scrollIntoView({ block: 'end' }), id);
      assert.ok((await where(id)).list > height, `${width}px: before ${name}, the exchange starts below the screen`);
      await page.getByRole('button', { name, exact: true }).click();
      await frames(page);
      const after = await where(id);
      assert.ok(after.list >= 0 && after.list <= height * 0.75, `${width}px, ${name}: the exchange starts on screen (${after.list})`);
      if (width >= 720) {
        assert.ok(after.button.top >= 0, `${width}px, ${name}: the button pressed stays on screen (${after.button.top})`);
      }
      assert.equal(await page.evaluate(() => document.activeElement.id), id);
    }
    // From the keyboard, the button keeps the focus on screen at any width
    // (a phone's layout is also a desktop's at 400 % zoom).
    await page.evaluate(() => document.getElementById('wire-get-task').scrollIntoView({ block: 'end' }));
    const before = await where('wire-get-task');
    await page.locator('#wire-get-task').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await frames(page);
    const keyed = await where('wire-get-task');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'wire-get-task');
    assert.ok(keyed.button.top >= 0 && keyed.button.bottom <= height, `${width}px: the button with the focus stays on screen (${keyed.button.top})`);
    assert.ok(keyed.list < before.list, `${width}px: the exchange comes up (${before.list} → ${keyed.list})`);
    assertNoErrors(page);
    await page.context().close();
  }
});

test('on the narrowest screens each Wire message keeps its heading and HTTP line clear of the next one', async () => {
  for (const viewport of [{ width: 320, height: 568 }, { width: 360, height: 640 }, { width: 640, height: 400 }]) {
    const page = await openPage(browser(), '', { viewport });
    await page.getByLabel('Work units').fill('3');
    await page.getByLabel('Seconds per unit').fill('1');
    await page.getByLabel('Require input before unit').fill('2');
    await page.getByLabel('Require authorization before unit').fill('3');
    // What of each message lies below its own box (over the next one's heading).
    const spills = () => page.evaluate(() => [...document.querySelectorAll('[data-testid=wire-messages] > li')].flatMap((li, i) => {
      const over = Math.max(...[...li.children].map((c) => c.getBoundingClientRect().bottom)) - li.getBoundingClientRect().bottom;
      return over > 1 ? [`message ${i + 1} by ${Math.round(over)}px`] : [];
    }));
    const seen = [];
    for (let i = 0; i < 12; i++) {
      const state = await text(page, 'task-state');
      assert.equal(await page.getByTestId('wire-messages').locator('> li').count() > 0, true);
      for (const spill of await spills()) seen.push(`${state}: ${spill}`);
      if (/INPUT_REQUIRED/.test(state)) await page.getByRole('button', { name: 'Supply clarification' }).click();
      else if (/AUTH_REQUIRED/.test(state)) await page.getByRole('button', { name: 'Authorize' }).click();
      else if (/COMPLETED/.test(state)) break;
      else await page.getByRole('button', { name: 'Step', exact: true }).click();
    }
    assert.match(await text(page, 'task-state'), /COMPLETED/);
    await page.getByRole('button', { name: 'Message to terminal task', exact: true }).click();
    for (const spill of await spills()) seen.push(`Message to terminal task: ${spill}`);
    assert.deepEqual(seen, [], `${viewport.width}×${viewport.height}`);
    assertNoErrors(page);
    await page.context().close();
  }
});

test('on a phone in the dark, proposal on and paused: axe-core finds nothing, nothing is wider than the screen', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 390, height: 844 } });
  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  await page.getByLabel('Proposed pause/resume').check();
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.getByLabel('Pause mode').selectOption('interrupt_immediate');
  await page.getByRole('button', { name: 'Pause task' }).click();
  await waitState(page, 'TASK_STATE_PAUSED');
  // Both pause encodings shown, one under the other.
  await page.getByTestId('wire-compare').locator('summary').click();
  await page.getByTestId('wire-compare-messages').waitFor();
  const violations = (await axeViolations(page)).map((v) => `${v.id}: ${v.help}`);
  assert.deepEqual(violations, []);
  // Nothing is wider than the phone.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  assertNoErrors(page);
  await page.context().close();
});

test('what axe-core does not check: placeholders, empty unit boxes and proposed transitions keep their contrast; in forced colours a box with nothing in it draws no line', async () => {
  const sizes = {};
  for (const [colorScheme, forcedColors] of [['light', 'none'], ['dark', 'none'], ['dark', 'active']]) {
    const page = await openPage(browser(), '', { viewport: { width: 1280, height: 900 }, colorScheme, forcedColors });
    await page.getByLabel('Proposed pause/resume').check();
    // The notice the switch raised goes: its box stays, empty.
    await page.keyboard.press('Escape');
    await page.locator('.notice:not(.shown)').waitFor({ state: 'attached' });
    const seen = await page.evaluate(() => {
      const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
      const lum = (c) => {
        const f = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
        const [r, g, b] = rgb(c).map(f);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const ratio = (a, b) => {
        const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05);
      };
      // The colour under an element: the first one not transparent.
      const under = (el) => {
        for (let e = el; e; e = e.parentElement) {
          const c = getComputedStyle(e).backgroundColor;
          if (!/^rgba\(.*, 0\)$/.test(c) && c !== 'transparent') return c;
        }
        return 'rgb(255, 255, 255)';
      };
      const field = document.querySelector('#resume-input');
      const unit = document.querySelector('.units .unit:not(.done)');
      const edge = document.querySelector('.diagram .edge.proposal:not(.taken):not(.possible)');
      const box = (el) => { const s = getComputedStyle(el); return { line: s.borderTopStyle, height: el.getBoundingClientRect().height }; };
      return {
        placeholder: ratio(getComputedStyle(field, '::placeholder').color, under(field)),
        unit: ratio(getComputedStyle(unit).borderTopColor, under(unit)),
        edge: ratio(getComputedStyle(edge).stroke, under(edge.ownerSVGElement)),
        edgeOpacity: getComputedStyle(edge).strokeOpacity,
        edgeDash: getComputedStyle(edge).strokeDasharray,
        notice: box(document.querySelector('.notice:not(.shown)')),
        pauseNote: box(document.querySelector('.pause-note:not(.warning)')),
      };
    });
    const at = `${colorScheme}, forced colours ${forcedColors}: ${JSON.stringify(seen)}`;
    if (forcedColors === 'none') {
      // Text that says what a field is for (1.4.3); a unit not yet done and
      // a proposed transition, which carry meaning (1.4.11).
      assert.ok(seen.placeholder >= 4.5, at);
      assert.ok(seen.unit >= 3, at);
      assert.ok(seen.edge >= 3 && seen.edgeOpacity === '1', at);
      sizes[colorScheme] = [seen.notice.height, seen.pauseNote.height];
    } else {
      // A border kept transparent to hold a box's size would be drawn in
      // the text colour over the page: there is none, and the size holds.
      assert.equal(seen.notice.line, 'none', at);
      assert.equal(seen.pauseNote.line, 'none', at);
      assert.deepEqual([seen.notice.height, seen.pauseNote.height], sizes.dark, at);
    }
    // Told apart from a v1.0 transition by its line, not its colour alone (1.4.1).
    assert.notEqual(seen.edgeDash, 'none', at);
    assertNoErrors(page);
    await page.context().close();
  }
});

test('at 320 px, twelve units and a self-park in Inspect: nothing is wider than the screen, no label is squeezed, axe-core finds nothing', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 320, height: 640 } });
  await page.locator('.guide').getByRole('button', { name: 'Set up experiment 5' }).click();
  await page.getByLabel('Work units').fill('12');
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 30 && !(await page.getByTestId('task-state').innerText()).startsWith('TASK_STATE_PAUSED'); i++) await step.click();
  await waitState(page, 'TASK_STATE_PAUSED');
  assert.match(await page.getByTestId('completed-units').innerText(), /^2 \/ 12$/);
  // The twelve unit squares narrow onto one row (none left alone on a
  // line); the pause's long names break inside their box.
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('.facts dd, .units')]
      .filter((el) => el.scrollWidth > el.clientWidth || el.getBoundingClientRect().right > window.innerWidth)
      .map((el) => el.textContent.slice(0, 40)));
  assert.deepEqual(wide, []);
  const rows = await page.locator('.units .unit').evaluateAll((us) => new Set(us.map((u) => Math.round(u.getBoundingClientRect().top))).size);
  assert.equal(rows, 1, 'the unit squares are one row');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  // A choice too wide to sit beside its label goes under it: each label is
  // one line, clear of its choice.
  await page.locator('#on-timeout').selectOption('resume_with_summary');
  const squeezed = await page.locator('.field:has(> select)').evaluateAll((fields) => fields.flatMap((f) => {
    const label = f.querySelector('label').getBoundingClientRect();
    const select = f.querySelector('select').getBoundingClientRect();
    const lines = label.height / parseFloat(getComputedStyle(f.querySelector('label')).lineHeight);
    const overlap = label.right > select.left && label.bottom > select.top && select.bottom > label.top;
    return lines > 1.5 || overlap ? [f.querySelector('label').textContent] : [];
  }));
  assert.deepEqual(squeezed, []);
  const violations = (await axeViolations(page)).map((v) => `${v.id}: ${v.help}`);
  assert.deepEqual(violations, []);
  assertNoErrors(page);
  await page.context().close();
});

test('the panels are read, and focused, in the order they are shown: on a phone and on a desktop', async () => {
  // Each panel's heading and its box, in document order.
  const boxes = (page) =>
    page.locator('main section.panel').evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { h: el.querySelector('h2')?.textContent, x: r.left, y: r.top, bottom: r.bottom };
      }),
    );
  const phone = await openPage(browser(), '', { viewport: { width: 390, height: 844 } });
  const onPhone = await boxes(phone);
  assert.ok(onPhone.length >= 10, `panels: ${onPhone.map((b) => b.h)}`);
  for (let i = 1; i < onPhone.length; i++) {
    assert.ok(onPhone[i].y > onPhone[i - 1].y, `on a phone "${onPhone[i].h}" is shown above "${onPhone[i - 1].h}", which comes before it`);
  }
  // The settings are screens below Play: one click goes back to it.
  await phone.getByTestId('configure-to-play').click();
  await phone.waitForFunction(() => document.activeElement?.id === 'play');
  assert.ok(await focusInView(phone), 'on a phone Play is on screen after Go to Play');
  assertNoErrors(phone);
  await phone.context().close();

  // On wider screens: settings on the left, the task in the middle, the trace
  // on the right (below, at 1000 px). Document order reads them column by
  // column: each panel is in its predecessor's column further down, in a
  // column to its right, or wholly below it.
  for (const width of [1280, 1000]) {
    const desk = await openPage(browser(), '', { viewport: { width, height: 800 } });
    const onDesk = await boxes(desk);
    const at = (word) => onDesk.find((b) => b.h.startsWith(word));
    assert.ok(at('Your experiment').x < at('Lifecycle').x, `${width}: the guide left of the task`);
    assert.ok(Math.abs(at('Configure').x - at('Lifecycle').x) < 2, `${width}: the settings under the task`);
    assert.ok(Math.abs(at('Act').y - at('Lifecycle').y) < 2, `${width}: the columns start on one line`);
    // What Play stops for is answered without scrolling: the actions are in
    // the first screen, beside Playback.
    const diagram = await desk.locator('.diagram svg').boundingBox();
    assert.ok(diagram.y < 800, `${width}: the state diagram starts in the first screen`);
    for (const name of ['Play', 'Supply clarification', 'Authorize']) {
      const box = await desk.getByRole('button', { name, exact: true }).boundingBox();
      assert.ok(box.y + box.height <= 800, `${width}: "${name}" is below the first screen (${box.y})`);
    }
    // Going to an earlier state shows the note beside Playback and moves
    // nothing below it.
    for (let i = 0; i < 3; i++) await desk.locator('#step').click();
    const actTop = () => desk.locator('section[aria-labelledby=act-h]').evaluate((el) => el.getBoundingClientRect().top);
    const before = await actTop();
    await desk.evaluate(() => {
      const slider = document.getElementById('recorded-state');
      slider.value = 0;
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await desk.getByTestId('discard-warning').waitFor();
    assert.equal(await actTop(), before, `${width}: the note on an earlier state moved the panels below`);
    // The guide is one click away from the top of the page, and keeps focus.
    await desk.getByTestId('to-guide').click();
    await desk.waitForFunction(() => document.activeElement?.matches('section.guide'));
    const guide = await desk.locator('section.guide').boundingBox();
    // Its focus ring (2 px outside it) is whole: not cut at the top.
    assert.ok(guide.y >= 4 && guide.y < 400, `${width}: the guide is shown at the top, ring and all (${guide.y})`);
    // So are the settings, far down the middle column.
    await desk.evaluate(() => window.scrollTo(0, 0));
    await desk.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Configure' }).click();
    await desk.waitForFunction(() => document.activeElement?.matches('section.configure'));
    const settings = await desk.locator('section.configure').boundingBox();
    assert.ok(settings.y >= 4 && settings.y < 400, `${width}: the settings are shown at the top (${settings.y})`);
    // And from the settings, back to Play, on screen and focused.
    await desk.getByTestId('configure-to-play').click();
    await desk.waitForFunction(() => document.activeElement?.id === 'play');
    assert.ok(await focusInView(desk), `${width}: Play is on screen after Go to Play`);
    for (let i = 1; i < onDesk.length; i++) {
      const [a, b] = [onDesk[i - 1], onDesk[i]];
      const sameColumn = Math.abs(a.x - b.x) < 2 && b.y > a.y;
      assert.ok(sameColumn || b.x > a.x + 2 || b.y >= a.bottom, `${width}: "${b.h}" comes after "${a.h}" but is shown before it`);
    }
    assertNoErrors(desk);
    await desk.context().close();
  }
});

test('a ‹ or › that reaches its end keeps focus and says so: pressed again it moves nothing, and Space is not Play', async () => {
  const page = await openPage(browser());
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 3; i++) await step.click();
  await page.getByLabel('Recorded state', { exact: true }).fill('2'); // state 3 of 5
  const next = page.getByRole('button', { name: 'Next recorded state' });
  await next.focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('Space'); // the newest state: › is at its end
  assert.equal(await next.getAttribute('aria-disabled'), 'true');
  assert.equal(await page.getByRole('button', { name: 'Previous recorded state' }).getAttribute('aria-disabled'), null);
  await page.keyboard.press('Space'); // again: nothing moves, the status says why
  assert.match(await page.getByTestId('timeline-position').innerText(), /^State 5 of 5/);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Next recorded state');
  assert.match(await text(page, 'status'), /This is the newest recorded state of this task/);
  assert.equal(await page.locator('#play').innerText(), 'Play', 'Space did not start playback');
  // The Wire panel's pair too.
  const newer = page.getByRole('button', { name: 'Next trace entry' });
  await page.getByRole('button', { name: 'Previous trace entry' }).click();
  await newer.focus();
  for (let i = 0; i < 10 && (await newer.getAttribute('aria-disabled')) !== 'true'; i++) await page.keyboard.press('Space');
  assert.equal(await newer.getAttribute('aria-disabled'), 'true');
  const shown = await page.getByTestId('wire-heading').innerText();
  await page.keyboard.press('Space');
  assert.equal(await page.getByTestId('wire-heading').innerText(), shown, 'nothing moved');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Next trace entry');
  assert.match(await text(page, 'status'), /This is the last trace entry listed\. Wire shows trace entry #/);
  assert.equal(await page.locator('#play').innerText(), 'Play');
  // Following the latest exchange, › at its end leaves it following: the
  // next Step moves Wire on. (A fresh task: its one entry is the latest.)
  const fresh = await openPage(browser());
  const freshNewer = fresh.getByRole('button', { name: 'Next trace entry' });
  assert.equal(await freshNewer.getAttribute('aria-disabled'), 'true');
  const latest = await text(fresh, 'wire-heading');
  assert.match(latest, /^Trace entry #1 \(latest\)/);
  await freshNewer.focus();
  await fresh.keyboard.press('Enter');
  assert.equal(await text(fresh, 'wire-heading'), latest);
  assert.match(await text(fresh, 'status'), /^This is the last trace entry listed\. Wire shows trace entry #1/);
  await fresh.getByRole('button', { name: 'Step', exact: true }).click();
  assert.match(await text(fresh, 'wire-heading'), /^Trace entry #2 \(latest/);
  assertNoErrors(fresh);
  await fresh.context().close();
  // From an on-demand request, › goes back to the trace, and says so plainly.
  await page.getByRole('button', { name: 'Get task', exact: true }).click();
  await newer.click();
  assert.match(await text(page, 'wire-heading'), /^Trace entry #\d+ \(selected\)/);
  assert.match(await text(page, 'status'), /^Wire shows trace entry #/);
  assertNoErrors(page);
  await page.context().close();
});

test("the masthead's links come first in the Tab order; each brings its panel into view with focus, and Tab goes on inside it", async () => {
  const page = await openPage(browser());
  const nav = page.getByRole('navigation', { name: 'Panels' });
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'New here? Start with an experiment.');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Act');
  for (const [name, heading, next] of [
    ['Wire', 'wire-h', 'Get task'],
    ['Save', 'share-h', null],
    ['Trace', 'trace-h', null],
    ['Configure', 'configure-h', null],
    ['Lifecycle', 'diagram-h', null],
    ['Inspect', 'inspect-h', null],
    ['Act', 'act-h', null],
  ]) {
    await nav.getByRole('button', { name, exact: true }).focus();
    await page.keyboard.press('Enter');
    const at = await page.evaluate(() => {
      const e = document.activeElement;
      const r = e.getBoundingClientRect();
      return { labelled: e.getAttribute('aria-labelledby'), top: r.top, bottom: r.bottom };
    });
    assert.equal(at.labelled, heading, `${name}: its panel has focus`);
    assert.ok(at.top < 800 && at.bottom > 0, `${name}: in view (${at.top}..${at.bottom})`);
    if (next) {
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.textContent), next);
    }
  }
  // However wide the screen, the panels' links share their line: none goes
  // to a line of its own (at 768 px, Save did).
  for (const width of [1280, 810, 768, 721, 390]) {
    await page.setViewportSize({ width, height: 800 });
    const tops = await nav.getByRole('button').evaluateAll((links) =>
      links.slice(1).map((l) => Math.round(l.getBoundingClientRect().top)));
    const rows = new Map();
    for (const top of tops) rows.set(top, (rows.get(top) || 0) + 1);
    assert.ok([...rows.values()].every((n) => n >= 2), `${width} px: a link alone on its line (${tops})`);
  }
  assertNoErrors(page);
  await page.context().close();
});

test('on a phone, the way to each panel is in the first screen: a tap brings the panel to the top, its heading clear of the state strip', async () => {
  const phone = await openPage(browser(), '', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const nav = phone.getByRole('navigation', { name: 'Panels' });
  const strip = await phone.getByTestId('state-strip').boundingBox();
  for (const [name, heading] of [
    ['Wire', 'wire-h'],
    ['Save', 'share-h'],
    ['Trace', 'trace-h'],
    ['Lifecycle', 'diagram-h'],
    ['Inspect', 'inspect-h'],
  ]) {
    await phone.evaluate(() => window.scrollTo(0, 0));
    const link = nav.getByRole('button', { name, exact: true });
    const box = await link.boundingBox();
    assert.ok(box.y >= strip.y + strip.height && box.y + box.height <= 844, `${name}: in the first screen (${JSON.stringify(box)})`);
    assert.ok(box.height >= 24 && box.width >= 24, `${name}: a 24 px target (${box.width}×${box.height})`);
    // The middle of the link is the link's own (not a neighbour's grown target).
    assert.equal(
      await phone.evaluate(([x, y]) => document.elementFromPoint(x, y)?.textContent, [box.x + box.width / 2, box.y + box.height / 2]),
      name,
    );
    await link.tap();
    const at = await phone.evaluate((id) => {
      const h = document.getElementById(id).getBoundingClientRect();
      return { focused: document.activeElement.getAttribute('aria-labelledby'), top: h.top };
    }, heading);
    assert.equal(at.focused, heading, `${name}: its panel has focus`);
    assert.ok(at.top >= strip.height && at.top < 844 / 2, `${name}: its heading near the top, below the strip (${at.top})`);
  }
  // Rows apart: a tap a little above a link's row reaches no other link.
  const [guide, act] = [await phone.getByTestId('to-guide').boundingBox(), await nav.getByRole('button', { name: 'Act', exact: true }).boundingBox()];
  assert.ok(act.y - (guide.y + guide.height) >= 4, `rows apart: ${JSON.stringify({ guide, act })}`);
  // From far down, the strip's ↑ at its end brings the links back in one tap.
  await nav.getByRole('button', { name: 'Wire', exact: true }).tap();
  assert.ok(await phone.evaluate(() => window.scrollY) > 2000);
  const up = await phone.getByTestId('state-strip').locator('button', { hasText: '↑' }).boundingBox();
  assert.ok(up.x + up.width === 390 && up.height >= 30 && up.width >= 32, `a finger-sized ↑ at the strip's end: ${JSON.stringify(up)}`);
  await phone.touchscreen.tap(up.x + up.width / 2, up.y + up.height / 2);
  await phone.waitForFunction(() => window.scrollY === 0);
  const back = await nav.getByRole('button', { name: 'Act', exact: true }).boundingBox();
  assert.ok(back.y >= strip.height && back.y + back.height <= 844, `the links in view again: ${JSON.stringify(back)}`);
  assertNoErrors(phone);
  await phone.context().close();
});

test('focus handed on out of view is brought into view for the keyboard, never under the pointer', async () => {
  // Short enough that the line under Supply clarification is below the screen.
  const page = await openPage(browser(), '', { viewport: { width: 1280, height: 670 } });
  const supply = page.getByRole('button', { name: 'Supply clarification' });
  const link = page.locator('#act-clarify-reason [data-testid=go-to-answer]');
  // At the gate, with Supply clarification at the foot of the screen and
  // the line under it (where Go to Play will be) below it.
  const atTheGate = async () => {
    await page.getByRole('button', { name: 'Restart experiment' }).click();
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
    const notice = page.getByRole('button', { name: 'Dismiss notice' });
    if (await notice.isVisible()) await notice.click();
    await page.evaluate(() => window.scrollTo(0, 0));
    const button = await supply.boundingBox();
    assert.ok(button.y + button.height <= 670, `Supply clarification is on screen: ${JSON.stringify(button)}`);
    return page.evaluate(() => window.scrollY);
  };
  await page.getByLabel('Require input before unit').fill('1');
  let before = await atTheGate();
  await supply.click();
  await waitState(page, 'TASK_STATE_WORKING');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'go-to-answer');
  assert.equal(await page.evaluate(() => window.scrollY), before, 'a click does not move the page');
  const below = await link.evaluate((l) => l.getBoundingClientRect().bottom > window.innerHeight);
  assert.ok(below, 'the link the click focused is below the screen');
  before = await atTheGate();
  await supply.focus();
  await page.keyboard.press('Enter');
  await waitState(page, 'TASK_STATE_WORKING');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'go-to-answer');
  assert.notEqual(await page.evaluate(() => window.scrollY), before);
  assert.ok(await focusInView(page), 'Enter: the focused Go to Play is brought into view');
  assertNoErrors(page);
  await page.context().close();
});

test('Space on a slider leaves the page and the task where they are', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 1280, height: 800 } });
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 3; i++) await step.click();
  const trace = await page.getByTestId('trace').innerText();
  for (const label of ['Recorded state', 'Work units']) {
    const slider = page.getByLabel(label, { exact: true });
    await slider.scrollIntoViewIfNeeded();
    await slider.focus();
    const before = await page.evaluate(() => window.scrollY);
    const value = await slider.inputValue();
    await page.keyboard.press(' ');
    await frames(page);
    assert.equal(await page.evaluate(() => window.scrollY), before, `${label}: the page did not scroll`);
    assert.equal(await slider.inputValue(), value);
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label') ?? document.activeElement.id), await slider.evaluate((s) => s.getAttribute('aria-label') ?? s.id));
  }
  assert.equal(await page.locator('#play').innerText(), 'Play', 'Space did not play');
  assert.equal(await page.getByTestId('trace').innerText(), trace);
  assertNoErrors(page);
  await page.context().close();
});

test('Enter pressed again and again on Step stops at the gate: it does not go on to send the clarification', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Require input before unit').fill('2');
  const entries = () => page.getByTestId('trace-entry').allInnerTexts();
  await page.locator('#step').focus();
  // Seven presses, 100 ms apart (well within the 0.4 s rest, on a slow
  // machine too): the fourth reaches the gate, and focus moves on to
  // "Go to clarification"; the rest were meant for Step.
  for (let i = 0; i < 7; i++) {
    await page.keyboard.press('Enter');
    await page.waitForTimeout(100);
  }
  assert.equal(await text(page, 'task-state'), 'TASK_STATE_INPUT_REQUIRED');
  assert.equal(await focusedAnswer(page), 'Go to clarification');
  assert.ok(!(await entries()).some((e) => /supply clarification/.test(e)), 'nothing sent');
  // The presses held back are said, once, not swallowed without a word.
  assert.equal(await text(page, 'status'), 'Enter was held back at “Go to clarification”: focus moved there while Enter was being pressed for the control before. Rest a moment, then press Enter to use it.');
  // Another key ends the run: the next Enter counts, to the field; a run
  // of presses there, begun on the link, sends nothing either.
  await page.keyboard.press('Shift');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'clarification-text');
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Enter');
    await page.waitForTimeout(100);
  }
  assert.equal(await text(page, 'task-state'), 'TASK_STATE_INPUT_REQUIRED');
  assert.match(await text(page, 'status'), /^Enter was held back at “Clarification text”: /);
  // A deliberate Enter after a rest sends it.
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter');
  await waitState(page, 'TASK_STATE_WORKING');
  assert.equal((await entries()).filter((e) => /supply clarification/.test(e)).length, 1);
  assertNoErrors(page);
  await page.context().close();
});

test('an action that disables its own button leaves keyboard focus in its panel', async () => {
  const page = await openPage(browser());
  await page.getByLabel('Require input before unit').fill('1');
  await page.getByRole('button', { name: 'Step', exact: true }).focus();
  await page.keyboard.press('Enter'); // the task starts and asks for input: Step is off
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  assert.equal(await focusedAnswer(page), 'Go to clarification');
  // → (with focus on no control) says why Step is off; Dismiss removes
  // itself with its alert, and focus goes to the main area rather than to
  // the page.
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('ArrowRight');
  const dismiss = page.getByRole('button', { name: 'Dismiss', exact: true });
  await dismiss.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.tagName === 'MAIN');
  // Where focus is shows: the main area's ring.
  assert.equal(await page.locator('main').evaluate((m) => getComputedStyle(m).outlineStyle), 'solid');
  await page.getByRole('button', { name: 'Supply clarification' }).focus();
  await page.keyboard.press('Enter');
  await waitState(page, 'TASK_STATE_WORKING');
  // Focus stays where the button is, on the link to Play in the line that
  // says what was done, in sight; Tab carries on to the next control that
  // can act.
  assert.equal(await focusedAnswer(page), 'Go to Play');
  const box = await page.locator('#act-clarify-reason button').boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 720, `in sight: ${JSON.stringify(box)}`);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'act-cancel');
  // Cancelling disables Request cancellation, with nothing to play after:
  // focus stays on its box, with the reason it is off.
  await page.keyboard.press('Enter');
  await waitState(page, 'TASK_STATE_CANCELED');
  assert.equal(await focusedAction(page), 'act-cancel');
  // The box is then a group named by that reason, which a screen reader
  // says on landing there; once focus leaves, it is a plain box again.
  // It says first that the cancel was done.
  const named = page.getByRole('group', { name: /^Done: the task is TASK_STATE_CANCELED now\.$/ });
  assert.equal(await named.count(), 1);
  assert.ok(await named.evaluate((el) => el === document.activeElement && el.contains(document.getElementById('act-cancel'))));
  // Space there, meant for the button, says why it is off: not Play's shortcut.
  await page.keyboard.press(' ');
  assert.match(await text(page, 'status'), /^Request cancellation is off now\. Done: the task is TASK_STATE_CANCELED now\.$/);
  assert.equal(await page.getByTestId('alert').innerText(), '');
  assert.ok(await named.evaluate((el) => el === document.activeElement));
  // The other keys go on there: ] says this is the newest state.
  await page.keyboard.press(']');
  assert.match(await text(page, 'status'), /This is the newest recorded state of this task\.$/);
  await page.keyboard.press('Tab');
  assert.equal(await page.locator('.action[role], .action[aria-labelledby]').count(), 0);
  await page.getByRole('button', { name: 'Restart experiment' }).click();
  // The → key into a gate disables the focused Step as a click does; focus
  // stays in Playback rather than falling to the page.
  await page.getByLabel('Require input before unit').fill('2');
  await page.getByRole('button', { name: 'Step', exact: true }).focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  assert.equal(await focusedAnswer(page), 'Go to clarification');
  // The keys go on from there: → says why Step is off, [ goes back, and
  // focus, its link gone with the stop, goes on to Play.
  await page.keyboard.press('ArrowRight');
  assert.match(await page.getByTestId('alert').innerText(), /^Step is not possible now/);
  await page.keyboard.press('Escape');
  assert.equal(await focusedAnswer(page), 'Go to clarification');
  const position = () => page.getByTestId('timeline-position').innerText();
  const before = await position();
  await page.keyboard.press('[');
  assert.notEqual(await position(), before, '[ moved to the previous recorded state');
  await page.waitForFunction(() => document.activeElement?.id === 'play');
  assertNoErrors(page);
  await page.context().close();
});

test('the focused trace keeps its keys; a replay that ends gives focus to the slider; the proposal switched on stays in view', async () => {
  const page = await openPage(browser());
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 3; i++) await step.click();
  const entries = await page.getByTestId('trace-entry').count();
  // → and [ ] with focus on the trace (read with ↑ ↓): no Step, no seek.
  const position = await text(page, 'timeline-position');
  await page.locator('.trace-scroll').focus();
  for (const key of ['ArrowRight', '[', ']', 'ArrowRight']) await page.keyboard.press(key);
  assert.equal(await page.getByTestId('trace-entry').count(), entries, '→ on the trace steps nothing');
  assert.equal(await text(page, 'timeline-position'), position);
  // A replay run to its end: Stop replay, which had focus, goes; focus
  // goes to the Recorded state slider, not to the whole page.
  await page.locator('#speed').selectOption({ label: '10×' });
  await page.getByLabel('Recorded state', { exact: true }).fill('3');
  await page.getByTestId('replay').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('timeline-position').filter({ hasText: /^State 5 of 5/ }).waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'recorded-state');
  assertNoErrors(page);
  await page.context().close();
  // Far down the middle column, the proposal's switch: Act, in the column
  // to its left, grows with the proposal's controls; the switch stays where
  // it was on the screen.
  for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 600 }, { width: 390, height: 844 }]) {
    const desk = await openPage(browser(), '', { viewport });
    await desk.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Configure' }).click();
    const proposal = desk.getByLabel('Proposed pause/resume');
    await proposal.focus();
    const top = () => proposal.evaluate((el) => Math.round(el.getBoundingClientRect().top));
    const before = await top();
    await desk.keyboard.press(' ');
    await desk.locator('#act-pause').waitFor();
    assert.ok(Math.abs((await top()) - before) <= 2, `${viewport.width}: the switch moved from ${before} to ${await top()}`);
    assert.ok(await focusInView(desk), `${viewport.width}: the focused switch is on screen`);
    assertNoErrors(desk);
    await desk.context().close();
  }
  // On a phone, Act is its own scroll anchor: Playback's note above it goes
  // with the first action, and the button pressed stays under the finger.
  for (const width of [390, 320]) {
    const phone = await openPage(browser(), '', { viewport: { width, height: 844 } });
    const cancel = phone.locator('#act-cancel');
    await cancel.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 150));
    const top = () => cancel.evaluate((el) => Math.round(el.getBoundingClientRect().top));
    const before = await top();
    await cancel.click();
    await waitState(phone, 'TASK_STATE_CANCELED');
    await phone.waitForTimeout(100);
    assert.ok(Math.abs((await top()) - before) <= 2, `${width}: Request cancellation moved from ${before} to ${await top()}`);
    // Go to Play, with Play off now the task has ended: the Playback panel,
    // which says why, takes focus in view.
    await phone.getByTestId('configure-to-play').click();
    await phone.waitForFunction(() => document.activeElement?.matches('section[aria-labelledby=playback-h]'));
    const panel = await phone.locator('section[aria-labelledby=playback-h]').boundingBox();
    assert.ok(panel.y >= 0 && panel.y < 844, `${width}: Playback is on screen (${panel.y})`);
    assertNoErrors(phone);
    await phone.context().close();
  }
});

test('at 400 % zoom, where Play stops for the client with keyboard focus on it, the focused link is brought into view', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 320, height: 256 } });
  await page.locator('#speed').selectOption({ label: '10×' });
  await page.getByLabel('Work units').fill('1');
  await page.getByRole('button', { name: 'Dismiss notice' }).click();
  await page.locator('#play').focus();
  await page.keyboard.press(' ');
  await waitState(page, 'TASK_STATE_COMPLETED');
  assert.equal(await focusedAnswer(page), 'Go to follow-up');
  assert.ok(await focusInView(page), 'the focused Go to follow-up is on the screen');
  assertNoErrors(page);
  await page.context().close();
});

test('a control that Play disables while it has keyboard focus leaves focus in its panel, on what answers the stop', async () => {
  const page = await openPage(browser());
  await page.locator('#speed').selectOption({ label: '10×' });
  // Step has focus while Play runs into the clarification gate.
  await page.getByLabel('Require input before unit').fill('2');
  await page.locator('#play').click();
  await page.locator('#step').focus();
  await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
  assert.equal(await focusedAnswer(page), 'Go to clarification');
  // Request cancellation has focus when Play completes the task first.
  await page.getByLabel('Require input before unit').fill('0');
  await page.getByLabel('Work units').fill('1');
  await page.locator('#play').click();
  await page.locator('#act-cancel').focus();
  await waitState(page, 'TASK_STATE_COMPLETED');
  assert.equal(await focusedAction(page), 'act-cancel');
  // Play clicked while it already has focus (as after setting up an
  // experiment): when it ends the task, focus stays in its panel.
  await page.getByLabel('Work units').fill('2');
  await page.locator('#play').focus();
  await page.locator('#play').click();
  await waitState(page, 'TASK_STATE_COMPLETED');
  assert.equal(await focusedAnswer(page), 'Go to follow-up');
  assertNoErrors(page);
  await page.context().close();
});

test('where Play stops for the client, one click goes to the control that answers it', async () => {
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    const page = await openPage(browser(), '', { viewport });
    await page.getByLabel('Proposed pause/resume').check();
    await page.getByLabel('Require input before unit').fill('1');
    await page.getByLabel('Agent self-parks before unit').fill('2');
    await page.getByLabel('Speed').selectOption({ label: '10×' });
    const goTo = page.getByTestId('go-to-answer');
    const answered = async (label, id) => {
      assert.equal(await goTo.innerText(), label);
      await goTo.click();
      await frames(page);
      assert.equal(await page.evaluate(() => document.activeElement?.id), id);
      const box = await page.locator(`#${id}`).boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, `${viewport.width}px: #${id} is in view`);
      await page.evaluate(() => window.scrollTo(0, 0));
    };
    assert.equal(await goTo.count(), 0, 'nothing to answer before the task starts');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await waitState(page, 'TASK_STATE_INPUT_REQUIRED');
    // Play has read the notice of the fresh experiment: it is gone, and
    // covers no control on a phone.
    assert.equal(await page.getByTestId('notice').innerText(), '');
    await answered('Go to clarification', 'clarification-text');
    // Typed where the link put focus, and sent with Enter (Shift+Enter is a
    // new line of the message).
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Two lines:');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('sent with Enter');
    await page.keyboard.press('Enter');
    await waitState(page, 'TASK_STATE_WORKING');
    assert.equal(await page.locator('#clarification-text').inputValue(), 'Two lines:\nsent with Enter');
    // As after a click on Supply clarification, now off: focus is on the
    // link to Play, so Space does not type into the sent message.
    assert.equal(await focusedAnswer(page), 'Go to Play');
    // Under Supply clarification, which the typing had left partly off a
    // phone's screen: brought into view.
    assert.ok(await focusInView(page), `${viewport.width}px: the focused Go to Play is in view`);
    // The answer says that Play carries the task on, and links to it.
    assert.match(await page.locator('#act-clarify-reason').innerText(),
      /^Done: the same task, its ids kept, is TASK_STATE_WORKING now; Play or Step carries it on\./);
    await answered('Go to Play', 'play');
    await page.keyboard.press('Enter');
    await waitState(page, 'TASK_STATE_PAUSED');
    await answered('Go to resume', 'act-resume');
    await page.keyboard.press('Enter');
    await waitState(page, 'TASK_STATE_WORKING');
    await frames(page);
    // Focus went from the disabled Resume task to the link to Play.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Go to Play');
    assert.ok(await focusInView(page), `${viewport.width}px: Go to Play, focused after Resume task, is in view`);
    // Enter where the button it presses is disabled sends nothing, and
    // the status line says why.
    const trace = await page.getByTestId('trace').innerText();
    await page.locator('#clarification-text').press('Enter');
    assert.equal(await page.getByTestId('trace').innerText(), trace);
    assert.match(await page.getByTestId('status').innerText(),
      /^Enter sent nothing: Supply clarification is off now\. This page sends clarification only in TASK_STATE_INPUT_REQUIRED/);
    await goTo.click();
    await page.keyboard.press('Enter');
    await waitState(page, 'TASK_STATE_COMPLETED');
    assert.equal(await goTo.innerText(), 'Go to follow-up', 'the link to Play went as Play ran');
    assertNoErrors(page);
    await page.context().close();
  }
});

test('on a touch screen the keys\' help gives way, the switch stays, and the recorded states begin in the first screen', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  assert.ok(await page.getByText('Space plays or pauses playback').isHidden());
  assert.ok(await page.getByLabel('Keyboard shortcuts').isVisible(), 'single-key shortcuts can be turned off (WCAG 2.1.4)');
  const slider = await page.getByRole('slider', { name: 'Recorded state' }).boundingBox();
  assert.ok(slider.y + slider.height < 844, `the Recorded state slider at ${slider.y}`);
  // The two links of Playback's hint lie on neighbouring lines: a tap on
  // each takes that one, not the other.
  const gate = page.getByTestId('add-input-gate');
  const guide = page.getByTestId('to-experiments');
  const [g, x] = [await gate.boundingBox(), await guide.boundingBox()];
  assert.ok(Math.abs(g.y - x.y) < 2 * g.height, `the links are on neighbouring lines: ${JSON.stringify({ g, x })}`);
  assert.ok(g.y + g.height <= x.y || x.y + x.height <= g.y, `their targets do not overlap: ${JSON.stringify({ g, x })}`);
  // A link alone in its sentence keeps a finger-sized target.
  const alone = await page.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).boundingBox();
  assert.ok(alone.height >= 40, `Set up experiment 1 is ${alone.height} px high`);
  // The sliders are finger-high too.
  for (const id of ['recorded-state', 'setting-work-units']) {
    const h = (await page.locator(`#${id}`).boundingBox()).height;
    assert.ok(h >= 44, `#${id} is ${h} px high`);
  }
  await page.touchscreen.tap(g.x + g.width / 2, g.y + g.height / 2);
  assert.equal(await page.locator('#setting-require-input-before-unit').inputValue(), '2', 'the tap set the input gate');
  assert.ok(await page.evaluate(() => !document.activeElement.closest('section.guide')), 'the tap did not go to the experiments');
  // The Wire panel's ‹ and ›, finger-sized here, stay side by side.
  await page.getByRole('button', { name: 'Step', exact: true }).tap();
  const [prev, next] = [
    await page.getByRole('button', { name: 'Previous trace entry' }).boundingBox(),
    await page.getByRole('button', { name: 'Next trace entry' }).boundingBox(),
  ];
  assert.ok(prev.height >= 44 && next.y === prev.y && next.x > prev.x, `‹ ${JSON.stringify(prev)}, › ${JSON.stringify(next)}`);
  // The three links of experiment 4 share a list item, on neighbouring
  // lines: a tap on the middle of each sets up that one.
  for (const name of ['authorization', 'failure', 'rejection']) {
    const link = page.locator('.guide').getByRole('button', { name: `experiment 4: ${name}` });
    // The last set-up has brought Play into view: once it has, back to the link.
    await frames(page);
    await link.evaluate((e) => e.scrollIntoView({ block: 'center' }));
    const b = await link.boundingBox();
    await page.touchscreen.tap(b.x + b.width / 2, b.y + b.height / 2);
    await page.getByTestId('notice').filter({ hasText: `Experiment 4 (${name}) set up` }).waitFor({ timeout: 2000 });
  }
  assertNoErrors(page);
  await page.context().close();
});

test('on a short screen (400 % zoom) a notice takes its place in the page and hides no control Tab reaches', async () => {
  const page = await openPage(browser(), '', { viewport: { width: 320, height: 256 } });
  await page.locator('.guide').getByRole('button', { name: 'Set up experiment 1' }).click();
  await page.getByTestId('notice').filter({ hasText: /./ }).waitFor();
  // Tab on through the page: each control focused is wholly clear of what is
  // fixed or sticky on the screen (the state strip, a notice, an alert).
  const covered = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const hit = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      const r = e.getBoundingClientRect();
      for (const x of document.querySelectorAll('body *')) {
        const position = getComputedStyle(x).position;
        if ((position !== 'fixed' && position !== 'sticky') || x.contains(e)) continue;
        const q = x.getBoundingClientRect();
        const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
        const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
        if (w > 0 && h > 0) return `${e.id || e.textContent.trim().slice(0, 30)} under ${x.className}`;
      }
      return null;
    });
    if (hit) covered.push(hit);
  }
  assert.deepEqual(covered, []);
  assertNoErrors(page);
  await page.context().close();
});
