/* onyx/c_api.h: onyx's C API, a stable ABI for C and for other languages' FFIs.
 *
 *   onyx_session* s = NULL;
 *   onyx_status* st = onyx_session_create("model.onnx", NULL, &s);
 *   if (st) { fprintf(stderr, "%s\n", onyx_status_message(st)); onyx_status_free(st); return 1; }
 *   int64_t shape[] = {1, 3};
 *   float x[3] = {1, 2, 3};
 *   onyx_value* in = NULL;
 *   st = onyx_value_create_tensor_over(x, sizeof x, ONYX_FLOAT, shape, 2, &in);
 *   const char* names[] = {"x"};
 *   onyx_value* out = NULL;
 *   st = onyx_session_run(s, NULL, names, (const onyx_value* const*)&in, 1, NULL, 1, &out);
 *   const float* y = onyx_value_data(out);
 *   onyx_value_free(out); onyx_value_free(in); onyx_session_free(s);
 *
 * Conventions:
 * - Every handle is opaque and freed by its own _free function (which takes
 *   NULL). No C++ type and no exception crosses this boundary.
 * - A call that can fail returns an onyx_status*: NULL on success, else a
 *   status the caller frees, with a code and onyx's message (which names the
 *   node, the op and what was expected).
 * - Strings and arrays returned by a session (names, shapes) stay valid as
 *   long as the session; those of a value, as long as the value.
 * - onyx_session_run may be called from several threads at once on one
 *   session. A session is immutable once created.
 * - Tensors: numbers only (string tensors are not taken or given here);
 *   created over the caller's memory (which must outlive the value and be
 *   aligned for the element type) or allocated by onyx (zeroed).
 *
 * Link libonyx_c (a shared library holding every op onyx has). Tested by
 * test/c_api/c_api_test.c (C11, -Wall -Werror) and used from Python's ctypes
 * in examples/05_ctypes.py. */
#ifndef ONYX_C_API_H
#define ONYX_C_API_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define ONYX_C_EXPORT __declspec(dllexport)
#else
#define ONYX_C_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ONYX_C_API_VERSION 1

/* --- status ----------------------------------------------------------------- */

typedef enum onyx_code {
  ONYX_OK = 0,
  ONYX_INVALID_MODEL = 1,    /* malformed or truncated file, dangling names, cycles */
  ONYX_UNSUPPORTED = 2,      /* an op, opset or type this build does not have */
  ONYX_INVALID_ARGUMENT = 3, /* wrong input name, dtype or shape, bad option */
  ONYX_INVALID_GRAPH = 4,    /* shapes or types in the graph that do not agree */
  ONYX_OUT_OF_RANGE = 5,     /* an index inside the data is outside its bounds */
  ONYX_IO = 6,               /* a file could not be read or written */
  ONYX_INTERNAL = 7,         /* a bug */
  ONYX_CANCELLED = 8,        /* the run was terminated (onyx_run_options_set_terminate) */
  ONYX_RESOURCE_EXHAUSTED = 9 /* a tensor over the memory limits, or memory ran out */
} onyx_code;

typedef struct onyx_status onyx_status;

/* The status's code; ONYX_OK for NULL. */
ONYX_C_EXPORT onyx_code onyx_status_code(const onyx_status* status);
/* Its message; "" for NULL. Valid until the status is freed. */
ONYX_C_EXPORT const char* onyx_status_message(const onyx_status* status);
ONYX_C_EXPORT void onyx_status_free(onyx_status* status);

/* The version of this API (ONYX_C_API_VERSION of the library). */
ONYX_C_EXPORT int onyx_api_version(void);

/* --- element types (ONNX's TensorProto.DataType numbers) ----------------------- */

typedef enum onyx_dtype {
  ONYX_UNDEFINED = 0,
  ONYX_FLOAT = 1,
  ONYX_UINT8 = 2,
  ONYX_INT8 = 3,
  ONYX_UINT16 = 4,
  ONYX_INT16 = 5,
  ONYX_INT32 = 6,
  ONYX_INT64 = 7,
  ONYX_STRING = 8,
  ONYX_BOOL = 9,
  ONYX_FLOAT16 = 10,
  ONYX_DOUBLE = 11,
  ONYX_UINT32 = 12,
  ONYX_UINT64 = 13,
  ONYX_BFLOAT16 = 16
} onyx_dtype;

/* Bytes per element (0 for strings and sub-byte types). */
ONYX_C_EXPORT size_t onyx_dtype_size(onyx_dtype type);

/* --- session options ---------------------------------------------------------- */

typedef struct onyx_session_options onyx_session_options;

/* ORT's levels: 0 none, 1 basic, 2 extended, 99 all (the default). */
typedef enum onyx_optimization_level {
  ONYX_OPTIMIZE_NONE = 0,
  ONYX_OPTIMIZE_BASIC = 1,
  ONYX_OPTIMIZE_EXTENDED = 2,
  ONYX_OPTIMIZE_ALL = 99
} onyx_optimization_level;

ONYX_C_EXPORT onyx_status* onyx_session_options_create(onyx_session_options** out);
ONYX_C_EXPORT void onyx_session_options_free(onyx_session_options* options);
/* Threads a run may use, the caller's included; 0 (default): the hardware's count. */
ONYX_C_EXPORT onyx_status* onyx_session_options_set_threads(onyx_session_options* options, int threads);
ONYX_C_EXPORT onyx_status* onyx_session_options_set_optimization_level(onyx_session_options* options,
                                                                        onyx_optimization_level level);
/* Writes the optimized model to `path` (.onnx) when the session is made. */
ONYX_C_EXPORT onyx_status* onyx_session_options_set_optimized_model_path(onyx_session_options* options,
                                                                          const char* path);
