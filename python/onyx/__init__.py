"""onyx: ONNX models from Python, with ONNX Runtime's API.

A script written for ONNX Runtime runs with its import changed::

    import onyx as ort

    sess = ort.InferenceSession("model.onnx", providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    (y,) = sess.run(None, {name: x})

What is covered: InferenceSession (from a path or from bytes), run,
get_inputs/get_outputs (NodeArg: name, shape with symbolic dims as strings,
type such as 'tensor(float)'), get_modelmeta, get_providers,
get_session_options, end_profiling; SessionOptions (intra_op_num_threads,
graph_optimization_level, optimized_model_filepath, enable_profiling,
profile_file_prefix, log_severity_level, add_free_dimension_override_by_name);
RunOptions (terminate); GraphOptimizationLevel; get_available_providers;
ONNX Runtime's exception names (Fail, InvalidArgument, NoSuchFile, ...).

Inputs in native byte order, C-contiguous and aligned are read in place;
outputs are NumPy arrays over onyx's own buffers (no copy). The GIL is
released while a model runs, so several Python threads may run one session
at once. Settings onyx has no use for (inter_op_num_threads, execution_mode,
session config entries, ...) are accepted and kept, and change nothing.
"""

import datetime as _datetime
import enum as _enum
import os as _os
import warnings as _warnings

from . import _onyx
from ._onyx import (  # noqa: F401  (ONNX Runtime's exception names)
    Fail,
    InvalidArgument,
    InvalidGraph,
    NoSuchFile,
    NotImplemented,
    RunTerminated,
    RuntimeException,
)

__version__ = "0.1.0"

__all__ = [
    "InferenceSession",
    "SessionOptions",
    "RunOptions",
    "GraphOptimizationLevel",
    "ExecutionMode",
    "NodeArg",
    "ModelMetadata",
    "get_available_providers",
    "get_device",
    "set_default_logger_severity",
    "Fail",
    "InvalidArgument",
    "InvalidGraph",
    "NoSuchFile",
    "NotImplemented",
    "RunTerminated",
    "RuntimeException",
]

_CPU = "CPUExecutionProvider"


class GraphOptimizationLevel(_enum.IntEnum):
    """ONNX Runtime's levels: none, basic (folding, eliminations, rewrites into
    standard ops), extended (fusions into onyx's own ops), all (layout too)."""

    ORT_DISABLE_ALL = 0
    ORT_ENABLE_BASIC = 1
    ORT_ENABLE_EXTENDED = 2
    ORT_ENABLE_ALL = 99


class ExecutionMode(_enum.IntEnum):
    """Accepted for compatibility; onyx runs nodes in order, each on every thread."""

    ORT_SEQUENTIAL = 0
    ORT_PARALLEL = 1


def get_available_providers():
    """The execution providers this build has: the CPU."""
    return [_CPU]


def get_all_providers():
    return [_CPU]


def get_device():
    return "CPU"


_logger_severity = 2


def set_default_logger_severity(level):
    """Kept for compatibility: onyx logs nothing."""
    global _logger_severity
    _logger_severity = int(level)


class SessionOptions:
    """A session's settings, as ONNX Runtime's SessionOptions names them."""

    def __init__(self):
        self.intra_op_num_threads = 0  # 0: the machine's hardware threads
        self.inter_op_num_threads = 0
        self.graph_optimization_level = GraphOptimizationLevel.ORT_ENABLE_ALL
        self.optimized_model_filepath = ""
        self.enable_profiling = False
        self.profile_file_prefix = "onyx_profile"
        self.log_severity_level = 2
        self.log_verbosity_level = 0
        self.logid = ""
        self.execution_mode = ExecutionMode.ORT_SEQUENTIAL
        self.enable_cpu_mem_arena = True
        self.enable_mem_pattern = True
        self.enable_mem_reuse = True
        self.use_deterministic_compute = False
        self._free_dimensions = {}
        self._config = {}

    def add_free_dimension_override_by_name(self, dim_name, dim_value):
        """Fixes the symbolic input dim `dim_name` to `dim_value`."""
        self._free_dimensions[str(dim_name)] = int(dim_value)

    def add_free_dimension_override_by_denotation(self, dim_denotation, dim_value):
        raise NotImplemented(
            "onyx keeps no dim denotations; use add_free_dimension_override_by_name"
        )

    def add_session_config_entry(self, key, value):
        self._config[str(key)] = str(value)

    def get_session_config_entry(self, key):
        return self._config[key]

    def _native(self):
        level = int(self.graph_optimization_level)
        profile_file = ""
        if self.enable_profiling:
            stamp = _datetime.datetime.now().strftime("%Y-%m-%d_%H-%M-%S-%f")
            profile_file = "%s_%s.json" % (self.profile_file_prefix, stamp)
        return _onyx.make_options(
            threads=int(self.intra_op_num_threads or 0),
            level=level,
            optimized_model_filepath=_os.fspath(self.optimized_model_filepath or ""),
            profile_file=profile_file,
            profile_summary=False,
            free_dimensions=dict(self._free_dimensions),
        )


