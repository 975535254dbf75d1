/* test/c_api/c_api_test.c: the C API from C11 (built with -std=c11 -Wall -Werror).
 *
 *   c_api_test MODELS_DIR OUT_DIR
 *
 * MODELS_DIR holds affine.onnx (y = 2x + 1, x float32 [batch, 3], with
 * metadata) and conv_relu.onnx (python/tests/make_test_models.cpp). Checks:
 * names, dtypes and shapes (a symbolic dim and its name), metadata, a run
 * over the caller's memory and over onyx-allocated memory, outputs by name,
 * errors as statuses with onyx's messages, terminate, free dimensions, runs
 * from four threads at once on one session, the profile and the optimized
 * model files. Expected values are computed here from the model's formula. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "onyx/c_api.h"

static int failures = 0;

#define CHECK(cond)                                                       \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                         \
    }                                                                     \
  } while (0)

/* Fails the test (and returns 1) when `st` is an error. */
static int ok(onyx_status* st, const char* what) {
  if (!st) return 1;
  fprintf(stderr, "%s: %s\n", what, onyx_status_message(st));
  onyx_status_free(st);
  ++failures;
  return 0;
}

/* Expects an error with `code` whose message contains `text`. */
static void expect_error(onyx_status* st, onyx_code code, const char* text) {
  CHECK(st != NULL);
  if (!st) return;
  CHECK(onyx_status_code(st) == code);
  if (!strstr(onyx_status_message(st), text)) {
    fprintf(stderr, "message '%s' lacks '%s'\n", onyx_status_message(st), text);
    ++failures;
  }
  onyx_status_free(st);
}

static char models[1024], out_dir[1024];

static const char* path(const char* dir, const char* file) {
  static char buf[2048];
  snprintf(buf, sizeof buf, "%s/%s", dir, file);
  return buf;
}

/* Runs affine on rows x rows of x_k = k + seed and checks y = 2x + 1. */
static int run_affine(const onyx_session* s, const onyx_run_options* ro, int rows, float seed) {
  float x[64 * 3];
  int64_t shape[2] = {rows, 3};
  for (int k = 0; k < rows * 3; ++k) x[k] = (float)k + seed;
  onyx_value* in = NULL;
  if (!ok(onyx_value_create_tensor_over(x, sizeof(float) * rows * 3, ONYX_FLOAT, shape, 2, &in), "tensor over")) return 0;
  const char* names[] = {"x"};
  const onyx_value* ins[] = {in};
  onyx_value* out = NULL;
  onyx_status* st = onyx_session_run(s, ro, names, ins, 1, NULL, 1, &out);
  onyx_value_free(in);
  if (st) {
    onyx_status_free(st);
    return 0;
  }
  int good = onyx_value_dtype(out) == ONYX_FLOAT && onyx_value_rank(out) == 2 && onyx_value_shape(out)[0] == rows &&
             onyx_value_shape(out)[1] == 3;
  const float* y = onyx_value_data(out);
  for (int k = 0; good && k < rows * 3; ++k) good = y[k] == 2 * x[k] + 1;
  onyx_value_free(out);
  return good ? 1 : -1;
}

typedef struct {
  const onyx_session* s;
  int index;
  int good;
} worker;

