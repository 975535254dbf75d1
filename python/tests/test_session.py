"""onyx's Python package: sessions, inputs and outputs, options, errors.
Expected values are computed here with NumPy from the models' definitions
(make_test_models.cpp), never by onyx."""

import json
import threading
import time
import warnings

import numpy as np
import pytest

import onyx


def affine(x):
    return x * np.float32(2) + np.float32(1)


def conv_relu_reference(x):
    """Relu(Conv(x, w, b)) of conv_relu.onnx, 3x3 valid, written from the spec."""
    o_, c_, k = 4, 2, 3
    w = np.empty((o_, c_, k, k), np.float64)
    for o in range(o_):
        for c in range(c_):
            for i in range(k):
                for j in range(k):
                    w[o, c, i, j] = np.float32((o + 1) * 0.1) - np.float32(c * 0.05) + np.float32(i * 0.01) - np.float32(j * 0.02)
    b = np.arange(o_, dtype=np.float64) - 1.5
    n, _, h, wd = x.shape
    y = np.zeros((n, o_, h - 2, wd - 2))
    for i in range(h - 2):
        for j in range(wd - 2):
            patch = x[:, :, i : i + 3, j : j + 3].astype(np.float64)
            y[:, :, i, j] = np.einsum("ncij,ocij->no", patch, w) + b
    return np.maximum(y, 0).astype(np.float32)


def test_inputs_outputs_and_run(models):
    sess = onyx.InferenceSession(str(models / "affine.onnx"))
    (inp,) = sess.get_inputs()
    assert (inp.name, inp.type, inp.shape) == ("x", "tensor(float)", ["batch", 3])
    (out,) = sess.get_outputs()
    assert out.type == "tensor(float)" and out.shape == ["batch", 3]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (y,) = sess.run(None, {"x": x})
    np.testing.assert_array_equal(y, affine(x))
    assert y.dtype == np.float32 and y.shape == (2, 3)
    # by name, and a list of names in any order
    (y2,) = sess.run([out.name], {"x": x})
    np.testing.assert_array_equal(y2, y)


def test_outputs_are_not_copied_and_outlive_the_session(models):
    sess = onyx.InferenceSession(str(models / "affine.onnx"))
    x = np.ones((4, 3), np.float32)
    (y,) = sess.run(None, {"x": x})
    assert not y.flags.owndata and y.base is not None  # a view over onyx's buffer
    del sess
    np.testing.assert_array_equal(y, np.full((4, 3), 3, np.float32))
    y[0, 0] = 7  # writable, and the caller's own
    assert y[0, 0] == 7


def test_inputs_in_any_layout(models):
    sess = onyx.InferenceSession(str(models / "affine.onnx"))
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    for x in (base[:, ::2], base[::2, :3], np.asfortranarray(base[:, :3]), base[:, :3].astype(">f4")):
        (y,) = sess.run(None, {"x": x})
        np.testing.assert_array_equal(y, affine(np.asarray(x, np.float32)))
    (y,) = sess.run(None, {"x": [[1.0, 2.0, 3.0]]})  # a nested list becomes an array
    np.testing.assert_array_equal(y, [[3, 5, 7]])


def test_from_bytes_and_path_objects(models):
    data = (models / "affine.onnx").read_bytes()
    for model in (data, models / "affine.onnx"):
        sess = onyx.InferenceSession(model, providers=["CPUExecutionProvider"])
        (y,) = sess.run(None, {"x": np.zeros((1, 3), np.float32)})
        np.testing.assert_array_equal(y, np.ones((1, 3), np.float32))


def test_dtypes(models):
    sess = onyx.InferenceSession(str(models / "types.onnx"))
    assert [i.type for i in sess.get_inputs()] == ["tensor(int64)", "tensor(bool)", "tensor(string)"]
    i = np.array([[1, -2], [3, 2**40]], np.int64)
    flag = np.array([True, False, True])
    s = np.array(["a", "bc", "ü"], dtype=object)
    a, b, c = sess.run(None, {"i": i, "flag": flag, "s": s})
    np.testing.assert_array_equal(a, i + 1)
    assert a.dtype == np.int64
    np.testing.assert_array_equal(b, ~flag)
    assert b.dtype == np.bool_
    assert list(c) == ["a", "bc", "ü"]


