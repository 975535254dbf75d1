# ONNX Runtime's documented way to save an optimized model, then load it.
import numpy as np
import onyx as ort

sess_options = ort.SessionOptions()
sess_options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
sess_options.optimized_model_filepath = "optimized_model.onnx"
session = ort.InferenceSession("model.onnx", sess_options)

sess_options = ort.SessionOptions()
sess_options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
optimized = ort.InferenceSession("optimized_model.onnx", sess_options)

feed = {i.name: np.random.rand(*[d if isinstance(d, int) else 1 for d in i.shape]).astype(np.float32)
        for i in session.get_inputs()}
a = session.run(None, feed)[0]
b = optimized.run(None, feed)[0]
print("max difference:", float(np.abs(a - b).max()))
