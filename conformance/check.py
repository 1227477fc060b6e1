#!/usr/bin/env python3
"""Strict A2A v1.0 conformance check of wire transcripts, with the official SDK.

Usage: check.py DIR [--expect T1,T2,…]   check every DIR/*.jsonl (and DIR/*.json
                                         agent cards); fail if a payloadType
                                         listed was never checked
       check.py --self-test              prove the check rejects known-bad lines

Each JSONL line is {"seq", "from", "transport", "payloadType", "message"}, where
"message" is one JSON-RPC 2.0 object. For each line:
  - envelope: jsonrpc == "2.0", an id, exactly one of method/result/error;
    requests carry params and a v1.0 PascalCase method from the client over
    JSON-RPC; responses and errors come from the agent and answer an earlier
    request id (results of the type that method returns), results over SSE
    exactly when the method streams, errors always as a plain JSON-RPC
    response (found before a stream opens, as a2a-sdk 1.3.0 answers them);
  - payload: params / result parsed STRICTLY into the a2a_pb2 class named by
    payloadType (json_format.Parse, ignore_unknown_fields=False: unknown or
    misspelled fields and unknown enum names fail), fields marked REQUIRED in
    a2a.proto must be set, so must one member of each oneof (a StreamResponse's
    payload, a Part's content), and re-serializing must give back exactly the input
    (lowerCamelCase names, enum names, defaults omitted, timestamps with
    milliseconds), its members in the same order (the proto's field order, as
    a ProtoJSON writer prints them; a Struct's members excepted);
  - errors: A2A code (or JSON-RPC's -32602) with its standard reason, data[0] a
    type.googleapis.com/google.rpc.ErrorInfo in domain a2a-protocol.org,
    parsed strictly into google.rpc.ErrorInfo.
Lines whose payloadType starts with "proposal:" (and agent cards named
*.proposal.json) are skipped and counted apart, per payloadType; such a line
must carry "pauseProposal": "core" and show something of the pause proposal (a
pause field or state, a proposal method, a proposed error code) or answer a
proposal request, so that a v1.0 message cannot be skipped by a wrong label.
A line may carry "pauseProposal" ("core" or "extension") with a plain
payloadType: the pause proposal's, in plain v1.0 JSON, and checked strictly.
Ends with "N passed, 0 failed" (exit 0) or lists failures as file:line (exit 1).
"""

import collections
import json
import re
import sys
import tempfile
from pathlib import Path

from a2a.types import a2a_pb2
from google.api import field_behavior_pb2
from google.protobuf import json_format
from google.rpc import error_details_pb2

# v1.0 JSON-RPC method -> (params type, result type, streaming)
METHODS = {
    "SendMessage": ("SendMessageRequest", "SendMessageResponse", False),
    "SendStreamingMessage": ("SendMessageRequest", "StreamResponse", True),
    "GetTask": ("GetTaskRequest", "Task", False),
    "ListTasks": ("ListTasksRequest", "ListTasksResponse", False),
    "CancelTask": ("CancelTaskRequest", "Task", False),
    "SubscribeToTask": ("SubscribeToTaskRequest", "StreamResponse", True),
    "CreateTaskPushNotificationConfig": ("TaskPushNotificationConfig", "TaskPushNotificationConfig", False),
    "GetTaskPushNotificationConfig": ("GetTaskPushNotificationConfigRequest", "TaskPushNotificationConfig", False),
    "ListTaskPushNotificationConfigs": (
        "ListTaskPushNotificationConfigsRequest",
        "ListTaskPushNotificationConfigsResponse",
        False,
    ),
    "GetExtendedAgentCard": ("GetExtendedAgentCardRequest", "AgentCard", False),
    "DeleteTaskPushNotificationConfig": ("DeleteTaskPushNotificationConfigRequest", "Empty", False),
}

