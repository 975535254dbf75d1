// python/src/onyx_python.cpp: the `onyx._onyx` extension module.
//
// The native half of onyx's Python package: a Session over onyx::session
// (from a path or from bytes), run with NumPy arrays in and out, RunOptions
// with a terminate flag another thread may set, and onyx's errors as Python
// exceptions. The ONNX Runtime-shaped API (InferenceSession, SessionOptions,
// NodeArg, GraphOptimizationLevel, ...) is python/onyx/__init__.py, over this.
//
// Arrays: an input that is a NumPy array in native byte order, C-contiguous
// and aligned for its type is read in place (the session holds no reference
// to it after `run`); any other is copied once. Outputs are handed to NumPy
// without a copy: each array's base owns a reference to onyx's buffer. The
// GIL is released while the model runs. Tested by python/tests.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <atomic>
#include <cstring>

#include "onyx/session.hpp"

namespace py = pybind11;

namespace {

// --- errors ------------------------------------------------------------------

struct error_types {
  py::object fail, invalid_argument, no_such_file, not_implemented, invalid_graph, runtime_exception, cancelled;
};
error_types& errors() {
  static auto* e = new error_types;  // never destroyed: Python objects outlive no interpreter
  return *e;
}

/// A failed status as the Python exception of its code.
[[noreturn]] void raise(const onyx::status& s) {
  auto& e = errors();
  py::object type = e.fail;
  switch (s.code()) {
    case onyx::errc::invalid_argument:
    case onyx::errc::out_of_range:
      type = e.invalid_argument;
      break;
    case onyx::errc::invalid_model:
    case onyx::errc::invalid_graph:
      type = e.invalid_graph;
      break;
    case onyx::errc::unsupported:
      type = e.not_implemented;
      break;
    case onyx::errc::io:
      type = e.no_such_file;
      break;
    case onyx::errc::cancelled:
      type = e.cancelled;
      break;
    case onyx::errc::internal:
    case onyx::errc::resource_exhausted:
      type = e.runtime_exception;
      break;
    default:
      break;
  }
  PyErr_SetString(type.ptr(), s.message().c_str());
  throw py::error_already_set();
}

// --- types -------------------------------------------------------------------

/// The NumPy type of an onyx element type; None where NumPy has none.
py::object numpy_dtype(onyx::dtype t) {
  using onyx::dtype;
  const char* n = nullptr;
  switch (t) {
    case dtype::float32: n = "float32"; break;
    case dtype::float64: n = "float64"; break;
    case dtype::float16: n = "float16"; break;
    case dtype::int8: n = "int8"; break;
    case dtype::int16: n = "int16"; break;
    case dtype::int32: n = "int32"; break;
    case dtype::int64: n = "int64"; break;
    case dtype::uint8: n = "uint8"; break;
    case dtype::uint16: n = "uint16"; break;
    case dtype::uint32: n = "uint32"; break;
    case dtype::uint64: n = "uint64"; break;
    case dtype::boolean: n = "bool"; break;
    case dtype::complex64: n = "complex64"; break;
    case dtype::complex128: n = "complex128"; break;
    case dtype::string: n = "object"; break;
    default: return py::none();
  }
  return py::dtype(n);
}

/// The onyx element type of a NumPy dtype; undefined where onyx has none.
onyx::dtype onyx_dtype(const py::dtype& d) {
  using onyx::dtype;
  const char kind = d.kind();
  const auto size = d.itemsize();
  switch (kind) {
    case 'f':
      return size == 4 ? dtype::float32 : size == 8 ? dtype::float64 : size == 2 ? dtype::float16 : dtype::undefined;
    case 'i':
      return size == 1 ? dtype::int8 : size == 2 ? dtype::int16 : size == 4 ? dtype::int32 : size == 8 ? dtype::int64 : dtype::undefined;
    case 'u':
      return size == 1   ? dtype::uint8
             : size == 2 ? dtype::uint16
             : size == 4 ? dtype::uint32
             : size == 8 ? dtype::uint64
                         : dtype::undefined;
    case 'b':
      return dtype::boolean;
    case 'c':
      return size == 8 ? dtype::complex64 : size == 16 ? dtype::complex128 : dtype::undefined;
    case 'U':
    case 'S':
    case 'O':
      return dtype::string;
    default:
      return dtype::undefined;
  }
}

/// ONNX's type string, as ONNX Runtime's NodeArg.type shows it: "tensor(float)".
std::string type_string(const onyx::value_type& t) {
  static const char* names[] = {"undefined", "float",     "uint8",        "int8",          "uint16",     "int16",
                                "int32",     "int64",     "string",       "bool",          "float16",    "double",
                                "uint32",    "uint64",    "complex64",    "complex128",    "bfloat16",   "float8e4m3fn",
                                "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "uint4", "int4", "float4e2m1",
                                "float8e8m0", "uint2", "int2"};
  const auto i = static_cast<std::size_t>(t.type);
  const std::string elem = i < std::size(names) ? names[i] : "undefined";
  std::string s;
  switch (t.kind) {
    case onyx::value_kind::sequence: s = "seq(tensor(" + elem + "))"; break;
    case onyx::value_kind::map: s = "map"; break;
    case onyx::value_kind::none: s = "none"; break;
    default: s = "tensor(" + elem + ")"; break;
  }
  return t.optional ? "optional(" + s + ")" : s;
}

/// A shape as ONNX Runtime gives it: ints, names of symbolic dims, None for
/// unknown dims; an unknown rank is an empty list.
py::list shape_list(const onyx::value_type& t) {
  py::list out;
  if (!t.shape.rank_known) return out;
  for (const auto& d : t.shape.dims) {
    if (d.known()) out.append(d.value());
    else if (d.is_unknown()) out.append(py::none());
    else out.append(d.str());
  }
  return out;
}

py::dict io_dict(const onyx::io_info& i) {
  py::dict d;
  d["name"] = i.name;
  d["type"] = type_string(i.type);
  d["shape"] = shape_list(i.type);
  return d;
}

// --- values ------------------------------------------------------------------

/// A tensor of `a`'s contents: a view over its memory when NumPy's layout is
/// onyx's (native order, C-contiguous, aligned), else a copy. `keep` holds
/// the array read in place until the run ends.
onyx::tensor to_tensor(const std::string& name, py::handle obj, onyx::dtype want, std::vector<py::object>& keep) {
  // A list or a number becomes an array of the input's declared type; an
  // array keeps its own (a mismatch is the session's error, as in ORT).
  py::object wanted = py::isinstance<py::array>(obj) ? py::object(py::none()) : numpy_dtype(want);
  py::array a = wanted.is_none() ? py::array::ensure(obj)
                                 : py::array::ensure(py::module_::import("numpy").attr("asarray")(obj, wanted));
  if (!a) throw py::type_error("input '" + name + "' is not an array or convertible to one");
  const onyx::dtype t = onyx_dtype(a.dtype());
  if (t == onyx::dtype::undefined)
    throw py::type_error("input '" + name + "' has NumPy dtype " + py::str(a.dtype()).cast<std::string>() +
                         ", which onyx has no element type for");
  onyx::extents shape(a.shape(), a.shape() + a.ndim());
  if (t == onyx::dtype::string) {
    auto out = onyx::tensor::zeros(t, shape);
    py::list flat = a.attr("ravel")().attr("tolist")();
    auto values = out.values<std::string>();
    for (std::size_t i = 0; i < values.size(); ++i) {
      py::handle v = flat[i];
      values[i] = py::isinstance<py::bytes>(v) ? v.cast<std::string>() : py::str(v).cast<std::string>();
    }
    return out;
  }
  const bool native = a.dtype().attr("isnative").cast<bool>();
  const bool in_place =
      native && (a.flags() & py::array::c_style) && (a.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_);
  py::array c = in_place ? a
                         : py::array::ensure(py::module_::import("numpy").attr("ascontiguousarray")(
                               a, a.dtype().attr("newbyteorder")("=")));
  keep.push_back(c);
  return onyx::tensor::view(const_cast<void*>(c.data()), t, std::move(shape));
}

/// The Python form of a run's output: a NumPy array over onyx's buffer (the
/// array's base keeps a reference), a list for a sequence, a dict for a
/// map, None for an empty optional.
py::object to_python(onyx::value v) {
  if (v.is_none()) return py::none();
  if (v.is_sequence()) {
    py::list out;
    for (auto& item : v.as_sequence().items) out.append(to_python(item));
    return out;
  }
  if (v.is_map()) {
    auto& m = v.as_map();
    py::list keys = to_python(onyx::value(m.keys)).attr("tolist")();
    py::dict out;
    for (std::size_t i = 0; i < m.values.size(); ++i) out[keys[i]] = to_python(m.values[i]);
    return out;
  }
  onyx::tensor& t = v.as_tensor();
  std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
  if (t.type() == onyx::dtype::string) {
    py::list items;
    for (const auto& s : t.values<std::string>()) items.append(py::str(s));
    auto np = py::module_::import("numpy");
    return np.attr("array")(items, py::arg("dtype") = py::dtype("object")).attr("reshape")(py::cast(shape));
  }
  py::object dt = numpy_dtype(t.type());
  if (dt.is_none())
    throw py::type_error("an output has element type " + std::string(onyx::name(t.type())) + ", which NumPy lacks");
  auto* owner = new onyx::tensor(std::move(t));  // shares the buffer: no copy
  py::capsule base(owner, [](void* p) { delete static_cast<onyx::tensor*>(p); });
  return py::array(dt.cast<py::dtype>(), shape, owner->raw(), base);
}

// --- session -----------------------------------------------------------------

/// A terminate flag a run reads before each node.
struct run_flags {
  std::atomic<bool> terminate{false};
};

class py_session {
 public:
  py_session(py::object model, const onyx::session_options& opt) {
    const bool bytes = py::isinstance<py::bytes>(model);
    const std::string arg = bytes ? model.cast<std::string>() : py::str(model).cast<std::string>();
    auto s = [&] {
      py::gil_scoped_release nogil;
      return bytes ? onyx::session::open_bytes(arg, opt) : onyx::session::open(std::filesystem::path(arg), opt);
    }();
    if (!s.ok()) raise(s.error());
    s_ = std::move(s).value();
  }

