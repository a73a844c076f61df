#!/usr/bin/env python3
"""Classify photos the way a Python user would without Fovea: Pillow + onnxruntime.

For each image: open, convert("RGB"), resize the shorter side to 256 (bilinear),
centre-crop 224, normalize with ImageNet's mean and std, run, softmax, top-5.
One image at a time, like `fovea classify`. Prints each image's top-1 (unless
--quiet) and a summary line: images, seconds, images/s.

    Benchmarks/scripts/pillow-onnxruntime-classify.py --model squeezenet1.1.onnx \
        --labels labels1000.txt --threads 2 PHOTO_OR_DIR...

--latency N classifies the first image N times and prints the median ms
instead (single-photo latency: open file to top-5).
Runs in the .build-python venv (Benchmarks/scripts/compare-classify.py makes it).
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
import onnxruntime
from PIL import Image

EXTENSIONS = {".jpg", ".jpeg", ".png", ".ppm", ".pgm"}
MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32).reshape(3, 1, 1)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32).reshape(3, 1, 1)


def image_files(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                files += [os.path.join(root, n) for n in names if os.path.splitext(n)[1].lower() in EXTENSIONS]
        else:
            files.append(path)
    return sorted(files)


def tensor(path):
    image = Image.open(path).convert("RGB")
    width, height = image.size
    scale = 256 / min(width, height)
    size = (max(256, round(width * scale)), max(256, round(height * scale)))
    image = image.resize(size, Image.BILINEAR)
    left, top = (size[0] - 224) // 2, (size[1] - 224) // 2
    image = image.crop((left, top, left + 224, top + 224))
    pixels = np.asarray(image, dtype=np.float32).transpose(2, 0, 1) / 255
    return ((pixels - MEAN) / STD)[np.newaxis]


def top5(session, input_name, path):
    scores = session.run(None, {input_name: tensor(path)})[0].reshape(-1)
    probabilities = np.exp(scores - scores.max())
    probabilities /= probabilities.sum()
    best = np.argsort(-probabilities)[:5]
    return [(int(i), float(probabilities[i])) for i in best]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--labels")
    parser.add_argument("--threads", type=int, default=0, help="onnxruntime intra-op threads (0: its default)")
    parser.add_argument("--quiet", action="store_true", help="print only the summary line")
    parser.add_argument("--latency", type=int, default=0, metavar="N", help="time the first image N times")
    parser.add_argument("images", nargs="+")
    args = parser.parse_args()

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(args.model, options, providers=["CPUExecutionProvider"])
    input_name = session.get_inputs()[0].name
    labels = open(args.labels).read().splitlines() if args.labels else None
    files = image_files(args.images)
    if not files:
        sys.exit("error: no images")

    if args.latency:
        for _ in range(3):
            top5(session, input_name, files[0])
        times = []
        for _ in range(args.latency):
            start = time.perf_counter()
            top5(session, input_name, files[0])
            times.append((time.perf_counter() - start) * 1000)
        print(f"{files[0]}: median {statistics.median(times):.2f} ms over {args.latency} runs")
        return

    start = time.perf_counter()
    for path in files:
        best = top5(session, input_name, path)
        if not args.quiet:
            name = labels[best[0][0]] if labels else f"class {best[0][0]}"
            print(f"{path}\n  {best[0][1] * 100:6.2f}%  {name}")
    seconds = time.perf_counter() - start
    print(f"{len(files)} images in {seconds:.2f} s: {len(files) / seconds:.1f} images/s")


if __name__ == "__main__":
    main()
