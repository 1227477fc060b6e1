// Benchmark: click-to-DOM latency of Step with a long history, and with a
// long follow-up chain (3 300 tasks in one context).
// Builds ≥ 10 000 recorded states and trace entries (12 units × 10 s tasks,
// followed up one after another), then times Step clicks until the DOM has
// settled, and until the frame that shows the result has been painted.
// Prints numbers; asserts nothing about speed.
// Usage: BASE_URL=http://127.0.0.1:PORT/ node e2e/bench/latency.mjs
import { launch, openPage, assertNoErrors } from '../helpers.mjs';

const TARGET = Number(process.env.BENCH_STATES || 10_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES || 100);

const browser = await launch();
const page = await openPage(browser, '', { viewport: { width: 1280, height: 800 } });
await page.getByLabel('Work units').fill('12');
await page.getByLabel('Seconds per unit').fill('10');

const t0 = Date.now();
const built = await page.evaluate(async (target) => {
  const tick = () => new Promise((r) => setTimeout(r, 0));
  const entries = () => document.querySelectorAll('[data-testid=trace-entry]').length;
  while (entries() < target) {
    for (let i = 0; i < 120; i++) document.getElementById('step').click();
    await tick();
    document.getElementById('act-follow-up').click();
    await tick();
  }
  return entries();
}, TARGET);
const buildMs = Date.now() - t0;

const samples = await page.evaluate(async (n) => {
  const out = [];
  const sync = [];
  const step = document.getElementById('step');
  for (let i = 0; i < n; i++) {
    let last = 0;
    const obs = new MutationObserver(() => {
      last = performance.now();
    });
    obs.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    const start = performance.now();
    step.click();
    sync.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 0));
    obs.disconnect();
    out.push(last - start);
    await new Promise((r) => setTimeout(r, 5));
  }
  return { out, sync };
}, SAMPLES);

// With the trace on screen, following its newest entry.
await page.getByTestId('trace').scrollIntoViewIfNeeded();
// Click to painted: the time from a Step click until the browser starts the
// frame after the one that shows its result. Two frames (about 33 ms at 60 Hz)
// is the floor: the result is on screen in the next frame.
const frames = await page.evaluate(async (n) => {
  const out = [];
  const step = document.getElementById('step');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  for (let i = 0; i < n; i++) {
    // Every timed click is a real Step: a finished task is followed up first.
    if (step.disabled) {
      document.getElementById('act-follow-up').click();
      await frame();
    }
    await frame();
    await new Promise((r) => setTimeout(r, 0));
    const start = performance.now();
    step.click();
    await frame();
    await frame();
    out.push(performance.now() - start);
  }
  const intervals = [];
  let last = await frame();
  for (let i = 0; i < 30; i++) {
    const t = await frame();
    intervals.push(t - last);
    last = t;
  }
  intervals.sort((a, b) => a - b);
  return { out, interval: intervals[15] };
}, Math.min(SAMPLES, 50));

const records = await page.getByTestId('timeline-position').innerText();
const tasks = await page.getByTestId('task-list-item').count();
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const summary = (xs) => {
  xs.sort((a, b) => a - b);
  return `p50 ${pct(xs, 50).toFixed(2)} ms, p95 ${pct(xs, 95).toFixed(2)} ms, max ${xs[xs.length - 1].toFixed(2)} ms`;
};
console.log(
  `history: ${built} trace entries in ${tasks} tasks (built in ${(buildMs / 1000).toFixed(1)} s); current: ${records}`,
);
console.log(`Step click-to-DOM latency over ${samples.out.length} clicks: ${summary(samples.out)}`);
console.log(`  of which the click handler (model + store): ${summary(samples.sync)}`);
console.log(
  `Step click to the frame after the one that shows it, over ${frames.out.length} clicks: ${summary(frames.out)} ` +
    `(floor: two frames; an idle frame here is ${frames.interval.toFixed(1)} ms)`,
);
assertNoErrors(page);

