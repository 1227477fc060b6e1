#!/usr/bin/env python3
"""Strict A2A v1.0 conformance check of wire transcripts, with the official SDK.

Usage: check.py DIR [--expect T1,T2,…]   check every DIR/*.jsonl (and DIR/*.json
                                         agent cards); fail if a payloadType
                                         listed was never checked
       check.py --self-test              prove the check rejects known-bad lines
                                         and lifecycles

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
Then the LIFECYCLE, across the lines of each transcript file, in order (proposal:
lines too, for their ids, streams and v1.0 states; their TASK_STATE_PAUSED is not
v1.0's to judge and is left out of the states followed):
  - requests and answers: a JSON-RPC answer must answer an open request with its
    id, from the other side, once (an id is not reused while its request still
    awaits an answer); every request gets an answer (a stream: one frame at least);
  - streams: SSE frames belong to the stream opened by the SendStreamingMessage /
    SubscribeToTask request with the same id. Its first frame carries `task` (or,
    for SendStreamingMessage, `message`), naming the task asked about; every later
    frame's taskId / contextId are the opening task's. The stream ends with its
    Message or a terminal state (COMPLETED, FAILED, CANCELED, REJECTED): no frame
    may follow, except one final Task snapshot in the state a terminal statusUpdate
    gave (A2A-NOTES §5: the server MAY resend one before closing), nor a plain
    answer. At an interrupted state (INPUT_REQUIRED, AUTH_REQUIRED) a stream may
    end or stay open: either is accepted. A new request reusing the id of a
    stream left open (a probe reads the first frame and goes) ends that stream;
  - task states: each task's contextId and latest state are followed, from Task
    results, SendMessageResponse.task, ListTasksResponse.tasks and stream frames.
    A terminal state is final: a later line showing another state fails. Asked
    about a task already terminal, SendMessage / SendStreamingMessage and
    SubscribeToTask must be answered by error -32004 (UnsupportedOperationError,
    spec §3.1.1 / §3.1.6), CancelTask by -32002 (TaskNotCancelableError, §3.1.5);
    a message whose contextId is not its task's must be answered by an error
    (§3.4.2); an answer about a task (Task, SendMessageResponse.task, a stream's
    opening task) names the task asked about;
  - contextId: a task never changes contextId; every Message.referenceTaskIds entry
    names a task seen earlier in the transcript, and the follow-up (its message's
    contextId, if given, and the task that answers it) is in that task's contextId.
A line failing a lifecycle rule fails as file:line like any other; a summary line
"lifecycle: N streams, M requests answered, K tasks followed, B broken" comes
just before the last line.
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
        if not isinstance(method, str) or method not in METHODS:
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


# ---------------------------------------------------------------------------
# Lifecycle: rules across the lines of one transcript (see the module doc).

TERMINAL = {"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"}
V1_STATES = set(a2a_pb2.TaskState.keys())
# A request about a task already terminal must be refused with this code:
# message to (§3.1.1) or subscribe to (§3.1.6) a terminal task -> UnsupportedOperationError;
# cancel of a terminal task (§3.1.5) -> TaskNotCancelableError.
TERMINAL_ANSWER = {"SendMessage": -32004, "SendStreamingMessage": -32004, "SubscribeToTask": -32004,
                   "CancelTask": -32002}


def new_lifecycle():
    """The bookkeeping of one transcript: `open` maps a request id (as JSON) to its
    request until it is answered (a stream stays, marked `closing` once it ended,
    until its id is reused); `closed` maps an answered id to where; `tasks` maps a
    task id to its contextId and the latest v1.0 state seen."""
    return {"open": {}, "closed": {}, "tasks": {}, "streams": 0, "answered": 0}


def as_str(value):
    """A string member as it is, anything else (absent, or malformed) as None."""
    return value if isinstance(value, str) and value else None


def snapshot(obj, id_key, kind):
    status = obj.get("status") if isinstance(obj.get("status"), dict) else {}
    return (as_str(obj.get(id_key)), as_str(obj.get("contextId")), as_str(status.get("state")), kind)


def snapshots(ptype, result):
    """(taskId, contextId, state or None, what) for every task a result shows."""
    base = ptype[len("proposal:"):] if ptype.startswith("proposal:") else ptype
    if not isinstance(result, dict):
        return []
    if base == "Task":
        tasks = [result]
    elif base == "SendMessageResponse":
        tasks = [result["task"]] if isinstance(result.get("task"), dict) else []
    elif base == "ListTasksResponse":
        tasks = [t for t in result.get("tasks") if isinstance(t, dict)] if isinstance(result.get("tasks"), list) else []
    elif base == "StreamResponse":
        tasks = [result["task"]] if isinstance(result.get("task"), dict) else []
        for kind in ("statusUpdate", "artifactUpdate"):
            event = result.get(kind)
            if isinstance(event, dict):
                return [snapshot(event, "taskId", kind)]
    else:
        return []
    return [snapshot(t, "id", "task") for t in tasks]


def follow_task(lc, tid, ctx, state, n):
    """Records what a line shows of task `tid`: its contextId never changes, and a
    terminal state is final (spec §3: a terminal task cannot restart)."""
    if tid is None:
        return
    known = lc["tasks"].setdefault(tid, {"ctx": ctx, "state": None, "line": n})
    if ctx and known["ctx"] and ctx != known["ctx"]:
        raise Bad(f"task {tid} shows contextId {ctx}, it was {known['ctx']} before")
    known["ctx"] = known["ctx"] or ctx
    if state not in V1_STATES:  # no state, or the proposal's TASK_STATE_PAUSED: not v1.0's to judge
        return
    if known["state"] in TERMINAL and state != known["state"]:
        raise Bad(f"task {tid} goes back from {known['state']} (terminal, line {known['line']}) to {state}")
    known["state"], known["line"] = state, n


def lifecycle_request(lc, line, n, key):
    m, proposal = line["message"], line["payloadType"].startswith("proposal:")
    prev = lc["open"].get(key)
    if prev is not None:
        if not (prev["streaming"] and prev["frames"]):
            raise Bad(f"request id {m['id']!r} is reused while the request at line {prev['line']} "
                      "still awaits its answer")
        # A stream left open (a probe reads its first frame and goes): the client left it.
        lc["open"].pop(key)
    method = m.get("method")
    params = m.get("params") if isinstance(m.get("params"), dict) else {}
    req = {"method": method, "line": n, "from": line["from"], "frames": 0, "first": None,
           "streaming": method in METHODS and METHODS[method][2], "expect": None,
           "task": None, "ctx": None, "follows": None, "history_length": history_length(method, params)}
    lc["closed"].pop(key, None)
    lc["open"][key] = req  # open even if it breaks a rule below, so its answers are not orphans
    target = None
    if method in ("SendMessage", "SendStreamingMessage"):
        msg = params.get("message") if isinstance(params.get("message"), dict) else {}
        target = msg.get("taskId")
        refs = msg.get("referenceTaskIds") if isinstance(msg.get("referenceTaskIds"), list) else []
        for ref in [r for r in refs if as_str(r)]:
            known = lc["tasks"].get(ref)
            if known is None:
                raise Bad(f"referenceTaskIds names task {ref}, not seen earlier in this transcript")
            if as_str(msg.get("contextId")) and msg["contextId"] != known["ctx"]:
                raise Bad(f"a follow-up of task {ref} is sent in contextId {msg['contextId']}, "
                          f"the referenced task's is {known['ctx']}")
            req["follows"] = (ref, known["ctx"])
    elif method in ("CancelTask", "SubscribeToTask", "GetTask"):
        target = params.get("id")
    req["task"] = as_str(target)
    known = lc["tasks"].get(req["task"])
    ctx = as_str(msg.get("contextId")) if method in ("SendMessage", "SendStreamingMessage") else None
    if known and ctx and ctx != known["ctx"] and not proposal:
        # spec §3.4.2: a contextId that does not match the task's MUST be rejected
        req["expect"] = (None, f"{method} for task {target} in contextId {ctx}, "
                               f"the task's is {known['ctx']}")
    if not proposal and known and known["state"] in TERMINAL and method in TERMINAL_ANSWER:
        req["expect"] = (TERMINAL_ANSWER[method], f"{method} of task {req['task']}, "
                                                  f"{known['state']} since line {known['line']}")


def history_length(method, params):
    """The historyLength a request sets, if it sets one (GetTaskRequest and
    ListTasksRequest field, SendMessageConfiguration field of a message)."""
    if method in ("SendMessage", "SendStreamingMessage"):
        config = params.get("configuration")
        params = config if isinstance(config, dict) else {}
    limit = params.get("historyLength")
    return limit if isinstance(limit, int) and not isinstance(limit, bool) else None


def check_history_length(req, result):
    """a2a.proto: "The server MUST NOT return more messages than the provided
    value" — in each task a plain answer carries."""
    limit = req["history_length"]
    if limit is None or not isinstance(result, dict):
        return
    if req["method"] == "ListTasks":
        tasks = result.get("tasks") if isinstance(result.get("tasks"), list) else []
    elif req["method"] == "SendMessage":
        tasks = [result.get("task")]
    else:
        tasks = [result]
    for task in [t for t in tasks if isinstance(t, dict)]:
        history = task.get("history") if isinstance(task.get("history"), list) else []
        if len(history) > limit:
            raise Bad(f"{req['method']} (line {req['line']}) asked for historyLength {limit}, "
                      f"and task {task.get('id')} comes with {len(history)} history messages")


