#!/usr/bin/env bash
# python.pip_install: installs the built package into a fresh virtual
# environment with pip, no index, no build isolation (Debian's NumPy from the
# system site), then runs a model from outside the source tree.
#   pip_install.sh PYTHON BUILD_DIR VENV_DIR
set -euo pipefail
python=$1 build=$2 venv=$3
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$venv"
"$python" -m venv --system-site-packages "$venv"
ONYX_BUILD_DIR="$build" "$venv/bin/python" -m pip install -q --no-build-isolation --no-index "$src/python"
cd "$venv"
"$venv/bin/python" - "$src/examples/models/resnet50.onnx" <<'PY'
import sys
import numpy as np
import onyx as ort

assert ort.__file__.startswith(sys.prefix), ort.__file__  # the installed copy, not the build's
sess = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
x = np.random.default_rng(0).random((1, 3, 224, 224), dtype=np.float32)
(y,) = sess.run(None, {sess.get_inputs()[0].name: x})
print("installed at", ort.__file__, "output", y.shape, y.dtype)
assert y.shape == (1, 1000)
PY
