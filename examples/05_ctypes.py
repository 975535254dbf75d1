"""Example 05: onyx from another language through its C API (include/onyx/c_api.h),
here Python's ctypes with no NumPy and no binding code: load libonyx_c, read the
model's inputs, run it on a generated image, print the top classes.

    python3 examples/05_ctypes.py build/libonyx_c.so examples/models/resnet50.onnx
"""

import ctypes as C
import random
import sys

lib = C.CDLL(sys.argv[1] if len(sys.argv) > 1 else "libonyx_c.so")
model = sys.argv[2] if len(sys.argv) > 2 else "examples/models/resnet50.onnx"

status_p, session_p, value_p = C.c_void_p, C.c_void_p, C.c_void_p
for name, res, args in [
    ("onyx_status_message", C.c_char_p, [status_p]),
    ("onyx_status_code", C.c_int, [status_p]),
    ("onyx_status_free", None, [status_p]),
    ("onyx_session_create", status_p, [C.c_char_p, C.c_void_p, C.POINTER(session_p)]),
    ("onyx_session_free", None, [session_p]),
    ("onyx_session_input_count", C.c_size_t, [session_p]),
    ("onyx_session_input_name", C.c_char_p, [session_p, C.c_size_t]),
    ("onyx_session_input_rank", C.c_int64, [session_p, C.c_size_t]),
    ("onyx_session_input_shape", C.POINTER(C.c_int64), [session_p, C.c_size_t]),
    ("onyx_session_output_name", C.c_char_p, [session_p, C.c_size_t]),
    ("onyx_session_metadata", C.c_char_p, [session_p, C.c_char_p]),
    ("onyx_value_create_tensor_over", status_p,
     [C.c_void_p, C.c_size_t, C.c_int, C.POINTER(C.c_int64), C.c_size_t, C.POINTER(value_p)]),
    ("onyx_value_free", None, [value_p]),
    ("onyx_value_data", C.c_void_p, [value_p]),
    ("onyx_value_rank", C.c_size_t, [value_p]),
    ("onyx_value_shape", C.POINTER(C.c_int64), [value_p]),
    ("onyx_value_element_count", C.c_int64, [value_p]),
    ("onyx_session_run", status_p,
     [session_p, C.c_void_p, C.POINTER(C.c_char_p), C.POINTER(value_p), C.c_size_t, C.POINTER(C.c_char_p),
      C.c_size_t, C.POINTER(value_p)]),
]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args

ONYX_FLOAT = 1


def check(status, what):
    if status:
        message = lib.onyx_status_message(status).decode()
        lib.onyx_status_free(status)
        sys.exit("%s: %s" % (what, message))


session = session_p()
check(lib.onyx_session_create(model.encode(), None, C.byref(session)), "loading " + model)
print("model by", lib.onyx_session_metadata(session, b"producer_name").decode())

name = lib.onyx_session_input_name(session, 0)
rank = lib.onyx_session_input_rank(session, 0)
dims = [lib.onyx_session_input_shape(session, 0)[d] for d in range(rank)]
dims = [d if d >= 0 else 1 for d in dims]  # symbolic dims: 1
print("input", name.decode(), dims)

count = 1
for d in dims:
    count *= d
rng = random.Random(0)
image = (C.c_float * count)(*[rng.random() for _ in range(count)])
shape = (C.c_int64 * rank)(*dims)
x = value_p()
check(lib.onyx_value_create_tensor_over(image, C.sizeof(image), ONYX_FLOAT, shape, rank, C.byref(x)), "input")

names = (C.c_char_p * 1)(name)
inputs = (value_p * 1)(x)
outputs = (value_p * 1)()
check(lib.onyx_session_run(session, None, names, inputs, 1, None, 1, outputs), "run")
y = outputs[0]
n = lib.onyx_value_element_count(y)
scores = C.cast(lib.onyx_value_data(y), C.POINTER(C.c_float))
out_shape = [lib.onyx_value_shape(y)[d] for d in range(lib.onyx_value_rank(y))]
top = sorted(range(n), key=lambda i: -scores[i])[:3]
print("output", lib.onyx_session_output_name(session, 0).decode(), out_shape)
print("top classes:", ", ".join("%d (%.4f)" % (i, scores[i]) for i in top))
total = sum(scores[i] for i in range(n))
assert abs(total - 1) < 1e-3, total  # a softmax

lib.onyx_value_free(y)
lib.onyx_value_free(x)
lib.onyx_session_free(session)
