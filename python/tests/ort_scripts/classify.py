# The ONNX Runtime tutorial's image classification loop, import changed.
import numpy as np
import onyx as ort

session = ort.InferenceSession("model.onnx", providers=ort.get_available_providers())
input_name = session.get_inputs()[0].name
img = np.random.rand(1, 3, 224, 224).astype(np.float32)
outs = session.run(None, {input_name: img})[0]
preds = np.argmax(outs, axis=1)
print("prediction:", int(preds[0]), "score:", float(outs[0, preds[0]]))
print("sums to one:", bool(abs(outs.sum() - 1) < 1e-3))
