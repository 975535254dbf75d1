// cmake/prebuilt/c_api.cpp: include/onyx/c_api.h over onyx::session
// (libonyx_c). Every entry point catches what the C++ side may throw
// (allocation failures) and returns it as a status, so no exception crosses
// into C.
#include "onyx/c_api.h"

#include <atomic>
#include <cstring>
#include <new>

#include "onyx/session.hpp"

struct onyx_status {
  onyx_code code;
  std::string message;
};

struct onyx_session_options {
  onyx::session_options options;
};

/// A session with its inputs' and outputs' names and shapes in C form.
struct onyx_session {
  struct io {
    std::string name;
    onyx_dtype type = ONYX_UNDEFINED;
    std::int64_t rank = -1;
    std::vector<std::int64_t> dims;
    std::vector<std::string> dim_names;
  };
  std::unique_ptr<onyx::session_core> s;
  std::vector<io> inputs, outputs;
  onyx::model_metadata metadata;
  std::string version;
};

struct onyx_value {
  onyx::value v;
};

struct onyx_run_options {
  std::atomic<bool> terminate{false};
};

static_assert(ONYX_INVALID_MODEL == static_cast<int>(onyx::errc::invalid_model) &&
              ONYX_INTERNAL == static_cast<int>(onyx::errc::internal) &&
              ONYX_CANCELLED == static_cast<int>(onyx::errc::cancelled) &&
              ONYX_RESOURCE_EXHAUSTED == static_cast<int>(onyx::errc::resource_exhausted));
static_assert(ONYX_FLOAT == static_cast<int>(onyx::dtype::float32) &&
              ONYX_BFLOAT16 == static_cast<int>(onyx::dtype::bfloat16));

namespace {

// The status returned when even a status cannot be allocated; freeing it does nothing.
onyx_status out_of_memory{ONYX_RESOURCE_EXHAUSTED, "out of memory"};

onyx_status* make_status(onyx_code code, const std::string& message) noexcept {
  try {
    return new onyx_status{code, message};
  } catch (...) {
    return &out_of_memory;
  }
}

onyx_status* from(const onyx::status& s) noexcept {
  if (s.ok()) return nullptr;
  return make_status(static_cast<onyx_code>(static_cast<int>(s.code())), s.message());
}

/// Runs `f` (returning onyx_status*), turning exceptions into statuses.
template <class F> onyx_status* guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc& e) {
    return make_status(ONYX_RESOURCE_EXHAUSTED, std::string("out of memory (") + e.what() + ")");
  } catch (const std::exception& e) {
    return make_status(ONYX_INTERNAL, e.what());
  } catch (...) {
    return make_status(ONYX_INTERNAL, "unknown error");
  }
}

onyx_status* null_argument(const char* what) { return make_status(ONYX_INVALID_ARGUMENT, std::string(what) + " is NULL"); }

onyx_session::io c_io(const onyx::io_info& i) {
  onyx_session::io out;
  out.name = i.name;
  out.type = i.type.kind == onyx::value_kind::tensor ? static_cast<onyx_dtype>(i.type.type) : ONYX_UNDEFINED;
  if (i.type.shape.rank_known) {
    out.rank = static_cast<std::int64_t>(i.type.shape.rank());
    for (const auto& d : i.type.shape.dims) {
      out.dims.push_back(d.known() ? d.value() : -1);
      out.dim_names.push_back(d.known() || d.is_unknown() ? std::string() : d.str());
    }
  }
  return out;
}

onyx_status* finish_session(onyx::result<std::unique_ptr<onyx::session_core>> r, onyx_session** out) {
  if (!r.ok()) return from(r.error());
  auto s = std::make_unique<onyx_session>();
  s->s = std::move(r).value();
  for (const auto& i : s->s->inputs()) s->inputs.push_back(c_io(i));
  for (const auto& o : s->s->outputs()) s->outputs.push_back(c_io(o));
  s->metadata = s->s->metadata();
  s->version = std::to_string(s->metadata.version);
  *out = s.release();
  return nullptr;
}

const onyx_session::io* io_at(const std::vector<onyx_session::io>& v, size_t i) { return i < v.size() ? &v[i] : nullptr; }

onyx_status* check_dtype(onyx_dtype type) {
  const auto t = static_cast<onyx::dtype>(type);
  if (!onyx::is_valid(static_cast<int>(type)) || type == ONYX_UNDEFINED)
    return make_status(ONYX_INVALID_ARGUMENT, "element type " + std::to_string(static_cast<int>(type)) + " is not an ONNX type");
  if (t == onyx::dtype::string) return make_status(ONYX_UNSUPPORTED, "the C API takes no string tensors");
  if (onyx::storage_bytes(t, 8) % 8 != 0) return make_status(ONYX_UNSUPPORTED, "the C API takes no sub-byte element types");
  return nullptr;
}

