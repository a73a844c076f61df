#!/usr/bin/env python3
"""Fovea against Pillow + onnxruntime on the same photos, measured alternately.

    Benchmarks/scripts/compare-classify.py PHOTO_DIR [--photo red_panda.jpg] [--rounds 5]
        [--fovea .build/release/fovea] [--also OTHER_FOVEA_BINARY] [--threads 1,2]

For each thread count and each round, runs `fovea classify PHOTO_DIR` (each
binary given) and Benchmarks/scripts/pillow-onnxruntime-classify.py on the directory one
after the other, reading the images/s of their summary lines; with --photo,
also the single-photo latency (`fovea bench-photo`'s total, the script's
--latency). Prints the medians and the ratios. Alternating puts the same load
on both sides on a busy machine; the absolute numbers still move with it.

Build Fovea first: swift build -c release --product fovea. The Python side runs
in .build-python (numpy, onnxruntime, Pillow), made here on first use.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))  # the repository, two levels up from Benchmarks/scripts
MODELS = os.path.join(ROOT, "..", "shared", "models")
VENV_PYTHON = os.path.join(ROOT, ".build-python", "bin", "python")
PILLOW_SCRIPT = os.path.join(HERE, "pillow-onnxruntime-classify.py")


def ensure_venv():
    """The venv scripts/ci/arch-models.sh makes, with Pillow added."""
    if not os.path.exists(VENV_PYTHON):
        subprocess.run([sys.executable, "-m", "venv", os.path.dirname(os.path.dirname(VENV_PYTHON))], check=True)
    if subprocess.run([VENV_PYTHON, "-c", "import PIL, onnxruntime, numpy"], capture_output=True).returncode != 0:
        subprocess.run([VENV_PYTHON, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "numpy==2.4.6", "onnxruntime==1.32.0", "pillow==13.0.0"], check=True)


def number(pattern, text, what):
    match = re.search(pattern, text)
    if not match:
        sys.exit(f"error: no {what} in:\n{text}")
    return float(match.group(1))


def run(command):
    """The command's output, and its wall time in seconds."""
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(command)} failed:\n{result.stderr}")
    return result.stdout + result.stderr, seconds


def images_per_second(output, seconds, count):
    """From the summary line; for a fovea without one (before issue 14), the
    whole process's wall time, start-up and model loading included."""
    match = re.search(r"([\d.]+) images/s", output)
    return float(match.group(1)) if match else count / seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("photos", help="a directory of photos")
    parser.add_argument("--photo", help="also measure single-photo latency on this photo")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--fovea", default=os.path.join(ROOT, ".build", "release", "fovea"))
    parser.add_argument("--also", action="append", default=[], help="another fovea binary to alternate with (e.g. main's)")
    parser.add_argument("--model", default=os.path.join(MODELS, "squeezenet1.1.onnx"))
    parser.add_argument("--labels", default=os.path.join(MODELS, "labels1000.txt"))
    parser.add_argument("--batch-size", type=int, default=1, help="fovea classify --batch-size")
    args = parser.parse_args()
    ensure_venv()

    count = sum(1 for _, _, names in os.walk(args.photos) for n in names
                if os.path.splitext(n)[1].lower() in {".jpg", ".jpeg", ".png", ".ppm", ".pgm"})
    binaries = [args.fovea] + args.also
    names = [os.path.relpath(b, ROOT) if b.startswith(ROOT) else b for b in binaries]
    for threads in [int(t) for t in args.threads.split(",")]:
        rates = {name: [] for name in names + ["pillow+onnxruntime"]}
        latencies = {name: [] for name in names + ["pillow+onnxruntime"]}
        for _ in range(args.rounds):
            for binary, name in zip(binaries, names):
                out, seconds = run([binary, "classify", "--model", args.model, "--labels", args.labels, "--crop-fraction", "0.875",
                                    "--threads", str(threads)] + (["--batch-size", str(args.batch_size)] if args.batch_size > 1 else [])
                                   + [args.photos])
                rates[name].append(images_per_second(out, seconds, count))
                if args.photo:
                    out, _ = run([binary, "bench-photo", "--model", args.model, "--crop-fraction", "0.875",
                                  "--threads", str(threads), "--runs", "30", args.photo])
                    latencies[name].append(number(r"total\s+([\d.]+)", out, "total"))
            out, _ = run([VENV_PYTHON, PILLOW_SCRIPT, "--model", args.model, "--threads", str(threads), "--quiet", args.photos])
            rates["pillow+onnxruntime"].append(number(r"([\d.]+) images/s", out, "images/s"))
            if args.photo:
                out, _ = run([VENV_PYTHON, PILLOW_SCRIPT, "--model", args.model, "--threads", str(threads), "--latency", "30", args.photo])
                latencies["pillow+onnxruntime"].append(number(r"median ([\d.]+) ms", out, "median"))
        python_rate = statistics.median(rates["pillow+onnxruntime"])
        python_latency = statistics.median(latencies["pillow+onnxruntime"]) if args.photo else None
        print(f"{threads} thread(s), median of {args.rounds} alternating rounds:")
        for name in rates:
            rate = statistics.median(rates[name])
            line = f"  {name:40} {rate:7.1f} images/s ({rate / python_rate:.2f}x pillow+onnxruntime)"
            if args.photo:
                latency = statistics.median(latencies[name])
                line += f"   single photo {latency:6.2f} ms ({python_latency / latency:.2f}x faster)"
            print(line, flush=True)


if __name__ == "__main__":
    main()