def check_expect(req, m):
    """The answer is the error the request called for, if it called for one."""
    if req["expect"] is None:
        return
    code, why = req["expect"]
    got = m["error"].get("code") if isinstance(m.get("error"), dict) else None
    if got is None:
        raise Bad(f"{why}: must be answered by {'an error' if code is None else f'error {code}'}, "
                  "was answered by a result")
    if code is not None and got != code:
        raise Bad(f"{why}: must be answered by error {code} ({REASONS[code]}), got error {got}")


def check_answer_task(req, asked, tid, ctx):
    """The task an answer opens with is the one asked about, in the referenced context."""
    if asked and tid != asked and req["method"] in METHODS:
        raise Bad(f"{req['method']} for task {asked} (line {req['line']}) is answered with task {tid}")
    if req["follows"] and ctx != req["follows"][1]:
        raise Bad(f"the follow-up of task {req['follows'][0]} (line {req['line']}) is task {tid} in "
                  f"contextId {ctx}, the referenced task's is {req['follows'][1]}")


def check_lifecycle(line, n, lc):
    """Checks one line against what the earlier lines of its transcript established."""
    m = line["message"]
    key = json.dumps(m["id"])
    if "method" in m:
        lifecycle_request(lc, line, n, key)
        return
    req = lc["open"].get(key)
    if req is None:
        why = lc["closed"].get(key, "no request with this id is open")
        raise Bad(f"answer to id {m['id']!r} comes too late: {why}")
    result = m.get("result")
    if line["transport"] != "sse":
        if req["frames"]:
            raise Bad(f"a plain JSON-RPC answer to the {req['method']} stream opened at line {req['first']}")
        lc["open"].pop(key)
        lc["closed"][key] = f"the request at line {req['line']} was answered at line {n}"
        lc["answered"] += 1
        if req["from"] == line["from"]:
            raise Bad(f"the answer to the request at line {req['line']} comes from its sender")
        check_expect(req, m)
        check_history_length(req, result)
        shown = snapshots(line["payloadType"], result) if "result" in m else []
        if shown and shown[0][3] == "task" and req["method"] in ("SendMessage", "CancelTask", "GetTask"):
            check_answer_task(req, req["task"], shown[0][0], shown[0][1])
        for tid, ctx, state, _ in shown:
            follow_task(lc, tid, ctx, state, n)
        return
    result = result if isinstance(result, dict) else {}
    shown = snapshots(line["payloadType"], result)
    closing = req.get("closing")
    req["frames"] += 1
    if closing is not None:
        # After a terminal statusUpdate, one final Task snapshot in that state; nothing else.
        why, snapshot = closing
        if not (snapshot and "task" in result and shown and shown[0][2] == snapshot):
            raise Bad(f"a frame follows the end of its stream: {why}")
        req["closing"] = (f"{why}, then sent its final Task snapshot at line {n}", None)
    else:
        # A stream ends after its Message (the whole answer) or at a terminal state.
        state = shown[0][2] if shown else None
        where = f"the {req['method']} stream opened at line {req['line']} ended"
        if "message" in result and req["frames"] == 1:
            req["closing"] = (f"{where} with the Message at line {n}", None)
        elif state in TERMINAL:
            req["closing"] = (f"{where} with {state} at line {n}", state if "statusUpdate" in result else None)
    if req["frames"] == 1:
        lc["streams"] += 1
        lc["answered"] += 1
        req["first"] = n
        asked = req["task"]
        if shown and shown[0][3] == "task":
            req["task"], req["ctx"] = shown[0][0], shown[0][1]
        if req["from"] == line["from"]:
            raise Bad(f"the stream answering the request at line {req['line']} comes from its sender")
        check_expect(req, m)
        opening = ("task",) if req["method"] == "SubscribeToTask" else ("task", "message")
        if not any(k in result for k in opening):
            raise Bad(f"the first frame of the {req['method']} stream opened at line {req['line']} must "
                      f"carry {' or '.join(opening)}, not {', '.join(sorted(result)) or 'nothing'}")
        if shown and shown[0][3] == "task":
            check_answer_task(req, asked, shown[0][0], shown[0][1])
    else:
        event = next((k for k in ("statusUpdate", "artifactUpdate", "task", "message") if k in result), None)
        body = result.get(event) if isinstance(result.get(event), dict) else {}
        tid = as_str(body.get("id") if event == "task" else body.get("taskId"))
        ctx = as_str(body.get("contextId"))
        if (tid, ctx) != (req["task"], req["ctx"]):
            raise Bad(f"{event} for task {tid} / context {ctx} in the stream of task {req['task']} / "
                      f"context {req['ctx']} (opened at line {req['first']})")
    for tid, ctx, state, _ in shown:
        follow_task(lc, tid, ctx, state, n)


