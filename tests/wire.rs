//! The wire view: envelopes, exact field names, determinism, errors,
//! streams and timestamps of the A2A v1.0 exchange behind a run.

mod common;

// The same tests run natively and, under wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use a2a_control_room::model::*;
use a2a_control_room::wire::{self, Party, PauseEncoding, Transport, WireMessage};
use common::{cfg, exp, run, state};
use serde_json::{json, Value};

const START: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00.000Z

/// The string `key` of each object in the JSON array `list`.
fn each<'a>(list: &'a Value, key: &str) -> Vec<&'a str> {
    let items = list.as_array().expect("an array");
    items.iter().map(|v| v[key].as_str().expect(key)).collect()
}

fn with(f: impl FnOnce(&mut Config)) -> Experiment {
    let mut c = cfg();
    f(&mut c);
    exp(c)
}

fn rpc_id(m: &WireMessage) -> i64 {
    m.message["id"].as_i64().expect("integer id")
}

fn method(m: &WireMessage) -> Option<&str> {
    m.message["method"].as_str()
}

fn error_code(m: &WireMessage) -> Option<i64> {
    m.message["error"]["code"].as_i64()
}

/// Every object key anywhere in `v`.
fn keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                out.push(k.clone());
                keys(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

/// Every `timestamp` value anywhere in `v`, in document order.
fn timestamps(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                match x {
                    Value::String(s) if k == "timestamp" => out.push(s.clone()),
                    _ => timestamps(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| timestamps(x, out)),
        _ => {}
    }
}

/// An experiment touching every event: input and auth gates, refusals,
/// a refused clarification on a terminal task, cancels and a follow-up.
fn busy() -> Experiment {
    let mut e = with(|c| (c.input_gate, c.auth_gate) = (2, 3));
    run(&mut e, 100);
    e.apply(Action::Step).unwrap_err(); // refused: no wire
    e.apply(Action::SupplyClarification("Blue, please.".into()))
        .unwrap();
    run(&mut e, 100);
    e.apply(Action::Authorize).unwrap();
    run(&mut e, 100);
    assert_eq!(e.snapshot().state, TaskState::Completed);
    e.apply(Action::RequestCancellation).unwrap_err(); // -32002 on COMPLETED
    e.apply(Action::SupplyClarification("late".into()))
        .unwrap_err(); // -32004
    e.apply(Action::FollowUp).unwrap();
    run(&mut e, 2);
    e.apply(Action::RequestCancellation).unwrap();
    e.apply(Action::RequestCancellation).unwrap_err(); // -32002 on CANCELED
    e
}

fn all_scenarios() -> Vec<Experiment> {
    let mut failed = with(|c| c.fail_during = 2);
    run(&mut failed, 100);
    let mut rejected = with(|c| c.reject_before_execution = true);
    run(&mut rejected, 100);
    let mut refused = with(|c| c.worker_accepts_cancellation = false);
    run(&mut refused, 3);
    let _ = refused.apply(Action::RequestCancellation);
    run(&mut refused, 100);
    vec![busy(), failed, rejected, refused]
}

#[test]
fn the_client_names_its_messages_with_no_id_the_agent_made() {
    // The first message goes out before the agent creates the context id
    // or any task id, so no user messageId may carry one; each is unique.
    for e in all_scenarios() {
        let agent_ids: Vec<&str> = std::iter::once(e.context_id())
            .chain(e.tasks().iter().map(|t| t.id.as_str()))
            .collect();
        let mut seen = Vec::new();
        for m in wire::transcript(&e, START) {
            let sent = &m.message["params"]["message"];
            let Some(id) = sent["messageId"].as_str() else {
                continue;
            };
            assert_eq!(sent["role"], json!("ROLE_USER"));
            assert!(id.contains(&e.client_id()), "{id}");
            for agent_id in &agent_ids {
                assert!(!id.contains(agent_id), "{id} carries {agent_id}");
            }
            assert!(!seen.contains(&id.to_string()), "{id} twice");
            seen.push(id.to_string());
        }
        assert!(!seen.is_empty());
    }
}

#[test]
fn timestamps_are_rfc3339_with_millis() {
    for (ms, s) in [
        (0, "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (1_709_251_199_999, "2024-02-29T23:59:59.999Z"),
        (1_234_567_890_123, "2009-02-13T23:31:30.123Z"),
        (START, "2026-01-01T00:00:00.000Z"),
        (4_102_444_800_000, "2100-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ] {
        assert_eq!(wire::timestamp(ms), s, "{ms}");
    }
}

#[test]
fn envelopes_are_json_rpc_2() {
    for e in all_scenarios() {
        for m in wire::transcript(&e, START) {
            let v = &m.message;
            assert_eq!(v["jsonrpc"], "2.0", "{v}");
            assert!(v["id"].is_u64(), "{v}");
            let kinds = ["method", "result", "error"].map(|k| v.get(k).is_some());
            assert_eq!(kinds.iter().filter(|&&b| b).count(), 1, "{v}");
            if let Some(method) = method(&m) {
                assert_eq!(m.from, Party::Client);
                assert_eq!(m.transport, Transport::JsonRpc);
                assert!(v["params"].is_object());
                let ty = match method {
                    "SendStreamingMessage" | "SendMessage" => "SendMessageRequest",
                    "CancelTask" => "CancelTaskRequest",
                    m => panic!("unexpected method {m}"),
                };
                assert_eq!(m.payload_type, ty);
            } else {
                assert_eq!(m.from, Party::Agent);
                let ty = match (v.get("error"), m.transport) {
                    (Some(_), _) => "error",
                    (None, Transport::Sse) => "StreamResponse",
                    (None, Transport::JsonRpc) => "Task",
                };
                assert_eq!(m.payload_type, ty, "{v}");
            }
            assert!(m.entry.is_some());
        }
    }
}

#[test]
fn no_v03_members_and_only_lower_camel_case_names_anywhere() {
    // The names themselves are checked against a2a.proto by the strict
    // a2a-sdk check (scripts/conformance.sh); this one runs with the tests.
    for e in all_scenarios() {
        let mut all: Vec<WireMessage> = wire::transcript(&e, START);
        all.extend(wire::get_task(&e, START, CORE));
        all.extend(wire::subscribe(&e, START, CORE));
        all.extend(wire::list_tasks(&e, START, CORE));
        let mut k = Vec::new();
        all.iter().for_each(|m| keys(&m.message, &mut k));
        keys(&wire::agent_card(), &mut k);
        for bad in [
            "kind",
            "final",
            "index",
            "context_id",
            "task_id",
            "message_id",
        ] {
            assert!(!k.iter().any(|x| x == bad), "found {bad}");
        }
        // lowerCamelCase everywhere except the ErrorInfo "@type".
        assert!(k
            .iter()
            .all(|x| x == "@type" || x.chars().all(|c| c.is_ascii_alphanumeric())));
        let text = wire::to_jsonl(&all);
        assert!(!text.contains("\"role\":\"user\"") && !text.contains("\"state\":\"working\""));
        assert!(!text.contains("message/stream") && !text.contains("tasks/cancel"));
    }
}

#[test]
fn same_experiment_same_bytes_and_entries_add_up() {
    let a = wire::to_jsonl(&wire::transcript(&busy(), START));
    let b = wire::to_jsonl(&wire::transcript(&busy(), START));
    assert_eq!(a, b);
    let e = busy();
    let by_entry: Vec<WireMessage> = e
        .trace()
        .iter()
        .flat_map(|t| wire::entry_messages(&e, t.seq, START))
        .collect();
    assert_eq!(by_entry, wire::transcript(&e, START));
    assert!(by_entry
        .iter()
        .all(|m| e.trace().iter().any(|t| Some(t.seq) == m.entry)));
    // A different start only moves the timestamps.
    let later = wire::to_jsonl(&wire::transcript(&e, START + 86_400_000));
    assert_ne!(later, a);
    assert_eq!(later.replace("2026-01-02", "2026-01-01"), a);
}

/// The `messageId` of every message a transcript sends: the clients' in
/// requests, the agent's in status updates (a Task's history repeats them).
fn sent_message_ids(t: &[WireMessage]) -> Vec<String> {
    t.iter()
        .filter_map(|m| {
            let r = &m.message;
            r["params"]["message"]["messageId"]
                .as_str()
                .or(r["result"]["statusUpdate"]["status"]["message"]["messageId"].as_str())
                .map(String::from)
        })
        .collect()
}

#[test]
fn message_ids_are_unique_within_a_context_and_beyond_it() {
    // Within a context: follow-ups and a branch included (a discarded
    // entry's number is not used again).
    let mut e = busy();
    e.seek(3).unwrap();
    run(&mut e, 3);
    let ids = sent_message_ids(&wire::transcript(&e, START));
    assert!(ids.len() > 5, "{ids:?}");
    let mut distinct = ids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), ids.len(), "{ids:?}");
    // Beyond it: the same experiment in another context (another page, a
    // Restart) sends none of them again, to an agent that detects duplicates.
    let other = Experiment::new(*e.config(), IdSource::seeded(7)).unwrap();
    assert_ne!(other.context_id(), e.context_id());
    let again = sent_message_ids(&wire::transcript(&other, START));
    assert!(!again.is_empty());
    assert!(again.iter().all(|id| !ids.contains(id)), "{again:?}");
}

#[test]
fn jsonl_lines_have_the_export_shape() {
    let e = busy();
    let text = wire::to_jsonl(&wire::transcript(&e, START));
    for (i, line) in text.lines().enumerate() {
        assert!(line.starts_with(&format!("{{\"seq\":{},\"from\":\"", i + 1)));
        let v: Value = serde_json::from_str(line).unwrap();
        let mut k: Vec<&str> = v.as_object().unwrap().keys().map(|s| s.as_str()).collect();
        k.sort();
        assert_eq!(k, ["from", "message", "payloadType", "seq", "transport"]);
        assert!(["jsonrpc", "sse"].contains(&v["transport"].as_str().unwrap()));
        assert!(["client", "agent"].contains(&v["from"].as_str().unwrap()));
    }
    assert!(text.ends_with('\n'));
}

#[test]
fn creation_opens_a_stream_with_the_submitted_task() {
    let e = exp(cfg());
    let m = wire::entry_messages(&e, 1, START);
    assert_eq!(m.len(), 2);
    assert_eq!(
        m[0].message,
        json!({"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage", "params": {"message": {
            "messageId": format!("msg-1-user-{}", e.client_id()), "role": "ROLE_USER",
            "parts": [{"text": "Run 4 work units of 3 s each."}]}}})
    );
    assert_eq!(
        m[1].message,
        json!({"jsonrpc": "2.0", "id": 1, "result": {"task": {
            "id": e.tasks()[0].id, "contextId": e.context_id(),
            "status": {"state": "TASK_STATE_SUBMITTED", "timestamp": "2026-01-01T00:00:00.000Z"},
            // The message that created it, as the task keeps it.
            "history": [{"messageId": format!("msg-1-user-{}", e.client_id()), "role": "ROLE_USER",
                "parts": [{"text": "Run 4 work units of 3 s each."}],
                "taskId": e.tasks()[0].id, "contextId": e.context_id()}]}}})
    );
    assert_eq!((m[1].from, m[1].transport), (Party::Agent, Transport::Sse));
    assert_eq!(m[1].payload_type, "StreamResponse");
}

#[test]
fn follow_up_carries_context_and_reference() {
    let mut e = exp(cfg());
    run(&mut e, 100);
    e.apply(Action::FollowUp).unwrap();
    let seq = e.trace().last().unwrap().seq;
    let m = wire::entry_messages(&e, seq, START);
    let msg = &m[0].message["params"]["message"];
    assert_eq!(msg["contextId"], e.context_id());
    assert_eq!(msg["referenceTaskIds"], json!([e.tasks()[0].id]));
    assert!(
        msg.get("taskId").is_none(),
        "the server creates the task id"
    );
    assert_eq!(m[1].message["result"]["task"]["id"], e.tasks()[1].id);
    assert_eq!(rpc_id(&m[0]), i64::from(seq));
}

#[test]
fn unfinished_seconds_and_invisible_refusals_send_nothing() {
    let mut e = exp(cfg());
    run(&mut e, 3); // start+second 1, second 2, second 3 (unit 1 done)
    let worked: Vec<u32> = e
        .trace()
        .iter()
        .filter(|t| matches!(t.event, Event::Worked { .. }))
        .map(|t| t.seq)
        .collect();
    assert!(!worked.is_empty());
    for seq in worked {
        assert!(wire::entry_messages(&e, seq, START).is_empty());
    }
    e.apply(Action::Authorize).unwrap_err();
    e.apply(Action::SupplyClarification("x".into()))
        .unwrap_err();
    run(&mut e, 100);
    e.apply(Action::Step).unwrap_err();
    e.apply(Action::Authorize).unwrap_err();
    let refused: Vec<_> = e
        .trace()
        .iter()
        .filter(|t| matches!(t.event, Event::StepRequested | Event::Authorized))
        .filter(|t| matches!(t.outcome, Outcome::Refused(_)))
        .collect();
    assert_eq!(refused.len(), 3, "{refused:?}");
    for t in refused {
        assert!(wire::entry_messages(&e, t.seq, START).is_empty(), "{t:?}");
    }
}

#[test]
fn input_required_closes_the_stream_and_clarification_opens_a_new_one() {
    let mut e = with(|c| c.input_gate = 2);
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::InputRequired);
    e.apply(Action::SupplyClarification("Blue.".into()))
        .unwrap();
    run(&mut e, 100);
    let t = wire::transcript(&e, START);
    let ask = t
        .iter()
        .position(|m| {
            m.message["result"]["statusUpdate"]["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
        })
        .unwrap();
    let status = &t[ask].message["result"]["statusUpdate"]["status"];
    assert_eq!(status["message"]["role"], "ROLE_AGENT");
    assert_eq!(status["message"]["taskId"], e.tasks()[0].id);
    assert_eq!(status["message"]["contextId"], e.context_id());
    let req = &t[ask + 1];
    assert_eq!(method(req), Some("SendStreamingMessage"));
    assert_ne!(rpc_id(req), rpc_id(&t[ask]));
    let msg = &req.message["params"]["message"];
    assert_eq!(msg["taskId"], e.tasks()[0].id);
    assert_eq!(msg["contextId"], e.context_id());
    assert_eq!(msg["parts"][0]["text"], "Blue.");
    assert_ne!(
        msg["messageId"],
        t[0].message["params"]["message"]["messageId"]
    );
    // The stream opens with the task as the agent stores the clarification
    // (as a2a-sdk 1.3.0's task manager does): still INPUT_REQUIRED, its
    // question moved from `status` to `history`, the clarification after
    // it; then the agent's WORKING event, which a subscription opened at
    // INPUT_REQUIRED receives too.
    let first = &t[ask + 2].message["result"]["task"];
    assert_eq!(first["status"]["state"], "TASK_STATE_INPUT_REQUIRED");
    assert_eq!(first["status"]["timestamp"], status["timestamp"]);
    assert!(first["status"]["message"].is_null());
    let history = first["history"].as_array().unwrap();
    let [.., question, answer] = &history[..] else {
        panic!("{history:?}")
    };
    assert_eq!(*question, status["message"]);
    assert_eq!(answer["parts"][0]["text"], "Blue.");
    assert_eq!(answer["taskId"], e.tasks()[0].id);
    // GetTask, once the task has completed, keeps the same order.
    let got = wire::get_task(&e, START, CORE);
    let kept = got[1].message["result"]["history"].as_array().unwrap();
    let at = |m: &Value| kept.iter().position(|k| k["messageId"] == m["messageId"]);
    assert_eq!(at(question).map(|i| i + 1), at(answer));
    let resumed = &t[ask + 3].message["result"]["statusUpdate"];
    assert_eq!(resumed["status"]["state"], "TASK_STATE_WORKING");
    assert!(resumed["status"]["message"].is_null());
    assert!(
        resumed["status"]["timestamp"].as_str().unwrap() > status["timestamp"].as_str().unwrap()
    );
    assert!(t[ask + 2..].iter().all(|m| rpc_id(m) == rpc_id(req)));
    assert!(t[..=ask].iter().all(|m| rpc_id(m) == 1));
}

#[test]
fn get_task_with_a_history_length_gets_that_many_of_the_newest_messages() {
    let mut e = with(|c| c.input_gate = 2);
    run(&mut e, 100);
    e.apply(Action::SupplyClarification("Blue.".into()))
        .unwrap();
    run(&mut e, 100);
    let whole = &wire::get_task(&e, START, CORE)[1].message["result"]["history"];
    let whole = whole.as_array().unwrap();
    assert!(whole.len() >= 3, "{whole:?}");
    // Unset: the request names none, and the whole history comes back.
    let unset = wire::get_task_with_history(&e, START, CORE, None);
    assert!(unset[0].message["params"].get("historyLength").is_none());
    assert_eq!(
        unset[1].message["result"]["history"].as_array().unwrap(),
        whole
    );
    // n: the n most recent messages, the clarification last.
    for n in [1, 2] {
        let got = wire::get_task_with_history(&e, START, CORE, Some(n));
        assert_eq!(got[0].message["params"]["historyLength"], n);
        let kept = got[1].message["result"]["history"].as_array().unwrap();
        assert_eq!(kept[..], whole[whole.len() - n as usize..]);
        assert_eq!(kept.last().unwrap()["parts"][0]["text"], "Blue.");
    }
    // More than there are: all of them.
    let many = wire::get_task_with_history(&e, START, CORE, Some(1000));
    assert_eq!(
        many[1].message["result"]["history"].as_array().unwrap(),
        whole
    );
    // 0: no messages, and no `history` member at all; the rest as unset.
    let none = wire::get_task_with_history(&e, START, CORE, Some(0));
    assert_eq!(none[0].message["params"]["historyLength"], 0);
    let task = none[1].message["result"].as_object().unwrap();
    assert!(!task.contains_key("history"), "{task:?}");
    let mut rest = unset[1].message["result"].clone();
    rest.as_object_mut().unwrap().shift_remove("history");
    assert_eq!(none[1].message["result"], rest);
}

#[test]
fn auth_required_keeps_the_stream_open() {
    let mut e = with(|c| c.auth_gate = 2);
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::AuthRequired);
    e.apply(Action::Authorize).unwrap();
    let seq = e.trace().last().unwrap().seq;
    let m = wire::entry_messages(&e, seq, START);
    assert_eq!(m.len(), 1);
    assert_eq!((m[0].from, m[0].transport), (Party::Agent, Transport::Sse));
    assert_eq!(rpc_id(&m[0]), 1);
    assert_eq!(
        m[0].message["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_WORKING"
    );
    run(&mut e, 100);
    let t = wire::transcript(&e, START);
    assert!(t.iter().all(|m| rpc_id(m) == 1), "one stream throughout");
    assert_eq!(t.iter().filter(|m| m.from == Party::Client).count(), 1);
}

/// The `artifactUpdate`s of `t`, in order.
fn artifact_updates(t: &[WireMessage]) -> Vec<&Value> {
    t.iter()
        .filter_map(|m| m.message["result"].get("artifactUpdate"))
        .collect()
}

#[test]
fn an_artifact_streamed_unit_by_unit_appends_a_chunk_per_unit_and_the_summary_last() {
    let mut e = with(|c| (c.work_units, c.artifact_per_unit) = (3, true));
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed);
    let t = wire::transcript(&e, START);
    let ups = artifact_updates(&t);
    assert_eq!(ups.len(), 3, "one chunk a unit, the last with the summary");
    let fin = e.viewed_artifact().unwrap();
    assert_eq!(fin.parts.len(), 4);
    let texts = |u: &Value| -> Vec<String> {
        each(&u["artifact"]["parts"], "text")
            .into_iter()
            .map(String::from)
            .collect()
    };
    assert_eq!(texts(ups[0]), ["Unit 1 of 3 done."]);
    assert_eq!(texts(ups[1]), ["Unit 2 of 3 done."]);
    assert_eq!(texts(ups[2]), fin.parts[2..]);
    assert!(fin.parts[3].starts_with("Result of 3 of 3 work units"));
    // ProtoJSON leaves out a false `append` or `lastChunk`.
    let flags = |u: &Value| (u.get("append").cloned(), u.get("lastChunk").cloned());
    assert_eq!(flags(ups[0]), (None, None));
    assert_eq!(flags(ups[1]), (Some(json!(true)), None));
    assert_eq!(flags(ups[2]), (Some(json!(true)), Some(json!(true))));
    for u in &ups {
        assert_eq!(u["artifact"]["artifactId"], "result-1");
        let keys: Vec<&String> = u.as_object().unwrap().keys().collect();
        assert_eq!(
            keys[..3],
            ["taskId", "contextId", "artifact"],
            "TaskArtifactUpdateEvent's field order"
        );
    }
    let explained: Vec<String> = t
        .iter()
        .filter(|m| m.message["result"].get("artifactUpdate").is_some())
        .map(wire::explain)
        .collect();
    assert!(
        explained[0].contains("artifactUpdate result-1 (first chunk)"),
        "{explained:?}"
    );
    assert!(explained[1].contains("(appended chunk)"));
    assert!(explained[2].contains("(appended, last chunk)"));
    // The entry the Wire panel shows by default is one with messages: a
    // unit's last second now has its chunk; the other seconds send nothing.
    for c in [cfg(), *e.config()] {
        let mut e = exp(c);
        run(&mut e, 100);
        let t = wire::transcript(&e, START);
        for entry in e.trace() {
            let sent = t.iter().any(|m| m.entry == Some(entry.seq));
            assert_eq!(wire::sends_nothing(&e, entry), !sent, "{entry:?}");
        }
    }
    // A store's Task carries every part streamed: the whole artifact.
    let g = wire::get_task(&e, START, CORE);
    let parts = &g[1].message["result"]["artifacts"][0]["parts"];
    assert_eq!(each(parts, "text"), fin.parts);
}

