#!/usr/bin/env bash
# A2A v1.0 conformance of the wire view, checked with the official a2a-sdk
# (pinned with all it imports in conformance/requirements.txt, venv
# .venv-conformance/ from `scripts/setup.sh conformance`, run here):
#   1. check.py --self-test: known-bad lines (misspelled field, unknown enum,
#      v0.3 `kind`/`final`, `index`, …) and broken lifecycles (a frame after a
#      terminal state, a message to a terminal task answered, …) must be
#      rejected, so the check is strict;
#   2. the scenario matrix of examples/transcripts.rs is written to a temp dir
#      and every line is parsed strictly into the a2a_pb2 class it names (a
#      line marked proposal: must be the proposal's; every v1.0 kind of
#      message the page sends must occur), and each transcript's lifecycle is
#      followed across its lines (streams, answers, task states, contexts).
# Ends with "N passed, 0 failed" (exit 0), or lists failures (exit 1).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh conformance >/dev/null
venv=.venv-conformance

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$venv/bin/python" conformance/check.py --self-test >"$out/self-test.log" ||
  { cat "$out/self-test.log"; echo "conformance: self-test failed"; exit 1; }
echo "conformance: self-test ok ($(grep -c '^self-test: rejected' "$out/self-test.log") bad lines and $(grep -c '^self-test: lifecycle rejected' "$out/self-test.log") broken lifecycles rejected)"

cargo run --quiet --example transcripts -- "$out/transcripts"
# Every v1.0 message kind the page sends must have been checked at least once.
"$venv/bin/python" conformance/check.py "$out/transcripts" --expect \
  AgentCard,SendMessageRequest,SendMessageResponse,StreamResponse,GetTaskRequest,Task,ListTasksRequest,ListTasksResponse,CancelTaskRequest,SubscribeToTaskRequest,error