  py::list inputs() const {
    py::list out;
    for (const auto& i : s_->inputs()) out.append(io_dict(i));
    return out;
  }
  py::list outputs() const {
    py::list out;
    for (const auto& i : s_->outputs()) out.append(io_dict(i));
    return out;
  }

  /// Runs on `feed` (name -> array); returns the outputs `names` asks for
  /// (all when empty), in that order.
  py::list run(const std::vector<std::string>& names, const py::dict& feed, const run_flags* flags) const {
    std::vector<py::object> keep;
    std::vector<onyx::named_value> inputs;
    for (auto [k, v] : feed) {
      std::string name = py::str(k);
      if (v.is_none()) {
        inputs.emplace_back(name, onyx::value{});
        continue;
      }
      const auto& ins = s_->inputs();
      auto in = std::find_if(ins.begin(), ins.end(), [&](const onyx::io_info& i) { return i.name == name; });
      const onyx::dtype want = in != ins.end() ? in->type.type : onyx::dtype::undefined;
      if (in != ins.end() && in->type.kind == onyx::value_kind::sequence) {
        if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v))
          throw py::type_error("input '" + name + "' is a sequence: give a list of arrays");
        onyx::sequence seq;
        for (py::handle item : v) {
          seq.items.push_back(to_tensor(name, item, want, keep));
          seq.elem_type = seq.items.back().as_tensor().type();
        }
        inputs.emplace_back(name, onyx::value(std::move(seq)));
        continue;
      }
      inputs.emplace_back(name, to_tensor(name, v, want, keep));
    }
    std::vector<std::size_t> which;
    const auto& outs = s_->outputs();
    for (const auto& n : names) {
      auto it = std::find_if(outs.begin(), outs.end(), [&](const onyx::io_info& o) { return o.name == n; });
      if (it == outs.end()) {
        std::string list;
        for (const auto& o : outs) list += (list.empty() ? "" : ", ") + o.name;
        raise(onyx::status(onyx::errc::invalid_argument, "the model has no output '" + n + "'; its outputs are " + list));
      }
      which.push_back(static_cast<std::size_t>(it - outs.begin()));
    }
    std::vector<onyx::value> results;
    onyx::status st;
    {
      py::gil_scoped_release nogil;
      onyx::run_options ro;
      ro.terminate = flags ? &flags->terminate : nullptr;
      st = s_->run(std::span<const onyx::named_value>(inputs), results, ro);
    }
    if (!st.ok()) raise(st);
    py::list out;
    if (which.empty())
      for (auto& r : results) out.append(to_python(std::move(r)));
    else
      for (std::size_t i : which) out.append(to_python(results[i]));
    return out;
  }

  py::dict metadata() const {
    auto m = s_->metadata();
    py::dict d;
    d["producer_name"] = m.producer;
    d["producer_version"] = m.producer_version;
    d["domain"] = m.domain;
    d["graph_name"] = m.graph_name;
    d["description"] = m.description;
    d["graph_description"] = m.graph_description;
    d["version"] = m.version;
    d["custom_metadata_map"] = m.custom;
    return d;
  }

  std::string end_profiling() const {
    if (auto st = s_->end_profiling(); !st.ok()) raise(st);
    return s_->profile_file().string();
  }
  std::string profile_summary() const { return s_->profile_summary(); }
  py::list nodes() const {
    py::list out;
    for (const auto& n : s_->nodes()) out.append(py::make_tuple(n.name, n.op, n.backend));
    return out;
  }
  int threads() const { return s_->threads(); }

 private:
  std::unique_ptr<onyx::session_core> s_;
};