#[test]
fn a_task_canceled_or_failed_keeps_the_chunks_it_streamed() {
    // Two units done, then canceled: the Task answered keeps both chunks,
    // and no chunk was the last.
    let mut e = with(|c| c.artifact_per_unit = true);
    run(&mut e, 7); // start, then 6 s: units 1 and 2 of 3 s
    assert_eq!(e.snapshot().completed_units, 2);
    e.apply(Action::RequestCancellation).unwrap();
    assert_eq!(state(&e), TaskState::Canceled);
    let t = wire::transcript(&e, START);
    let ups = artifact_updates(&t);
    assert_eq!(ups.len(), 2);
    assert!(ups.iter().all(|u| u.get("lastChunk").is_none()));
    let canceled = t
        .iter()
        .find(|m| {
            m.payload_type == "Task"
                && m.message["result"]["status"]["state"] == "TASK_STATE_CANCELED"
        })
        .expect("CancelTask's Task");
    let parts = &canceled.message["result"]["artifacts"][0]["parts"];
    assert_eq!(
        each(parts, "text"),
        ["Unit 1 of 4 done.", "Unit 2 of 4 done."]
    );
    assert_eq!(
        e.partial_artifact_note().as_deref(),
        Some("Partial: the chunks of the 2 / 4 units done, which the canceled task keeps (nothing in A2A v1.0 stops an agent keeping a partial artifact).")
    );
    assert_eq!(e.no_artifact_reason(), None);
    // A task that fails in unit 3 keeps the chunks of units 1 and 2, and
    // its status message says so.
    let mut e = with(|c| (c.artifact_per_unit, c.fail_during) = (true, 3));
    run(&mut e, 100);
    let t = wire::transcript(&e, START);
    let failed = t
        .iter()
        .find_map(|m| {
            let s = &m.message["result"]["statusUpdate"]["status"];
            (s["state"] == "TASK_STATE_FAILED").then(|| s["message"]["parts"][0]["text"].clone())
        })
        .expect("the FAILED statusUpdate");
    assert_eq!(
        failed,
        "Unit 3 failed at its second 2; the task has no final result, and keeps the chunks of the 2 units done before it."
    );
    assert_eq!(e.viewed_artifact().unwrap().parts.len(), 2);
    let mut e = with(|c| (c.artifact_per_unit, c.fail_during) = (true, 2));
    run(&mut e, 100);
    let said = wire::to_jsonl(&wire::transcript(&e, START));
    assert!(
        said.contains("keeps the chunk of unit 1, done before it."),
        "{said}"
    );
    // A task that fails in its first unit streamed none.
    let mut e = with(|c| (c.artifact_per_unit, c.fail_during) = (true, 1));
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Failed);
    assert!(artifact_updates(&wire::transcript(&e, START)).is_empty());
    assert!(e.viewed_artifact().is_none());
    assert!(e
        .no_artifact_reason()
        .unwrap()
        .contains("this agent streams a chunk as each unit finishes, and none had finished"));
    // While it works, the Task answered holds what came so far.
    let mut e = with(|c| c.artifact_per_unit = true);
    run(&mut e, 4);
    assert_eq!(
        e.partial_artifact_note().as_deref(),
        Some("So far: the chunks of 1 / 4 units; the summary comes at completion.")
    );
    let g = wire::get_task(&e, START, CORE);
    assert_eq!(
        each(&g[1].message["result"]["artifacts"][0]["parts"], "text"),
        ["Unit 1 of 4 done."]
    );
}

#[test]
fn artifact_streams_only_at_completion() {
    let mut e = exp(cfg());
    run(&mut e, 100);
    let t = wire::transcript(&e, START);
    let arts: Vec<usize> = (0..t.len())
        .filter(|&i| t[i].message["result"].get("artifactUpdate").is_some())
        .collect();
    assert_eq!(arts.len(), 1);
    let a = &t[arts[0]].message["result"]["artifactUpdate"];
    assert_eq!(a["lastChunk"], true);
    assert!(a.get("append").is_none());
    let fin = e.viewed_artifact().unwrap();
    assert_eq!(
        a["artifact"],
        json!({"artifactId": fin.artifact_id, "name": fin.name, "parts": [{"text": fin.text()}]})
    );
    assert_eq!(arts[0] + 2, t.len());
    assert_eq!(
        t[arts[0] + 1].message["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    for mut e in [with(|c| c.fail_during = 3), exp(cfg())] {
        run(&mut e, 5);
        let _ = e.apply(Action::RequestCancellation);
        assert!(matches!(state(&e), TaskState::Failed | TaskState::Canceled));
        let text = wire::to_jsonl(&wire::transcript(&e, START));
        assert!(!text.contains("artifactUpdate") && !text.contains("\"artifacts\""));
        assert!(!wire::to_jsonl(&wire::get_task(&e, START, CORE)).contains("\"artifacts\""));
    }
}

#[test]
fn failed_and_rejected_explain_themselves() {
    for (mut e, s) in [
        (with(|c| c.fail_during = 2), "TASK_STATE_FAILED"),
        (
            with(|c| c.reject_before_execution = true),
            "TASK_STATE_REJECTED",
        ),
    ] {
        run(&mut e, 100);
        let t = wire::transcript(&e, START);
        let last = &t.last().unwrap().message["result"]["statusUpdate"]["status"];
        assert_eq!(last["state"], s);
        assert_eq!(last["message"]["role"], "ROLE_AGENT");
        assert!(last["message"]["parts"][0]["text"].is_string());
    }
}

#[test]
fn cancel_accepted_returns_the_task_and_ends_the_stream() {
    let mut e = exp(cfg());
    run(&mut e, 2);
    e.apply(Action::RequestCancellation).unwrap();
    let seq = e.trace().last().unwrap().seq;
    let m = wire::entry_messages(&e, seq, START);
    assert_eq!(m.len(), 3);
    assert_eq!(m[0].message["params"], json!({"id": e.tasks()[0].id}));
    assert_eq!(m[0].payload_type, "CancelTaskRequest");
    assert_eq!(m[1].payload_type, "Task");
    assert_eq!(
        m[1].message["result"]["status"]["state"],
        "TASK_STATE_CANCELED"
    );
    assert_eq!(rpc_id(&m[1]), i64::from(seq));
    assert_eq!((m[2].transport, rpc_id(&m[2])), (Transport::Sse, 1));

    // Repeated cancel: the task is not cancelable (spec §3.1.5, §3.3.2),
    // -32002, as a2a-python answers.
    assert!(e.apply(Action::RequestCancellation).is_err());
    let seq2 = e.trace().last().unwrap().seq;
    let again = wire::entry_messages(&e, seq2, START);
    assert_eq!(again.len(), 2);
    assert_eq!(again[0].message["method"], "CancelTask");
    assert_error(&again[1], -32002, "TASK_NOT_CANCELABLE", &e.tasks()[0].id);
}

#[test]
fn cancel_while_input_required_has_no_stream_to_close() {
    let mut e = with(|c| c.input_gate = 1);
    run(&mut e, 100);
    e.apply(Action::RequestCancellation).unwrap();
    let seq = e.trace().last().unwrap().seq;
    let m = wire::entry_messages(&e, seq, START);
    assert_eq!(m.len(), 2);
    assert!(m.iter().all(|m| m.transport == Transport::JsonRpc));
    // The task as its store keeps it: CANCELED replaced the question, which
    // is now history; CancelTask answers what GetTask would.
    let task = &m[1].message["result"];
    assert_eq!(each(&task["history"], "role"), ["ROLE_USER", "ROLE_AGENT"]);
    assert_eq!(task, &wire::get_task(&e, START, CORE)[1].message["result"]);
}

fn assert_error(m: &WireMessage, code: i64, reason: &str, task_id: &str) {
    assert_eq!(m.payload_type, "error");
    let err = &m.message["error"];
    assert_eq!(err["code"], code);
    assert!(err["message"].as_str().is_some_and(|s| !s.is_empty()));
    assert_eq!(
        err["data"],
        json!([{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": reason,
                "domain": "a2a-protocol.org", "metadata": {"taskId": task_id}}])
    );
}

#[test]
fn refused_cancel_is_task_not_cancelable() {
    let mut e = with(|c| c.worker_accepts_cancellation = false);
    run(&mut e, 2);
    assert!(e.apply(Action::RequestCancellation).is_err());
    let seq = e.trace().last().unwrap().seq;
    let m = wire::entry_messages(&e, seq, START);
    assert_eq!(m.len(), 2);
    assert_eq!(method(&m[0]), Some("CancelTask"));
    assert_eq!(rpc_id(&m[1]), i64::from(seq));
    let tid = e.tasks()[0].id.clone();
    assert_error(&m[1], -32002, "TASK_NOT_CANCELABLE", &tid);
    // a2a-sdk 1.3.0's words, with the state the task stays in.
    assert_eq!(
        m[1].message["error"]["message"],
        "Task cannot be canceled - current state: TASK_STATE_WORKING"
    );

    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed);
    assert!(e.apply(Action::RequestCancellation).is_err());
    let seq = e.trace().last().unwrap().seq;
    let m = wire::entry_messages(&e, seq, START);
    assert_error(&m[1], -32002, "TASK_NOT_CANCELABLE", &tid);
    assert_eq!(
        m[1].message["error"]["message"],
        "Task cannot be canceled - current state: TASK_STATE_COMPLETED"
    );
}

