#!/usr/bin/env python3
"""Checks `fovea classify` as a worker for large collections (issue 35;
docs/large-collections.md) on a photo set made by make-photo-set.py. Prints one
`ok:` or `FAIL:` line per check and ends with `N passed, M failed`.

    collections_check.py --fovea PATH --set DIR --work DIR CHECK...

CHECK is one or more of:
  cli          a reference run (--output), --paths-from - (same bytes), --shard
               parts (disjoint, union the whole), and --resume after kill -9 at
               random moments, in a loop (byte-identical to the reference)
  ray          deploy/collections/ray_classify.py with two workers: the same
               results as the reference; again with one worker killed midway
  spark        deploy/collections/spark_classify.py in local[2,4]: the same;
               again with one fovea process killed midway
  indexed-job  deploy/collections/indexed-job.yaml: the Kubernetes schema
               (kubernetes-validate --strict), then its container command run
               by hand for every index (one killed and run again, as a
               rescheduled pod): the union of the parts is the reference
The reference is made by `cli` (or by any check, when it is missing).
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.normpath(os.path.join(ROOT, "..", "shared", "models"))
MODEL_OPTIONS = ["--model", os.path.join(MODELS, "squeezenet1.1.onnx"), "--labels", os.path.join(MODELS, "labels1000.txt"), "--top", "3"]

passed = 0
failed = 0
timings = {}
# Engines: seconds from their first fovea process to the end (start-up left out).
steady = {}


def check(condition, what, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok: {what}", flush=True)
    else:
        failed += 1
        print(f"FAIL: {what}" + (f": {detail}" if detail else ""), flush=True)
    return condition


def classify(args, extra, **kwargs):
    return subprocess.run([args.fovea, "classify"] + MODEL_OPTIONS + extra, capture_output=True, **kwargs)


def read_lines(path):
    with open(path, "rb") as file:
        return file.read().split(b"\n")[:-1]


def reference(args):
    """The uninterrupted run's result lines (bytes), made once."""
    path = os.path.join(args.work, "reference.jsonl")
    if not os.path.exists(path):
        started = time.time()
        run = classify(args, ["--paths-from", os.path.join(args.set, "manifest.txt"), "--jsonl", "--output", path])
        timings["one process"] = time.time() - started
        if run.returncode != 0:
            print(run.stderr.decode(errors="replace"))
    return read_lines(path)


def manifest_lines(args):
    with open(os.path.join(args.set, "manifest.txt"), encoding="utf-8") as file:
        return file.read().split("\n")[:-1]


def by_image(lines):
    """image -> result without its "line" (an engine numbers nothing)."""
    results = {}
    for line in lines:
        result = json.loads(line)
        result.pop("line", None)
        results.setdefault(result["image"], []).append(result)
    return results