onyx::session_options make_options(int threads, int level, const std::string& optimized_model_filepath,
                                   const std::string& profile_file, bool profile_summary,
                                   const std::map<std::string, std::int64_t>& free_dimensions) {
  onyx::session_options o;
  o.threads = threads;
  using L = onyx::graph::passes::optimization_level;
  o.optimization_level = level <= 0 ? L::none : level == 1 ? L::basic : level == 2 ? L::extended : L::all;
  o.optimized_model_filepath = optimized_model_filepath;
  o.profile_file = profile_file;
  o.profile_summary = profile_summary;
  for (const auto& [k, v] : free_dimensions) o.free_dimensions[k] = v;
  return o;
}

}  // namespace

PYBIND11_MODULE(_onyx, m) {
  m.doc() = "onyx's native module; use the `onyx` package (ONNX Runtime's API)";

  auto& e = errors();
  // ONNX Runtime's exception names, all under Fail (a RuntimeError).
  auto make = [&m](const char* name, PyObject* base) {
    auto type = py::reinterpret_steal<py::object>(
        PyErr_NewException((std::string("onyx._onyx.") + name).c_str(), base, nullptr));
    m.attr(name) = type;
    return type;
  };
  e.fail = make("Fail", PyExc_RuntimeError);
  e.invalid_argument = make("InvalidArgument", e.fail.ptr());
  e.no_such_file = make("NoSuchFile", e.fail.ptr());
  e.not_implemented = make("NotImplemented", e.fail.ptr());
  e.invalid_graph = make("InvalidGraph", e.fail.ptr());
  e.runtime_exception = make("RuntimeException", e.fail.ptr());
  e.cancelled = make("RunTerminated", e.fail.ptr());

  py::class_<run_flags>(m, "RunFlags")
      .def(py::init<>())
      .def_property(
          "terminate", [](const run_flags& f) { return f.terminate.load(); },
          [](run_flags& f, bool v) { f.terminate.store(v); });

  m.def("make_options", &make_options, py::arg("threads"), py::arg("level"), py::arg("optimized_model_filepath"),
        py::arg("profile_file"), py::arg("profile_summary"), py::arg("free_dimensions"));
  py::class_<onyx::session_options>(m, "NativeOptions");

  py::class_<py_session>(m, "Session")
      .def(py::init<py::object, const onyx::session_options&>(), py::arg("model"), py::arg("options"))
      .def("inputs", &py_session::inputs)
      .def("outputs", &py_session::outputs)
      .def("run", &py_session::run, py::arg("names"), py::arg("feed"), py::arg("flags") = nullptr)
      .def("metadata", &py_session::metadata)
      .def("end_profiling", &py_session::end_profiling)
      .def("profile_summary", &py_session::profile_summary)
      .def("nodes", &py_session::nodes)
      .def("threads", &py_session::threads);
}