# A2A error code -> (ErrorInfo.reason); spec §5.4
REASONS = {
    -32001: "TASK_NOT_FOUND",
    -32002: "TASK_NOT_CANCELABLE",
    -32003: "PUSH_NOTIFICATION_NOT_SUPPORTED",
    -32004: "UNSUPPORTED_OPERATION",
    -32005: "CONTENT_TYPE_NOT_SUPPORTED",
    -32006: "INVALID_AGENT_RESPONSE",
    -32007: "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
    -32008: "EXTENSION_SUPPORT_REQUIRED",
    -32009: "VERSION_NOT_SUPPORTED",
    # The standard JSON-RPC code for bad params, with a2a-sdk 1.3.0's reason.
    -32602: "INVALID_PARAMS",
}
ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
REQUIRED = field_behavior_pb2.FieldBehavior.REQUIRED


class Bad(Exception):
    pass


def pb_class(name):
    cls = getattr(a2a_pb2, name, None)
    if cls is None or not hasattr(cls, "DESCRIPTOR"):
        raise Bad(f"payloadType {name!r} is not a message of lf.a2a.v1")
    return cls


# REQUIRED scalars whose default value is a meaningful answer: the spec's
# ListTasksResponse.next_page_token is "" on the last page. The wire carries it
# (it is REQUIRED); a ProtoJSON writer such as MessageToDict leaves the empty
# string out, so the canonical comparison ignores it there.
DEFAULT_IS_AN_ANSWER = {"lf.a2a.v1.ListTasksResponse.next_page_token"}
PRESENT_WHEN_EMPTY = {"ListTasksResponse": "nextPageToken"}


def check_required(msg, path):
    """Every field marked [(google.api.field_behavior) = REQUIRED] is set (repeated: non-empty),
    and so is one member of every oneof (a union: an empty one says nothing)."""
    for oneof in msg.DESCRIPTOR.oneofs:
        # proto3 `optional` fields sit in a synthetic oneof of their own: not a union.
        synthetic = len(oneof.fields) == 1 and oneof.name == "_" + oneof.fields[0].name
        if not synthetic and msg.WhichOneof(oneof.name) is None:
            members = ", ".join(f.json_name for f in oneof.fields)
            raise Bad(f"{path or msg.DESCRIPTOR.name + '.'}{oneof.name}: one of {members} must be set")
    for field in msg.DESCRIPTOR.fields:
        behaviors = field.GetOptions().Extensions[field_behavior_pb2.field_behavior]
        value = getattr(msg, field.name)
        is_repeated = field.is_repeated
        if REQUIRED in behaviors and field.full_name not in DEFAULT_IS_AN_ANSWER:
            present = len(value) > 0 if is_repeated else (
                msg.HasField(field.name) if field.message_type else value != field.default_value
            )
            if not present:
                raise Bad(f"required field {path}{field.json_name} is missing or empty")
        if field.message_type and not field.message_type.GetOptions().map_entry:
            if field.message_type.full_name.startswith("google.protobuf."):
                continue
            items = value if is_repeated else ([value] if msg.HasField(field.name) else [])
            for i, item in enumerate(items):
                check_required(item, f"{path}{field.json_name}{f'[{i}]' if is_repeated else ''}.")


def check_timestamps(value, path=""):
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "timestamp" and not (isinstance(v, str) and TIMESTAMP.match(v)):
                raise Bad(f"{path}{k} = {v!r} is not YYYY-MM-DDTHH:MM:SS.sssZ")
            check_timestamps(v, f"{path}{k}.")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            check_timestamps(v, f"{path}[{i}].")


TIMESTAMP_FIELDS = {"timestamp", "statusTimestampAfter"}  # the google.protobuf.Timestamp fields