// A long follow-up chain: 3 300 tasks of 3 units of 1 s, opened from a link;
// then, 20 times, a follow-up and its Steps (each of which changes the newest
// task's row), timed click to DOM.
const chainConfig = {
  work_units: 3, seconds_per_unit: 1, input_gate: 0, auth_gate: 0, fail_during: 0,
  reject_before_execution: false, worker_accepts_cancellation: true, pause_proposal: false,
  self_park_before: 0, resume_event: '', self_park_timeout: 0, on_timeout: 'Fail',
};
const chain = {
  format: 'a2a-control-room/run', version: 2, config: chainConfig, ids: { seed: 7, drawn: 0 }, started_ms: 0,
  script: Array.from({ length: 3_299 }, () => [{ Steps: 3 }, { Act: { action: 'FollowUp', ok: true } }]).flat(),
};
const long = await openPage(browser, `#run=${encodeURIComponent(JSON.stringify(chain))}`, { viewport: { width: 1280, height: 800 } });
await long.getByTestId('task-list-item').nth(3_299).waitFor({ state: 'attached', timeout: 120_000 });
const chainSamples = await long.evaluate(async () => {
  const out = [];
  const settle = () => new Promise((r) => setTimeout(r, 5));
  for (let t = 0; t < 20; t++) {
    const step = document.getElementById('step');
    while (!step.disabled) {
      let last = 0;
      const obs = new MutationObserver(() => { last = performance.now(); });
      obs.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      const start = performance.now();
      step.click();
      await new Promise((r) => setTimeout(r, 0));
      obs.disconnect();
      out.push(last - start);
      await settle();
    }
    document.getElementById('act-follow-up').click();
    await settle();
  }
  return out;
});
const chainTasks = await long.getByTestId('task-list-item').count();
console.log(`Step click-to-DOM latency with ${chainTasks} tasks in the context, over ${chainSamples.length} clicks: ${summary(chainSamples)}`);
assertNoErrors(long);
await long.close();

// A branch taken halfway through one long task, and its Undo: a task parked
// by the pause proposal with nothing to wake it records a state at each
// Step (a minute waited), 10 000 of them. Timed click to painted, from the
// viewed state halfway: Step (which discards the later half and shows a
// notice with Undo), then Undo (which brings it back).
const parked = {
  format: 'a2a-control-room/run', version: 2,
  config: { ...chainConfig, work_units: 4, seconds_per_unit: 3, pause_proposal: true, self_park_before: 2 },
  ids: { seed: 7, drawn: 0 }, started_ms: 0, script: [{ Steps: 10_000 }],
};
const one = await openPage(browser, `#run=${encodeURIComponent(JSON.stringify(parked))}`, { viewport: { width: 1280, height: 800 } });
await one.getByTestId('task-state').waitFor();
const branch = await one.evaluate(async (n) => {
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const painted = async (click) => {
    await frame();
    const start = performance.now();
    click();
    await frame();
    await frame();
    return performance.now() - start;
  };
  const steps = [];
  const undos = [];
  const entries = document.querySelectorAll('[data-testid=trace-entry]').length;
  for (let i = 0; i < n; i++) {
    const slider = document.getElementById('recorded-state');
    slider.value = String(Math.floor(Number(slider.max) / 2));
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    await frame();
    steps.push(await painted(() => document.getElementById('step').click()));
    const undo = [...document.querySelectorAll('[data-testid=undo-discard] button')][0];
    undos.push(await painted(() => undo.click()));
  }
  return { steps, undos, entries, after: document.querySelectorAll('[data-testid=trace-entry]').length };
}, 10);
if (branch.after !== branch.entries) throw new Error(`Undo left ${branch.after} of ${branch.entries} entries`);
console.log(
  `Branch halfway through one task of ${branch.entries} trace entries, click to painted, over ${branch.steps.length} branches: ` +
    `Step ${summary(branch.steps)}; its Undo ${summary(branch.undos)}`,
);
assertNoErrors(one);
await browser.close();