def end_of_transcript(lc):
    """(line, why) for every request left with no answer at all (a stream: not one frame)."""
    return [(req["line"], f"{req['method']} (line {req['line']}) is never answered")
            for req in lc["open"].values() if not req["frames"]]


def lifecycle_ready(line):
    """Whether a line is whole enough for the lifecycle to read (even if it failed its own check)."""
    m = line.get("message") if isinstance(line, dict) else None
    return (isinstance(m, dict) and isinstance(line.get("payloadType"), str)
            and line.get("from") in ("client", "agent") and line.get("transport") in ("jsonrpc", "sse")
            and isinstance(m.get("id"), (int, str)) and not isinstance(m.get("id"), bool)
            and sum(k in m for k in ("method", "result", "error")) == 1
            and isinstance(m.get("method", ""), str))


def check_file(path, totals):
    """Checks one transcript, line by line and then across its lines. Returns one
    row [line number, payloadType, error or None, lifecycle?] per line; `totals`
    adds up the lifecycle's streams, answers and tasks."""
    rows, requests, proposal_ids, lc = {}, {}, set(), new_lifecycle()
    for n, text in enumerate(path.read_text().splitlines(), 1):
        if not text.strip():
            continue
        line, ptype, err, lifecycle = None, "", None, False
        try:
            line = json.loads(text)
            ptype = line.get("payloadType", "") if isinstance(line, dict) else ""
            if isinstance(ptype, str) and ptype.startswith("proposal:"):
                check_proposal_line(line, proposal_ids)
            else:
                check_line(line, requests)
        except (Bad, ValueError) as e:
            err = str(e)
        # The lifecycle reads a line that failed its own check too, so that one
        # bad line does not make the next ones look out of place.
        if lifecycle_ready(line):
            try:
                check_lifecycle(line, n, lc)
            except Bad as e:
                if err is None:
                    err, lifecycle = str(e), True
        rows[n] = [n, ptype, line, err, lifecycle]
    for n, why in end_of_transcript(lc):
        if rows[n][3] is None:
            rows[n][3:] = [why, True]
    totals["streams"] += lc["streams"]
    totals["answered"] += lc["answered"]
    totals["tasks"] += len(lc["tasks"])
    totals["broken"] += sum(row[4] for row in rows.values())
    return list(rows.values())