#[test]
fn a_request_refused_on_an_earlier_state_stays_out_of_the_transcript() {
    let mut e = with(|c| c.worker_accepts_cancellation = false);
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed);
    let full = wire::transcript(&e, START);
    // Back to a WORKING state: the worker refuses to cancel (-32002), as of then.
    e.seek(2).unwrap();
    assert_eq!(state(&e), TaskState::Working);
    assert!(e.apply(Action::RequestCancellation).is_err());
    let t = *e.trace().last().unwrap();
    assert!(e.tried_on_earlier_state(&t));
    // The Wire panel still shows what it would have got then ...
    let m = wire::entry_messages(&e, t.seq, START);
    assert_eq!(error_code(&m[1]), Some(-32002));
    // ... but after COMPLETED on the wire it would contradict the stream:
    // the transcript is as before.
    assert_eq!(wire::transcript(&e, START), full);
    // Branching from a later state keeps it out: that state came after it.
    let mut later = e.clone();
    later.seek(4).unwrap();
    later.apply(Action::Step).unwrap();
    assert!(later.tried_on_earlier_state(&t));
    assert!(!wire::transcript(&later, START)
        .iter()
        .any(|m| error_code(m) == Some(-32002)));
    // Branching from that very state keeps the refusal, now in its place:
    // after every message of the state it was tried on, before the branch.
    e.apply(Action::Step).unwrap();
    assert!(!e.tried_on_earlier_state(&t));
    let now = wire::transcript(&e, START);
    let refused = now
        .iter()
        .position(|m| error_code(m) == Some(-32002))
        .unwrap();
    let entries: Vec<u32> = now.iter().map(|m| m.entry.unwrap()).collect();
    assert_eq!(entries[refused], t.seq);
    let first = entries.iter().position(|&s| s == t.seq).unwrap();
    assert!(entries[..first].iter().all(|&s| s <= t.at), "{entries:?}");
    assert!(entries[first..].iter().all(|&s| s >= t.seq), "{entries:?}");
    // A refusal on the newest state is no earlier one.
    assert!(e.apply(Action::RequestCancellation).is_err());
    assert!(!e.tried_on_earlier_state(e.trace().last().unwrap()));
}

#[test]
fn terminal_tasks_refuse_messages_and_subscriptions() {
    let mut e = exp(cfg());
    run(&mut e, 100);
    let tid = e.tasks()[0].id.clone();
    let refusal = e.apply(Action::SupplyClarification("more".into()));
    let why = refusal.unwrap_err().to_string();
    assert!(why.contains("terminal") && why.contains("-32004"), "{why}");
    // Traced as what the client did: no clarification is asked for here.
    let t = e.trace().last().unwrap();
    assert_eq!(t.what(), "send message to a terminal task");
    assert_eq!(e.trace()[1].what(), "start work");
    let seq = t.seq;
    let m = wire::entry_messages(&e, seq, START);
    assert_eq!(method(&m[0]), Some("SendStreamingMessage"));
    assert_eq!(m[0].message["params"]["message"]["taskId"], tid);
    let parts = &m[0].message["params"]["message"]["parts"];
    assert_eq!(parts, &json!([{"text": "more"}]), "the text as sent");
    // An empty text is the page's own refusal, as at INPUT_REQUIRED: the
    // client sends nothing.
    assert_eq!(
        e.apply(Action::SupplyClarification("  ".into())),
        Err(Refusal::EmptyClarification)
    );
    let empty = e.trace().last().unwrap().seq;
    assert!(wire::entry_messages(&e, empty, START).is_empty());

    let s = wire::subscribe(&e, START, CORE);
    assert_eq!(method(&s[0]), Some("SubscribeToTask"));
    assert_eq!(s[0].payload_type, "SubscribeToTaskRequest");
    assert_error(&s[1], -32004, "UNSUPPORTED_OPERATION", &tid);
    // Refused before a stream opens: a plain JSON-RPC error, as a2a-sdk 1.3.0
    // answers it, whose message names the state.
    assert_eq!(
        (m[1].transport, s[1].transport),
        (Transport::JsonRpc, Transport::JsonRpc)
    );
    let said = format!("Task {tid} is in terminal state: TASK_STATE_COMPLETED");
    assert_eq!(m[1].message["error"]["message"], said);
    assert_eq!(s[1].message["error"]["message"], said);
}

#[test]
fn a_follow_up_refines_the_result_under_the_same_name_with_its_own_artifact_id() {
    let mut e = with(|_| {});
    run(&mut e, 100);
    e.apply(Action::FollowUp).unwrap();
    run(&mut e, 100);
    let ids: Vec<(Value, Value)> = wire::transcript(&e, START)
        .iter()
        .filter_map(|m| m.message["result"].get("artifactUpdate"))
        .map(|a| {
            (
                a["artifact"]["artifactId"].clone(),
                a["artifact"]["name"].clone(),
            )
        })
        .collect();
    assert_eq!(
        ids,
        [
            (json!("result-1"), json!("result")),
            (json!("result-2"), json!("result"))
        ]
    );
}

#[test]
fn list_tasks_gives_the_first_page_of_fifty_and_a_token_for_the_rest() {
    let mut e = with(|c| c.work_units = 1);
    for _ in 0..60 {
        run(&mut e, 10);
        e.apply(Action::FollowUp).unwrap();
    }
    let m = wire::list_tasks(&e, START, CORE);
    let r = &m[1].message["result"];
    assert_eq!(
        (&r["pageSize"], &r["totalSize"]),
        (&json!(50), &json!(61)),
        "a2a.proto: at most 50 when the request names no pageSize"
    );
    assert_eq!(r["nextPageToken"], json!("page-2"), "more pages follow");
    let ids = each(&r["tasks"], "id");
    assert_eq!(ids.len(), 50);
    assert_eq!(ids[0], e.tasks()[60].id.as_str(), "the newest first");
    assert_eq!(ids[49], e.tasks()[11].id.as_str());
    assert!(wire::explain(&m[1]).contains("ListTasks result: 50 (of 61; the rest on later pages)"));
}

#[test]
fn list_tasks_shows_the_context_newest_first_without_history_or_artifacts() {
    let mut e = with(|_| {});
    run(&mut e, 100);
    e.apply(Action::FollowUp).unwrap();
    run(&mut e, 2);
    let next = e.trace().last().unwrap().seq + 1;
    let m = wire::list_tasks(&e, START, CORE);
    assert_eq!(method(&m[0]), Some("ListTasks"));
    assert_eq!(m[0].payload_type, "ListTasksRequest");
    assert_eq!(
        m[0].message["params"],
        json!({"contextId": e.context_id(), "historyLength": 0})
    );
    assert_eq!(m[1].message["id"], json!(format!("list-tasks-{next}")));
    assert_eq!(m[1].payload_type, "ListTasksResponse");
    let r = &m[1].message["result"];
    assert_eq!(
        (&r["nextPageToken"], &r["pageSize"], &r["totalSize"]),
        (&json!(""), &json!(50), &json!(2)),
        "one page: the required token is empty"
    );
    let ids = each(&r["tasks"], "id");
    assert_eq!(
        ids,
        [e.tasks()[1].id.as_str(), e.tasks()[0].id.as_str()],
        "newest first"
    );
    for t in r["tasks"].as_array().unwrap() {
        assert!(
            t.get("history").is_none() && t.get("artifacts").is_none(),
            "{t}"
        );
        assert_eq!(t["contextId"], e.context_id());
    }
    assert_eq!(r["tasks"][1]["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(
        wire::explain(&m[1]),
        "agent → client (JSON-RPC): ListTasks result: 2 — TASK_STATE_WORKING, TASK_STATE_COMPLETED"
    );
    // As of the viewed state: viewing the first task's past, the follow-up
    // does not exist yet.
    e.view_task(0).unwrap();
    e.seek(1).unwrap();
    let m = wire::list_tasks(&e, START, CORE);
    let r = &m[1].message["result"];
    assert_eq!(r["totalSize"], 1);
    assert_eq!(r["tasks"][0]["id"], e.tasks()[0].id.as_str());
    assert_eq!(r["tasks"][0]["status"]["state"], "TASK_STATE_WORKING");
    // Viewing the first task as it is now (its last state, terminal): the
    // whole context, the follow-up first.
    let last = e.tasks()[0].records().len() - 1;
    e.seek(last).unwrap();
    let m = wire::list_tasks(&e, START, CORE);
    let r = &m[1].message["result"];
    assert_eq!(r["totalSize"], 2);
    assert_eq!(r["tasks"][0]["id"], e.tasks()[1].id.as_str());
    assert_eq!(r["tasks"][1]["status"]["state"], "TASK_STATE_COMPLETED");
    // Viewing the follow-up's past: the first task as it ended.
    e.view_task(1).unwrap();
    e.seek(0).unwrap();
    let m = wire::list_tasks(&e, START, CORE);
    let states: Vec<&Value> = m[1].message["result"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["status"]["state"])
        .collect();
    assert_eq!(
        states,
        [
            &json!("TASK_STATE_SUBMITTED"),
            &json!("TASK_STATE_COMPLETED")
        ]
    );
}

#[test]
fn get_unknown_task_is_answered_with_task_not_found() {
    let mut e = with(|_| {});
    run(&mut e, 100);
    e.apply(Action::FollowUp).unwrap();
    let m = wire::get_unknown_task(&e);
    assert_eq!(m.len(), 2);
    let next = format!("get-unknown-task-{}", e.trace().last().unwrap().seq + 1);
    assert_eq!(method(&m[0]), Some("GetTask"));
    assert_eq!(m[0].payload_type, "GetTaskRequest");
    assert_eq!(m[0].message["id"], next.as_str());
    let asked = m[0].message["params"]["id"].as_str().unwrap();
    assert_eq!(asked, a2a_control_room::model::NEVER_ISSUED_ID);
    assert!(
        e.tasks().iter().all(|t| t.id != asked),
        "no task of the run has it"
    );
    assert_eq!(m[1].payload_type, "error");
    assert_eq!(m[1].message["id"], next.as_str());
    let err = &m[1].message["error"];
    assert_eq!(err["code"], -32001);
    assert_eq!(err["message"], "Task not found");
    assert_eq!(
        err["data"],
        json!([{
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "TASK_NOT_FOUND",
            "domain": "a2a-protocol.org",
            "metadata": {"taskId": asked},
        }])
    );
    assert_eq!(wire::answer(&m[1]), "TaskNotFoundError (-32001)");
}

#[test]
fn what_the_agent_answers_an_on_demand_request_in_one_line() {
    let answer = |m: Vec<WireMessage>| wire::answer(m.last().unwrap());
    let mut e = with(|c| c.input_gate = 2);
    run(&mut e, 2);
    assert_eq!(state(&e), TaskState::Working);
    assert_eq!(
        answer(wire::subscribe(&e, START, CORE)),
        "a stream that opens with the task, in TASK_STATE_WORKING",
        "a working task's stream stays open"
    );
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::InputRequired);
    assert_eq!(
        answer(wire::subscribe(&e, START, CORE)),
        "a stream that opens with the task, in TASK_STATE_INPUT_REQUIRED",
        "a subscription stays open at INPUT_REQUIRED too"
    );
    assert_eq!(
        answer(wire::get_task(&e, START, CORE)),
        "the task, in TASK_STATE_INPUT_REQUIRED"
    );
    assert_eq!(
        answer(wire::list_tasks(&e, START, CORE)),
        "1 task: TASK_STATE_INPUT_REQUIRED"
    );
    let mut e = with(|_| {});
    run(&mut e, 100);
    e.apply(Action::FollowUp).unwrap();
    assert_eq!(
        answer(wire::list_tasks(&e, START, CORE)),
        "2 tasks: TASK_STATE_SUBMITTED, TASK_STATE_COMPLETED"
    );
    e.view_task(0).unwrap();
    assert_eq!(
        answer(wire::subscribe(&e, START, CORE)),
        "UnsupportedOperationError (-32004)",
        "a terminal task cannot be subscribed to"
    );
    // The proposal's state is said to be one (in the core encoding, where
    // the task shows it).
    let mut e = proposal(|_| {});
    steps(&mut e, 3);
    pause(&mut e, PauseMode::FinishStep, "hold").unwrap();
    assert_eq!(state(&e), TaskState::Paused);
    assert_eq!(
        answer(wire::get_task(&e, START, CORE)),
        "the task, in TASK_STATE_PAUSED (proposal)"
    );
    assert_eq!(
        answer(wire::list_tasks(&e, START, CORE)),
        "1 task: TASK_STATE_PAUSED (proposal)"
    );
    assert_eq!(
        answer(wire::get_task(&e, START, PauseEncoding::V1Extension)),
        "the task, in TASK_STATE_WORKING"
    );
}

