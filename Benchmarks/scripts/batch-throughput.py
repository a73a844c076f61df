#!/usr/bin/env python3
"""Batch throughput, Fovea against onnxruntime, alternately in one session.

    Benchmarks/scripts/batch-throughput.py FOVEA_BIN MODEL.onnx [--batch 8] [--threads 1,2] [--rounds 3]

For each thread count and round, runs `fovea bench --batch B --json` (Fovea's own
timer, median of its runs) and then onnxruntime on the same graph with its
input's first dimension made symbolic, fed a seeded batch of B images (median of
as many runs). Prints images per second for each, and the median over rounds.
Needs numpy, onnx and onnxruntime (for example the peers' venv, made by
../shared/tools/peers/setup_peers.sh).
"""
import argparse
import json
import statistics
import subprocess
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort


def batch_model(path, workdir):
    """The model with its input's and outputs' first dimension symbolic."""
    model = onnx.load(path)
    for value in list(model.graph.input) + list(model.graph.output):
        dims = value.type.tensor_type.shape.dim
        if dims:
            dims[0].ClearField("dim_value")
            dims[0].dim_param = "N"
    out = f"{workdir}/batch.onnx"
    onnx.save(model, out)
    return out, model.graph.input[0].name, [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim[1:]]


def fovea_ms(binary, model, batch, threads, runs):
    result = subprocess.run([binary, "bench", "--model", model, "--batch", str(batch), "--threads", str(threads),
                             "--runs", str(runs), "--json"], check=True, capture_output=True, text=True)
    return json.loads(result.stdout)["median_ms"]


def ort_ms(session, name, feed, runs):
    session.run(None, {name: feed})  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, {name: feed})
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("fovea")
    parser.add_argument("model")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()

    workdir = tempfile.mkdtemp()
    path, name, image_shape = batch_model(args.model, workdir)
    feed = np.random.default_rng(0).random((args.batch, *image_shape), dtype=np.float32)
    print(f"{args.model}: batch {args.batch}, {args.rounds} rounds of {args.runs} runs (medians)")
    for threads in [int(t) for t in args.threads.split(",")]:
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        fovea, onnxrt = [], []
        for _ in range(args.rounds):
            fovea.append(args.batch * 1e3 / fovea_ms(args.fovea, args.model, args.batch, threads, args.runs))
            onnxrt.append(args.batch * 1e3 / ort_ms(session, name, feed, args.runs))
        rounds = " ".join(f"{f:.1f}/{o:.1f}" for f, o in zip(fovea, onnxrt))
        f, o = statistics.median(fovea), statistics.median(onnxrt)
        print(f"threads {threads}: Fovea {f:.1f} images/s, onnxruntime {o:.1f} images/s, "
              f"Fovea/onnxruntime {f / o:.2f} (rounds, Fovea/onnxruntime: {rounds})")


if __name__ == "__main__":
    main()