/* Writes a Chrome trace of the session to `path` (onyx_session_end_profiling,
 * or when the session is freed). */
ONYX_C_EXPORT onyx_status* onyx_session_options_set_profile_file(onyx_session_options* options, const char* path);
/* Fixes the symbolic input dim `name` to `value`. */
ONYX_C_EXPORT onyx_status* onyx_session_options_set_free_dimension(onyx_session_options* options, const char* name,
                                                                    int64_t value);

/* --- sessions ----------------------------------------------------------------- */

typedef struct onyx_session onyx_session;

/* Loads and prepares the .onnx file at `path`; `options` may be NULL. */
ONYX_C_EXPORT onyx_status* onyx_session_create(const char* path, const onyx_session_options* options,
                                               onyx_session** out);
/* The same from a serialized model in memory (copied; external data is
 * looked for in the current directory). */
ONYX_C_EXPORT onyx_status* onyx_session_create_from_bytes(const void* data, size_t size,
                                                          const onyx_session_options* options, onyx_session** out);
ONYX_C_EXPORT void onyx_session_free(onyx_session* session);

ONYX_C_EXPORT size_t onyx_session_input_count(const onyx_session* session);
ONYX_C_EXPORT size_t onyx_session_output_count(const onyx_session* session);
/* The name of input/output `index`; NULL when out of range. */
ONYX_C_EXPORT const char* onyx_session_input_name(const onyx_session* session, size_t index);
ONYX_C_EXPORT const char* onyx_session_output_name(const onyx_session* session, size_t index);
/* The element type; ONYX_UNDEFINED when out of range or not a tensor. */
ONYX_C_EXPORT onyx_dtype onyx_session_input_dtype(const onyx_session* session, size_t index);
ONYX_C_EXPORT onyx_dtype onyx_session_output_dtype(const onyx_session* session, size_t index);
/* The declared rank (-1: unknown, or out of range) and dims: a size, or -1
 * for a symbolic or unknown dim, whose name dim_name gives (NULL when unnamed). */
ONYX_C_EXPORT int64_t onyx_session_input_rank(const onyx_session* session, size_t index);
ONYX_C_EXPORT int64_t onyx_session_output_rank(const onyx_session* session, size_t index);
ONYX_C_EXPORT const int64_t* onyx_session_input_shape(const onyx_session* session, size_t index);
ONYX_C_EXPORT const int64_t* onyx_session_output_shape(const onyx_session* session, size_t index);
ONYX_C_EXPORT const char* onyx_session_input_dim_name(const onyx_session* session, size_t index, size_t dim);
ONYX_C_EXPORT const char* onyx_session_output_dim_name(const onyx_session* session, size_t index, size_t dim);

/* Model metadata: "producer_name", "producer_version", "domain", "graph_name",
 * "description", "graph_description", "version", or a key of the model's
 * custom metadata map. NULL when absent. */
ONYX_C_EXPORT const char* onyx_session_metadata(const onyx_session* session, const char* key);

/* Writes the Chrome trace (when the options set a profile file) and stops
 * recording. */
ONYX_C_EXPORT onyx_status* onyx_session_end_profiling(const onyx_session* session);

/* --- values ------------------------------------------------------------------- */

typedef struct onyx_value onyx_value;

/* A tensor onyx allocates (zeroed, 64-byte aligned). */
ONYX_C_EXPORT onyx_status* onyx_value_create_tensor(onyx_dtype type, const int64_t* shape, size_t rank,
                                                    onyx_value** out);
/* A tensor over the caller's `data` (`bytes` long, checked against the shape),
 * which must stay valid while the value lives. */
ONYX_C_EXPORT onyx_status* onyx_value_create_tensor_over(void* data, size_t bytes, onyx_dtype type,
                                                         const int64_t* shape, size_t rank, onyx_value** out);
ONYX_C_EXPORT void onyx_value_free(onyx_value* value);
/* 1 for a tensor; 0 for a sequence, a map or an empty optional. */
ONYX_C_EXPORT int onyx_value_is_tensor(const onyx_value* value);
ONYX_C_EXPORT onyx_dtype onyx_value_dtype(const onyx_value* value);
ONYX_C_EXPORT size_t onyx_value_rank(const onyx_value* value);
ONYX_C_EXPORT const int64_t* onyx_value_shape(const onyx_value* value);
ONYX_C_EXPORT int64_t onyx_value_element_count(const onyx_value* value);
/* The tensor's elements (NULL for a non-tensor). */
ONYX_C_EXPORT void* onyx_value_data(onyx_value* value);

/* --- running ------------------------------------------------------------------ */

typedef struct onyx_run_options onyx_run_options;

ONYX_C_EXPORT onyx_status* onyx_run_options_create(onyx_run_options** out);
ONYX_C_EXPORT void onyx_run_options_free(onyx_run_options* options);
/* Nonzero: runs with these options stop before their next node and return
 * ONYX_CANCELLED. May be set from any thread while they run. */
ONYX_C_EXPORT void onyx_run_options_set_terminate(onyx_run_options* options, int terminate);

/* Runs the model on `input_count` inputs named `input_names`. Writes
 * `output_count` new values (the caller frees them) to `outputs`: those named
 * in `output_names`, or, when it is NULL, the model's first `output_count`
 * outputs in order. `run_options` may be NULL. Thread-safe. */
ONYX_C_EXPORT onyx_status* onyx_session_run(const onyx_session* session, const onyx_run_options* run_options,
                                            const char* const* input_names, const onyx_value* const* inputs,
                                            size_t input_count, const char* const* output_names,
                                            size_t output_count, onyx_value** outputs);

#ifdef __cplusplus
}
#endif

#endif /* ONYX_C_API_H */