#[test]
fn on_demand_requests_on_a_live_task() {
    let mut e = with(|c| c.input_gate = 2);
    run(&mut e, 100);
    let next = e.trace().last().unwrap().seq + 1;
    let s = wire::subscribe(&e, START, CORE);
    // A string id: the next real request (the clarification) takes `next`.
    let sid = json!(format!("subscribe-{next}"));
    assert_eq!((&s[0].message["id"], &s[1].message["id"]), (&sid, &sid));
    assert_eq!(s[1].transport, Transport::Sse);
    let task = &s[1].message["result"]["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_INPUT_REQUIRED");
    // The agent closed the task's own stream at INPUT_REQUIRED; a subscription
    // stays open for the frames the clarification's stream will carry.
    assert!(!s[1].closes_stream);
    assert!(task["status"]["message"]["parts"][0]["text"].is_string());
    let g = wire::get_task(&e, START, CORE);
    let gid = json!(format!("get-task-{next}"));
    assert_eq!((&g[0].message["id"], &g[1].message["id"]), (&gid, &gid));
    assert_eq!(g[0].message["params"], json!({"id": e.tasks()[0].id}));
    assert_eq!(g[1].payload_type, "Task");
    let r = &g[1].message["result"];
    assert_eq!(r["status"], task["status"]);
    let roles = each(&r["history"], "role");
    // The agent's question is the current status message: in `status` only,
    // as a2a-sdk's task store keeps it, until a later status replaces it.
    assert_eq!(roles, ["ROLE_USER"]);
    assert!(r.get("artifacts").is_none());
    assert_eq!(
        task["history"], r["history"],
        "SubscribeToTask's task is GetTask's"
    );

    e.apply(Action::SupplyClarification("ok".into())).unwrap();
    // No request of the run shares an id with the on-demand ones.
    let transcript = wire::transcript(&e, START);
    let ids: Vec<&Value> = transcript
        .iter()
        .filter(|m| m.message.get("method").is_some())
        .map(|m| &m.message["id"])
        .collect();
    assert!(!ids.contains(&&sid) && !ids.contains(&&gid), "{ids:?}");
    run(&mut e, 100);
    let r = &wire::get_task(&e, START, CORE)[1].message["result"];
    assert_eq!(r["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(r["artifacts"][0]["artifactId"], "result-1");
    let history = each(&r["history"], "messageId");
    let question = e
        .trace()
        .iter()
        .find(|t| matches!(t.event, Event::AskedInput { .. }));
    let asked = format!("msg-{}-agent-{}", question.unwrap().seq, e.context_id());
    assert_eq!(history.len(), 3, "{history:?}");
    assert_eq!(
        history[1], asked,
        "the question, replaced as status, is history"
    );
    // Viewing an earlier state answers for that state.
    e.seek(1).unwrap();
    let r = &wire::get_task(&e, START, CORE)[1].message["result"];
    assert_eq!(r["status"]["state"], "TASK_STATE_WORKING");
    assert!(r.get("artifacts").is_none());
}

#[test]
fn timestamps_never_go_back() {
    let mut branched = exp(cfg());
    run(&mut branched, 100);
    branched.seek(3).unwrap();
    run(&mut branched, 2);
    for e in all_scenarios().into_iter().chain([branched]) {
        let mut ts = Vec::new();
        wire::transcript(&e, START)
            .iter()
            .for_each(|m| timestamps(&m.message, &mut ts));
        assert!(!ts.is_empty());
        assert!(ts.windows(2).all(|w| w[0] <= w[1]), "{ts:?}");
        // Each status change happens after the one before it (a Task in a
        // reply carries the time its status was set, which may be earlier).
        let mut per_entry: Vec<(u32, String)> = Vec::new();
        for m in wire::transcript(&e, START) {
            let status = &m.message["result"]["statusUpdate"]["status"]["timestamp"];
            let (Some(seq), Some(t)) = (m.entry, status.as_str().map(String::from)) else {
                continue;
            };
            if per_entry.last().is_none_or(|(s, _)| *s != seq) {
                per_entry.push((seq, t));
            }
        }
        assert!(
            per_entry.windows(2).all(|w| w[0].1 < w[1].1),
            "{per_entry:?}"
        );
        for t in &ts {
            assert_eq!(t.len(), 24, "{t}");
            assert!(t.starts_with("2026-01-01T") && t.ends_with('Z'), "{t}");
            assert_eq!(&t[19..20], ".");
        }
    }
    // Completion lands at N·S seconds of active time.
    let mut e = exp(cfg());
    run(&mut e, 100);
    let t = wire::transcript(&e, START);
    assert_eq!(
        t.last().unwrap().message["result"]["statusUpdate"]["status"]["timestamp"],
        "2026-01-01T00:00:12.000Z"
    );
    // A follow-up starts after the earlier task's time.
    e.apply(Action::FollowUp).unwrap();
    let seq = e.trace().last().unwrap().seq;
    let m = wire::entry_messages(&e, seq, START);
    assert!(
        m[1].message["result"]["task"]["status"]["timestamp"]
            .as_str()
            .unwrap()
            > "2026-01-01T00:00:12.000Z"
    );
}

#[test]
fn agent_card_has_the_v1_fields() {
    let card = wire::agent_card();
    let mut k: Vec<&str> = card
        .as_object()
        .unwrap()
        .keys()
        .map(|s| s.as_str())
        .collect();
    k.sort();
    assert_eq!(
        k,
        [
            "capabilities",
            "defaultInputModes",
            "defaultOutputModes",
            "description",
            "name",
            "skills",
            "supportedInterfaces",
            "version"
        ]
    );
    assert_eq!(card["supportedInterfaces"][0]["protocolBinding"], "JSONRPC");
    assert_eq!(card["supportedInterfaces"][0]["protocolVersion"], "1.0");
    assert_eq!(
        card["capabilities"],
        json!({"streaming": true, "pushNotifications": false})
    );
    for f in ["id", "name", "description", "tags"] {
        assert!(card["skills"][0].get(f).is_some(), "{f}");
    }
}

#[test]
fn explain_reads_naturally() {
    let mut e = with(|c| c.input_gate = 1);
    run(&mut e, 100);
    let t = wire::transcript(&e, START);
    assert_eq!(
        wire::explain(&t[0]),
        "client → agent (JSON-RPC): SendStreamingMessage — “Run 4 work units of 3 s each.”"
    );
    assert_eq!(
        wire::explain(t.last().unwrap()),
        "agent → client (SSE, the stream's last frame): statusUpdate TASK_STATE_INPUT_REQUIRED — “Please clarify how to proceed before unit 1 of 4.”"
    );
    let _ = e.apply(Action::RequestCancellation);
    let _ = e.apply(Action::RequestCancellation);
    // What *Cancel terminal task* and *Message to terminal task* show.
    let last = |e: &Experiment| wire::entry_messages(e, e.trace().last().unwrap().seq, START);
    assert_eq!(
        wire::explain(&last(&e)[1]),
        "agent → client (JSON-RPC): error -32002 TaskNotCancelableError — “Task cannot be canceled - current state: TASK_STATE_CANCELED”"
    );
    let _ = e.apply(Action::SupplyClarification("One more thing.".into()));
    assert!(wire::explain(&last(&e)[1])
        .starts_with("agent → client (JSON-RPC): error -32004 UnsupportedOperationError"));
    // A request names the task it is for by the field that ties it.
    let task = e.viewed_task().id.clone();
    assert_eq!(
        wire::explain(&last(&e)[0]),
        format!(
            "client → agent (JSON-RPC): SendStreamingMessage (taskId {}…) — “One more thing.”",
            &task[..8]
        )
    );
    assert_eq!(
        wire::explain(&wire::get_task(&e, START, CORE)[0]),
        format!("client → agent (JSON-RPC): GetTask (id {}…)", &task[..8])
    );
    e.apply(Action::FollowUp).unwrap();
    assert_eq!(
        wire::explain(
            wire::transcript(&e, START)
                .iter()
                .rev()
                .find(|m| m.from == Party::Client)
                .unwrap()
        ),
        format!("client → agent (JSON-RPC): SendStreamingMessage (referenceTaskIds {}…) — “Follow-up to the earlier task: run 4 work units of 3 s each.”", &task[..8])
    );
}

#[test]
fn every_request_says_its_http_headers_and_the_last_frame_of_a_stream_is_marked() {
    // Both gates, then completion: a stream opened at creation stays open
    // through AUTH_REQUIRED, closes at INPUT_REQUIRED, and the
    // clarification's stream closes after COMPLETED.
    let mut e = with(|c| {
        c.auth_gate = 2;
        c.input_gate = 3;
    });
    run(&mut e, 100);
    e.apply(Action::Authorize).unwrap();
    run(&mut e, 100);
    e.apply(Action::SupplyClarification("ok".into())).unwrap();
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed);
    let t = wire::transcript(&e, START);
    let closing: Vec<String> = t
        .iter()
        .filter(|m| m.closes_stream)
        .map(|m| format!("{} {}", m.message["id"], wire::explain(m)))
        .collect();
    assert_eq!(closing.len(), 2, "{closing:#?}");
    assert!(closing[0].starts_with(
        "1 agent → client (SSE, the stream's last frame): statusUpdate TASK_STATE_INPUT_REQUIRED"
    ));
    assert!(closing[1].contains("statusUpdate TASK_STATE_COMPLETED"));
    assert!(closing
        .iter()
        .all(|c| c.contains(" (SSE, the stream's last frame): ")));
    // No other frame is said to be one.
    assert!(t
        .iter()
        .filter(|m| !m.closes_stream)
        .all(|m| !wire::explain(m).contains("last frame")));
    let last_frame = t
        .iter()
        .rev()
        .find(|m| m.transport == Transport::Sse)
        .unwrap();
    assert!(last_frame.closes_stream);
    // Each client request: POST to the card's URL with A2A-Version 1.0 (an
    // agent reads its absence as 0.3); a stream is asked for as SSE.
    // Each answer starts an HTTP response: a JSON-RPC reply (errors too,
    // with 200: JSON-RPC says them in its body), or the first frame of a
    // stream; a stream's later frames are in the same response.
    // Each frame of a stream is one server-sent event: a data line with the
    // JSON-RPC response, named by its id and the member it carries.
    let mut streams: Vec<&Value> = Vec::new();
    let mut members = Vec::new();
    for m in &t {
        let http = wire::http_request(m, false).map(|h| h.line);
        let response = wire::http_response(m, false).map(|h| h.line);
        let event = wire::sse_event(m);
        if m.transport == Transport::Sse {
            let member = m.message["result"]
                .as_object()
                .unwrap()
                .keys()
                .next()
                .unwrap();
            assert_eq!(
                event.unwrap(),
                format!(
                    "data: {{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{{\"{member}\":…}}}}",
                    m.message["id"]
                )
            );
            members.push(member.clone());
        } else {
            assert_eq!(event, None, "{}", wire::explain(m));
        }
        match m.from {
            Party::Agent => {
                assert_eq!(http, None);
                let content = match m.transport {
                    Transport::JsonRpc => Some("application/json"),
                    Transport::Sse if !streams.contains(&&m.message["id"]) => {
                        streams.push(&m.message["id"]);
                        Some("text/event-stream")
                    }
                    Transport::Sse => None,
                };
                assert_eq!(
                    response,
                    content.map(|c| format!("HTTP 200 OK · Content-Type: {c}")),
                    "{}",
                    wire::explain(m)
                );
            }
            Party::Client => {
                assert_eq!(response, None);
                let http = http.unwrap();
                let accept = match m.message["method"].as_str().unwrap() {
                    "SendStreamingMessage" | "SubscribeToTask" => "text/event-stream",
                    _ => "application/json",
                };
                assert_eq!(http, format!("POST {} · A2A-Version: 1.0 · Content-Type: application/json · Accept: {accept}", wire::AGENT_URL));
            }
        }
    }
    assert_eq!(
        wire::agent_card()["supportedInterfaces"][0]["url"],
        wire::AGENT_URL
    );
    for member in ["task", "statusUpdate", "artifactUpdate"] {
        assert!(members.iter().any(|m| m == member), "{members:?}");
    }
    let g = wire::get_task(&e, START, CORE);
    assert!(wire::http_request(&g[0], false)
        .unwrap()
        .line
        .ends_with("Accept: application/json"));
    assert_eq!(
        wire::http_response(&g[1], false).map(|h| h.line).as_deref(),
        Some("HTTP 200 OK · Content-Type: application/json")
    );
}

// ---- the pause proposal (the RFC), in both encodings -----------------------

use wire::PAUSE_EXTENSION;

const CORE: PauseEncoding = PauseEncoding::ProposedCore;
const ENCODINGS: [PauseEncoding; 2] = [PauseEncoding::ProposedCore, PauseEncoding::V1Extension];

/// The RFC's `TaskPause` fields (ProtoJSON names), `ResumeTask` params and
/// resumed-event metadata, exactly as the RFC spells them.
const PAUSE_FIELDS: [&str; 8] = [
    "initiatedBy",
    "reason",
    "pausedAt",
    "pausedUntil",
    "resumeToken",
    "resumable",
    "conditions",
    "resumeMode",
];
const RESUMED_META: [&str; 5] = [
    "previousState",
    "cause",
    "hadResumeInput",
    "continueTranscript",
    "resumedAt",
];
/// The v1.0 JSON-RPC methods a transcript may use.
const V1_METHODS: [&str; 5] = [
    "SendMessage",
    "SendStreamingMessage",
    "GetTask",
    "CancelTask",
    "SubscribeToTask",
];

#[test]
fn a_refused_cancel_that_names_the_paused_state_is_labelled_a_proposal() {
    for enc in ENCODINGS {
        let mut e = proposal(|c| {
            c.worker_accepts_cancellation = false;
            c.self_park_before = 2;
        });
        to_pause(&mut e);
        assert!(e.apply(Action::RequestCancellation).is_err());
        let seq = e.trace().last().unwrap().seq;
        let m = wire::entry_messages_in(&e, seq, START, enc);
        let err = &m[1].message["error"];
        assert_eq!(err["code"], -32002);
        assert_eq!(err["data"][0]["reason"], "TASK_NOT_CANCELABLE");
        let (payload_type, state) = match enc {
            PauseEncoding::ProposedCore => ("proposal:error", "TASK_STATE_PAUSED"),
            PauseEncoding::V1Extension => ("error", "TASK_STATE_WORKING"),
        };
        assert_eq!(m[1].payload_type, payload_type, "{enc:?}");
        assert_eq!(
            m[1].message["error"]["message"],
            format!("Task cannot be canceled - current state: {state}")
        );
        // A paused task's cancel is the proposal's in both encodings.
        let label = match enc {
            PauseEncoding::ProposedCore => ", proposal)",
            PauseEncoding::V1Extension => ", pause extension, a proposal)",
        };
        assert!(wire::explain(&m[1]).contains(label), "{enc:?}");
    }
}

fn proposal(f: impl FnOnce(&mut Config)) -> Experiment {
    with(|c| {
        c.pause_proposal = true;
        f(c)
    })
}

fn pr_merged() -> EventName {
    EventName::new("pr.merged").unwrap()
}

fn pause(e: &mut Experiment, mode: PauseMode, reason: &str) -> Result<Applied, Refusal> {
    e.apply(Action::PauseTask {
        mode,
        reason: reason.into(),
    })
}

fn resume(e: &mut Experiment, token: &str, input: Option<&str>) -> Result<Applied, Refusal> {
    e.apply(Action::ResumeTask {
        token: token.into(),
        input: input.map(Into::into),
        continue_transcript: true,
    })
}

fn steps(e: &mut Experiment, n: usize) {
    for _ in 0..n {
        e.apply(Action::Step).unwrap();
    }
}

fn to_pause(e: &mut Experiment) {
    while state(e) != TaskState::Paused {
        e.apply(Action::Step).unwrap();
    }
}

/// (a) PauseTask at a unit boundary, ResumeTask, completion.
fn scenario_a() -> Experiment {
    let mut e = proposal(|_| {});
    steps(&mut e, 3);
    pause(&mut e, PauseMode::FinishStep, "operator review").unwrap();
    steps(&mut e, 2);
    let t = e.resume_token().unwrap().to_string();
    resume(&mut e, &t, Some("ship it")).unwrap();
    run(&mut e, 100);
    e
}

/// (c) self-park on `pr.merged`: another event does nothing, the right one wakes it.
fn scenario_c() -> Experiment {
    let mut e = proposal(|c| (c.self_park_before, c.resume_event) = (2, pr_merged()));
    to_pause(&mut e);
    assert_eq!(
        e.apply(Action::FireEvent("ci.done".into())),
        Ok(Applied::Unchanged(NoChange::NoTaskWaitsForEvent))
    );
    e.apply(Action::FireEvent("pr.merged".into())).unwrap();
    run(&mut e, 100);
    e
}

/// (d) a 5-minute self-park timeout resumes the task with a summary, a
/// refused ResumeTask on the way, then a follow-up task.
fn scenario_d() -> Experiment {
    let mut e = proposal(|c| {
        (c.self_park_before, c.self_park_timeout) = (2, 5);
        c.on_timeout = OnTimeout::ResumeWithSummary;
    });
    to_pause(&mut e);
    assert!(resume(&mut e, "not-the-token", None).is_err());
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed);
    e.apply(Action::FollowUp).unwrap();
    run(&mut e, 100);
    e
}

