#!/usr/bin/env python3
"""Labels a photo collection with Ray Data: `map_batches` over the path list,
with a pool of actors each holding one long-lived `fovea classify --paths-from -
--jsonl` process (the model is loaded once per actor, and the process's
pipelined decoder keeps its threads busy). docs/large-collections.md has the
commands; on a cluster, start Ray there and give --address.

    ray_classify.py --fovea PATH --manifest LIST --output DIR --workers N
                    [--address ray://HOST:10001] [--threads T] [--batch-size B]
                    -- FOVEA CLASSIFY OPTIONS (--model, --labels, --top, ...)

The output DIR is a Ray dataset written as JSON Lines, one row per photo:
{"image": path, "result": fovea's result as JSON text}. Ray retries the batch of
an actor that died (its actors have max_restarts=-1 and max_task_retries=-1 by
default), so a worker killed midway costs only its batch: the output is complete
and holds each photo once.
"""
import argparse
import json
import os
import subprocess
import threading
import time

import ray


class FoveaWorker:
    """One `fovea classify` process, fed batches of paths on standard input."""

    def __init__(self, fovea, threads, options):
        command = [fovea, "classify", "--paths-from", "-", "--jsonl", "--progress-interval", "0",
                   "--threads", str(threads)] + options
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def __call__(self, batch):
        # fovea skips blank lines, so they are never sent: one result per path sent.
        paths = [p for p in batch["text"] if p.strip()]
        text = "".join(p + "\n" for p in paths).encode()
        # Written from a thread: fovea answers while it reads, and a large batch
        # could otherwise fill both pipes at once.
        writer = threading.Thread(target=self.process.stdin.write, args=(text,))
        writer.start()
        images, results = [], []
        for path in paths:
            line = self.process.stdout.readline()
            if not line.endswith(b"\n"):
                raise RuntimeError(f"fovea stopped (exit status {self.process.poll()}) before answering {path!r}")
            result = json.loads(line)
            # "line" counts the lines this process was sent: meaningless outside it.
            result.pop("line", None)
            if result["image"] != path:
                raise RuntimeError(f"fovea answered {result['image']!r} for {path!r}")
            images.append(path)
            results.append(json.dumps(result, sort_keys=True, ensure_ascii=False))
        writer.join()
        return {"image": images, "result": results}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fovea", required=True, help="the fovea executable (on every node)")
    parser.add_argument("--manifest", required=True, help="the path list, one path per line")
    parser.add_argument("--output", required=True, help="the output directory (JSON Lines)")
    parser.add_argument("--workers", type=int, default=2, help="actors, each one fovea process")
    parser.add_argument("--threads", type=int, default=1, help="threads of each fovea process (its actor reserves as many CPUs)")
    parser.add_argument("--batch-size", type=int, default=64, help="paths per batch (what a dead worker costs)")
    parser.add_argument("--address", default=None, help="a running Ray cluster (default: start a local one)")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="-- then fovea classify's options")
    args = parser.parse_args()
    options = args.options[1:] if args.options[:1] == ["--"] else args.options

    if args.address:
        ray.init(address=args.address)
    else:
        # Two CPUs more than the actors take: Ray Data's read and write tasks need theirs.
        ray.init(num_cpus=args.workers * args.threads + 2, include_dashboard=False,
                 object_store_memory=256 * 1024 * 1024, log_to_driver=False)
    started = time.time()
    paths = ray.data.read_text(os.path.abspath(args.manifest))
    results = paths.map_batches(
        FoveaWorker,
        fn_constructor_args=(os.path.abspath(args.fovea), args.threads, options),
        batch_size=args.batch_size,
        compute=ray.data.ActorPoolStrategy(size=args.workers),
        num_cpus=args.threads,
    )
    results.write_json(os.path.abspath(args.output))
    seconds = time.time() - started
    count = ray.data.read_json(os.path.abspath(args.output)).count()
    print(json.dumps({"photos": count, "seconds": round(seconds, 2), "imagesPerSecond": round(count / seconds, 1)}))


if __name__ == "__main__":
    main()
