#!/usr/bin/env python3
"""onyx's CUDA matrix product against PyTorch's on the same GPU and shapes.

    gemm_compare.py CUDA_GEMM_BENCH [--runs N]

Runs bench/cuda/gemm_bench.cpp's program (onyx's `gemm` launcher, timed with
CUDA events), times torch.matmul on the same row-major shapes and types the
same way (TF32 off, as in onyx), and prints both in TFLOP/s with their ratio
(onyx / PyTorch, above 1 is faster). torch.matmul is cuBLAS's own choice of
kernel. The bench's copy lines (onyx's host <-> device copies, GB/s) are
printed as they come.
"""
import re
import subprocess
import sys

import torch


def torch_ms(m, n, k, dtype, runs):
    a = torch.full((m, k), 0.0115 if dtype == torch.float32 else 1.06, dtype=dtype, device="cuda")
    b = torch.full((k, n), 0.0115 if dtype == torch.float32 else 1.06, dtype=dtype, device="cuda")
    for _ in range(3):
        torch.matmul(a, b)
    times = []
    for _ in range(runs):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        torch.matmul(a, b)
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    return times[len(times) // 2]


def main():
    bench = sys.argv[1]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 20
    torch.backends.cuda.matmul.allow_tf32 = False
    out = subprocess.run([bench, "--runs", str(runs)], capture_output=True, text=True)
    print(f"{'M':>5} {'N':>5} {'K':>5} {'dtype':<8} {'onyx TFLOP/s':>12} {'torch TFLOP/s':>13} {'ratio':>6}")
    for line in out.stdout.splitlines():
        g = re.match(r"gemm (\d+) (\d+) (\d+) (\w+) ([0-9.]+) ([0-9.]+)$", line)
        if not g:
            print(line)
            continue
        m, n, k = (int(x) for x in g.group(1, 2, 3))
        dtype = torch.float16 if g.group(4) == "float16" else torch.float32
        flops = 2.0 * m * n * k
        onyx = flops / (float(g.group(5)) * 1e9)
        ref = flops / (torch_ms(m, n, k, dtype, runs) * 1e9)
        print(f"{m:>5} {n:>5} {k:>5} {g.group(4):<8} {onyx:>12.1f} {ref:>13.1f} {onyx / ref:>6.2f}", flush=True)
    if out.returncode != 0:
        print(out.stderr)
        sys.exit(out.returncode)


if __name__ == "__main__":
    main()