onyx_status* read_shape(const int64_t* shape, size_t rank, onyx::extents& e) {
  if (rank > 0 && !shape) return null_argument("shape");
  for (size_t d = 0; d < rank; ++d) {
    if (shape[d] < 0) return make_status(ONYX_INVALID_ARGUMENT, "dim " + std::to_string(d) + " is negative");
    e.push_back(shape[d]);
  }
  return nullptr;
}

}  // namespace

extern "C" {

onyx_code onyx_status_code(const onyx_status* status) { return status ? status->code : ONYX_OK; }
const char* onyx_status_message(const onyx_status* status) { return status ? status->message.c_str() : ""; }
void onyx_status_free(onyx_status* status) {
  if (status != &out_of_memory) delete status;
}
int onyx_api_version(void) { return ONYX_C_API_VERSION; }

size_t onyx_dtype_size(onyx_dtype type) {
  if (!onyx::is_valid(static_cast<int>(type)) || type == ONYX_STRING) return 0;
  const std::size_t bytes = onyx::storage_bytes(static_cast<onyx::dtype>(type), 8);
  return bytes % 8 ? 0 : bytes / 8;
}

// --- options ---------------------------------------------------------------------

onyx_status* onyx_session_options_create(onyx_session_options** out) {
  return guarded([&]() -> onyx_status* {
    if (!out) return null_argument("out");
    *out = new onyx_session_options;
    return nullptr;
  });
}
void onyx_session_options_free(onyx_session_options* options) { delete options; }

onyx_status* onyx_session_options_set_threads(onyx_session_options* options, int threads) {
  if (!options) return null_argument("options");
  if (threads < 0) return make_status(ONYX_INVALID_ARGUMENT, "threads must be 0 or more");
  options->options.threads = threads;
  return nullptr;
}

onyx_status* onyx_session_options_set_optimization_level(onyx_session_options* options,
                                                         onyx_optimization_level level) {
  if (!options) return null_argument("options");
  using L = onyx::graph::passes::optimization_level;
  switch (level) {
    case ONYX_OPTIMIZE_NONE: options->options.optimization_level = L::none; break;
    case ONYX_OPTIMIZE_BASIC: options->options.optimization_level = L::basic; break;
    case ONYX_OPTIMIZE_EXTENDED: options->options.optimization_level = L::extended; break;
    case ONYX_OPTIMIZE_ALL: options->options.optimization_level = L::all; break;
    default:
      return make_status(ONYX_INVALID_ARGUMENT, "optimization level " + std::to_string(static_cast<int>(level)) +
                                                    " is none of 0, 1, 2, 99");
  }
  return nullptr;
}

onyx_status* onyx_session_options_set_optimized_model_path(onyx_session_options* options, const char* path) {
  return guarded([&]() -> onyx_status* {
    if (!options) return null_argument("options");
    options->options.optimized_model_filepath = path ? path : "";
    return nullptr;
  });
}

onyx_status* onyx_session_options_set_profile_file(onyx_session_options* options, const char* path) {
  return guarded([&]() -> onyx_status* {
    if (!options) return null_argument("options");
    options->options.profile_file = path ? path : "";
    return nullptr;
  });
}

onyx_status* onyx_session_options_set_free_dimension(onyx_session_options* options, const char* name,
                                                     int64_t value) {
  return guarded([&]() -> onyx_status* {
    if (!options) return null_argument("options");
    if (!name) return null_argument("name");
    options->options.free_dimensions[name] = value;
    return nullptr;
  });
}

// --- sessions --------------------------------------------------------------------

onyx_status* onyx_session_create(const char* path, const onyx_session_options* options, onyx_session** out) {
  return guarded([&]() -> onyx_status* {
    if (!path) return null_argument("path");
    if (!out) return null_argument("out");
    *out = nullptr;
    return finish_session(onyx::session::open(path, options ? options->options : onyx::session_options{}), out);
  });
}

onyx_status* onyx_session_create_from_bytes(const void* data, size_t size, const onyx_session_options* options,
                                            onyx_session** out) {
  return guarded([&]() -> onyx_status* {
    if (!data) return null_argument("data");
    if (!out) return null_argument("out");
    *out = nullptr;
    return finish_session(onyx::session::open_bytes(std::string_view(static_cast<const char*>(data), size),
                                                    options ? options->options : onyx::session_options{}),
                          out);
  });
}

void onyx_session_free(onyx_session* session) { delete session; }

size_t onyx_session_input_count(const onyx_session* s) { return s ? s->inputs.size() : 0; }
size_t onyx_session_output_count(const onyx_session* s) { return s ? s->outputs.size() : 0; }

const char* onyx_session_input_name(const onyx_session* s, size_t i) {
  auto* io = s ? io_at(s->inputs, i) : nullptr;
  return io ? io->name.c_str() : nullptr;
}
const char* onyx_session_output_name(const onyx_session* s, size_t i) {
  auto* io = s ? io_at(s->outputs, i) : nullptr;
  return io ? io->name.c_str() : nullptr;
}
onyx_dtype onyx_session_input_dtype(const onyx_session* s, size_t i) {
  auto* io = s ? io_at(s->inputs, i) : nullptr;
  return io ? io->type : ONYX_UNDEFINED;
}
onyx_dtype onyx_session_output_dtype(const onyx_session* s, size_t i) {
  auto* io = s ? io_at(s->outputs, i) : nullptr;
  return io ? io->type : ONYX_UNDEFINED;
}
int64_t onyx_session_input_rank(const onyx_session* s, size_t i) {
  auto* io = s ? io_at(s->inputs, i) : nullptr;
  return io ? io->rank : -1;
}
int64_t onyx_session_output_rank(const onyx_session* s, size_t i) {
  auto* io = s ? io_at(s->outputs, i) : nullptr;
  return io ? io->rank : -1;
}
const int64_t* onyx_session_input_shape(const onyx_session* s, size_t i) {
  auto* io = s ? io_at(s->inputs, i) : nullptr;
  return io ? io->dims.data() : nullptr;
}
const int64_t* onyx_session_output_shape(const onyx_session* s, size_t i) {
  auto* io = s ? io_at(s->outputs, i) : nullptr;
  return io ? io->dims.data() : nullptr;
}
const char* onyx_session_input_dim_name(const onyx_session* s, size_t i, size_t d) {
  auto* io = s ? io_at(s->inputs, i) : nullptr;
  return io && d < io->dim_names.size() && !io->dim_names[d].empty() ? io->dim_names[d].c_str() : nullptr;
}
const char* onyx_session_output_dim_name(const onyx_session* s, size_t i, size_t d) {
  auto* io = s ? io_at(s->outputs, i) : nullptr;
  return io && d < io->dim_names.size() && !io->dim_names[d].empty() ? io->dim_names[d].c_str() : nullptr;
}

const char* onyx_session_metadata(const onyx_session* s, const char* key) {
  if (!s || !key) return nullptr;
  const auto& m = s->metadata;
  const std::string k = key;
  if (k == "producer_name") return m.producer.c_str();
  if (k == "producer_version") return m.producer_version.c_str();
  if (k == "domain") return m.domain.c_str();
  if (k == "graph_name") return m.graph_name.c_str();
  if (k == "description") return m.description.c_str();
  if (k == "graph_description") return m.graph_description.c_str();
  if (k == "version") return s->version.c_str();
  auto it = m.custom.find(k);
  return it == m.custom.end() ? nullptr : it->second.c_str();
}

onyx_status* onyx_session_end_profiling(const onyx_session* s) {
  return guarded([&]() -> onyx_status* {
    if (!s) return null_argument("session");
    return from(s->s->end_profiling());
  });
}

// --- values ----------------------------------------------------------------------

onyx_status* onyx_value_create_tensor(onyx_dtype type, const int64_t* shape, size_t rank, onyx_value** out) {
  return guarded([&]() -> onyx_status* {
    if (!out) return null_argument("out");
    *out = nullptr;
    if (auto* st = check_dtype(type)) return st;
    onyx::extents e;
    if (auto* st = read_shape(shape, rank, e)) return st;
    *out = new onyx_value{onyx::tensor::zeros(static_cast<onyx::dtype>(type), std::move(e))};
    return nullptr;
  });
}

onyx_status* onyx_value_create_tensor_over(void* data, size_t bytes, onyx_dtype type, const int64_t* shape,
                                           size_t rank, onyx_value** out) {
  return guarded([&]() -> onyx_status* {
    if (!out) return null_argument("out");
    *out = nullptr;
    if (auto* st = check_dtype(type)) return st;
    onyx::extents e;
    if (auto* st = read_shape(shape, rank, e)) return st;
    const auto t = static_cast<onyx::dtype>(type);
    const std::size_t need = onyx::storage_bytes(t, onyx::element_count(e));
    if (bytes != need)
      return make_status(ONYX_INVALID_ARGUMENT, "a " + std::string(onyx::name(t)) + " tensor of shape " +
                                                    onyx::to_string(e) + " takes " + std::to_string(need) +
                                                    " bytes, got " + std::to_string(bytes));
    if (need > 0 && !data) return null_argument("data");
    if (reinterpret_cast<std::uintptr_t>(data) % onyx_dtype_size(type) != 0)
      return make_status(ONYX_INVALID_ARGUMENT, "data is not aligned for its element type");
    *out = new onyx_value{onyx::tensor::view(data, t, std::move(e))};
    return nullptr;
  });
}

void onyx_value_free(onyx_value* value) { delete value; }

int onyx_value_is_tensor(const onyx_value* v) { return v && v->v.is_tensor(); }
onyx_dtype onyx_value_dtype(const onyx_value* v) {
  return onyx_value_is_tensor(v) ? static_cast<onyx_dtype>(v->v.as_tensor().type()) : ONYX_UNDEFINED;
}
size_t onyx_value_rank(const onyx_value* v) { return onyx_value_is_tensor(v) ? v->v.as_tensor().rank() : 0; }
const int64_t* onyx_value_shape(const onyx_value* v) {
  return onyx_value_is_tensor(v) ? v->v.as_tensor().shape().data() : nullptr;
}
int64_t onyx_value_element_count(const onyx_value* v) { return onyx_value_is_tensor(v) ? v->v.as_tensor().size() : 0; }
void* onyx_value_data(onyx_value* v) { return onyx_value_is_tensor(v) ? v->v.as_tensor().raw() : nullptr; }

// --- running ---------------------------------------------------------------------

onyx_status* onyx_run_options_create(onyx_run_options** out) {
  return guarded([&]() -> onyx_status* {
    if (!out) return null_argument("out");
    *out = new onyx_run_options;
    return nullptr;
  });
}
void onyx_run_options_free(onyx_run_options* options) { delete options; }
void onyx_run_options_set_terminate(onyx_run_options* options, int terminate) {
  if (options) options->terminate.store(terminate != 0);
}

onyx_status* onyx_session_run(const onyx_session* s, const onyx_run_options* run_options,
                              const char* const* input_names, const onyx_value* const* inputs, size_t input_count,
                              const char* const* output_names, size_t output_count, onyx_value** outputs) {
  return guarded([&]() -> onyx_status* {
    if (!s) return null_argument("session");
    if (input_count > 0 && (!input_names || !inputs)) return null_argument("input_names or inputs");
    if (output_count > 0 && !outputs) return null_argument("outputs");
    for (size_t i = 0; i < output_count; ++i) outputs[i] = nullptr;
    std::vector<onyx::named_value> feed;
    for (size_t i = 0; i < input_count; ++i) {
      if (!input_names[i] || !inputs[i]) return null_argument(("input " + std::to_string(i)).c_str());
      feed.emplace_back(input_names[i], inputs[i]->v);
    }
    std::vector<std::size_t> which;
    for (size_t k = 0; k < output_count; ++k) {
      if (!output_names) {
        if (k >= s->outputs.size())
          return make_status(ONYX_INVALID_ARGUMENT, "the model has " + std::to_string(s->outputs.size()) +
                                                        " outputs, " + std::to_string(output_count) + " asked for");
        which.push_back(k);
        continue;
      }
      if (!output_names[k]) return null_argument(("output name " + std::to_string(k)).c_str());
      std::size_t j = 0;
      while (j < s->outputs.size() && s->outputs[j].name != output_names[k]) ++j;
      if (j == s->outputs.size())
        return make_status(ONYX_INVALID_ARGUMENT, std::string("the model has no output '") + output_names[k] + "'");
      which.push_back(j);
    }
    onyx::run_options ro;
    ro.terminate = run_options ? &run_options->terminate : nullptr;
    std::vector<onyx::value> results;
    if (auto st = s->s->run(std::span<const onyx::named_value>(feed), results, ro); !st.ok()) return from(st);
    std::vector<std::unique_ptr<onyx_value>> made;
    for (size_t k = 0; k < output_count; ++k) made.push_back(std::make_unique<onyx_value>(onyx_value{results[which[k]]}));
    for (size_t k = 0; k < output_count; ++k) outputs[k] = made[k].release();
    return nullptr;
  });
}

}  // extern "C"
