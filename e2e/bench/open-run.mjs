// Benchmark: time from opening a share link to the page showing its whole
// trace, for runs of about 5 000 and 20 000 trace entries (the most a run
// keeps). The runs are a task the agent parked with no condition, stepped on
// the waiting clock. Prints numbers; asserts nothing about speed.
// Usage: BASE_URL=http://127.0.0.1:PORT/ node e2e/bench/open-run.mjs
import { launch, openPage, assertNoErrors } from '../helpers.mjs';

const config = {
  work_units: 4, seconds_per_unit: 3, input_gate: 0, auth_gate: 0, fail_during: 0,
  reject_before_execution: false, worker_accepts_cancellation: true, pause_proposal: true,
  self_park_before: 1, resume_event: '', self_park_timeout: 0, on_timeout: 'Fail',
};
const browser = await launch();
for (const steps of [4_998, 19_990]) {
  const run = { format: 'a2a-control-room/run', version: 1, config, ids: { seed: 1, drawn: 0 }, started_ms: 0, script: [{ Steps: steps }] };
  const times = [];
  for (let i = 0; i < 3; i++) {
    const page = await openPage(browser, '', { viewport: { width: 1280, height: 800 } });
    const t0 = Date.now();
    await page.goto(`${process.env.BASE_URL}#run=${encodeURIComponent(JSON.stringify(run))}`);
    await page.getByTestId('trace-count').filter({ hasText: `(${steps + 2} entries)` }).waitFor({ timeout: 120_000 });
    times.push(Date.now() - t0);
    assertNoErrors(page);
    await page.context().close();
  }
  times.sort((a, b) => a - b);
  console.log(`open a run of ${steps + 2} trace entries from a link: median ${times[1]} ms (min ${times[0]}, max ${times[2]})`);
}
await browser.close();