/// (e) a 5-minute self-park timeout fails the task; ResumeTask and PauseTask after it are refused.
fn scenario_e() -> Experiment {
    let mut e = proposal(|c| {
        (c.self_park_before, c.self_park_timeout) = (2, 5);
        c.on_timeout = OnTimeout::Fail;
    });
    to_pause(&mut e);
    let t = e.resume_token().unwrap().to_string();
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Failed);
    assert_eq!(
        resume(&mut e, &t, None),
        Err(Refusal::NotPaused(TaskState::Failed))
    );
    assert!(pause(&mut e, PauseMode::FinishStep, "late").is_err());
    e
}

/// (f) two ResumeTask with one token.
fn scenario_f() -> Experiment {
    let mut e = proposal(|_| {});
    steps(&mut e, 3);
    pause(&mut e, PauseMode::FinishStep, "race").unwrap();
    let t = e.resume_token().unwrap().to_string();
    resume(&mut e, &t, None).unwrap();
    assert_eq!(resume(&mut e, &t, None), Err(Refusal::BadResumeToken));
    run(&mut e, 100);
    e
}

/// (h) PauseTask on a paused task.
fn scenario_h() -> Experiment {
    let mut e = proposal(|_| {});
    steps(&mut e, 6);
    pause(&mut e, PauseMode::FinishStep, "budget exceeded").unwrap();
    assert_eq!(
        pause(&mut e, PauseMode::InterruptImmediate, "again"),
        Ok(Applied::Unchanged(NoChange::AlreadyPaused))
    );
    e
}

fn sorted_keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().expect("object").keys().cloned().collect();
    k.sort();
    k
}

fn msgs_of(e: &Experiment, event: fn(&Event) -> bool, enc: PauseEncoding) -> Vec<WireMessage> {
    e.trace()
        .iter()
        .filter(|t| event(&t.event))
        .flat_map(|t| wire::entry_messages_in(e, t.seq, START, enc))
        .collect()
}

/// The pause object of a Task / statusUpdate in either encoding.
fn pause_of(v: &Value, enc: PauseEncoding) -> &Value {
    match enc {
        PauseEncoding::ProposedCore => &v["status"]["pause"],
        PauseEncoding::V1Extension => &v["metadata"][PAUSE_EXTENSION]["pause"],
    }
}

/// The resume metadata of a statusUpdate in either encoding.
fn resumed_of(u: &Value, enc: PauseEncoding) -> &Value {
    match enc {
        PauseEncoding::ProposedCore => &u["metadata"],
        PauseEncoding::V1Extension => &u["metadata"][PAUSE_EXTENSION],
    }
}

/// The RFC params of a PauseTask / ResumeTask request in either encoding.
fn params_of(m: &WireMessage, enc: PauseEncoding, name: &str) -> Value {
    match enc {
        PauseEncoding::ProposedCore => {
            assert_eq!(method(m), Some(name));
            m.message["params"].clone()
        }
        PauseEncoding::V1Extension => {
            assert_eq!(method(m), Some("SendMessage"));
            assert_eq!(
                m.message["params"]["configuration"]["returnImmediately"], true,
                "answered at once although the task stays WORKING"
            );
            let msg = &m.message["params"]["message"];
            assert_eq!(msg["extensions"], json!([PAUSE_EXTENSION]));
            assert_eq!(msg["role"], "ROLE_USER");
            assert!(msg["parts"][0]["text"].as_str().is_some());
            let x = &msg["metadata"][PAUSE_EXTENSION];
            assert_eq!(x["method"], name);
            x["params"].clone()
        }
    }
}

/// Every message's type fits its encoding: proposal shapes (PauseTask /
/// ResumeTask and their answers, frames with a pause or resume detail) are
/// marked `proposal:` in the core; the extension is plain v1.0 throughout.
fn assert_encoding_rules(t: &[WireMessage], enc: PauseEncoding) {
    let mut proposal_ids: Vec<&Value> = Vec::new();
    // Requests sent with the extension: their answers are its too.
    let mut extension_ids: Vec<&Value> = Vec::new();
    // Requests whose headers activate the extension.
    let mut asked: Vec<&Value> = Vec::new();
    for m in t {
        let text = m.message.to_string();
        let shape = match (method(m), m.transport) {
            (Some(me), _) => {
                let p = matches!(me, "PauseTask" | "ResumeTask" | "AwaitTaskResumption");
                if p {
                    proposal_ids.push(&m.message["id"]);
                }
                p
            }
            (None, transport) => {
                let detail = text.contains("\"pause\"") || text.contains("previousState");
                match transport {
                    Transport::JsonRpc => proposal_ids.contains(&&m.message["id"]) || detail,
                    Transport::Sse => detail,
                }
            }
        };
        match enc {
            PauseEncoding::ProposedCore => assert_eq!(
                m.payload_type.starts_with("proposal:"),
                shape,
                "{}",
                wire::explain(m)
            ),
            PauseEncoding::V1Extension => {
                assert!(!m.payload_type.starts_with("proposal:"), "{text}");
                if let Some(me) = method(m) {
                    assert!(V1_METHODS.contains(&me), "{me}");
                }
                // No v1.0 peer knows the state, not even as a string.
                assert!(!text.contains("TASK_STATE_PAUSED"), "{text}");
                // Plain v1.0, yet each line carrying the extension, or
                // answering a request that does, says it is the proposal's
                // (as does a transition only a pause makes: see
                // `transitions_only_the_pause_lifecycle_makes_…`).
                // (Its stream's last frame says so after the label.)
                let said = wire::explain(m).replace(", the stream's last frame)", ")");
                let answers_extension = method(m).is_none()
                    && m.transport == Transport::JsonRpc
                    && extension_ids.contains(&&m.message["id"]);
                if method(m).is_some() && carries_extension(&m.message) {
                    extension_ids.push(&m.message["id"]);
                }
                assert_eq!(
                    said.contains("(JSON-RPC, pause extension, a proposal)")
                        || said.contains("(SSE, pause extension, a proposal)"),
                    carries_extension(&m.message) || answers_extension || m.of_pause.is_some(),
                    "{said}"
                );
                // The client activates the extension on every request it
                // sends, so every stream or reply that carries it answers a
                // request that asked for it. Without that, only a request
                // using the extension would name it.
                let header = format!(" · A2A-Extensions: {PAUSE_EXTENSION}");
                let active = wire::activates_pause_extension(true, enc);
                assert!(active);
                if let Some(http) = wire::http_request(m, active) {
                    assert!(http.pause_extension);
                    assert!(http.line.ends_with(&header), "{http:?}");
                    asked.push(&m.message["id"]);
                } else if carries_extension(&m.message) {
                    assert!(asked.contains(&&m.message["id"]), "{text}");
                }
                // The agent echoes it in every response it starts.
                if let Some(http) = wire::http_response(m, active) {
                    assert!(http.pause_extension);
                    assert!(http.line.ends_with(&header), "{http:?}");
                }
                if let Some(http) = wire::http_request(m, false) {
                    assert_eq!(http.line.ends_with(&header), http.pause_extension);
                    assert_eq!(
                        http.pause_extension,
                        carries_extension(&m.message),
                        "{http:?}"
                    );
                }
                assert!(!matches!(error_code(m), Some(-32010 | -32011)));
            }
        }
    }
}

/// Where the pause extension can be in a v1.0 message: a PauseTask or
/// ResumeTask message, the metadata of a Task (its history's messages
/// included), a statusUpdate or a listed task, or an error's second detail.
fn carries_extension(v: &Value) -> bool {
    let has = |x: &Value| x["metadata"].get(PAUSE_EXTENSION).is_some();
    let any = |x: &Value| x.as_array().is_some_and(|a| a.iter().any(has));
    let (r, task) = (&v["result"], &v["result"]["task"]);
    has(&v["params"]["message"])
        || [r, task, &r["statusUpdate"]].into_iter().any(has)
        || [&r["history"], &task["history"], &r["tasks"]]
            .into_iter()
            .any(any)
        || v["error"]["data"][1]["metadata"]["extension"] == PAUSE_EXTENSION
}

#[test]
fn proposal_off_experiments_are_unchanged_in_every_encoding() {
    for e in all_scenarios() {
        // With the proposal off the two pause encodings have nothing to
        // encode: each message is the same in both.
        let (core, ext) = (PauseEncoding::ProposedCore, PauseEncoding::V1Extension);
        let plain = wire::to_jsonl(&wire::transcript_in(&e, START, core));
        assert_eq!(wire::to_jsonl(&wire::transcript_in(&e, START, ext)), plain);
        for t in e.trace() {
            assert_eq!(
                wire::entry_messages_in(&e, t.seq, START, ext),
                wire::entry_messages_in(&e, t.seq, START, core)
            );
        }
        assert!(!plain.contains("proposal:"));
        assert!(!plain.to_lowercase().contains("pause"));
        assert!(!plain.contains(PAUSE_EXTENSION));
    }
    // Pause actions refused because the proposal is off send nothing.
    let mut e = exp(cfg());
    steps(&mut e, 2);
    assert_eq!(
        pause(&mut e, PauseMode::FinishStep, "x"),
        Err(Refusal::ProposalOff)
    );
    assert_eq!(resume(&mut e, "t", None), Err(Refusal::ProposalOff));
    let last = e.trace().last().unwrap().seq;
    for enc in ENCODINGS {
        assert!(wire::entry_messages_in(&e, last, START, enc).is_empty());
    }
    assert_eq!(
        wire::agent_card_in(false, PauseEncoding::V1Extension),
        wire::agent_card_in(false, PauseEncoding::ProposedCore)
    );
}

#[test]
fn a_pause_reason_ending_in_a_full_stop_is_not_doubled_on_the_wire() {
    let mut e = proposal(|_| {});
    steps(&mut e, 3);
    pause(&mut e, PauseMode::FinishStep, "Operator review.").unwrap();
    let asked = |ev: &Event| matches!(ev, Event::PauseRequested { .. });
    let text = wire::to_jsonl(&msgs_of(&e, asked, PauseEncoding::V1Extension));
    assert!(
        text.contains("Pause this task (finish_step): Operator review.\""),
        "{text}"
    );
    assert!(!text.contains(".."), "{text}");
}

#[test]
fn the_answers_to_pause_task_and_await_task_resumption_are_named_for_their_call() {
    let mut named = Vec::new();
    for build in [scenario_a, scenario_c, scenario_e, scenario_f, scenario_h] {
        for m in wire::transcript(&build(), START) {
            let call = match m.payload_type {
                "proposal:PauseTaskResponse" => "PauseTask",
                "proposal:AwaitTaskResumptionResponse" => "AwaitTaskResumption",
                _ => continue,
            };
            let text = wire::explain(&m);
            assert!(text.contains(&format!("{call} result ")), "{text}");
            named.push(call);
        }
    }
    assert!(named.contains(&"PauseTask") && named.contains(&"AwaitTaskResumption"));
}

#[test]
fn get_task_and_subscribe_follow_the_pause_encoding_at_every_recorded_state() {
    for build in [scenario_a, scenario_c, scenario_e, scenario_f, scenario_h] {
        let mut e = build();
        let mut paused = 0;
        for ti in 0..e.tasks().len() {
            e.view_task(ti).unwrap();
            for pos in 0..e.viewed_task().records().len() {
                e.seek(pos).unwrap();
                paused += usize::from(e.snapshot().state == TaskState::Paused);
                for enc in ENCODINGS {
                    let mut m = wire::get_task(&e, START, enc);
                    m.extend(wire::subscribe(&e, START, enc));
                    assert_encoding_rules(&m, enc);
                }
            }
        }
        assert!(paused > 0, "the scenario views a paused state");
    }
}

#[test]
fn the_extension_keeps_pause_and_resume_messages_in_the_history() {
    let e = scenario_a();
    let calls = |enc| -> Vec<Value> {
        let m = wire::get_task(&e, START, enc);
        let history = m[1].message["result"]["history"].as_array().unwrap();
        history
            .iter()
            .filter_map(|h| h["metadata"][PAUSE_EXTENSION]["method"].as_str())
            .map(Value::from)
            .collect()
    };
    // As accepted SendMessages they are messages of the task, like the
    // clarification; the proposed core's PauseTask and ResumeTask are methods.
    assert_eq!(
        calls(PauseEncoding::V1Extension),
        vec![json!("PauseTask"), json!("ResumeTask")]
    );
    assert!(calls(PauseEncoding::ProposedCore).is_empty());
    // The history holds each as it was sent.
    let sent: Vec<Value> = wire::transcript_in(&e, START, PauseEncoding::V1Extension)
        .iter()
        .filter(|m| method(m) == Some("SendMessage"))
        .map(|m| m.message["params"]["message"].clone())
        .collect();
    let m = wire::get_task(&e, START, PauseEncoding::V1Extension);
    let history = m[1].message["result"]["history"].as_array().unwrap();
    for s in &sent {
        assert!(history.contains(s), "{s}");
    }
}

