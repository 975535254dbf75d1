"""Scripts written for ONNX Runtime, with only `import onnxruntime as ort`
changed to `import onyx as ort` (tests/ort_scripts/), run as programs on a
model copied to ./model.onnx; their printed lines are checked."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import onyx

SCRIPTS = pathlib.Path(__file__).parent / "ort_scripts"


def run_script(name, model, tmp_path):
    shutil.copy(model, tmp_path / "model.onnx")
    text = (SCRIPTS / name).read_text()
    assert "import onyx as ort" in text and "onnxruntime" not in text
    env = dict(os.environ)
    # the onyx this test imported (the build's or an installed one), from any folder
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(pathlib.Path(onyx.__file__).parents[1]), env.get("PYTHONPATH")]))
    p = subprocess.run([sys.executable, str(SCRIPTS / name)], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_inference_with_profiling(resnet50, tmp_path):
    out = run_script("inference_with_profiling.py", resnet50, tmp_path)
    assert "input: gpu_0/data_0 [1, 3, 224, 224] tensor(float)" in out
    assert "result: (1, 1000) float32" in out
    profile = out.split("profile: ")[1].strip()
    assert (tmp_path / profile).stat().st_size > 1000


def test_classify(resnet50, tmp_path):
    out = run_script("classify.py", resnet50, tmp_path)
    assert "sums to one: True" in out


def test_optimize_offline(models, tmp_path):
    out = run_script("optimize_offline.py", models / "conv_relu.onnx", tmp_path)
    assert float(out.split("max difference:")[1]) == 0.0
    assert b"onyx.fused" in (tmp_path / "optimized_model.onnx").read_bytes()


def test_metadata_and_errors(models, tmp_path):
    out = run_script("metadata_and_errors.py", models / "affine.onnx", tmp_path)
    assert "producer: onyx-tests version: 7 graph: affine" in out
    assert "custom: {'author': 'onyx', 'purpose': 'tests'}" in out
    assert "error: InvalidArgument the model has no input 'not_an_input'" in out
    assert "fixed shape: [4, 3]" in out