def check_dir(directory, expect=()):
    counts, skipped, failures, passed, marked = collections.Counter(), collections.Counter(), [], 0, 0
    totals = collections.Counter()
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
        for n, ptype, line, err, _ in check_file(path, totals):
            if err is not None:
                failures.append(f"{path}:{n}: " + " ".join(err.split()))
            elif ptype.startswith("proposal:"):
                skipped[ptype] += 1
            else:
                counts[ptype] += 1
                marked += "pauseProposal" in line
                passed += 1
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
    print(f"lifecycle: {totals['streams']} streams, {totals['answered']} requests answered, "
          f"{totals['tasks']} tasks followed, {totals['broken']} broken")
    print(f"{passed} passed, {len(failures)} failed")
    return not failures


# Synthetic lines for the lifecycle self-test: t-1 in context c-1.
def _rq(mid, method, params):
    return {"seq": 0, "from": "client", "transport": "jsonrpc", "payloadType": METHODS[method][0],
            "message": {"jsonrpc": "2.0", "id": mid, "method": method, "params": params}}


def _send(mid, streaming=True, **fields):
    msg = {"messageId": f"m{mid}", **fields, "role": "ROLE_USER", "parts": [{"text": "go"}]}
    order = ["messageId", "contextId", "taskId", "role", "parts", "referenceTaskIds"]
    msg = {k: msg[k] for k in order if k in msg}
    return _rq(mid, "SendStreamingMessage" if streaming else "SendMessage", {"message": msg})


