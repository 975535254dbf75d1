#!/usr/bin/env python3
"""Runs the models torch_models.py exported through `onyx-run --backend cuda`
and compares latency and outputs with PyTorch eager on the same GPU.

    compare.py MODELS_DIR ONYX_RUN [--runs N]

Prints one line per (model, batch, dtype): onyx's median latency, eager's,
their ratio (onyx / eager, below 1 is faster), the largest |onyx - eager|
relative to the largest |eager|, and whether every element is within
rtol (1e-3 float32, 1e-2 float16) of eager's, with atol = rtol * max|eager|.
"""
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def load(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t).astype(np.float32)


def main():
    models, onyx_run = sys.argv[1], sys.argv[2]
    runs = sys.argv[sys.argv.index("--runs") + 1] if "--runs" in sys.argv else "50"
    eager = {}
    for line in open(os.path.join(models, "torch_times.txt")):
        name, batch, dtype, ms = line.split()
        eager[(name, int(batch), dtype)] = float(ms)
    print(f"{'model':<10} {'batch':>5} {'dtype':<8} {'onyx ms':>9} {'eager ms':>9} {'ratio':>6} "
          f"{'max err/max':>11} {'within':>6} {'nodes gpu/cpu/copies'}")
    for (name, batch, dtype), eager_ms in sorted(eager.items()):
        folder = os.path.join(models, name)
        model = os.path.join(folder, "model_fp16.onnx" if dtype == "float16" else "model.onnx")
        onnx_model = onnx.load(model, load_external_data=False)
        inputs = [i.name for i in onnx_model.graph.input]
        args = [onyx_run, model, "--backend", "cuda", "--runs", runs, "--warmup", "10", "--threads", "4",
                "--output-dir", f"/tmp/onyx_out_{name}_{batch}_{dtype}"]
        if dtype == "float16":
            args.append("--keep-float16")
        for i, n in enumerate(inputs):
            fp16 = os.path.join(folder, f"b{batch}_fp16_input_{i}.pb")
            f = fp16 if dtype == "float16" and os.path.exists(fp16) else os.path.join(folder, f"b{batch}_input_{i}.pb")
            args += ["--input", f"{n}={f}"]
        r = subprocess.run(args, capture_output=True, text=True)
        m = re.search(r"latency: median ([0-9.]+) ms", r.stdout)
        if r.returncode != 0 or not m:
            print(f"{name:<10} {batch:>5} {dtype:<8} onyx-run failed: {(r.stderr or r.stdout)[-600:]}")
            continue
        ms = float(m.group(1))
        want = load(os.path.join(folder, f"b{batch}_{dtype}_output_0.pb"))
        got = load(f"/tmp/onyx_out_{name}_{batch}_{dtype}/output_0.pb")
        rtol = 1e-2 if dtype == "float16" else 1e-3
        scale = float(np.max(np.abs(want))) or 1.0
        err = float(np.max(np.abs(got - want))) if got.shape == want.shape else float("inf")
        within = got.shape == want.shape and bool(np.all(np.abs(got - want) <= rtol * np.abs(want) + rtol * scale))
        nodes = re.search(r"nodes: (.*)", r.stdout)
        print(f"{name:<10} {batch:>5} {dtype:<8} {ms:>9.3f} {eager_ms:>9.3f} {ms / eager_ms:>6.2f} "
              f"{err / scale:>11.2e} {str(within):>6} {nodes.group(1) if nodes else ''}", flush=True)


if __name__ == "__main__":
    main()
