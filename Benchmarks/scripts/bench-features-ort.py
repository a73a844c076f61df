#!/usr/bin/env python3
"""The peer for `fovea train`'s feature extraction: Pillow decodes and
preprocesses (shorter side to 224 with antialiased bilinear, centre crop,
ImageNet mean/std), onnxruntime runs the base network cut at the feature layer,
numpy averages it over space. Prints images per second.

    Benchmarks/scripts/bench-features-ort.py MODEL.onnx LAYER IMAGE_DIR THREADS

Needs numpy, onnx, onnxruntime and Pillow (for example in .build-python).
Compare with `fovea train IMAGE_DIR --base MODEL.onnx --feature-layer LAYER
--threads THREADS --no-cache`, run alternately in one session.
"""
import os
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort
from PIL import Image

model_path, layer, image_dir, threads = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
model = onnx.load(model_path)
input_name = model.graph.input[0].name
cut = os.path.join(tempfile.mkdtemp(), "cut.onnx")
onnx.utils.extract_model(model_path, cut, [input_name], [layer])
options = ort.SessionOptions()
options.intra_op_num_threads = threads
options.inter_op_num_threads = 1
session = ort.InferenceSession(cut, options, providers=["CPUExecutionProvider"])
mean = np.array([0.485, 0.456, 0.406], dtype=np.float32).reshape(3, 1, 1)
std = np.array([0.229, 0.224, 0.225], dtype=np.float32).reshape(3, 1, 1)

files = sorted(os.path.join(root, f) for root, _, names in os.walk(image_dir) for f in names
               if f.lower().endswith((".jpg", ".jpeg", ".png", ".ppm")))
start = time.perf_counter()
for path in files:
    image = Image.open(path).convert("RGB")
    w, h = image.size
    scale = 224 / min(w, h)
    image = image.resize((max(224, round(w * scale)), max(224, round(h * scale))), Image.BILINEAR)
    w, h = image.size
    left, top = (w - 224) // 2, (h - 224) // 2
    pixels = np.asarray(image.crop((left, top, left + 224, top + 224)), dtype=np.float32) / 255
    x = ((pixels.transpose(2, 0, 1) - mean) / std)[None].astype(np.float32)
    value = session.run(None, {input_name: x})[0]
    features = value.mean(axis=(2, 3)) if value.ndim == 4 else value
seconds = time.perf_counter() - start
print(f"{len(files)} images, {seconds:.2f} s, {len(files) / seconds:.1f} images/s ({threads} thread(s), width {features.shape[-1]})")