def test_metadata(models):
    meta = onyx.InferenceSession(str(models / "affine.onnx")).get_modelmeta()
    assert meta.producer_name == "onyx-tests"
    assert meta.version == 7
    assert meta.graph_name == "affine"
    assert meta.description == "y = 2x + 1"
    assert meta.graph_description == "an affine map"
    assert meta.domain == "org.onyx.tests"
    assert meta.custom_metadata_map == {"author": "onyx", "purpose": "tests"}


def test_errors_are_exceptions_with_onyx_messages(models, tmp_path):
    sess = onyx.InferenceSession(str(models / "affine.onnx"))
    x = np.zeros((1, 3), np.float32)
    with pytest.raises(onyx.InvalidArgument, match="has no input 'nope'"):
        sess.run(None, {"nope": x})
    with pytest.raises(onyx.InvalidArgument, match="dtype float64, expected float32"):
        sess.run(None, {"x": x.astype(np.float64)})
    with pytest.raises(onyx.InvalidArgument, match="shape"):
        sess.run(None, {"x": np.zeros((1, 4), np.float32)})
    with pytest.raises(onyx.InvalidArgument, match="no output 'z'"):
        sess.run(["z"], {"x": x})
    with pytest.raises(onyx.Fail):
        onyx.InferenceSession(str(tmp_path / "missing.onnx"))
    (tmp_path / "junk.onnx").write_bytes(b"\x01\x02not a model")
    with pytest.raises(RuntimeError):  # every onyx error is a RuntimeError (ORT's Fail)
        onyx.InferenceSession(str(tmp_path / "junk.onnx"))
    # the session is still usable
    (y,) = sess.run(None, {"x": x})
    np.testing.assert_array_equal(y, np.ones((1, 3), np.float32))


def test_free_dimension_override(models):
    so = onyx.SessionOptions()
    so.add_free_dimension_override_by_name("batch", 2)
    sess = onyx.InferenceSession(str(models / "affine.onnx"), so)
    assert sess.get_inputs()[0].shape == [2, 3]
    (y,) = sess.run(None, {"x": np.ones((2, 3), np.float32)})
    np.testing.assert_array_equal(y, np.full((2, 3), 3, np.float32))
    with pytest.raises(onyx.InvalidArgument, match="expected \\[2,3\\]"):
        sess.run(None, {"x": np.ones((5, 3), np.float32)})
    so = onyx.SessionOptions()
    so.add_free_dimension_override_by_name("batchh", 2)
    with pytest.raises(onyx.InvalidArgument, match="'batchh' is not a symbolic dim.*'batch'"):
        onyx.InferenceSession(str(models / "affine.onnx"), so)


LEVELS = {
    onyx.GraphOptimizationLevel.ORT_DISABLE_ALL: ["Conv", "Relu"],
    onyx.GraphOptimizationLevel.ORT_ENABLE_BASIC: ["Conv", "Relu"],
    onyx.GraphOptimizationLevel.ORT_ENABLE_EXTENDED: ["onyx.fused.Conv"],
    onyx.GraphOptimizationLevel.ORT_ENABLE_ALL: ["onyx.fused.Conv"],
}


@pytest.mark.parametrize("level", list(LEVELS))
def test_optimization_levels(models, level):
    so = onyx.SessionOptions()
    so.graph_optimization_level = level
    sess = onyx.InferenceSession(str(models / "conv_relu.onnx"), so)
    assert [op for _, op, _ in sess.nodes()] == LEVELS[level]
    x = np.random.default_rng(1).standard_normal((2, 2, 5, 5)).astype(np.float32)
    (y,) = sess.run(None, {"x": x})
    np.testing.assert_allclose(y, conv_relu_reference(x), rtol=1e-5, atol=1e-5)


def test_optimized_model_is_saved_and_loads_again(models, tmp_path):
    path = tmp_path / "conv_relu.opt.onnx"
    so = onyx.SessionOptions()
    so.optimized_model_filepath = str(path)
    sess = onyx.InferenceSession(str(models / "conv_relu.onnx"), so)
    assert b"onyx.fused" in path.read_bytes()  # the fused op, in onyx's own domain
    again = onyx.InferenceSession(str(path))
    assert [op for _, op, _ in again.nodes()] == ["onyx.fused.Conv"]
    assert again.get_inputs()[0].shape == ["N", 2, 5, 5]
    x = np.random.default_rng(2).standard_normal((1, 2, 5, 5)).astype(np.float32)
    np.testing.assert_array_equal(again.run(None, {"x": x})[0], sess.run(None, {"x": x})[0])
    np.testing.assert_allclose(again.run(None, {"x": x})[0], conv_relu_reference(x), rtol=1e-5, atol=1e-5)


