# A typical ONNX Runtime script (session options, inspect inputs, run, read
# outputs, profiling on) with only its import changed. Runs on ./model.onnx.
import numpy as np
import onyx as ort

sess_options = ort.SessionOptions()
sess_options.intra_op_num_threads = 2
sess_options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
sess_options.enable_profiling = True

session = ort.InferenceSession("model.onnx", sess_options, providers=["CPUExecutionProvider"])
print("providers:", session.get_providers())

for inp in session.get_inputs():
    print("input:", inp.name, inp.shape, inp.type)
for out in session.get_outputs():
    print("output:", out.name, out.shape, out.type)

input_name = session.get_inputs()[0].name
input_shape = [d if isinstance(d, int) else 1 for d in session.get_inputs()[0].shape]
output_name = session.get_outputs()[0].name

x = np.random.random(input_shape).astype(np.float32)
result = session.run([output_name], {input_name: x})
print("result:", result[0].shape, result[0].dtype)

prof_file = session.end_profiling()
print("profile:", prof_file)
