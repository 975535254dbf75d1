# Reading model metadata and handling a bad input, as ORT scripts do.
import numpy as np
import onyx as ort

sess = ort.InferenceSession("model.onnx")
meta = sess.get_modelmeta()
print("producer:", meta.producer_name, "version:", meta.version, "graph:", meta.graph_name)
print("custom:", meta.custom_metadata_map)

try:
    sess.run(None, {"not_an_input": np.zeros((1, 3), dtype=np.float32)})
except Exception as e:
    print("error:", type(e).__name__, e)

opts = ort.SessionOptions()
opts.add_free_dimension_override_by_name("batch", 4)
sess = ort.InferenceSession("model.onnx", sess_options=opts)
print("fixed shape:", sess.get_inputs()[0].shape)