def canonical(value, key=None):
    """The input as a ProtoJSON writer would print it (Timestamp fields without
    .000; strings inside metadata Structs are left as they are)."""
    if isinstance(value, dict):
        return {k: canonical(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    if key in TIMESTAMP_FIELDS and isinstance(value, str) and TIMESTAMP.match(value):
        return re.sub(r"\.000Z$", "Z", value)
    return value


def strict_parse(payload, type_name):
    """Parses payload strictly into a2a_pb2.<type_name>; returns the message."""
    cls = pb_class(type_name)
    if not isinstance(payload, dict):
        raise Bad(f"{type_name} payload is not a JSON object")
    try:
        msg = json_format.Parse(json.dumps(payload), cls(), ignore_unknown_fields=False)
    except json_format.ParseError as e:
        raise Bad(f"{type_name}: {e}") from None
    check_required(msg, "")
    check_timestamps(payload)
    expected = canonical(payload)
    key = PRESENT_WHEN_EMPTY.get(type_name)
    if key:
        if key not in payload:
            raise Bad(f"required field {key} is missing")
        if expected.get(key) == "":
            del expected[key]
    back = json_format.MessageToDict(msg)
    if back != expected:
        raise Bad(f"{type_name} is not canonical ProtoJSON: sent {json.dumps(payload)}, "
                  f"a ProtoJSON writer gives {json.dumps(back)}")
    where = misordered(expected, back)
    if where is not None:
        raise Bad(f"{type_name}: members of {where or 'the message'} are not in the proto's field "
                  f"order: sent {json.dumps(payload)}, a ProtoJSON writer gives {json.dumps(back)}")
    return msg


def misordered(sent, written, path=""):
    """The path of the first object whose members are not in the order a ProtoJSON
    writer prints them (field-number order), or None. The members of a Struct
    (metadata, an extension's params) are a map, printed in no fixed order: not compared."""
    if isinstance(sent, dict) and isinstance(written, dict):
        if re.search(r"(^|\.)(metadata|params)(\.|$)", path):
            return None
        if list(sent) != list(written):
            return path
        for k in sent:
            inner = misordered(sent[k], written.get(k), f"{path}.{k}" if path else k)
            if inner is not None:
                return inner
    elif isinstance(sent, list) and isinstance(written, list):
        for i, (a, b) in enumerate(zip(sent, written)):
            inner = misordered(a, b, f"{path}[{i}]")
            if inner is not None:
                return inner
    return None


def check_error(err):
    if not isinstance(err, dict) or set(err) - {"code", "message", "data"}:
        raise Bad(f"error object must have only code/message/data: {err!r}")
    code, message, data = err.get("code"), err.get("message"), err.get("data")
    if not isinstance(code, int) or not isinstance(message, str) or not message:
        raise Bad("error needs an integer code and a non-empty message")
    if code not in REASONS:
        raise Bad(f"error code {code} is not an A2A error code")
    if not isinstance(data, list) or not data or not isinstance(data[0], dict):
        raise Bad("error.data must be a non-empty array of objects")
    info = dict(data[0])
    if info.pop("@type", None) != ERROR_INFO:
        raise Bad(f"error.data[0]['@type'] must be {ERROR_INFO}")
    if info.get("reason") != REASONS[code] or info.get("domain") != "a2a-protocol.org":
        raise Bad(f"error {code} needs reason {REASONS[code]} in domain a2a-protocol.org, got "
                  f"{info.get('reason')!r} / {info.get('domain')!r}")
    try:
        json_format.Parse(json.dumps(info), error_details_pb2.ErrorInfo(), ignore_unknown_fields=False)
    except json_format.ParseError as e:
        raise Bad(f"ErrorInfo: {e}") from None
    for d in data:
        if not isinstance(d, dict) or "@type" not in d:
            raise Bad("every error.data entry must carry @type")
    if sum(d["@type"] == ERROR_INFO for d in data) > 1:
        raise Bad("error.data may carry at most one google.rpc.ErrorInfo (AIP-193)")


def check_line(line, requests):
    """Checks one transcript line; `requests` maps JSON-RPC id -> method (updated)."""
    for key in ("seq", "from", "transport", "payloadType", "message"):
        if key not in line:
            raise Bad(f"line lacks {key!r}")
    if set(line) - {"pauseProposal"} != {"seq", "from", "transport", "payloadType", "message"}:
        raise Bad(f"unexpected line keys {sorted(set(line))}")
    if line.get("pauseProposal", "core") not in ("core", "extension"):
        raise Bad(f"pauseProposal is {line['pauseProposal']!r}, not core or extension")
    ptype, frm, transport, m = line["payloadType"], line["from"], line["transport"], line["message"]
    if frm not in ("client", "agent") or transport not in ("jsonrpc", "sse"):
        raise Bad(f"bad from/transport {frm!r}/{transport!r}")
    if not isinstance(m, dict) or m.get("jsonrpc") != "2.0":
        raise Bad('message is not a JSON-RPC 2.0 object (jsonrpc must be "2.0")')
    if "id" not in m or not isinstance(m["id"], (int, str)) or isinstance(m["id"], bool):
        raise Bad("message lacks a string or integer id")
    kinds = [k for k in ("method", "result", "error") if k in m]
    if len(kinds) != 1:
        raise Bad(f"message must have exactly one of method/result/error, has {kinds}")
    extra = set(m) - {"jsonrpc", "id", kinds[0]} - ({"params"} if kinds == ["method"] else set())
    if extra:
        raise Bad(f"unexpected envelope members {sorted(extra)}")
    mid = m["id"]
    if kinds == ["method"]:
        method = m["method"]
        if method not in METHODS:
            raise Bad(f"method {method!r} is not a v1.0 A2A method")
        if frm != "client" or transport != "jsonrpc":
            raise Bad("requests go from the client over jsonrpc")
        if "params" not in m:
            raise Bad("request lacks params")
        if ptype != METHODS[method][0]:
            raise Bad(f"{method} takes {METHODS[method][0]}, payloadType says {ptype}")
        strict_parse(m["params"], ptype)
        requests[mid] = method
        return
    if frm != "agent":
        raise Bad("responses come from the agent")
    if mid not in requests:
        raise Bad(f"response id {mid!r} answers no earlier request")
    _, result_type, streaming = METHODS[requests[mid]]
    if kinds == ["error"]:
        if ptype != "error":
            raise Bad('an error envelope has payloadType "error"')
        # An error found before a stream opens is a plain JSON-RPC response,
        # to a streaming request too (a2a-sdk 1.3.0's JSON-RPC dispatcher).
        if transport != "jsonrpc":
            raise Bad(f"an error to {requests[mid]} is a plain JSON-RPC response, not {transport}")
        check_error(m["error"])
        return
    if ptype != result_type:
        raise Bad(f"{requests[mid]} returns {result_type}, payloadType says {ptype}")
    if (transport == "sse") != streaming:
        raise Bad(f"{requests[mid]} results travel over {'sse' if streaming else 'jsonrpc'}")
    strict_parse(m["result"], ptype)


# What a line marked proposal: shows of the pause proposal, when it does not
# answer a proposal request: its state, pause fields, methods, proposed codes.
PROPOSAL_MARKS = ("TASK_STATE_PAUSED", '"pause"', '"resumeToken"', '"previousState"', "PauseTask",
                  "ResumeTask", "AwaitTaskResumption", "-32010", "-32011", "PAUSE_")


def check_proposal_line(line, proposal_ids):
    """A line marked proposal: must be the proposal's (see the module doc)."""
    m = line.get("message") if isinstance(line, dict) else None
    if not isinstance(m, dict):
        raise Bad("a proposal line needs a JSON-RPC message")
    if line.get("pauseProposal") != "core":
        raise Bad(f"marked {line.get('payloadType')} but not pauseProposal: core")
    if "method" in m:
        proposal_ids.add(json.dumps(m.get("id")))
    text = json.dumps(m)
    if any(mark in text for mark in PROPOSAL_MARKS):
        return
    if "method" not in m and json.dumps(m.get("id")) in proposal_ids:
        return
    raise Bad(f"marked {line.get('payloadType')} but shows nothing of the pause proposal "
              "and answers no proposal request: a v1.0 message must be checked")


def check_dir(directory, expect=()):
    counts, skipped, failures, passed, marked = collections.Counter(), collections.Counter(), [], 0, 0
    files = sorted(Path(directory).glob("*.jsonl"))
    cards = sorted(Path(directory).glob("*.json"))
    if not files:
        failures.append(f"{directory}: no *.jsonl transcripts")
    for card in cards:
        if card.name.endswith(".proposal.json"):
            skipped["proposal:AgentCard"] += 1
            continue
        try:
            strict_parse(json.loads(card.read_text()), "AgentCard")
            counts["AgentCard"] += 1
            passed += 1
        except (Bad, ValueError) as e:
            failures.append(f"{card}: {e}")
    for path in files:
        requests, proposal_ids = {}, set()
        for n, text in enumerate(path.read_text().splitlines(), 1):
            if not text.strip():
                continue
            try:
                line = json.loads(text)
                ptype = line.get("payloadType", "") if isinstance(line, dict) else ""
                if isinstance(ptype, str) and ptype.startswith("proposal:"):
                    check_proposal_line(line, proposal_ids)
                    skipped[ptype] += 1
                    continue
                check_line(line, requests)
                counts[ptype] += 1
                marked += "pauseProposal" in line
                passed += 1
            except (Bad, ValueError) as e:
                failures.append(f"{path}:{n}: " + " ".join(str(e).split()))
    width = max([len(k) for k in list(counts) + list(skipped)] + [11])
    print(f"{'payloadType':<{width}}  count")
    for k in sorted(counts):
        print(f"{k:<{width}}  {counts[k]:>5}")
    for k in sorted(skipped):
        print(f"{k:<{width}}  {skipped[k]:>5}  (skipped)")
    print(f"{len(files)} transcripts, {len(cards)} agent cards, {sum(skipped.values())} proposal lines skipped")
    print(f"{marked} of the lines checked are the pause proposal's in plain v1.0 JSON (pauseProposal)")
    for t in expect:
        if not counts[t]:
            failures.append(f"{directory}: no {t} was checked (expected at least one)")
    for f in failures:
        print(f"FAIL {f}")
    print(f"{passed} passed, {len(failures)} failed")
    return not failures


def self_test():
    """Known-bad lines must each fail; the good ones must pass."""
    tid, ctx, ts = "t-1", "c-1", "2026-01-01T00:00:00.000Z"
    req = {"seq": 1, "from": "client", "transport": "jsonrpc", "payloadType": "SendMessageRequest",
           "message": {"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage",
                       "params": {"message": {"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}}}}

    def frame(result):
        return {"seq": 2, "from": "agent", "transport": "sse", "payloadType": "StreamResponse",
                "message": {"jsonrpc": "2.0", "id": 1, "result": result}}

    def upd(status, **extra):
        return frame({"statusUpdate": {"taskId": tid, "contextId": ctx, "status": status, **extra}})

    good = upd({"state": "TASK_STATE_WORKING", "timestamp": ts})
    bad = {
        "misspelled field contextID": frame({"statusUpdate": {"taskId": tid, "contextID": ctx,
                                                              "status": {"state": "TASK_STATE_WORKING"}}}),
        "unknown enum TASK_STATE_PAUSED": upd({"state": "TASK_STATE_PAUSED", "timestamp": ts}),
        "v0.3 final field": upd({"state": "TASK_STATE_COMPLETED", "timestamp": ts}, final=True),
        "v0.3 kind field": frame({"task": {"kind": "task", "id": tid, "contextId": ctx,
                                           "status": {"state": "TASK_STATE_SUBMITTED"}}}),
        "index on artifactUpdate": frame({"artifactUpdate": {"taskId": tid, "contextId": ctx, "index": 0,
                                                             "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}}),
        "snake_case name": frame({"statusUpdate": {"task_id": tid, "contextId": ctx,
                                                   "status": {"state": "TASK_STATE_WORKING"}}}),
        "v0.3 role value": {**req, "message": {**req["message"], "params": {"message": {
            "messageId": "m1", "role": "user", "parts": [{"text": "hi"}]}}}},
        "default value written": frame({"artifactUpdate": {"taskId": tid, "contextId": ctx, "append": False,
                                                           "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}}),
        "missing required messageId": {**req, "message": {**req["message"], "params": {"message": {
            "role": "ROLE_USER", "parts": [{"text": "hi"}]}}}},
        "timestamp without millis": upd({"state": "TASK_STATE_WORKING", "timestamp": "2026-01-01T00:00:00Z"}),
        "two StreamResponse members": frame({"task": {"id": tid, "status": {"state": "TASK_STATE_WORKING"}},
                                            "statusUpdate": {"taskId": tid, "contextId": ctx,
                                                             "status": {"state": "TASK_STATE_WORKING"}}}),
        "v0.3 method name": {**req, "message": {**req["message"], "method": "message/stream"}},
        "wrong ErrorInfo reason": {"seq": 2, "from": "agent", "transport": "jsonrpc", "payloadType": "error",
                                   "message": {"jsonrpc": "2.0", "id": 1, "error": {
                                       "code": -32002, "message": "Task cannot be canceled",
                                       "data": [{"@type": ERROR_INFO, "reason": "TASK_NOT_CANCELABLE_ERROR",
                                                 "domain": "a2a-protocol.org"}]}}},
        "two ErrorInfo": {"seq": 2, "from": "agent", "transport": "jsonrpc", "payloadType": "error",
                          "message": {"jsonrpc": "2.0", "id": 1, "error": {
                              "code": -32004, "message": "Task t-1 is in terminal state: TASK_STATE_FAILED",
                              "data": [{"@type": ERROR_INFO, "reason": "UNSUPPORTED_OPERATION",
                                        "domain": "a2a-protocol.org"},
                                       {"@type": ERROR_INFO, "reason": "PAUSE_NOT_ALLOWED",
                                        "domain": "a2a-control-room.example"}]}}},
        "result for no request": {**good, "message": {**good["message"], "id": 99}},
        "stream result over jsonrpc": {**good, "transport": "jsonrpc"},
        "error as an SSE frame": {"seq": 2, "from": "agent", "transport": "sse", "payloadType": "error",
                                  "message": {"jsonrpc": "2.0", "id": 1, "error": {
                                      "code": -32004, "message": "Task t-1 is in terminal state: TASK_STATE_COMPLETED",
                                      "data": [{"@type": ERROR_INFO, "reason": "UNSUPPORTED_OPERATION",
                                                "domain": "a2a-protocol.org"}]}}},
    }
    bad["status members out of field order"] = upd({"timestamp": ts, "state": "TASK_STATE_WORKING"})
    bad["message members out of field order"] = {**req, "message": {**req["message"], "params": {"message": {
        "messageId": "m1", "parts": [{"text": "hi"}], "role": "ROLE_USER"}}}}
    bad["empty StreamResponse"] = frame({})
    bad["unknown pauseProposal"] = {**good, "pauseProposal": "paused"}
    bad["a Part with no content"] = frame({"artifactUpdate": {"taskId": tid, "contextId": ctx,
                                                             "artifact": {"artifactId": "a", "parts": [{}]}}})
    # Each is rejected for its own reason, not for another that happens to come first.
    why = {
        'misspelled field contextID': 'has no field named "contextID"',
        'unknown enum TASK_STATE_PAUSED': 'Invalid enum value TASK_STATE_PAUSED',
        'v0.3 final field': 'has no field named "final"',
        'v0.3 kind field': 'has no field named "kind"',
        'index on artifactUpdate': 'has no field named "index"',
        'snake_case name': 'is not canonical ProtoJSON',
        'v0.3 role value': 'Invalid enum value user',
        'default value written': 'is not canonical ProtoJSON',
        'missing required messageId': 'required field message.messageId is missing',
        'timestamp without millis': 'is not YYYY-MM-DDTHH:MM:SS.sssZ',
        'two StreamResponse members': 'multiple "payload" oneof fields',
        'v0.3 method name': 'is not a v1.0 A2A method',
        'wrong ErrorInfo reason': 'needs reason TASK_NOT_CANCELABLE',
        'two ErrorInfo': 'at most one google.rpc.ErrorInfo',
        'result for no request': 'answers no earlier request',
        'stream result over jsonrpc': 'results travel over sse',
        'error as an SSE frame': 'is a plain JSON-RPC response, not sse',
        "status members out of field order": "members of statusUpdate.status are not in the proto's field order",
        "message members out of field order": "members of message are not in the proto's field order",
        "empty StreamResponse": "payload: one of task, message, statusUpdate, artifactUpdate must be set",
        "a Part with no content": "content: one of text, raw, url, data must be set",
        "unknown pauseProposal": "not core or extension",
    }
    ok = True
    with tempfile.TemporaryDirectory() as d:
        Path(d, "good.jsonl").write_text(json.dumps(req) + "\n" + json.dumps(good) + "\n")
        print("self-test: a good transcript")
        ok &= check_dir(d, ["SendMessageRequest", "StreamResponse"])
    for name, line in bad.items():
        try:
            check_line(line, {1: "SendStreamingMessage"})
            print(f"self-test: NOT rejected: {name}")
            ok = False
        except Bad as e:
            right = why[name] in str(e)
            ok &= right
            print(f"self-test: rejected {name}{'' if right else ' FOR ANOTHER REASON'}: {str(e)[:150]}")
    # A v1.0 frame labelled proposal: is not skipped unchecked; a transcript
    # without an expected payloadType fails.
    for name, lines, expect in [
        ("a v1.0 frame marked proposal:", [req, {**good, "payloadType": "proposal:StreamResponse",
                                                 "pauseProposal": "core"}], []),
        ("a proposal: line without pauseProposal",
         [req, {**upd({"state": "TASK_STATE_PAUSED", "timestamp": ts}),
                "payloadType": "proposal:StreamResponse"}], []),
        ("no Task checked", [req, good], ["Task"]),
    ]:
        with tempfile.TemporaryDirectory() as d:
            Path(d, "bad.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
            print(f"self-test: {name}")
            rejected = not check_dir(d, expect)
            print(f"self-test: {'rejected' if rejected else 'NOT rejected'}: {name}")
            ok &= rejected
    # ListTasksResponse.nextPageToken is REQUIRED: "" on the last page, never left out.
    listed = {"tasks": [{"id": tid, "contextId": ctx, "status": {"state": "TASK_STATE_COMPLETED"}}],
              "pageSize": 50, "totalSize": 1}
    for name, result, rejected in [("ListTasks without nextPageToken", listed, True),
                                   ("ListTasks with an empty nextPageToken", {**listed, "nextPageToken": ""}, False)]:
        line = {"seq": 3, "from": "agent", "transport": "jsonrpc", "payloadType": "ListTasksResponse",
                "message": {"jsonrpc": "2.0", "id": "list-tasks-3", "result": result}}
        try:
            check_line(line, {"list-tasks-3": "ListTasks"})
            print(f"self-test: {'NOT rejected' if rejected else 'accepted'}: {name}")
            ok &= not rejected
        except Bad as e:
            print(f"self-test: {'rejected' if rejected else 'WRONGLY rejected'} {name}: {str(e)[:150]}")
            ok &= rejected
    print("self-test passed" if ok else "self-test FAILED")
    return ok


def main(argv):
    if argv[1:] == ["--self-test"]:
        return 0 if self_test() else 1
    if len(argv) == 4 and argv[2] == "--expect":
        return 0 if check_dir(argv[1], [t for t in argv[3].split(",") if t]) else 1
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    return 0 if check_dir(argv[1]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
