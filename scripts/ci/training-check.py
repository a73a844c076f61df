#!/usr/bin/env python3
"""Checks what FoveaTrainingTests wrote into .build-training against the
reference tools (run by scripts/ci/test.sh after `swift test`, in .build-python):

1. solver.json: scikit-learn's LogisticRegression(solver="lbfgs", C=1/(n*l2))
   on the same standardized problem gives the same weights (1e-4) and loss (1e-6).
2. four.onnx: onnxruntime gives the same probabilities as Fovea (onnx-inputs.npy
   -> onnx-fovea-probabilities.npy) within 1e-5.
3. four.mlmodel: coremltools loads the spec; it is a NeuralNetworkClassifier with
   classLabel/classLabelProbs outputs, an RGB image input and the four labels.

Prints one line per check and `N passed, M failed`; exits 1 on any failure.
"""
import json
import os
import sys

import numpy as np

work = sys.argv[1] if len(sys.argv) > 1 else ".build-training"
results = []


def check(name, ok, detail):
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")


def solver():
    from sklearn.linear_model import LogisticRegression
    with open(os.path.join(work, "solver.json")) as f:
        p = json.load(f)
    width = p["width"]
    x = np.array(p["x"]).reshape(-1, width)
    y = np.array(p["y"])
    n, l2 = len(y), p["l2"]
    # Population standard deviation, as FeatureStandardization (and StandardScaler).
    mean, std = x.mean(axis=0), x.std(axis=0)
    check("standardization", np.allclose(mean, p["mean"], atol=1e-12) and np.allclose(std, p["std"], atol=1e-12),
          "same mean and standard deviation")
    z = (x - mean) / std
    model = LogisticRegression(solver="lbfgs", C=1.0 / (n * l2), tol=1e-12, max_iter=10000).fit(z, y)
    w = np.array(p["weights"]).reshape(-1, width)
    b = np.array(p["bias"])
    logits = z @ model.coef_.T + model.intercept_
    logits -= logits.max(axis=1, keepdims=True)
    log_p = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    loss = -log_p[np.arange(n), y].mean() + 0.5 * l2 * (model.coef_ ** 2).sum()
    dw = np.abs(w - model.coef_).max()
    db = np.abs(b - model.intercept_).max()
    check("solver weights vs scikit-learn", dw < 1e-4 and db < 1e-4, f"max |dW| {dw:.2e}, max |db| {db:.2e} (tolerance 1e-4)")
    check("solver loss vs scikit-learn", abs(loss - p["loss"]) < 1e-6, f"{p['loss']:.9f} vs {loss:.9f} (tolerance 1e-6)")


def onnx_export():
    import onnxruntime as ort
    session = ort.InferenceSession(os.path.join(work, "four.onnx"), providers=["CPUExecutionProvider"])
    inputs = np.load(os.path.join(work, "onnx-inputs.npy"))
    fovea = np.load(os.path.join(work, "onnx-fovea-probabilities.npy"))
    name = session.get_inputs()[0].name
    ours = np.concatenate([session.run(None, {name: inputs[i:i + 1]})[0] for i in range(len(inputs))])
    diff = np.abs(ours - fovea).max()
    check("ONNX export in onnxruntime", ours.shape == fovea.shape and diff < 1e-5,
          f"{len(inputs)} images, max |dp| {diff:.2e} (tolerance 1e-5)")
    import onnx
    model = onnx.load(os.path.join(work, "four.onnx"))
    onnx.checker.check_model(model)
    meta = {p.key: p.value for p in model.metadata_props}
    labels = json.loads(meta.get("fovea", "{}")).get("labels")
    check("ONNX metadata_props", labels == ["chelsea_cat", "coffee", "red_panda", "rocket"], f"labels {labels}")


def coreml_export():
    import coremltools as ct
    spec = ct.utils.load_spec(os.path.join(work, "four.mlmodel"))
    kind = spec.WhichOneof("Type")
    classifier = spec.neuralNetworkClassifier
    outputs = sorted(o.name for o in spec.description.output)
    image = spec.description.input[0].type.imageType
    labels = list(classifier.stringClassLabels.vector)
    ok = (kind == "neuralNetworkClassifier" and outputs == ["classLabel", "classLabelProbs"]
          and image.width == 224 and image.height == 224 and labels == ["chelsea_cat", "coffee", "red_panda", "rocket"]
          and spec.description.predictedFeatureName == "classLabel")
    check("Core ML spec in coremltools", ok,
          f"{kind}, outputs {outputs}, image {image.width}x{image.height}, {len(classifier.layers)} layers, labels {labels}")


for step in (solver, onnx_export, coreml_export):
    try:
        step()
    except Exception as error:  # a missing file or a tool's error is a failure, not a crash
        check(step.__name__, False, f"{type(error).__name__}: {error}")

failed = results.count(False)
print(f"{len(results) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