#[test]
fn a_resume_without_input_sends_none_after_one_with_input() {
    let mut e = proposal(|_| {});
    steps(&mut e, 3);
    pause(&mut e, PauseMode::FinishStep, "first").unwrap();
    let t = e.resume_token().unwrap().to_string();
    resume(&mut e, &t, Some("ship it")).unwrap();
    steps(&mut e, 3);
    pause(&mut e, PauseMode::FinishStep, "second").unwrap();
    let t = e.resume_token().unwrap().to_string();
    resume(&mut e, &t, None).unwrap();
    for enc in ENCODINGS {
        let r = msgs_of(&e, |v| matches!(v, Event::ResumeRequested { .. }), enc);
        assert_eq!(r.len(), 6, "two resumes: request, Task, statusUpdate each");
        let (first, second) = (
            params_of(&r[0], enc, "ResumeTask"),
            params_of(&r[3], enc, "ResumeTask"),
        );
        assert_eq!(first["input"], "ship it");
        assert!(second.get("input").is_none(), "{second}");
        let meta = resumed_of(&r[5].message["result"]["statusUpdate"], enc);
        assert_eq!(meta["hadResumeInput"], false);
        if enc == PauseEncoding::V1Extension {
            // The history keeps each message as it was sent.
            let m = wire::get_task(&e, START, enc);
            let kept: Vec<&Value> = m[1].message["result"]["history"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|h| h["metadata"][PAUSE_EXTENSION]["method"] == "ResumeTask")
                .collect();
            assert_eq!(kept.len(), 2);
            assert!(kept[1]["metadata"][PAUSE_EXTENSION]["params"]
                .get("input")
                .is_none());
            assert_eq!(kept[1]["parts"][0]["text"], "Resume this task.");
        }
    }
}

#[test]
fn proposal_transcripts_are_deterministic_and_entries_add_up() {
    let all = [
        scenario_a, scenario_c, scenario_d, scenario_e, scenario_f, scenario_h,
    ];
    for build in all {
        for enc in ENCODINGS {
            let (a, b) = (build(), build());
            let ta = wire::transcript_in(&a, START, enc);
            assert_eq!(
                wire::to_jsonl(&ta),
                wire::to_jsonl(&wire::transcript_in(&b, START, enc))
            );
            let by_entry: Vec<WireMessage> = a
                .trace()
                .iter()
                .flat_map(|t| wire::entry_messages_in(&a, t.seq, START, enc))
                .collect();
            assert_eq!(by_entry, ta);
            assert_encoding_rules(&ta, enc);
            // Status timestamps never go back, waiting minutes included.
            let mut ts = Vec::new();
            for m in &ta {
                timestamps(&m.message, &mut ts);
            }
            assert!(ts.windows(2).all(|w| w[0] <= w[1]), "{ts:?}");
            for m in &ta {
                assert!(!wire::explain(m).is_empty());
            }
        }
        // The default encoding is the proposed core.
        let e = build();
        assert_eq!(
            wire::transcript(&e, START),
            wire::transcript_in(&e, START, PauseEncoding::default())
        );
    }
}

/// A reason of nothing readable (spaces, a zero-width space) is sent as none,
/// and the pause carries none: the request and the pause agree.
#[test]
fn a_blank_pause_reason_or_resume_input_is_left_out() {
    let mut e = proposal(|_| {});
    steps(&mut e, 3);
    pause(&mut e, PauseMode::FinishStep, " \u{200B}").unwrap();
    for enc in ENCODINGS {
        let p = msgs_of(&e, |v| matches!(v, Event::PauseRequested { .. }), enc);
        let params = params_of(&p[0], enc, "PauseTask");
        assert_eq!(sorted_keys(&params), ["mode", "taskId"]);
        let answer = &p[1].message["result"];
        let pz = match enc {
            PauseEncoding::ProposedCore => &answer["pause"],
            PauseEncoding::V1Extension => pause_of(&answer["task"], enc),
        };
        assert_eq!(pz["initiatedBy"], "PAUSE_INITIATOR_CLIENT");
        assert!(pz.get("reason").is_none(), "{pz}");
    }
    // So is a resume input, on a ResumeTask refused as well as on one accepted.
    let refused = e.apply(Action::ResumeTask {
        token: "not-the-token".into(),
        input: Some("\u{200B} ".into()),
        continue_transcript: true,
    });
    assert_eq!(refused, Err(Refusal::BadResumeToken));
    let t = e.resume_token().unwrap().to_string();
    e.apply(Action::ResumeTask {
        token: t,
        input: Some("  ".into()),
        continue_transcript: true,
    })
    .unwrap();
    for enc in ENCODINGS {
        let r = msgs_of(&e, |v| matches!(v, Event::ResumeRequested { .. }), enc);
        let requests: Vec<_> = r.iter().filter(|m| m.from == Party::Client).collect();
        assert_eq!(
            requests.len(),
            2,
            "the refused request and the accepted one"
        );
        for m in requests {
            let params = params_of(m, enc, "ResumeTask");
            assert!(params.get("input").is_none(), "{params}");
        }
    }
}

#[test]
fn a_pause_and_resume_in_both_encodings() {
    let e = scenario_a();
    let token = {
        let mut x = e.clone();
        let i = x
            .viewed_task()
            .records()
            .iter()
            .position(|r| r.snap.pause.is_some());
        x.seek(i.unwrap()).unwrap();
        x.resume_token().unwrap().to_string()
    };
    for enc in ENCODINGS {
        let core = enc == PauseEncoding::ProposedCore;
        let p = msgs_of(&e, |v| matches!(v, Event::PauseRequested { .. }), enc);
        assert_eq!(p.len(), 3, "request, answer, paused statusUpdate");
        let params = params_of(&p[0], enc, "PauseTask");
        assert_eq!(sorted_keys(&params), ["mode", "reason", "taskId"]);
        assert_eq!(params["mode"], "finish_step");
        assert_eq!(params["reason"], "operator review");
        let answer = &p[1].message["result"];
        let pz = if core {
            assert_eq!(p[0].payload_type, "proposal:PauseTaskRequest");
            assert_eq!(p[1].payload_type, "proposal:PauseTaskResponse");
            assert_eq!(sorted_keys(answer), ["pause", "state", "taskId"]);
            assert_eq!(answer["state"], "TASK_STATE_PAUSED");
            &answer["pause"]
        } else {
            assert_eq!(p[1].payload_type, "SendMessageResponse");
            assert_eq!(answer["task"]["status"]["state"], "TASK_STATE_WORKING");
            pause_of(&answer["task"], enc)
        };
        assert_eq!(
            sorted_keys(pz),
            [
                "initiatedBy",
                "pausedAt",
                "reason",
                "resumable",
                "resumeToken"
            ]
        );
        assert_eq!(pz["initiatedBy"], "PAUSE_INITIATOR_CLIENT");
        assert_eq!(pz["reason"], "operator review");
        assert_eq!(pz["resumeToken"], token.as_str());
        assert_eq!(pz["resumable"], true);
        let u = &p[2].message["result"]["statusUpdate"];
        assert_eq!(p[2].transport, Transport::Sse);
        assert_eq!(rpc_id(&p[2]), 1, "on the creation's stream");
        let st = if core {
            "TASK_STATE_PAUSED"
        } else {
            "TASK_STATE_WORKING"
        };
        assert_eq!(u["status"]["state"], st);
        assert_eq!(pause_of(u, enc), pz);

        // Waiting minutes send nothing.
        assert!(msgs_of(&e, |v| *v == Event::Waited, enc).is_empty());

        let r = msgs_of(&e, |v| matches!(v, Event::ResumeRequested { .. }), enc);
        assert_eq!(r.len(), 3);
        let params = params_of(&r[0], enc, "ResumeTask");
        assert_eq!(
            sorted_keys(&params),
            ["continueTranscript", "input", "resumeToken", "taskId"]
        );
        assert_eq!(params["resumeToken"], token.as_str());
        assert_eq!(params["input"], "ship it");
        assert_eq!(params["continueTranscript"], true);
        let task = if core {
            assert_eq!(r[1].payload_type, "proposal:Task");
            &r[1].message["result"]
        } else {
            &r[1].message["result"]["task"]
        };
        assert_eq!(task["status"]["state"], "TASK_STATE_WORKING");
        assert!(pause_of(task, enc).is_null());
        let u = &r[2].message["result"]["statusUpdate"];
        let meta = resumed_of(u, enc);
        // The extension says no TASK_STATE_PAUSED: its task was WORKING.
        let mut want: Vec<&str> = RESUMED_META
            .iter()
            .copied()
            .filter(|&k| core || k != "previousState")
            .collect();
        want.sort();
        assert_eq!(sorted_keys(meta), want);
        let previous = if core {
            json!("TASK_STATE_PAUSED")
        } else {
            Value::Null
        };
        assert_eq!(meta["previousState"], previous);
        assert_eq!(meta["cause"], "explicit_resume");
        assert_eq!(meta["hadResumeInput"], true);
        assert_eq!(meta["resumedAt"], u["status"]["timestamp"]);
        let said = wire::explain(&r[2]);
        assert!(said.ends_with("(resumed by ResumeTask)"), "{said}");

        // Completion as usual: artifact (with the resume input), then COMPLETED.
        let t = wire::transcript_in(&e, START, enc);
        let n = t.len();
        assert_eq!(t[n - 2].payload_type, "StreamResponse");
        let a = &t[n - 2].message["result"]["artifactUpdate"]["artifact"];
        assert!(a["parts"][0]["text"].as_str().unwrap().contains("ship it"));
        let done = &t[n - 1].message["result"]["statusUpdate"]["status"];
        assert_eq!(done["state"], "TASK_STATE_COMPLETED");
    }
}

#[test]
fn c_condition_fires_in_both_encodings() {
    let e = scenario_c();
    for enc in ENCODINGS {
        let s = msgs_of(&e, |v| matches!(v, Event::SelfParked { .. }), enc);
        let s = if enc == PauseEncoding::ProposedCore {
            // The RFC's AwaitTaskResumption (peer → client) and its answer come first.
            assert_eq!(s.len(), 3);
            let ask = &s[0].message;
            assert_eq!(
                (s[0].from, s[0].payload_type),
                (Party::Agent, "proposal:AwaitTaskResumptionRequest")
            );
            assert_eq!(ask["method"], "AwaitTaskResumption");
            assert_eq!(ask["params"]["conditions"], json!({"onEvent": "pr.merged"}));
            assert!(ask["params"]["reason"].is_string() && ask["params"]["summary"].is_string());
            assert_eq!(s[1].message["id"], ask["id"]);
            assert_eq!(s[1].message["result"]["state"], "TASK_STATE_PAUSED");
            assert_eq!(s[1].payload_type, "proposal:AwaitTaskResumptionResponse");
            s[2..].to_vec()
        } else {
            assert_eq!(
                s.len(),
                1,
                "the extension has no method for it: one statusUpdate"
            );
            s
        };
        assert_eq!(s[0].from, Party::Agent);
        let pz = pause_of(&s[0].message["result"]["statusUpdate"], enc);
        for k in sorted_keys(pz) {
            assert!(PAUSE_FIELDS.contains(&k.as_str()), "{k}");
        }
        assert_eq!(pz["initiatedBy"], "PAUSE_INITIATOR_AGENT");
        assert_eq!(pz["conditions"], json!({"onEvent": "pr.merged"}));
        assert_eq!(pz["resumeMode"], "RESUME_MODE_EXTERNAL_EVENT");
        assert_eq!(pz["resumable"], true);
        assert!(pz.get("pausedUntil").is_none());
        // The wrong event is not on the wire; the right one resumes.
        let f = msgs_of(&e, |v| *v == Event::EventFired, enc);
        assert_eq!(f.len(), 1);
        let u = &f[0].message["result"]["statusUpdate"];
        assert_eq!(u["status"]["state"], "TASK_STATE_WORKING");
        assert_eq!(resumed_of(u, enc)["cause"], "condition_fired");
        assert_eq!(resumed_of(u, enc)["hadResumeInput"], false);
        let said = wire::explain(&f[0]);
        assert!(said.ends_with("(resumed: its event fired)"), "{said}");
    }
}

#[test]
fn a_task_failed_by_a_pause_timeout_is_labelled_the_proposals_when_read_later() {
    // GetTask, ListTasks and SubscribeToTask answer with plain v1.0 shapes,
    // but the status they carry (and its message) is the self-park's.
    let e = scenario_e();
    for enc in ENCODINGS {
        let label = match enc {
            PauseEncoding::ProposedCore => ", proposal)",
            PauseEncoding::V1Extension => ", pause extension, a proposal)",
        };
        for m in [
            wire::get_task(&e, START, enc),
            wire::list_tasks(&e, START, enc),
        ] {
            assert!(
                wire::explain(&m[1]).contains(label),
                "{enc:?}: {}",
                wire::explain(&m[1])
            );
        }
    }
    // A timeout that resumed the task: its status stays the timeout's over
    // the seconds worked after it, and so does the label.
    let mut resumed = proposal(|c| {
        (c.self_park_before, c.self_park_timeout) = (2, 5);
        c.on_timeout = OnTimeout::ResumeWithSummary;
    });
    to_pause(&mut resumed);
    while resumed.trace().last().unwrap().event != Event::TimedOut {
        resumed.apply(Action::Step).unwrap();
    }
    resumed.apply(Action::Step).unwrap();
    assert!(matches!(
        resumed.trace().last().unwrap().event,
        Event::Worked { .. }
    ));
    let m = wire::get_task(&resumed, START, CORE);
    assert!(
        wire::explain(&m[1]).contains(", proposal)"),
        "{}",
        wire::explain(&m[1])
    );
    // A task that failed on its own is not.
    let mut plain = exp(Config {
        fail_during: 1,
        ..cfg()
    });
    run(&mut plain, 100);
    assert_eq!(state(&plain), TaskState::Failed);
    let m = wire::get_task(&plain, START, CORE);
    assert!(
        !wire::explain(&m[1]).contains("proposal"),
        "{}",
        wire::explain(&m[1])
    );
}