def _task(state, task="t-1", context="c-1"):
    return {"id": task, "contextId": context, "status": {"state": state}}


def _frame(mid, result):
    return {"seq": 0, "from": "agent", "transport": "sse", "payloadType": "StreamResponse",
            "message": {"jsonrpc": "2.0", "id": mid, "result": result}}


def _update(mid, state, task="t-1", context="c-1"):
    return _frame(mid, {"statusUpdate": {"taskId": task, "contextId": context, "status": {"state": state}}})


def _reply(mid, ptype, result):
    return {"seq": 0, "from": "agent", "transport": "jsonrpc", "payloadType": ptype,
            "message": {"jsonrpc": "2.0", "id": mid, "result": result}}


def _error(mid, code):
    return {"seq": 0, "from": "agent", "transport": "jsonrpc", "payloadType": "error",
            "message": {"jsonrpc": "2.0", "id": mid, "error": {"code": code, "message": "refused", "data": [
                {"@type": ERROR_INFO, "reason": REASONS[code], "domain": "a2a-protocol.org"}]}}}


_OPEN = [_send(1), _frame(1, {"task": _task("TASK_STATE_SUBMITTED")}), _update(1, "TASK_STATE_WORKING")]
_DONE = _OPEN + [_update(1, "TASK_STATE_COMPLETED")]  # lines 1-4: t-1 is COMPLETED
# A lifecycle that keeps every rule: a stream closed at INPUT_REQUIRED, the answer
# on a new stream, a cancel and a message refused once terminal, a follow-up task in
# the same context, a final Task snapshot, a probe leaving its stream and reusing its id.
GOOD_LIFECYCLE = _OPEN + [
    _update(1, "TASK_STATE_INPUT_REQUIRED"),
    _send(2, taskId="t-1", contextId="c-1"), _frame(2, {"task": _task("TASK_STATE_INPUT_REQUIRED")}),
    _update(2, "TASK_STATE_WORKING"), _update(2, "TASK_STATE_COMPLETED"), _frame(2, {"task": _task("TASK_STATE_COMPLETED")}),
    _rq(3, "CancelTask", {"id": "t-1"}), _error(3, -32002),
    _send(4, False, taskId="t-1"), _error(4, -32004),
    _rq(5, "SubscribeToTask", {"id": "t-1"}), _error(5, -32004),
    _send(6, contextId="c-1", referenceTaskIds=["t-1"]), _frame(6, {"task": _task("TASK_STATE_SUBMITTED", "t-2")}),
    _rq("s", "SubscribeToTask", {"id": "t-2"}), _frame("s", {"task": _task("TASK_STATE_SUBMITTED", "t-2")}),
    _update(6, "TASK_STATE_WORKING", "t-2"),
    _rq("s", "SubscribeToTask", {"id": "t-2"}), _frame("s", {"task": _task("TASK_STATE_WORKING", "t-2")}),
]

