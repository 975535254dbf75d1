"""onyx-run's session features: --profile (a Chrome trace, its JSON checked
against the Trace Event Format's fields, covering every node of the optimized
ResNet-50), --profile-summary, --dim, --optimization, --save-optimized."""

import json
import os
import re
import subprocess

import pytest

import onyx

from conftest import BUILD


@pytest.fixture(scope="module")
def onyx_run():
    exe = BUILD / "tools" / "onyx-run"
    if not exe.exists():
        pytest.fail("%s is not built" % exe)
    return exe


def run(exe, *args):
    p = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return p.stdout


# The Trace Event Format's fields as chrome://tracing and Perfetto read them:
# name -> (type, required). Complete events ("X") need ts and dur; metadata
# events ("M") need args.
EVENT_FIELDS = {
    "name": (str, True),
    "ph": (str, True),
    "pid": (int, True),
    "tid": (int, True),
    "ts": ((int, float), False),
    "dur": ((int, float), False),
    "cat": (str, False),
    "args": (dict, False),
}
NODE_ARGS = {"op_name": str, "kernel": str, "isa": str, "input_shapes": str}


def check_trace_schema(trace):
    assert isinstance(trace, dict) and isinstance(trace.get("traceEvents"), list)
    assert trace.get("displayTimeUnit") in ("ms", "ns")
    for e in trace["traceEvents"]:
        assert isinstance(e, dict)
        for key, (kind, required) in EVENT_FIELDS.items():
            if required:
                assert key in e, (key, e)
            if key in e:
                assert isinstance(e[key], kind), (key, e)
        assert set(e) <= set(EVENT_FIELDS), e
        assert e["ph"] in ("X", "M"), e
        if e["ph"] == "X":
            assert e["ts"] >= 0 and e["dur"] >= 0, e
            assert e["cat"] in ("node", "session"), e
        else:
            assert isinstance(e["args"], dict)
        if e.get("cat") == "node":
            assert set(e["args"]) == set(NODE_ARGS), e
            for key, kind in NODE_ARGS.items():
                assert isinstance(e["args"][key], kind)


def test_resnet50_profile_is_a_chrome_trace_covering_every_node(onyx_run, resnet50, tmp_path):
    trace_file = tmp_path / "resnet50.json"
    out = run(onyx_run, resnet50, "--profile", trace_file, "--profile-summary", "--runs", "2", "--warmup", "1",
              "--threads", "2")
    assert "profile: %s" % trace_file in out
    trace = json.loads(trace_file.read_text())
    check_trace_schema(trace)
    events = trace["traceEvents"]
    nodes = [e for e in events if e.get("cat") == "node"]
    graph_nodes = onyx.InferenceSession(str(resnet50)).nodes()
    # every node of the optimized graph, once in each of the 3 runs (warm-up included)
    counts = {}
    for e in nodes:
        counts[e["name"]] = counts.get(e["name"], 0) + 1
    assert counts == {name: 3 for name, _, _ in graph_nodes}
    ops = {name: op for name, op, _ in graph_nodes}
    for e in nodes:
        assert e["args"]["op_name"] == ops[e["name"]]
        assert e["args"]["kernel"].startswith("cpu(float32")
        assert re.fullmatch(r"(\[[0-9,]*\],?)+", e["args"]["input_shapes"]), e
    assert nodes[0]["args"]["input_shapes"].startswith("[1,3,224,224],")
    stages = [e["name"] for e in events if e.get("cat") == "session"]
    assert stages[:3] == ["load", "normalize", "infer"] and stages[-1] == "prepare"
    # nodes of one run follow one another in time
    first = nodes[: len(graph_nodes)]
    assert all(a["ts"] + a["dur"] <= b["ts"] + 1e-3 for a, b in zip(first, first[1:]))

    # --profile-summary: one line per op type, sorted by share, shares summing to 100%
    table = out[out.index("onyx profile:") :].splitlines()
    end = next(i for i, l in enumerate(table) if l.strip().startswith("all "))
    rows = [l.split() for l in table[2:end]]
    shares = [float(r[-1].rstrip("%")) for r in rows]
    assert shares == sorted(shares, reverse=True)
    assert abs(sum(shares) - 100) < 0.5
    assert any(r[0].startswith("Conv") for r in rows)


def test_onyx_run_dim_optimization_and_saving(onyx_run, models, tmp_path):
    out = run(onyx_run, models / "affine.onnx", "--dim", "batch=4", "--runs", "1")
    assert re.search(r"float32 \[4,3\]", out), out
    saved = tmp_path / "conv_relu.opt.onnx"
    out = run(onyx_run, models / "conv_relu.onnx", "--optimization", "extended", "--save-optimized", saved, "--runs", "1")
    assert b"onyx.fused" in saved.read_bytes()
    again = run(onyx_run, saved, "--runs", "1")
    assert again.split("\n")[1] == out.split("\n")[1]  # the same output line
    p = subprocess.run([str(onyx_run), str(models / "affine.onnx"), "--dim", "btch=4"], capture_output=True, text=True)
    assert p.returncode == 1 and "free dimension 'btch'" in p.stderr
    p = subprocess.run([str(onyx_run), str(models / "affine.onnx"), "--optimization", "max"], capture_output=True,
                       text=True)
    assert p.returncode == 1 and "none, basic, extended or all" in p.stderr


def test_profile_file_from_the_environment(onyx_run, models, tmp_path):
    trace_file = tmp_path / "env.json"
    env = dict(os.environ, ONYX_PROFILE_FILE=str(trace_file))
    p = subprocess.run([str(onyx_run), str(models / "affine.onnx"), "--runs", "2"], capture_output=True, text=True,
                       env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    trace = json.loads(trace_file.read_text())  # written when the session ends
    check_trace_schema(trace)
    # Mul and Add as one onyx.fused.Elementwise node, 3 runs
    assert len([e for e in trace["traceEvents"] if e.get("cat") == "node"]) == 3
