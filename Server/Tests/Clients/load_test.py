"""Load on a running fovea-serve: C concurrent clients send N requests in all
(REST, binary tensor data), with dynamic batching on and then off. Every
request must be answered, and every answer must equal, bit for bit, the
answer to the same input sent alone. Prints throughput and p50/p99 latency.

    python load_test.py FOVEA_SERVE [--clients 16] [--requests 2000] [--inputs 8]

Ends with `N passed, M failed` (one check per mode).
"""
import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request

import numpy as np

from serve_common import SQUEEZENET, Server


def infer_body(x):
    header = json.dumps({"inputs": [{"name": "data", "shape": list(x.shape), "datatype": "FP32",
                                     "parameters": {"binary_data_size": x.nbytes}}],
                         "outputs": [{"name": "logits", "parameters": {"binary_data": True}}]}).encode()
    return header + x.tobytes(), len(header)


def post(connection, body, header_length):
    connection.request("POST", "/v2/models/squeezenet/infer", body=body,
                       headers={"Inference-Header-Content-Length": str(header_length), "Content-Type": "application/octet-stream"})
    response = connection.getresponse()
    data = response.read()
    if response.status != 200:
        raise RuntimeError(f"HTTP {response.status}: {data[:200]!r}")
    json_length = int(response.headers["Inference-Header-Content-Length"])
    return data[json_length:]  # the raw logits


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def run_mode(serve, label, batch_args, clients, requests, inputs):
    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        with Server(serve, "--model", f"squeezenet={SQUEEZENET}", "--no-grpc", *batch_args, log=log.name) as server:
            bodies = [infer_body(x) for x in inputs]
            connection = http.client.HTTPConnection(server.http)
            sequential = [post(connection, *body) for body in bodies]
            results = [None] * requests
            latencies = [0.0] * requests
            errors = []
            next_request = iter(range(requests))
            lock = threading.Lock()

            def client():
                connection = http.client.HTTPConnection(server.http)
                while True:
                    with lock:
                        index = next(next_request, None)
                    if index is None:
                        return
                    start = time.perf_counter()
                    try:
                        results[index] = post(connection, *bodies[index % len(bodies)])
                    except Exception as error:  # counted, not raised: every request is accounted for
                        errors.append(f"request {index}: {error}")
                        connection = http.client.HTTPConnection(server.http)
                    latencies[index] = time.perf_counter() - start

            threads = [threading.Thread(target=client) for _ in range(clients)]
            start = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - start
            with urllib.request.urlopen(f"http://{server.http}/metrics") as text:
                batch_count, batch_sum = batch_stats(text)
            code = server.stop()
    answered = sum(result is not None for result in results)
    mismatched = sum(1 for index, result in enumerate(results) if result is not None and result != sequential[index % len(bodies)])
    mean_batch = batch_sum / batch_count if batch_count else 0
    print(f"{label}: {requests} requests from {clients} clients in {elapsed:.2f} s: {requests / elapsed:.1f} images/s, "
          f"latency p50 {percentile(latencies, 0.5) * 1000:.1f} ms, p99 {percentile(latencies, 0.99) * 1000:.1f} ms, "
          f"mean batch {mean_batch:.2f}; answered {answered}, errors {len(errors)}, differing from sequential {mismatched}, exit {code}")
    for error in errors[:5]:
        print("  " + error)
    return answered == requests and not errors and mismatched == 0 and code == 0


def batch_stats(response):
    count = total = 0.0
    for line in response.read().decode().splitlines():
        if line.startswith("fovea_batch_size_count"):
            count = float(line.split()[-1])
        elif line.startswith("fovea_batch_size_sum"):
            total = float(line.split()[-1])
    return count, total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("serve")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--inputs", type=int, default=8)
    parser.add_argument("--max-batch-size", type=int, default=8)
    parser.add_argument("--max-queue-delay-us", type=int, default=2000)
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    inputs = [rng.standard_normal((1, 3, 224, 224), dtype=np.float32) for _ in range(args.inputs)]
    passed = failed = 0
    modes = [(f"batching on (max {args.max_batch_size}, delay {args.max_queue_delay_us} us)",
              ["--max-batch-size", str(args.max_batch_size), "--max-queue-delay-us", str(args.max_queue_delay_us)]),
             ("batching off", ["--max-batch-size", "1"])]
    for label, batch_args in modes:
        if run_mode(args.serve, label, batch_args, args.clients, args.requests, inputs):
            passed += 1
        else:
            failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