def check_cli(args):
    ref = reference(args)
    listed = manifest_lines(args)
    photos = [(number, path) for number, path in enumerate(listed, 1) if path]
    results = [json.loads(line) for line in ref]
    check(len(ref) == len(photos), f"one result per non-blank line ({len(photos)})", f"got {len(ref)}")
    check([(r["line"], r["image"]) for r in results] == photos,
          "results in input order, numbered by input line (the blank line skipped), paths with spaces and non-ASCII kept")
    errors = [r for r in results if "error" in r]
    check(len(errors) == 1 and "missing photo.jpg" in errors[0]["image"] and "observations" not in errors[0],
          "the missing photo is one error object", str(errors[:2]))
    check(all(len(r.get("observations", [])) == 3 for r in results if "error" not in r), "every other photo has its top 3")

    with open(os.path.join(args.set, "manifest.txt"), "rb") as manifest:
        piped = classify(args, ["--paths-from", "-", "--jsonl"], stdin=manifest)
    check(piped.returncode == 0 and piped.stdout.split(b"\n")[:-1] == ref,
          "--paths-from - writes the same bytes to standard output", piped.stderr.decode(errors="replace")[-300:])

    parts = []
    for index in range(3):
        run = classify(args, ["--paths-from", os.path.join(args.set, "manifest.txt"), "--jsonl", "--shard", f"{index}/3"])
        lines = run.stdout.split(b"\n")[:-1]
        parts.append(lines)
        check(run.returncode == 0 and all((json.loads(l)["line"] - 1) % 3 == index for l in lines),
              f"--shard {index}/3 holds only its lines")
    numbers = [json.loads(l)["line"] for part in parts for l in part]
    check(len(numbers) == len(set(numbers)), "the three parts are disjoint")
    union = sorted((l for part in parts for l in part), key=lambda l: json.loads(l)["line"])
    check(union == ref, "their union is the reference, byte for byte")

    # kill -9 at random moments, then --resume, until a run ends by itself.
    output = os.path.join(args.work, "resumed.jsonl")
    rng = random.Random(35)
    command = [args.fovea, "classify"] + MODEL_OPTIONS + ["--paths-from", os.path.join(args.set, "manifest.txt"),
                                                          "--jsonl", "--output", output, "--resume"]
    def count_lines():
        if not os.path.exists(output):
            return 0
        with open(output, "rb") as file:
            return file.read().count(b"\n")

    # Each run is killed after a random number of new results (so that every run
    # makes progress however slow the machine), a random few milliseconds after
    # the last of them: sometimes between two photos, sometimes in a write.
    kills, torn, runs, finished = 0, 0, 0, False
    while not finished and runs < 100:
        runs += 1
        target = count_lines() + rng.randint(1, max(1, len(ref) // 6))
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        while process.poll() is None and count_lines() < target:
            time.sleep(0.01)
        if process.poll() is None:
            time.sleep(rng.uniform(0, 0.05))
            process.send_signal(signal.SIGKILL)
            kills += 1
        process.wait()
        stderr = process.stderr.read()
        torn += stderr.count(b"cut short")
        finished = process.returncode == 0
        if process.returncode > 0:
            print(stderr.decode(errors="replace")[-500:])
            break
    print(f"   {kills} kills, {runs} runs, {torn} torn last lines cut off")
    check(finished and kills >= 1, f"the worker was killed {kills} times, then a resumed run finished")
    check(read_lines(output) == ref, "--resume after kill -9 gives exactly the reference, byte for byte",
          f"{len(read_lines(output))} lines against {len(ref)}")


def descendants(pid):
    """Every process below `pid` (from /proc): (pid, parent, command line)."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
            table[int(entry)] = (parent, command)
        except (OSError, IndexError, ValueError):
            continue
    found, frontier = [], [pid]
    while frontier:
        current = frontier.pop()
        for child, (parent, command) in table.items():
            if parent == current:
                found.append((child, parent, command))
                frontier.append(child)
    return found


def run_engine(args, name, command, output, kill):
    """Runs a driver; with `kill`, kill -9s one worker midway (after some results)."""
    shutil.rmtree(output, ignore_errors=True)
    started = time.time()
    log = open(os.path.join(args.work, f"{name}{'-killed' if kill else ''}.log"), "wb")
    driver = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log)
    # The driver's output is read on a thread, so it never blocks on a full pipe while we watch.
    out = []
    reader = threading.Thread(target=lambda: out.append(driver.stdout.read()))
    reader.start()
    killed = None
    # When the first fovea process starts: the engine's own start-up (a JVM, a Ray
    # cluster, Python workers) is over, so the time from there on is its steady rate.
    first_seen = None
    while driver.poll() is None:
        workers = [(p, parent) for p, parent, c in descendants(driver.pid) if " classify " in c and args.fovea in c]
        if workers and first_seen is None:
            first_seen = time.time()
        # Midway, once the fovea processes have run for a while. Between two
        # batches no fovea process runs: wait for the next one (on a fast CPU a
        # batch can end between two looks).
        if kill and killed is None and first_seen and workers and time.time() - first_seen > args.kill_after:
            victim, parent = workers[0]
            # Ray: the actor's process (which holds the fovea process); Spark: the fovea process.
            killed = parent if name == "ray" else victim
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.2)
    reader.join()
    ended = time.time()
    seconds = ended - started
    label = f"{name}{' (one worker killed)' if kill else ''}"
    timings[label] = seconds
    if first_seen is not None:
        steady[label] = ended - first_seen
    if kill:
        check(killed is not None, f"{name}: a worker was killed midway")
    if not check(driver.returncode == 0, f"{name}{' with a worker killed' if kill else ''}: the driver finished",
                 f"exit status {driver.returncode}, see {log.name}"):
        return None
    lines = []
    for dirpath, _, files in os.walk(output):
        for file in sorted(files):
            if file.endswith(".json") or file.endswith(".jsonl"):
                with open(os.path.join(dirpath, file), "rb") as part:
                    lines += [line for line in part.read().split(b"\n") if line.strip()]
    return lines


def compare_engine(args, name, rows, kill):
    if rows is None:
        return
    expected = by_image(reference(args))
    got = {}
    for row in rows:
        row = json.loads(row)
        got.setdefault(row["image"], []).append(json.loads(row["result"]))
    duplicates = [image for image, results in got.items() if len(results) > 1]
    missing = [image for image in expected if image not in got]
    label = f"{name}{' with a worker killed' if kill else ''}"
    check(not duplicates and not missing and len(got) == len(expected),
          f"{label}: each photo exactly once", f"{len(missing)} missing, {len(duplicates)} twice")
    different = [image for image in expected if image in got and got[image][0] != expected[image][0]]
    check(not different, f"{label}: the same results as one process", f"{len(different)} differ, such as {different[:1]}")


def check_ray(args):
    driver = os.path.join(ROOT, "deploy", "collections", "ray_classify.py")
    for kill in (False, True):
        output = os.path.join(args.work, "ray-output")
        command = [sys.executable, driver, "--fovea", args.fovea, "--manifest", os.path.join(args.set, "manifest.txt"),
                   "--output", output, "--workers", "2", "--batch-size", str(args.batch_size), "--"] + MODEL_OPTIONS
        compare_engine(args, "ray", run_engine(args, "ray", command, output, kill), kill)


def check_spark(args):
    driver = os.path.join(ROOT, "deploy", "collections", "spark_classify.py")
    for kill in (False, True):
        output = os.path.join(args.work, "spark-output")
        command = [sys.executable, driver, "--fovea", args.fovea, "--manifest", os.path.join(args.set, "manifest.txt"),
                   "--output", output, "--master", "local[2,4]", "--partitions", str(args.partitions), "--"] + MODEL_OPTIONS
        compare_engine(args, "spark", run_engine(args, "spark", command, output, kill), kill)


def check_indexed_job(args):
    import yaml

    manifest = os.path.join(ROOT, "deploy", "collections", "indexed-job.yaml")
    validate = os.path.join(os.path.dirname(sys.executable), "kubernetes-validate")
    run = subprocess.run([validate, "--strict", manifest], capture_output=True, text=True)
    check(run.returncode == 0, "indexed-job.yaml passes the Kubernetes schema (kubernetes-validate --strict)", run.stdout + run.stderr)
    with open(manifest) as file:
        job = yaml.safe_load(file)
    spec = job["spec"]
    container = spec["template"]["spec"]["containers"][0]
    shard = next(a for a in container["args"] if a.startswith("--shard="))
    check(spec["completionMode"] == "Indexed" and shard == f"--shard=$(JOB_COMPLETION_INDEX)/{spec['completions']}",
          "an Indexed Job whose completions are the N of --shard I/N")
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    results = os.path.join(args.work, "job-results")
    shutil.rmtree(results, ignore_errors=True)
    os.makedirs(results)
    # The volumes, as this machine has them.
    local = {mounts["models"]: MODELS, mounts["photos"] + "/manifest.txt": os.path.join(args.set, "manifest.txt"),
             mounts["results"]: results}

    def command(index):
        words = [container["command"][0].replace("/usr/local/bin/fovea", args.fovea)]
        for word in container["args"]:
            word = word.replace("$(JOB_COMPLETION_INDEX)", str(index))
            for mount, path in local.items():
                word = word.replace(mount, path)
            words.append(word)
        return words

    for index in range(spec["completions"]):
        if index == 0:
            # A pod killed midway and rescheduled: the same command again.
            pod = subprocess.Popen(command(index), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(args.kill_after)
            pod.kill()
            pod.wait()
        run = subprocess.run(command(index), capture_output=True)
        check(run.returncode == 0, f"index {index}: the container's command ran", run.stderr.decode(errors="replace")[-300:])
    union = []
    for index in range(spec["completions"]):
        union += read_lines(os.path.join(results, f"part-{index}.jsonl"))
    union.sort(key=lambda line: json.loads(line)["line"])
    # The reference: the same command (the Job's model options) as one process, unsharded.
    whole = os.path.join(args.work, "job-whole.jsonl")
    one = [w for w in command(0) if not w.startswith("--shard=") and w != "--resume" and not w.startswith("--output=")]
    run = subprocess.run(one + [f"--output={whole}"], capture_output=True)
    expected = read_lines(whole) if run.returncode == 0 else []
    differing = [(a, b) for a, b in zip(union, expected) if a != b]
    check(run.returncode == 0 and union == expected,
          "the union of the part files is one unsharded run's output, byte for byte (index 0 killed and resumed)",
          f"{len(union)} lines against {len(expected)}; first difference: {differing[:1]}; {run.stderr.decode(errors='replace')[-300:]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fovea", required=True)
    parser.add_argument("--set", required=True, help="make-photo-set.py's output")
    parser.add_argument("--work", required=True, help="a scratch directory")
    parser.add_argument("--kill-after", type=float, default=3.0, help="seconds of work before an engine's worker is killed")
    parser.add_argument("--batch-size", type=int, default=16, help="Ray's batch size")
    parser.add_argument("--partitions", type=int, default=8, help="Spark's partitions")
    parser.add_argument("checks", nargs="+", choices=["cli", "ray", "spark", "indexed-job"])
    args = parser.parse_args()
    args.fovea = os.path.abspath(args.fovea)
    os.makedirs(args.work, exist_ok=True)
    for name in args.checks:
        {"cli": check_cli, "ray": check_ray, "spark": check_spark, "indexed-job": check_indexed_job}[name](args)
    photos = len(reference(args))
    for name, seconds in timings.items():
        line = f"   {name}: {photos} photos in {seconds:.1f} s ({photos / seconds:.1f} images/s, engine start-up included"
        if name in steady:
            line += f"; {steady[name]:.1f} s, {photos / steady[name]:.1f} images/s from its first fovea process on"
        print(line + ")")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
