#!/usr/bin/env python3
"""Exports ResNet-50 and a BERT-base encoder from PyTorch (random weights, a
fixed seed) to ONNX, and times PyTorch eager on the GPU on the same inputs.

    torch_models.py OUT_DIR [--runs N] [--only NAME] [--dtypes float32,float16] [--batches 1,8]

Writes OUT_DIR/<name>/model.onnx and model_fp16.onnx (torch.onnx.export of
the float32 model and of the same model in float16, on the GPU), the inputs
b<batch>_input_<i>.pb (float inputs also as b<batch>_fp16_input_<i>.pb), the
eager outputs b<batch>_<dtype>_output_0.pb (as float32), and
OUT_DIR/torch_times.txt: one line `name batch dtype median_ms` each. Run on the GPU machine
(bench/cuda/run_device.sh); needs torch, torchvision, transformers, onnx.
"""
import os
import sys
import time

import numpy as np
import onnx
import torch
from onnx import numpy_helper


def median_ms(fn, runs, warmup=10):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(times))


def export(model, args, names, path, dynamic):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        torch.onnx.export(model, args, path, input_names=names, output_names=["output"], opset_version=17,
                          dynamic_axes=dynamic, dynamo=False)
    except TypeError:  # an exporter without the dynamo switch
        torch.onnx.export(model, args, path, input_names=names, output_names=["output"], opset_version=17,
                          dynamic_axes=dynamic)
    onnx.checker.check_model(path)


def save(arr, path, name):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(arr, name).SerializeToString())


def main():
    out = sys.argv[1]
    def arg(name, default):
        return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default
    runs = int(arg("--runs", "50"))
    only = arg("--only", "")
    dtypes = arg("--dtypes", "float32,float16").split(",")
    batches = [int(b) for b in arg("--batches", "1,8").split(",")]
    torch.manual_seed(0)
    dev = torch.device("cuda")
    # float32 as float32: no TF32 in eager's convolutions either (PyTorch
    # enables it for cuDNN by default), since onyx uses none unless asked.
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    lines = []
    import torchvision
    resnet = torchvision.models.resnet50(weights=None).eval()
    from transformers import BertConfig, BertModel
    bert = BertModel(BertConfig(attn_implementation="eager")).eval()  # BERT-base: 12 layers, hidden 768
    for name, model, make_inputs, names, dyn in [
        ("resnet50", resnet, lambda b: (torch.randn(b, 3, 224, 224),), ["input"], {"input": {0: "batch"}}),
        ("bert_base", bert,
         lambda b: (torch.randint(0, 30522, (b, 128)), torch.ones(b, 128, dtype=torch.int64)),
         ["input_ids", "attention_mask"], {"input_ids": {0: "batch"}, "attention_mask": {0: "batch"}}),
    ]:
        if only and name != only:
            continue
        folder = os.path.join(out, name)
        with torch.no_grad():
            export(model, make_inputs(1), names, os.path.join(folder, "model.onnx"), dyn)
            half = lambda ts: tuple(t.half().to(dev) if t.is_floating_point() else t.to(dev) for t in ts)
            if "float16" in dtypes:
                export(model.to(dev).half(), half(make_inputs(1)), names, os.path.join(folder, "model_fp16.onnx"), dyn)
                model.float().cpu()
            for batch in batches:
                inputs = make_inputs(batch)
                for i, t in enumerate(inputs):
                    save(t.numpy(), os.path.join(folder, f"b{batch}_input_{i}.pb"), names[i])
                    if t.is_floating_point():
                        save(t.half().numpy(), os.path.join(folder, f"b{batch}_fp16_input_{i}.pb"), names[i])
                for dtype in dtypes:
                    m = model.to(dev).to(torch.float16 if dtype == "float16" else torch.float32)
                    mdt = next(m.parameters()).dtype
                    dev_in = [t.to(dev).to(mdt) if t.is_floating_point() else t.to(dev) for t in inputs]
                    def call():
                        r = m(*dev_in)
                        return r.last_hidden_state if hasattr(r, "last_hidden_state") else r
                    y = call().float().cpu().numpy()
                    save(y, os.path.join(folder, f"b{batch}_{dtype}_output_0.pb"), "output")
                    ms = median_ms(call, runs)
                    lines.append(f"{name} {batch} {dtype} {ms:.3f}")
                    print(lines[-1], flush=True)
            model.to(torch.float32).cpu()
    with open(os.path.join(out, "torch_times.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