#[test]
fn e_timeout_fail_in_both_encodings() {
    let e = scenario_e();
    for enc in ENCODINGS {
        let core = enc == PauseEncoding::ProposedCore;
        let s = msgs_of(&e, |v| matches!(v, Event::SelfParked { .. }), enc);
        let pz = pause_of(&s.last().unwrap().message["result"]["statusUpdate"], enc);
        assert_eq!(
            pz["conditions"],
            json!({"timeout": {"durationMinutes": 5, "onTimeout": "fail"}})
        );
        // The timeout fails the task: only the client's ResumeTask resumes it.
        assert_eq!(pz["resumeMode"], "RESUME_MODE_CLIENT_MESSAGE");
        let t = msgs_of(&e, |v| *v == Event::TimedOut, enc);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].payload_type, "StreamResponse", "a plain v1.0 FAILED");
        let status = &t[0].message["result"]["statusUpdate"]["status"];
        assert_eq!(status["state"], "TASK_STATE_FAILED");
        assert_eq!(
            status["message"]["parts"][0]["text"],
            "The self-park timed out after 5 minutes; the task failed."
        );
        // The lease is exactly its 5 minutes from pausedAt, which came a
        // millisecond after the unit finished in the same second; the
        // timeout fires when it ends, never before.
        let at = pz["pausedAt"].as_str().unwrap();
        assert_eq!(at, "2026-01-01T00:00:03.001Z");
        let until = pz["pausedUntil"].as_str().unwrap();
        assert_eq!(until, "2026-01-01T00:05:03.001Z");
        let fired = status["timestamp"].as_str().unwrap();
        assert_eq!(fired, until);
        // The later ResumeTask, with the pause's own token, and PauseTask:
        // both -32010, the task is terminal.
        let r = msgs_of(&e, |v| matches!(v, Event::ResumeRequested { .. }), enc);
        let p = msgs_of(&e, |v| matches!(v, Event::PauseRequested { .. }), enc);
        let token = pz["resumeToken"].as_str().unwrap();
        assert_eq!(params_of(&r[0], enc, "ResumeTask")["resumeToken"], token);
        let tid = e.tasks()[0].id.as_str();
        for (m, code, reason) in [
            (&r[1], -32010, "PAUSE_NOT_ALLOWED"),
            (&p[1], -32010, "PAUSE_NOT_ALLOWED"),
        ] {
            let err = &m.message["error"];
            let info = &err["data"][0];
            // The RFC proposes the codes only: their reasons are the
            // simulator's, in its own domain.
            let domain = if core {
                "a2a-control-room.example"
            } else {
                "a2a-protocol.org"
            };
            assert_eq!(info["domain"], domain);
            assert_eq!(
                err["data"].as_array().unwrap().len(),
                1,
                "one ErrorInfo (AIP-193)"
            );
            if core {
                assert_eq!(info["metadata"], json!({"taskId": tid}));
                assert_eq!(m.payload_type, "proposal:error");
                assert_eq!(
                    (&err["code"], &info["reason"]),
                    (&json!(code), &json!(reason))
                );
                // The friendly line says whose the name is.
                assert!(wire::explain(m).starts_with(
                    "agent → client (JSON-RPC, proposal): error -32010 PauseNotAllowedError (proposal) — “"
                ));
                assert!(wire::explain(m).ends_with(
                    "” (the proposal gives only the code: the name, message and reason are this simulator's)"
                ));
            } else {
                assert!(!wire::explain(m).contains("this simulator's"));
                assert_eq!(m.payload_type, "error");
                assert_eq!(err["code"], -32004);
                assert_eq!(info["reason"], "UNSUPPORTED_OPERATION");
                // A plain SendMessage to a terminal task, refused as any is.
                let said = format!("Task {tid} is in terminal state: TASK_STATE_FAILED");
                assert_eq!(err["message"], said);
                // The proposal's reason and code, in the A2A ErrorInfo's metadata.
                assert_eq!(
                    info["metadata"],
                    json!({
                        "taskId": tid,
                        "extension": PAUSE_EXTENSION,
                        "proposedReason": reason,
                        "proposedCode": code.to_string(),
                    })
                );
            }
        }
    }
}

#[test]
fn a_resume_the_state_refuses_says_so_in_the_extensions_v1_error() {
    // ResumeTask on a working task that was never paused: -32010 in the
    // proposed core; in the extension, v1.0's -32004 in -32010's words.
    let mut e = proposal(|_| {});
    steps(&mut e, 2);
    assert!(resume(&mut e, "not-a-token", None).is_err());
    for enc in ENCODINGS {
        let r = msgs_of(&e, |v| matches!(v, Event::ResumeRequested { .. }), enc);
        assert_eq!(r.len(), 2, "request, error");
        let err = &r[1].message["error"];
        let code = match enc {
            PauseEncoding::ProposedCore => -32010,
            PauseEncoding::V1Extension => -32004,
        };
        assert_eq!(err["code"], code);
        assert_eq!(
            err["message"],
            "Task is in a state that does not allow pause or resume"
        );
    }
}

#[test]
fn f_double_resume_in_both_encodings() {
    let e = scenario_f();
    for enc in ENCODINGS {
        let r = msgs_of(&e, |v| matches!(v, Event::ResumeRequested { .. }), enc);
        assert_eq!(
            r.len(),
            5,
            "first: request, Task, statusUpdate; second: request, error"
        );
        let first = params_of(&r[0], enc, "ResumeTask");
        let second = params_of(&r[3], enc, "ResumeTask");
        assert_eq!(first["resumeToken"], second["resumeToken"]);
        // A v1.0 peer has no -32011: the wrong token is a bad parameter,
        // with the proposal's reason in the metadata of its one ErrorInfo.
        let want = if enc == PauseEncoding::ProposedCore {
            -32011
        } else {
            let data = &r[4].message["error"]["data"];
            // In the proposed code's words, not -32602's "Invalid parameters".
            assert_eq!(
                r[4].message["error"]["message"],
                "Resume token is wrong or already used"
            );
            assert_eq!(
                (&data[0]["reason"], &data[0]["domain"]),
                (&json!("INVALID_PARAMS"), &json!("a2a-protocol.org"))
            );
            assert_eq!(data.as_array().unwrap().len(), 1);
            assert_eq!(
                data[0]["metadata"]["proposedReason"],
                "RESUME_TOKEN_INVALID"
            );
            assert_eq!(data[0]["metadata"]["proposedCode"], "-32011");
            -32602
        };
        assert_eq!(error_code(&r[4]), Some(want));
        assert_eq!(
            resumed_of(&r[2].message["result"]["statusUpdate"], enc)["cause"],
            "explicit_resume"
        );
        let t = wire::transcript_in(&e, START, enc);
        let last = &t.last().unwrap().message["result"]["statusUpdate"]["status"];
        assert_eq!(last["state"], "TASK_STATE_COMPLETED", "the task runs on");
    }
}

#[test]
fn refused_pause_and_resume_requests_show_what_was_sent() {
    let mut e = proposal(|c| c.input_gate = 2);
    while state(&e) != TaskState::InputRequired {
        e.apply(Action::Step).unwrap();
    }
    let refused = pause(&mut e, PauseMode::FinishStep, "quota check");
    assert_eq!(refused, Err(Refusal::NotPausable(TaskState::InputRequired)));
    let p_seq = e.trace().last().unwrap().seq;
    e.apply(Action::SupplyClarification("EU only".into()))
        .unwrap();
    pause(&mut e, PauseMode::InterruptImmediate, "").unwrap();
    let bad = resume(&mut e, "not-the-token", Some("carry on"));
    assert_eq!(bad, Err(Refusal::BadResumeToken));
    let r_seq = e.trace().last().unwrap().seq;
    for enc in ENCODINGS {
        let p = wire::entry_messages_in(&e, p_seq, START, enc);
        let params = params_of(&p[0], enc, "PauseTask");
        assert_eq!(params["reason"], "quota check");
        let r = wire::entry_messages_in(&e, r_seq, START, enc);
        let params = params_of(&r[0], enc, "ResumeTask");
        assert_eq!(params["resumeToken"], "not-the-token");
        assert_eq!(params["input"], "carry on");
    }
    // Branching from before them drops what they sent with them.
    assert!(e.sent(p_seq).is_some());
    e.seek(1).unwrap();
    e.apply(Action::Step).unwrap();
    assert!(e.trace().iter().all(|t| t.seq != p_seq));
    assert_eq!((e.sent(p_seq), e.sent(r_seq)), (None, None));
}

#[test]
fn h_re_pause_returns_the_current_pause_in_both_encodings() {
    let e = scenario_h();
    let entries: Vec<&TraceEntry> = e
        .trace()
        .iter()
        .filter(|t| matches!(t.event, Event::PauseRequested { .. }))
        .collect();
    assert_eq!(
        entries[1].outcome,
        Outcome::Unchanged(NoChange::AlreadyPaused)
    );
    for enc in ENCODINGS {
        let first = wire::entry_messages_in(&e, entries[0].seq, START, enc);
        let again = wire::entry_messages_in(&e, entries[1].seq, START, enc);
        assert_eq!(first.len(), 3);
        assert_eq!(again.len(), 2, "no new stream event");
        let params = params_of(&again[0], enc, "PauseTask");
        assert_eq!(params["mode"], "interrupt_immediate");
        assert_eq!(params["reason"], "again", "the repeat as sent");
        // The same task and pause (in the extension without its history,
        // which the client asks for none of).
        let (one, two) = (&first[1].message["result"], &again[1].message["result"]);
        assert_eq!(one, two);
        let a = &again[1].message["result"];
        let pz = match enc {
            PauseEncoding::ProposedCore => &a["pause"],
            PauseEncoding::V1Extension => pause_of(&a["task"], enc),
        };
        assert_eq!(pz["reason"], "budget exceeded");
    }
}

#[test]
fn a_pending_pause_answers_working_and_pauses_on_the_stream_later() {
    for mode in [PauseMode::FinishStep, PauseMode::WaitForCompletion] {
        let mut e = proposal(|_| {});
        steps(&mut e, 4);
        pause(&mut e, mode, "later").unwrap();
        to_pause(&mut e);
        let t = e.resume_token().unwrap().to_string();
        resume(&mut e, &t, None).unwrap();
        run(&mut e, 100);
        assert_eq!(state(&e), TaskState::Completed);
        for enc in ENCODINGS {
            let p = msgs_of(&e, |v| matches!(v, Event::PauseRequested { .. }), enc);
            assert_eq!(p.len(), 2, "no statusUpdate yet");
            let a = &p[1].message["result"];
            match enc {
                PauseEncoding::ProposedCore => {
                    assert_eq!(sorted_keys(a), ["state", "taskId"]);
                    assert_eq!(a["state"], "TASK_STATE_WORKING");
                }
                PauseEncoding::V1Extension => {
                    assert!(a["task"].get("metadata").is_none())
                }
            }
            let took = msgs_of(&e, |v| matches!(v, Event::PauseTookEffect { .. }), enc);
            assert_eq!(took.len(), 1);
            let pz = pause_of(&took[0].message["result"]["statusUpdate"], enc);
            assert_eq!(pz["initiatedBy"], "PAUSE_INITIATOR_CLIENT");
            assert_eq!(pz["reason"], "later");
            let done = msgs_of(&e, |v| *v == Event::CompletedAfterResume, enc);
            let n = if mode == PauseMode::WaitForCompletion {
                2
            } else {
                0
            };
            assert_eq!(done.len(), n, "artifactUpdate + COMPLETED after the resume");
        }
    }
}

#[test]
fn agent_cards_declare_the_proposal() {
    let core = wire::agent_card_in(true, PauseEncoding::ProposedCore);
    assert_eq!(
        core["capabilities"],
        json!({
            "streaming": true, "pushNotifications": false,
            "supportsPause": true, "supportsAwaitResumption": true,
            "resumeCauses": ["explicit_resume", "condition_fired", "timeout"],
        })
    );
    let ext = wire::agent_card_in(true, PauseEncoding::V1Extension);
    let x = &ext["capabilities"]["extensions"];
    assert_eq!(x.as_array().unwrap().len(), 1);
    assert_eq!(x[0]["uri"], PAUSE_EXTENSION);
    assert!(x[0]["description"].as_str().is_some());
    assert!(
        x[0].get("required").is_none(),
        "false is the ProtoJSON default"
    );
    assert_eq!(x[0]["params"]["supportsPause"], true);
    assert!(ext["capabilities"].get("supportsPause").is_none());
    let mut k = Vec::new();
    keys(&x[0], &mut k);
    assert!(k.iter().all(|k| k != "required"));
}

/// The `status.timestamp` of every statusUpdate and Task the stream carried
/// up to the viewed state, the last one last.
fn streamed_status_times(e: &Experiment, enc: PauseEncoding) -> Vec<Value> {
    wire::transcript_in(e, START, enc)
        .iter()
        .filter(|m| m.entry.is_some_and(|s| s <= e.viewed_record().id))
        .filter_map(|m| {
            let r = &m.message["result"];
            let s = r["statusUpdate"]["status"].get("timestamp");
            s.or(r["task"]["status"].get("timestamp")).cloned()
        })
        .collect()
}

#[test]
fn get_task_and_list_tasks_carry_the_time_the_status_was_sent_not_the_latest_second() {
    // Worked seconds, an input gate, a pending pause, waited minutes and a
    // resume: only the changes are streamed.
    let mut e = proposal(|c| c.input_gate = 2);
    while state(&e) != TaskState::InputRequired {
        e.apply(Action::Step).unwrap();
    }
    e.apply(Action::SupplyClarification("EU".into())).unwrap();
    steps(&mut e, 1);
    pause(&mut e, PauseMode::FinishStep, "review").unwrap();
    to_pause(&mut e);
    steps(&mut e, 2);
    let t = e.resume_token().unwrap().to_string();
    resume(&mut e, &t, None).unwrap();
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed);
    let last = e.viewed_task().records().len();
    let mut silent = 0;
    for pos in 0..last {
        e.seek(pos).unwrap();
        for enc in ENCODINGS {
            let sent = streamed_status_times(&e, enc);
            let got = &wire::get_task(&e, START, enc)[1].message["result"]["status"]["timestamp"];
            assert_eq!(Some(got), sent.last(), "GetTask at state {pos}");
            let listed = &wire::list_tasks(&e, START, enc)[1].message["result"]["tasks"][0];
            assert_eq!(
                &listed["status"]["timestamp"], got,
                "ListTasks at state {pos}"
            );
        }
        silent += usize::from(matches!(
            e.viewed_task().records()[pos].snap.state,
            TaskState::Working
        ));
    }
    assert!(silent > 5, "worked seconds were checked");
}

#[test]
fn a_subscription_stays_open_while_the_task_works_or_waits_for_authorization() {
    let mut e = with(|c| c.auth_gate = 2);
    run(&mut e, 1);
    assert_eq!(state(&e), TaskState::Working);
    assert!(!wire::subscribe(&e, START, CORE)[1].closes_stream);
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::AuthRequired);
    let s = wire::subscribe(&e, START, CORE);
    assert_eq!(
        s[1].message["result"]["task"]["status"]["state"],
        "TASK_STATE_AUTH_REQUIRED"
    );
    assert!(
        !s[1].closes_stream,
        "authorization comes out of band; the stream stays open"
    );
}

#[test]
fn an_earlier_task_as_it_is_now_refuses_what_a_client_sends_it() {
    let mut e = with(|_| {});
    run(&mut e, 100);
    let first = e.tasks()[0].id.clone();
    e.apply(Action::FollowUp).unwrap();
    e.view_task(0).unwrap();
    let _ = e.apply(Action::RequestCancellation);
    let _ = e.apply(Action::SupplyClarification("to the first task".into()));
    let all = wire::transcript(&e, START);
    let n = all.len();
    let tail: Vec<&str> = all[n - 4..].iter().map(|m| m.payload_type).collect();
    assert_eq!(
        tail,
        ["CancelTaskRequest", "error", "SendMessageRequest", "error"]
    );
    assert_eq!(all[n - 4].message["params"]["id"], json!(first));
    assert_eq!(all[n - 3].message["error"]["code"], json!(-32002));
    assert_eq!(
        all[n - 2].message["params"]["message"]["taskId"],
        json!(first)
    );
    assert_eq!(all[n - 1].message["error"]["code"], json!(-32004));
}

