"""Where the tests find their models: ONYX_TEST_MODELS (the folder CTest's
`python.test_models` fixture writes), else build/python/test-models; the
bundled ResNet-50 in examples/models. Run by hand after building:

    cmake --build build --target onyx_python onyx_make_test_models
    build/python/onyx_make_test_models build/python/test-models   # (ctest does this)
    PYTHONPATH=build/python python3 -m pytest python/tests
"""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("ONYX_BUILD_DIR", ROOT / "build"))


@pytest.fixture(scope="session")
def models():
    d = pathlib.Path(os.environ.get("ONYX_TEST_MODELS", BUILD / "python" / "test-models")).resolve()
    if not (d / "affine.onnx").exists():
        pytest.fail("no test models in %s: run onyx_make_test_models %s (ctest runs it)" % (d, d))
    return d


@pytest.fixture(scope="session")
def resnet50():
    return ROOT / "examples" / "models" / "resnet50.onnx"