def test_profile_is_a_chrome_trace_covering_every_node(models, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    so = onyx.SessionOptions()
    so.enable_profiling = True
    so.profile_file_prefix = "conv"
    sess = onyx.InferenceSession(str(models / "conv_relu.onnx"), so)
    x = np.ones((1, 2, 5, 5), np.float32)
    for _ in range(3):
        sess.run(None, {"x": x})
    name = sess.end_profiling()
    assert name.startswith("conv_") and name.endswith(".json")
    trace = json.loads((tmp_path / name).read_text())
    events = trace["traceEvents"]
    for e in events:
        assert {"name", "ph", "pid", "tid"} <= e.keys()
        if e["ph"] == "X":
            assert isinstance(e["ts"], (int, float)) and e["dur"] >= 0
    nodes = [e for e in events if e.get("cat") == "node"]
    assert len(nodes) == 3 * len(sess.nodes())
    assert {e["name"] for e in nodes} == {n for n, _, _ in sess.nodes()}
    for e in nodes:
        assert e["args"]["op_name"] == "onyx.fused.Conv"
        assert e["args"]["kernel"] == "cpu(float32,float32,float32)"
        assert e["args"]["input_shapes"] == "[1,2,5,5],[4,2,3,3],[4]"
        assert e["args"]["isa"] in ("scalar", "sse", "avx2", "avx512", "neon")
    stages = [e["name"] for e in events if e.get("cat") == "session"]
    assert stages[0] == "load" and stages[-1] == "prepare" and "fuse_conv" in stages
    assert sess.end_profiling() == name  # once written, not again


def test_run_options_terminate(models, resnet50):
    sess = onyx.InferenceSession(str(models / "affine.onnx"))
    ro = onyx.RunOptions()
    ro.terminate = True
    with pytest.raises(onyx.RunTerminated, match="terminated"):
        sess.run(None, {"x": np.ones((1, 3), np.float32)}, ro)
    ro.terminate = False
    (y,) = sess.run(None, {"x": np.ones((1, 3), np.float32)}, ro)
    np.testing.assert_array_equal(y, np.full((1, 3), 3, np.float32))


def test_terminate_from_another_thread(resnet50):
    so = onyx.SessionOptions()
    so.intra_op_num_threads = 1
    sess = onyx.InferenceSession(str(resnet50), so)
    name = sess.get_inputs()[0].name
    x = np.random.default_rng(3).random((1, 3, 224, 224), dtype=np.float32)
    t0 = time.perf_counter()
    (expected,) = sess.run(None, {name: x})
    full = time.perf_counter() - t0
    ro = onyx.RunOptions()
    result = {}

    def run():
        t = time.perf_counter()
        try:
            sess.run(None, {name: x}, ro)
            result["outcome"] = "finished"
        except onyx.RunTerminated as e:
            result["outcome"] = str(e)
        result["seconds"] = time.perf_counter() - t

    th = threading.Thread(target=run)
    th.start()
    time.sleep(full / 10)
    ro.terminate = True
    th.join()
    assert "terminated" in result["outcome"], result
    # the session runs again afterwards, with the same result
    (again,) = sess.run(None, {name: x})
    np.testing.assert_array_equal(again, expected)


def test_concurrent_runs_release_the_gil(models):
    sess = onyx.InferenceSession(str(models / "conv_relu.onnx"))
    rng = np.random.default_rng(4)
    xs = [rng.standard_normal((3, 2, 5, 5)).astype(np.float32) for _ in range(8)]
    out = [None] * len(xs)

    def work(k):
        for _ in range(20):
            out[k] = sess.run(None, {"x": xs[k]})[0]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(xs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for x, y in zip(xs, out):
        np.testing.assert_allclose(y, conv_relu_reference(x), rtol=1e-5, atol=1e-5)


def test_providers():
    assert onyx.get_available_providers() == ["CPUExecutionProvider"]
    assert onyx.get_device() == "CPU"


def test_unavailable_provider_falls_back_with_a_warning(models):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        sess = onyx.InferenceSession(
            str(models / "affine.onnx"), providers=["CUDAExecutionProvider", "CPUExecutionProvider"]
        )
    assert any("CUDAExecutionProvider" in str(x.message) for x in w)
    assert sess.get_providers() == ["CPUExecutionProvider"]