#[test]
fn the_task_a_resume_returns_has_its_history_unless_the_client_asked_for_none() {
    for enc in ENCODINGS {
        let mut e = with(|c| c.pause_proposal = true);
        run(&mut e, 1);
        e.apply(Action::PauseTask {
            mode: PauseMode::InterruptImmediate,
            reason: "Review first.".into(),
        })
        .unwrap();
        let token = e.resume_token().unwrap().to_string();
        e.apply(Action::ResumeTask {
            token,
            input: None,
            continue_transcript: true,
        })
        .unwrap();
        let t = wire::transcript_in(&e, START, enc);
        let replies: Vec<&Value> = t
            .iter()
            .filter(|m| m.transport == Transport::JsonRpc && method(m).is_none())
            .map(|m| &m.message["result"])
            .map(|r| r.get("task").unwrap_or(r))
            .filter(|task| task.get("status").is_some())
            .collect();
        // The resume's Task (and, in the extension, the pause's SendMessage
        // reply as well).
        let expected = if enc == PauseEncoding::V1Extension {
            2
        } else {
            1
        };
        assert_eq!(replies.len(), expected, "{enc:?}: {replies:?}");
        // In the extension, each pause and resume is a message the task
        // keeps: the client asks for no history (historyLength 0), else
        // every answer would repeat all those before it.
        let asked: Vec<&Value> = t
            .iter()
            .filter(|m| method(m) == Some("SendMessage"))
            .map(|m| &m.message["params"]["configuration"]["historyLength"])
            .collect();
        let expected: &[i32] = match enc {
            PauseEncoding::ProposedCore => &[],
            PauseEncoding::V1Extension => &[0, 0],
        };
        assert_eq!(asked, expected, "{enc:?}");
        for task in replies {
            match enc {
                PauseEncoding::ProposedCore => {
                    assert_eq!(task["history"][0]["role"], "ROLE_USER", "{task}")
                }
                PauseEncoding::V1Extension => assert!(task.get("history").is_none(), "{task}"),
            }
        }
    }
    // The task keeps them all the same: GetTask shows each.
    let mut e = with(|c| c.pause_proposal = true);
    run(&mut e, 1);
    pause(&mut e, PauseMode::InterruptImmediate, "Review first.").unwrap();
    let token = e.resume_token().unwrap().to_string();
    resume(&mut e, &token, None).unwrap();
    let got = wire::get_task(&e, START, PauseEncoding::V1Extension);
    let calls: Vec<&str> = got[1].message["result"]["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h["metadata"][PAUSE_EXTENSION]["method"].as_str())
        .collect();
    assert_eq!(calls, ["PauseTask", "ResumeTask"]);
}

#[test]
fn many_pauses_and_resumes_export_in_linear_size() {
    // Each answer of the extension carries no history, so a transcript grows
    // with the run, not with its square.
    let size = |cycles: usize| {
        let mut e = with(|c| c.pause_proposal = true);
        run(&mut e, 1);
        for _ in 0..cycles {
            pause(&mut e, PauseMode::InterruptImmediate, "r").unwrap();
            let token = e.resume_token().unwrap().to_string();
            resume(&mut e, &token, None).unwrap();
        }
        wire::to_jsonl(&wire::transcript_in(&e, START, PauseEncoding::V1Extension)).len()
    };
    let (small, large) = (size(50), size(200));
    assert!(large < small * 5, "{small} bytes for 50, {large} for 200");
}

#[test]
fn transitions_only_the_pause_lifecycle_makes_are_said_to_be_the_proposals() {
    // A pause's timeout failing the task; a paused task canceled; the
    // completion a wait_for_completion resume lets happen. Their JSON is
    // plain v1.0 (read by the strict check), yet the page says whose they are.
    let timed_out = scenario_e();
    let mut canceled = proposal(|_| {});
    steps(&mut canceled, 3);
    pause(&mut canceled, PauseMode::FinishStep, "hold").unwrap();
    canceled.apply(Action::RequestCancellation).unwrap();
    let mut completed = proposal(|_| {});
    steps(&mut completed, 4);
    pause(&mut completed, PauseMode::WaitForCompletion, "later").unwrap();
    to_pause(&mut completed);
    let t = completed.resume_token().unwrap().to_string();
    resume(&mut completed, &t, None).unwrap();
    run(&mut completed, 100);
    let cases = [
        (&timed_out, Event::TimedOut, 1, "TASK_STATE_FAILED"),
        (&canceled, Event::CancelRequested, 3, "TASK_STATE_CANCELED"),
        (
            &completed,
            Event::CompletedAfterResume,
            2,
            "TASK_STATE_COMPLETED",
        ),
    ];
    for (e, event, n, ended) in cases {
        for enc in ENCODINGS {
            let m: Vec<WireMessage> = e
                .trace()
                .iter()
                .filter(|t| t.event == event)
                .flat_map(|t| wire::entry_messages_in(e, t.seq, START, enc))
                .collect();
            assert_eq!(m.len(), n, "{ended} {enc:?}");
            assert!(m.iter().any(|m| m.message.to_string().contains(ended)));
            let label = match enc {
                PauseEncoding::ProposedCore => ", proposal)",
                PauseEncoding::V1Extension => ", pause extension, a proposal)",
            };
            for m in &m {
                assert!(!m.payload_type.starts_with("proposal:"), "plain v1.0");
                assert!(!m.message.to_string().contains("PAUSE"), "plain v1.0");
                let said = wire::explain(m).replace(", the stream's last frame)", ")");
                assert!(said.contains(label), "{said}");
            }
            // The export marks them too, though a strict v1.0 check reads them.
            for line in wire::to_jsonl(&m).lines() {
                let v: Value = serde_json::from_str(line).unwrap();
                assert_eq!(v["pauseProposal"], enc.as_str(), "{line}");
            }
        }
    }
    // The same requests and frames outside a pause are v1.0's alone.
    let mut plain = proposal(|_| {});
    steps(&mut plain, 3);
    plain.apply(Action::RequestCancellation).unwrap();
    let mut done = proposal(|_| {});
    run(&mut done, 100);
    for enc in ENCODINGS {
        for m in msgs_of(&plain, |v| *v == Event::CancelRequested, enc)
            .iter()
            .chain(&msgs_of(&done, |v| matches!(v, Event::Worked { .. }), enc))
        {
            let said = wire::explain(m);
            assert!(!said.contains("proposal"), "{said}");
            let line = wire::to_jsonl(std::slice::from_ref(m));
            assert!(!line.contains("pauseProposal"), "{line}");
        }
    }
}

#[test]
fn the_extension_keeps_a_repeated_pause_task_message_in_the_history() {
    let mut e = proposal(|_| {});
    steps(&mut e, 3);
    pause(&mut e, PauseMode::FinishStep, "hold").unwrap();
    assert_eq!(state(&e), TaskState::Paused);
    // Asked again: accepted, nothing changes, and the message was sent.
    assert!(matches!(
        pause(&mut e, PauseMode::FinishStep, "again").unwrap(),
        Applied::Unchanged(_)
    ));
    let history = |e: &Experiment, enc| {
        let m = wire::get_task(e, START, enc);
        let calls: Vec<String> = m[1].message["result"]["history"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|h| h["metadata"][PAUSE_EXTENSION]["method"].as_str())
            .map(str::to_string)
            .collect();
        let ids: Vec<String> = m[1].message["result"]["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["messageId"].as_str().unwrap().to_string())
            .collect();
        (calls, ids)
    };
    let first_repeat = e.trace().last().unwrap().seq;
    pause(&mut e, PauseMode::FinishStep, "once more").unwrap();
    let (calls, ids) = history(&e, PauseEncoding::V1Extension);
    assert_eq!(calls, ["PauseTask", "PauseTask", "PauseTask"]);
    // In the order sent, each once.
    let mut sorted = ids.clone();
    sorted.sort_by_key(|id| {
        id.trim_start_matches("msg-")
            .split('-')
            .next()
            .unwrap()
            .parse::<u32>()
            .unwrap()
    });
    sorted.dedup();
    assert_eq!(sorted, ids);
    let client = e.client_id();
    assert!(
        ids.contains(&format!("msg-{first_repeat}-user-{client}")),
        "{ids:?}"
    );
    // One tried while viewing an earlier paused state is answered as of then,
    // and is no message of the run's history.
    let paused_at = e.position();
    e.apply(Action::Step).unwrap(); // a waited minute
    e.seek(paused_at).unwrap();
    pause(&mut e, PauseMode::FinishStep, "from the past").unwrap();
    let tried = e.trace().last().unwrap().seq;
    e.seek(e.viewed_task().records().len() - 1).unwrap();
    assert!(!history(&e, PauseEncoding::V1Extension)
        .1
        .contains(&format!("msg-{tried}-user-{client}")));
    // The proposed core has its own methods: nothing of them in a history.
    assert!(history(&e, CORE).0.is_empty());
    // A branch from before the pause drops both with the states they were sent at.
    e.seek(1).unwrap();
    e.apply(Action::Step).unwrap();
    assert!(history(&e, PauseEncoding::V1Extension).0.is_empty());
}

/// Every refusal the model can answer with, in every state it can name.
/// The match is exhaustive: a new refusal does not compile until it is here.
fn every_refusal() -> Vec<Refusal> {
    let mut all = Vec::new();
    for s in TaskState::ALL.into_iter().chain([TaskState::Paused]) {
        for r in [
            Refusal::ReadOnly,
            Refusal::Interrupted(s),
            Refusal::Terminal(s),
            Refusal::NotInputRequired(s),
            Refusal::NotAuthRequired(s),
            Refusal::EmptyClarification,
            Refusal::ClarificationTooLong,
            Refusal::ReasonTooLong,
            Refusal::ResumeInputTooLong,
            Refusal::NotCancelable(s),
            Refusal::WorkerRefusedCancellation,
            Refusal::NotTerminal(s),
            Refusal::ProposalOff,
            Refusal::NotPausable(s),
            Refusal::NotPaused(s),
            Refusal::BadResumeToken,
            Refusal::EmptyEventName,
            Refusal::EventNameTooLong,
            Refusal::RunFull,
            Refusal::RunTooLong,
        ] {
            match r {
                Refusal::ReadOnly
                | Refusal::Interrupted(_)
                | Refusal::Terminal(_)
                | Refusal::NotInputRequired(_)
                | Refusal::NotAuthRequired(_)
                | Refusal::EmptyClarification
                | Refusal::ClarificationTooLong
                | Refusal::ReasonTooLong
                | Refusal::ResumeInputTooLong
                | Refusal::NotCancelable(_)
                | Refusal::WorkerRefusedCancellation
                | Refusal::NotTerminal(_)
                | Refusal::ProposalOff
                | Refusal::NotPausable(_)
                | Refusal::NotPaused(_)
                | Refusal::BadResumeToken
                | Refusal::EmptyEventName
                | Refusal::EventNameTooLong
                | Refusal::RunFull
                | Refusal::RunTooLong => all.push(r),
            }
        }
    }
    all
}

#[test]
fn every_error_code_a_refusal_answers_with_has_its_own_words_in_the_error_table() {
    let mut codes = std::collections::BTreeSet::new();
    for r in every_refusal() {
        if let Some(code) = r.code() {
            // The proposed code, and the v1.0 code the extension carries it as.
            codes.insert(code);
            codes.insert(extension_code(code));
        }
    }
    assert_eq!(
        codes.iter().copied().collect::<Vec<_>>(),
        vec![
            INVALID_PARAMS,
            RESUME_TOKEN_INVALID,
            PAUSE_NOT_ALLOWED,
            UNSUPPORTED_OPERATION,
            TASK_NOT_CANCELABLE
        ]
    );
    for code in codes {
        let e = a2a_error(i64::from(code)).unwrap_or_else(|| panic!("{code} has no entry"));
        assert_eq!(e.code, code);
        // Its own words, not another code's.
        let others = A2A_ERRORS.iter().filter(|o| o.code != code);
        for o in others {
            assert_ne!(
                (o.reason, o.message),
                (e.reason, e.message),
                "{code} and {}",
                o.code
            );
        }
    }
}

#[test]
fn a_self_park_names_how_it_resumes_a_timeout_that_fails_the_task_resumes_nothing() {
    // An event with a timeout that fails: the event resumes it.
    let mut on_event = proposal(|c| {
        (c.self_park_before, c.self_park_timeout) = (2, 5);
        c.resume_event = pr_merged();
    });
    to_pause(&mut on_event);
    let cases = [
        (scenario_d(), "RESUME_MODE_TIMEOUT"),
        (scenario_e(), "RESUME_MODE_CLIENT_MESSAGE"),
        (on_event, "RESUME_MODE_EXTERNAL_EVENT"),
    ];
    for (e, mode) in cases {
        for enc in ENCODINGS {
            let s = msgs_of(&e, |v| matches!(v, Event::SelfParked { .. }), enc);
            let pz = pause_of(&s.last().unwrap().message["result"]["statusUpdate"], enc);
            assert_eq!(pz["resumeMode"], mode, "{enc:?}");
        }
    }
}

/// What the trace's legend tells a reader: a request's JSON-RPC id is the
/// number of the trace entry that sends it, a stream's frames carry the id
/// of the request that opened it, and the entries that send nothing (Steps,
/// refusals the wire never sees) leave gaps in the ids.
#[test]
fn request_ids_are_their_trace_entries_numbers() {
    let mut e = with(|c| {
        c.input_gate = 2;
        c.worker_accepts_cancellation = false;
    });
    run(&mut e, 100);
    let _ = e.apply(Action::Authorize); // refused: not on the wire
    e.apply(Action::SupplyClarification("ok".into())).unwrap();
    e.apply(Action::Step).unwrap();
    let _ = e.apply(Action::RequestCancellation); // refused by the worker: on the wire
    run(&mut e, 100);
    assert_eq!(state(&e), TaskState::Completed);
    let mut requests = Vec::new();
    for t in e.trace() {
        for m in wire::entry_messages(&e, t.seq, START) {
            if m.from == Party::Client {
                assert_eq!(rpc_id(&m), i64::from(t.seq), "{}", wire::explain(&m));
                requests.push(rpc_id(&m));
            } else {
                assert!(requests.contains(&rpc_id(&m)), "{}", wire::explain(&m));
            }
        }
    }
    // The task's creation, the clarification and the cancel: three entries
    // of many.
    assert_eq!(requests.len(), 3, "{requests:?}");
    assert!(requests.windows(2).all(|w| w[1] > w[0] + 1), "{requests:?}");
}