class RunOptions:
    """Per-run settings. Setting `terminate` to True, from any thread, stops the
    runs that use these options before their next node (RunTerminated is
    raised); the session stays usable. Set it back to False to run again."""

    def __init__(self):
        self._flags = _onyx.RunFlags()
        self.log_severity_level = 2
        self.log_verbosity_level = 0
        self.logid = ""
        self.run_tag = ""

    @property
    def terminate(self):
        return self._flags.terminate

    @terminate.setter
    def terminate(self, value):
        self._flags.terminate = bool(value)

    def add_run_config_entry(self, key, value):
        pass


class NodeArg:
    """A model input or output: `name`, `type` ('tensor(float)') and `shape`
    (ints, names of symbolic dims, None for unknown dims)."""

    def __init__(self, name, type, shape):
        self.name = name
        self.type = type
        self.shape = shape

    def __repr__(self):
        return "NodeArg(name=%r, type=%r, shape=%r)" % (self.name, self.type, self.shape)


class ModelMetadata:
    """What the model says about itself (ModelProto's fields)."""

    def __init__(self, d):
        self.producer_name = d["producer_name"]
        self.producer_version = d["producer_version"]
        self.domain = d["domain"]
        self.graph_name = d["graph_name"]
        self.description = d["description"]
        self.graph_description = d["graph_description"]
        self.version = d["version"]
        self.custom_metadata_map = dict(d["custom_metadata_map"])


def _providers(providers):
    if not providers:
        return [_CPU]
    names = []
    for p in providers:
        name = p[0] if isinstance(p, (tuple, list)) else p
        if name == _CPU:
            names.append(name)
        else:
            _warnings.warn(
                "Specified provider '%s' is not in available provider names. "
                "Available providers: '%s'" % (name, _CPU),
                stacklevel=3,
            )
    return names or [_CPU]


class InferenceSession:
    """A loaded, prepared model: `InferenceSession(path_or_bytes,
    sess_options=None, providers=None)`. Loading and preparing happen here
    (failures raise onyx's exceptions, whose message names the node, the op
    and what was expected)."""

    def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None, **kwargs):
        self._options = sess_options if sess_options is not None else SessionOptions()
        self._providers = _providers(providers)
        model = path_or_bytes
        if not isinstance(model, (bytes, bytearray)):
            model = _os.fspath(model)
        else:
            model = bytes(model)
        self._model_path = model if isinstance(model, str) else None
        self._sess = _onyx.Session(model, self._options._native())
        self._inputs = [NodeArg(d["name"], d["type"], d["shape"]) for d in self._sess.inputs()]
        self._outputs = [NodeArg(d["name"], d["type"], d["shape"]) for d in self._sess.outputs()]

    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def get_overridable_initializers(self):
        return []

    def get_modelmeta(self):
        return ModelMetadata(self._sess.metadata())

    def get_providers(self):
        return list(self._providers)

    def get_provider_options(self):
        return {p: {} for p in self._providers}

    def set_providers(self, providers=None, provider_options=None):
        self._providers = _providers(providers)

    def get_session_options(self):
        return self._options

    def run(self, output_names, input_feed, run_options=None):
        """Runs the model on `input_feed` ({name: array}); returns the outputs
        named in `output_names` (all when None or empty) as NumPy arrays
        (lists for sequences, dicts for maps)."""
        names = list(output_names) if output_names else []
        flags = run_options._flags if run_options is not None else None
        return self._sess.run(names, dict(input_feed), flags)

    def end_profiling(self):
        """Writes the Chrome trace (when sess_options.enable_profiling) and
        returns its file name; "" when profiling is off."""
        return self._sess.end_profiling()

    def get_profiling_start_time_ns(self):
        return 0

    # onyx's own additions
    def nodes(self):
        """The optimized graph as it runs: (name, op, backend) per node."""
        return self._sess.nodes()