static int work(void* arg) {
  worker* w = arg;
  w->good = 1;
  for (int r = 0; r < 50; ++r)
    if (run_affine(w->s, NULL, 1 + (w->index + r) % 7, (float)(w->index * 100 + r)) != 1) w->good = 0;
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: c_api_test MODELS_DIR OUT_DIR\n");
    return 2;
  }
  snprintf(models, sizeof models, "%s", argv[1]);
  snprintf(out_dir, sizeof out_dir, "%s", argv[2]);
  CHECK(onyx_api_version() == ONYX_C_API_VERSION);
  CHECK(onyx_dtype_size(ONYX_FLOAT) == 4 && onyx_dtype_size(ONYX_INT64) == 8 && onyx_dtype_size(ONYX_STRING) == 0);

  /* names, types, shapes, metadata */
  onyx_session_options* opt = NULL;
  if (!ok(onyx_session_options_create(&opt), "options")) return 1;
  ok(onyx_session_options_set_threads(opt, 2), "threads");
  char profile[2048];
  snprintf(profile, sizeof profile, "%s/c_api_profile.json", out_dir);
  ok(onyx_session_options_set_profile_file(opt, profile), "profile file");
  onyx_session* s = NULL;
  if (!ok(onyx_session_create(path(models, "affine.onnx"), opt, &s), "create")) return 1;
  onyx_session_options_free(opt);
  CHECK(onyx_session_input_count(s) == 1 && onyx_session_output_count(s) == 1);
  CHECK(strcmp(onyx_session_input_name(s, 0), "x") == 0);
  CHECK(onyx_session_input_name(s, 1) == NULL);
  CHECK(onyx_session_input_dtype(s, 0) == ONYX_FLOAT);
  CHECK(onyx_session_input_rank(s, 0) == 2);
  CHECK(onyx_session_input_shape(s, 0)[0] == -1 && onyx_session_input_shape(s, 0)[1] == 3);
  CHECK(strcmp(onyx_session_input_dim_name(s, 0, 0), "batch") == 0);
  CHECK(onyx_session_input_dim_name(s, 0, 1) == NULL);
  CHECK(onyx_session_output_dtype(s, 0) == ONYX_FLOAT && onyx_session_output_rank(s, 0) == 2);
  CHECK(strcmp(onyx_session_metadata(s, "producer_name"), "onyx-tests") == 0);
  CHECK(strcmp(onyx_session_metadata(s, "graph_name"), "affine") == 0);
  CHECK(strcmp(onyx_session_metadata(s, "version"), "7") == 0);
  CHECK(strcmp(onyx_session_metadata(s, "author"), "onyx") == 0);
  CHECK(onyx_session_metadata(s, "no such key") == NULL);

  /* runs over caller memory, and from four threads at once */
  CHECK(run_affine(s, NULL, 2, 0.5f) == 1);
  worker w[4];
  thrd_t t[4];
  for (int k = 0; k < 4; ++k) {
    w[k].s = s;
    w[k].index = k;
    CHECK(thrd_create(&t[k], work, &w[k]) == thrd_success);
  }
  for (int k = 0; k < 4; ++k) {
    thrd_join(t[k], NULL);
    CHECK(w[k].good);
  }

  /* onyx-allocated input, output asked for by name */
  int64_t shape[2] = {1, 3};
  onyx_value* in = NULL;
  if (ok(onyx_value_create_tensor(ONYX_FLOAT, shape, 2, &in), "tensor")) {
    float* x = onyx_value_data(in);
    CHECK(x[0] == 0 && x[1] == 0 && x[2] == 0);
    x[1] = -4;
    const char* names[] = {"x"};
    const char* out_names[] = {onyx_session_output_name(s, 0)};
    const onyx_value* ins[] = {in};
    onyx_value* out = NULL;
    if (ok(onyx_session_run(s, NULL, names, ins, 1, out_names, 1, &out), "run by name")) {
      const float* y = onyx_value_data(out);
      CHECK(y[0] == 1 && y[1] == -7 && y[2] == 1);
      CHECK(onyx_value_element_count(out) == 3 && onyx_value_is_tensor(out));
      onyx_value_free(out);
    }

    /* errors: a status with a code and onyx's message; the session stays usable */
    const char* bad_names[] = {"y"};
    out = NULL;
    expect_error(onyx_session_run(s, NULL, bad_names, ins, 1, NULL, 1, &out), ONYX_INVALID_ARGUMENT,
                 "the model has no input 'y'");
    CHECK(out == NULL);
    const char* bad_out[] = {"nope"};
    expect_error(onyx_session_run(s, NULL, names, ins, 1, bad_out, 1, &out), ONYX_INVALID_ARGUMENT,
                 "no output 'nope'");
    onyx_value_free(in);
  }
  int64_t wide[2] = {1, 4};
  double d[4] = {0};
  onyx_value* dv = NULL;
  expect_error(onyx_value_create_tensor_over(d, sizeof d, ONYX_FLOAT, wide, 2, &dv), ONYX_INVALID_ARGUMENT,
               "takes 16 bytes, got 32");
  if (ok(onyx_value_create_tensor_over(d, sizeof d, ONYX_DOUBLE, wide, 2, &dv), "double tensor")) {
    const char* names[] = {"x"};
    const onyx_value* ins[] = {dv};
    onyx_value* out = NULL;
    expect_error(onyx_session_run(s, NULL, names, ins, 1, NULL, 1, &out), ONYX_INVALID_ARGUMENT,
                 "has dtype float64, expected float32");
    onyx_value_free(dv);
  }
  expect_error(onyx_value_create_tensor(ONYX_STRING, shape, 2, &dv), ONYX_UNSUPPORTED, "no string tensors");
  onyx_session* missing = NULL;
  onyx_status* st = onyx_session_create(path(models, "no_such_model.onnx"), NULL, &missing);
  CHECK(st != NULL && missing == NULL);
  if (st) {
    CHECK(strstr(onyx_status_message(st), "no_such_model.onnx") != NULL);
    onyx_status_free(st);
  }

  /* terminate: the run stops with ONYX_CANCELLED; the session still runs */
  onyx_run_options* ro = NULL;
  if (ok(onyx_run_options_create(&ro), "run options")) {
    onyx_run_options_set_terminate(ro, 1);
    CHECK(run_affine(s, ro, 1, 0) == 0);
    float x[3] = {1, 2, 3};
    onyx_value* v = NULL;
    ok(onyx_value_create_tensor_over(x, sizeof x, ONYX_FLOAT, shape, 2, &v), "tensor over");
    const char* names[] = {"x"};
    const onyx_value* ins[] = {v};
    onyx_value* out = NULL;
    expect_error(onyx_session_run(s, ro, names, ins, 1, NULL, 1, &out), ONYX_CANCELLED, "terminated");
    onyx_value_free(v);
    onyx_run_options_set_terminate(ro, 0);
    CHECK(run_affine(s, ro, 3, 1) == 1);
    onyx_run_options_free(ro);
  }

  /* the profile: a Chrome trace naming the graph's nodes */
  if (ok(onyx_session_end_profiling(s), "end profiling")) {
    FILE* f = fopen(profile, "rb");
    CHECK(f != NULL);
    if (f) {
      static char text[1 << 20];
      size_t n = fread(text, 1, sizeof text - 1, f);
      text[n] = 0;
      fclose(f);
      CHECK(strstr(text, "\"traceEvents\"") != NULL);
      /* the affine model's Mul and Add, one pass as onyx.fused.Elementwise */
      CHECK(strstr(text, "\"op_name\":\"onyx.fused.Elementwise\"") != NULL);
    }
  }
  onyx_session_free(s);

  /* free dimensions, the optimized model, and a session from bytes */
  if (ok(onyx_session_options_create(&opt), "options")) {
    ok(onyx_session_options_set_free_dimension(opt, "N", 2), "free dimension");
    ok(onyx_session_options_set_optimization_level(opt, ONYX_OPTIMIZE_EXTENDED), "level");
    char saved[2048];
    snprintf(saved, sizeof saved, "%s/conv_relu.c_api.onnx", out_dir);
    ok(onyx_session_options_set_optimized_model_path(opt, saved), "optimized path");
    expect_error(onyx_session_options_set_optimization_level(opt, (onyx_optimization_level)5), ONYX_INVALID_ARGUMENT,
                 "none of 0, 1, 2, 99");
    if (ok(onyx_session_create(path(models, "conv_relu.onnx"), opt, &s), "create conv_relu")) {
      CHECK(onyx_session_input_shape(s, 0)[0] == 2);
      onyx_session_free(s);
    }
    onyx_session_options_free(opt);
    FILE* f = fopen(saved, "rb");
    CHECK(f != NULL);
    if (f) {
      static char bytes[1 << 20];
      size_t n = fread(bytes, 1, sizeof bytes, f);
      fclose(f);
      if (ok(onyx_session_create_from_bytes(bytes, n, NULL, &s), "from bytes")) {
        CHECK(onyx_session_input_shape(s, 0)[0] == 2); /* the override is in the saved model */
        CHECK(onyx_session_output_shape(s, 0)[1] == 4);
        onyx_session_free(s);
      }
    }
  }
  onyx_session_free(NULL);
  onyx_value_free(NULL);
  onyx_status_free(NULL);

  if (failures) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