# name -> (lines, the one line that must fail, why)
LIFECYCLE_BAD = {
    "stream opening without a Task": (_OPEN[:1] + _OPEN[2:], 2, "first frame of the SendStreamingMessage stream"),
    "SubscribeToTask opening with a Message": (
        _OPEN + [_rq(2, "SubscribeToTask", {"id": "t-1"}),
                 _frame(2, {"message": {"messageId": "a1", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}})],
        5, "must carry task, not message"),
    "frame after a terminal statusUpdate": (_DONE + [_update(1, "TASK_STATE_WORKING")], 5,
                                            "a frame follows the end of its stream"),
    "artifact after a terminal statusUpdate": (
        _DONE + [_frame(1, {"artifactUpdate": {"taskId": "t-1", "contextId": "c-1",
                                               "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}})],
        5, "a frame follows the end of its stream"),
    "frame after the stream's Message": (
        [_send(1), _frame(1, {"message": {"messageId": "a1", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}}),
         _frame(1, {"message": {"messageId": "a2", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}})],
        3, "ended with the Message at line 2"),
    "frame of another task in the stream": (_OPEN + [_update(1, "TASK_STATE_WORKING", "t-2")], 4,
                                            "in the stream of task t-1"),
    "frame of another context in the stream": (
        _OPEN + [_frame(1, {"artifactUpdate": {"taskId": "t-1", "contextId": "c-2",
                                               "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}})],
        4, "context c-2 in the stream of task t-1 / context c-1"),
    "stream of another task than subscribed": (
        _OPEN + [_rq(2, "SubscribeToTask", {"id": "t-1"}), _frame(2, {"task": _task("TASK_STATE_WORKING", "t-2")})],
        5, "SubscribeToTask for task t-1 (line 4) is answered with task t-2"),
    "answer to an answered request": (
        _OPEN + [_rq(2, "GetTask", {"id": "t-1"}), _reply(2, "Task", _task("TASK_STATE_WORKING")),
                 _reply(2, "Task", _task("TASK_STATE_WORKING"))],
        6, "comes too late: the request at line 4 was answered at line 5"),
    "request id reused while unanswered": ([_rq(2, "GetTask", {"id": "t-1"}), _rq(2, "GetTask", {"id": "t-1"}),
                                            _error(2, -32001)], 2, "is reused while the request at line 1"),
    "request never answered": (_OPEN + [_rq(2, "GetTask", {"id": "t-1"})], 4, "is never answered"),
    "more history than historyLength": (
        _OPEN + [_rq(2, "GetTask", {"id": "t-1", "historyLength": 1}),
                 _reply(2, "Task", dict(_task("TASK_STATE_WORKING"), history=[
                     {"messageId": f"m{i}", "role": "ROLE_USER", "parts": [{"text": "hi"}]} for i in (1, 2)]))],
        5, "asked for historyLength 1, and task t-1 comes with 2 history messages"),
    "plain answer after stream frames": (_OPEN + [_error(1, -32004)], 4, "a plain JSON-RPC answer to the"),
    "answer from the request's sender": (
        _OPEN + [{"seq": 0, "from": "agent", "transport": "jsonrpc", "payloadType": "proposal:AwaitTaskResumptionRequest",
                  "pauseProposal": "core", "message": {"jsonrpc": "2.0", "id": 7, "method": "AwaitTaskResumption",
                                                       "params": {"taskId": "t-1"}}},
                 {"seq": 0, "from": "agent", "transport": "jsonrpc", "payloadType": "proposal:AwaitTaskResumptionResponse",
                  "pauseProposal": "core", "message": {"jsonrpc": "2.0", "id": 7, "result": {"taskId": "t-1"}}}],
        5, "comes from its sender"),
    "message to a terminal task answered by a stream": (
        _DONE + [_send(2, taskId="t-1"), _frame(2, {"task": _task("TASK_STATE_COMPLETED")})],
        6, "must be answered by error -32004, was answered by a result"),
    "message to a terminal task refused as bad params": (
        _DONE + [_send(2, False, taskId="t-1"), _error(2, -32602)],
        6, "must be answered by error -32004 (UNSUPPORTED_OPERATION), got error -32602"),
    "subscribe to a terminal task answered by a stream": (
        _DONE + [_rq(2, "SubscribeToTask", {"id": "t-1"}), _frame(2, {"task": _task("TASK_STATE_COMPLETED")})],
        6, "SubscribeToTask of task t-1, TASK_STATE_COMPLETED since line 4: must be answered by error -32004"),
    "cancel of a terminal task answered by a Task": (
        _DONE + [_rq(2, "CancelTask", {"id": "t-1"}), _reply(2, "Task", _task("TASK_STATE_COMPLETED"))],
        6, "must be answered by error -32002, was answered by a result"),
    "cancel of a terminal task answered -32004": (
        _DONE + [_rq(2, "CancelTask", {"id": "t-1"}), _error(2, -32004)],
        6, "must be answered by error -32002 (TASK_NOT_CANCELABLE), got error -32004"),
    "terminal task back to WORKING": (
        _DONE + [_rq(2, "GetTask", {"id": "t-1"}), _reply(2, "Task", _task("TASK_STATE_WORKING"))],
        6, "goes back from TASK_STATE_COMPLETED (terminal, line 4) to TASK_STATE_WORKING"),
    "task changing its contextId": (
        _OPEN + [_rq(2, "GetTask", {"id": "t-1"}), _reply(2, "Task", _task("TASK_STATE_WORKING", context="c-2"))],
        5, "task t-1 shows contextId c-2, it was c-1"),
    "message answered about another task": (
        _OPEN + [_send(2, False, taskId="t-1"), _reply(2, "SendMessageResponse", {"task": _task("TASK_STATE_WORKING", "t-2")})],
        5, "SendMessage for task t-1 (line 4) is answered with task t-2"),
    "message in a context not the task's, accepted": (
        _OPEN + [_send(2, False, contextId="c-2", taskId="t-1"),
                 _reply(2, "SendMessageResponse", {"task": _task("TASK_STATE_WORKING")})],
        5, "the task's is c-1: must be answered by an error"),
    "reference to a task never seen": ([_send(1, referenceTaskIds=["t-9"])], 1, "names task t-9, not seen earlier"),
    "follow-up sent in another context": (_DONE + [_send(2, contextId="c-2", referenceTaskIds=["t-1"])], 5,
                                          "a follow-up of task t-1 is sent in contextId c-2"),
    "follow-up task in another context": (
        _DONE + [_send(2, referenceTaskIds=["t-1"]), _frame(2, {"task": _task("TASK_STATE_SUBMITTED", "t-2", "c-2")})],
        6, "the follow-up of task t-1 (line 5) is task t-2 in contextId c-2"),
}


def lifecycle_self_test():
    """Each LIFECYCLE_BAD transcript fails at its line, for its reason, and nowhere else."""
    ok = True
    for name, (lines, bad_line, why) in LIFECYCLE_BAD.items():
        with tempfile.TemporaryDirectory() as d:
            path = Path(d, "bad.jsonl")
            path.write_text("".join(json.dumps(line) + "\n" for line in lines))
            failed = [(n, err) for n, _, _, err, _ in check_file(path, collections.Counter()) if err]
        right = len(failed) == 1 and failed[0][0] == bad_line and why in failed[0][1]
        ok &= right
        print(f"self-test: lifecycle {'rejected' if failed else 'NOT rejected'} {name}"
              f"{'' if right or not failed else ' FOR ANOTHER REASON'}: "
              + ("; ".join(f"line {n}: {err[:150]}" for n, err in failed) or "-"))
    return ok



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
    opened = frame({"task": {"id": tid, "contextId": ctx, "status": {"state": "TASK_STATE_SUBMITTED"}}})
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
        Path(d, "good.jsonl").write_text("".join(json.dumps(line) + "\n" for line in [req, opened, good]))
        Path(d, "good-lifecycle.jsonl").write_text("".join(json.dumps(line) + "\n" for line in GOOD_LIFECYCLE))
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
        ("a v1.0 frame marked proposal:", [req, opened, {**good, "payloadType": "proposal:StreamResponse",
                                                         "pauseProposal": "core"}], []),
        ("a proposal: line without pauseProposal",
         [req, opened, {**upd({"state": "TASK_STATE_PAUSED", "timestamp": ts}),
                        "payloadType": "proposal:StreamResponse"}], []),
        ("no Task checked", [req, opened, good], ["Task"]),
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
    ok &= lifecycle_self_test()
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
