#!/usr/bin/env python3
"""The zoo check (issue 19, part 5): torchvision's classifiers, exported to ONNX
with seeded random weights, run in Fovea and in onnxruntime on the same input.

    scripts/manual/zoo-check.sh [--models resnet18,vit_b_16] [--opsets 13,17] [--doc docs/zoo.md]

Needs torch, torchvision, onnx and onnxruntime: scripts/manual/zoo-check.sh makes the
venv (.build-torch) and calls this with it. Not run by CI (PyTorch is large);
CI runs scripts/ci/onnx-op-check.py instead.

For every model and opset it prints one row: whether Fovea loads the model (or
the first line of its error), the max relative error of Fovea's output against
onnxruntime's (max |fovea - ort| / max |ort|), Fovea's median latency (default
backend order, 1 thread, `fovea bench`) and onnxruntime's (1 thread), and their
ratio. A model that fails at any step gets its row with the reason; the others
still run. Results accumulate in OUT/results.json (keyed by model and opset), so
a run with --models updates those rows and keeps the rest; --doc rewrites the
table between the markers in that Markdown file, keeping the notes around it.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback

import numpy as np

# Every model the issue lists, with its input side (Inception-v3 wants 299).
MODELS = [
    ("alexnet", 224), ("vgg11", 224), ("googlenet", 224), ("inception_v3", 299),
    ("resnet18", 224), ("resnet50", 224), ("resnext50_32x4d", 224), ("wide_resnet50_2", 224),
    ("densenet121", 224), ("squeezenet1_0", 224), ("squeezenet1_1", 224),
    ("shufflenet_v2_x1_0", 224), ("mobilenet_v2", 224), ("mobilenet_v3_large", 224),
    ("mnasnet1_0", 224), ("efficientnet_b0", 224), ("efficientnet_v2_s", 224),
    ("regnet_y_400mf", 224), ("convnext_tiny", 224), ("vit_b_16", 224), ("swin_t", 224),
]
TOLERANCE = 1e-4  # the issue's bar: max relative error against onnxruntime
TABLE_BEGIN = "<!-- zoo-table: written by scripts/manual/zoo-check.py -->"
TABLE_END = "<!-- /zoo-table -->"


def first_line(text, limit=160):
    lines = [l.strip() for l in text.strip().splitlines() if l.strip()]
    # Fovea's typed errors put the reason on the last line; tracebacks too.
    line = lines[-1] if lines else "(no message)"
    return (line[:limit] + "…") if len(line) > limit else line


def enliven(model, side):
    """Makes a randomly initialized model's logits depend on its input, so that
    comparing them means something. As constructed, eval-mode BatchNorm divides
    by a running variance of 1 while activations shrink layer after layer:
    GoogLeNet's and Inception-v3's logits came out the same for every input, and
    ViT's head is initialized to zeros. So: zero Linear weights get seeded
    normal ones, and BatchNorm statistics are measured on two seeded batches."""
    import torch
    for module in model.modules():
        if isinstance(module, torch.nn.Linear) and not module.weight.any():
            torch.nn.init.normal_(module.weight, std=0.02)
    norms = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if norms:
        for norm in norms:
            norm.reset_running_stats()
            norm.momentum = None  # a plain average over the batches
        model.train()
        generator = torch.Generator().manual_seed(1)
        with torch.no_grad():
            for _ in range(2):
                model(torch.randn(4, 3, side, side, generator=generator))
    return model.eval()


def export(name, side, opset, path):
    """Seeded random weights (weights=None), eval mode, static 1×3×side×side input,
    through the TorchScript exporter (the dynamo exporter starts at opset 18)."""
    import torch
    import torchvision
    torch.manual_seed(0)
    kwargs = {"weights": None}
    if name in ("googlenet", "inception_v3"):
        kwargs["init_weights"] = True  # silences the warning; same default
    model = enliven(getattr(torchvision.models, name)(**kwargs), side)
    x = torch.randn(1, 3, side, side, generator=torch.Generator().manual_seed(0))
    tmp = path + ".tmp"
    # Not under torch.no_grad(): there nn.MultiheadAttention (ViT) takes its fused
    # fast path, aten::_native_multi_head_attention, which has no ONNX export.
    torch.onnx.export(model, (x,), tmp, opset_version=opset, dynamo=False,
                      input_names=["input"], output_names=["logits"], do_constant_folding=True)
    os.replace(tmp, path)


def ort_run(path, x, runs, warmup):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    feed = {session.get_inputs()[0].name: x}
    output = session.run(None, feed)[0]
    for _ in range(warmup):
        session.run(None, feed)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, feed)
        times.append((time.perf_counter() - start) * 1e3)
    return output, statistics.median(times)


def fovea_run(fovea, path, input_path, output_path, timeout, extra=()):
    """`fovea run` on the default backends at 1 thread; returns (output, error)."""
    if os.path.exists(output_path):
        os.remove(output_path)
    proc = subprocess.run([fovea, "run", "--model", path, "--input", input_path, "--output", output_path,
                           "--threads", "1", *extra], capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        return None, first_line(proc.stderr or proc.stdout)
    return np.load(output_path), None


def fovea_bench(fovea, path, input_path, runs, warmup, timeout):
    proc = subprocess.run([fovea, "bench", "--model", path, "--input", input_path, "--threads", "1",
                           "--runs", str(runs), "--warmup", str(warmup), "--json"],
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError("fovea bench: " + first_line(proc.stderr or proc.stdout))
    return float(json.loads(proc.stdout)["median_ms"])


def explain_mismatch(args, path, input_path, output_path, expected, scale):
    """Which part of the default plan differs: the same run without Winograd
    (whose written tolerance is looser), and the reference backend alone."""
    notes = []
    for label, extra in [("--winograd off", ["--winograd", "off"]), ("--backend reference", ["--backend", "reference"])]:
        try:
            output, error = fovea_run(args.fovea, path, input_path, output_path + ".explain.npy", args.timeout, extra)
        except subprocess.TimeoutExpired:
            output, error = None, "timed out"
        if output is None:
            notes.append(f"{label}: {error}")
        else:
            notes.append(f"{label}: {float(np.max(np.abs(output.astype(np.float64) - expected))) / scale:.1e}")
    return "; ".join(notes)


def check(name, side, opset, args):
    row = {"model": name, "opset": opset, "loads": None, "max_rel_err": None,
           "fovea_ms": None, "ort_ms": None, "note": ""}
    path = os.path.join(args.out, f"{name}-op{opset}.onnx")
    input_path = os.path.join(args.out, f"input-{side}.npy")
    output_path = os.path.join(args.out, f"{name}-op{opset}.fovea.npy")
    try:
        if not os.path.exists(path) or args.reexport:
            start = time.time()
            export(name, side, opset, path)
            print(f"  exported {path} in {time.time() - start:.0f} s", file=sys.stderr, flush=True)
    except Exception as error:  # the row says why; the next model still runs
        row["loads"] = "not exported"
        row["note"] = "torch.onnx.export: " + first_line(str(error) or traceback.format_exc())
        return row
    x = np.load(input_path)
    try:
        expected, row["ort_ms"] = ort_run(path, x, args.runs, args.warmup)
    except Exception as error:
        row["note"] = "onnxruntime: " + first_line(str(error))
        expected = None
    try:
        actual, error = fovea_run(args.fovea, path, input_path, output_path, args.timeout)
    except subprocess.TimeoutExpired:
        actual, error = None, f"fovea run: timed out after {args.timeout} s"
    if error is not None:
        row["loads"] = "no: " + error
        return row
    row["loads"] = "yes"
    if expected is not None:
        if actual.shape != expected.shape:
            row["note"] = f"output shape {list(actual.shape)} vs onnxruntime {list(expected.shape)}"
        else:
            scale = float(np.max(np.abs(expected))) or 1.0
            row["max_rel_err"] = float(np.max(np.abs(actual.astype(np.float64) - expected))) / scale
            if not np.all(np.isfinite(actual)):
                row["note"] = "non-finite values in Fovea's output"
            elif row["max_rel_err"] > TOLERANCE:
                row["note"] = explain_mismatch(args, path, input_path, output_path, expected, scale)
    try:
        row["fovea_ms"] = fovea_bench(args.fovea, path, input_path, args.runs, args.warmup, args.timeout)
    except subprocess.TimeoutExpired:
        row["note"] = (row["note"] + "; " if row["note"] else "") + f"fovea bench timed out after {args.timeout} s"
    except Exception as error:
        row["note"] = (row["note"] + "; " if row["note"] else "") + first_line(str(error))
    return row


def status(row):
    if row["loads"] != "yes":
        return "FAIL"
    err = row["max_rel_err"]
    return "ok" if err is not None and err <= TOLERANCE else "FAIL"


def fmt(value, spec):
    return "—" if value is None else format(value, spec)


def table(rows):
    lines = ["| model | opset | loads | max rel. error | Fovea ms | onnxruntime ms | ratio | status | note |",
             "| --- | ---: | --- | ---: | ---: | ---: | ---: | --- | --- |"]
    order = {name: i for i, (name, _) in enumerate(MODELS)}
    for row in sorted(rows, key=lambda r: (order.get(r["model"], 99), r["opset"])):
        ratio = row["fovea_ms"] / row["ort_ms"] if row["fovea_ms"] and row["ort_ms"] else None
        note = row["note"].replace("|", "\\|")
        lines.append(f"| {row['model']} | {row['opset']} | {row['loads'].replace('|', '/')} | {fmt(row['max_rel_err'], '.1e')} | "
                     f"{fmt(row['fovea_ms'], '.1f')} | {fmt(row['ort_ms'], '.1f')} | {fmt(ratio, '.2f')} | {status(row)} | {note} |")
    return "\n".join(lines)


def machine():
    model, family, cpu_model = "unknown", "?", "?"
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "Model name":
                model = value.strip()
            elif key.strip() == "CPU family":
                family = value.strip()
            elif key.strip() == "Model":
                cpu_model = value.strip()
    except OSError:
        pass
    return f"{model} (family {family}, model {cpu_model}), {os.cpu_count()} cores"


def write_doc(path, rows, meta):
    header = (f"Last run: {meta['date']} on {meta['cpu']}; load average {meta['load_start']} at start, "
              f"{meta['load_end']} at end (the machine is shared with other builds: latencies are rough). "
              f"Fovea {meta['commit']}; torch {meta['torch']}, onnxruntime {meta['ort']}; "
              f"median of {meta['runs']} runs after {meta['warmup']} warm-up, 1 thread each.")
    block = f"{TABLE_BEGIN}\n{header}\n\n{table(rows)}\n{TABLE_END}"
    text = open(path).read() if os.path.exists(path) else "# The zoo check\n\n" + TABLE_BEGIN + "\n" + TABLE_END + "\n"
    if TABLE_BEGIN in text and TABLE_END in text:
        before, rest = text.split(TABLE_BEGIN, 1)
        after = rest.split(TABLE_END, 1)[1]
        text = before + block + after
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", help="comma-separated torchvision names (default: all): "
                        + ",".join(name for name, _ in MODELS))
    parser.add_argument("--opsets", default="13,17")
    parser.add_argument("--out", default=".build-zoo", help="ONNX files, inputs, outputs, results.json (not committed)")
    parser.add_argument("--fovea", default=".build/release/fovea")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=900, help="seconds per fovea command")
    parser.add_argument("--reexport", action="store_true", help="export again even if the .onnx exists")
    parser.add_argument("--doc", help="rewrite the table in this Markdown file (docs/zoo.md)")
    parser.add_argument("--export-only", action="store_true", help="only write the ONNX files (no Fovea needed)")
    args = parser.parse_args()

    if not args.export_only and not os.access(args.fovea, os.X_OK):
        sys.exit(f"error: {args.fovea} not found: swift build -c release --product fovea")
    sides = dict(MODELS)
    names = args.models.split(",") if args.models else [name for name, _ in MODELS]
    unknown = [n for n in names if n not in sides]
    if unknown:
        sys.exit(f"error: unknown model(s) {', '.join(unknown)}; known: {', '.join(sides)}")
    opsets = [int(o) for o in args.opsets.split(",")]
    os.makedirs(args.out, exist_ok=True)
    for side in {sides[n] for n in names}:
        path = os.path.join(args.out, f"input-{side}.npy")
        if not os.path.exists(path):
            np.save(path, np.random.default_rng(0).standard_normal((1, 3, side, side)).astype(np.float32))

    if args.export_only:
        failed = 0
        for name in names:
            for opset in opsets:
                path = os.path.join(args.out, f"{name}-op{opset}.onnx")
                try:
                    if not os.path.exists(path) or args.reexport:
                        export(name, sides[name], opset, path)
                    print(f"{path}: exported", flush=True)
                except Exception as error:
                    failed += 1
                    print(f"{path}: {first_line(str(error))}", flush=True)
        sys.exit(1 if failed else 0)

    results_path = os.path.join(args.out, "results.json")
    results = json.load(open(results_path)) if os.path.exists(results_path) else {"rows": []}
    load_start = " ".join(f"{v:.1f}" for v in os.getloadavg())
    new_rows = []
    for name in names:
        for opset in opsets:
            print(f"== {name} opset {opset}", file=sys.stderr, flush=True)
            try:
                row = check(name, sides[name], opset, args)
            except Exception as error:  # never let one model stop the others
                row = {"model": name, "opset": opset, "loads": "?", "max_rel_err": None, "fovea_ms": None,
                       "ort_ms": None, "note": "zoo-check: " + first_line(f"{type(error).__name__}: {error}")}
            new_rows.append(row)
            print(table([row]).splitlines()[-1], flush=True)
            # Save after every row: a long run interrupted keeps what it measured.
            rows = [r for r in results["rows"] if (r["model"], r["opset"]) not in {(x["model"], x["opset"]) for x in new_rows}]
            results["rows"] = rows + new_rows
            with open(results_path, "w") as f:
                json.dump(results, f, indent=1)

    import onnxruntime
    try:
        import torch
        torch_version = torch.__version__
    except ImportError:
        torch_version = "?"
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "cpu": machine(),
            "load_start": load_start, "load_end": " ".join(f"{v:.1f}" for v in os.getloadavg()),
            "commit": commit or "?", "torch": torch_version, "ort": onnxruntime.__version__,
            "runs": args.runs, "warmup": args.warmup}
    print()
    print(table(results["rows"]))
    if args.doc:
        write_doc(args.doc, results["rows"], meta)
        print(f"\ntable written to {args.doc}")
    failed = sum(1 for r in new_rows if status(r) != "ok")
    print(f"{len(new_rows) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
