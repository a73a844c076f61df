"""The Open Inference Protocol against a running fovea-serve, with the
protocol's own Python clients (tritonclient HTTP and gRPC; the kserve SDK's
in test_kserve_clients.py: both register the protocol's .proto, so they cannot
share a process). Run by scripts/ci/serve-test.sh:

    python test_clients.py FOVEA_SERVE FOVEA

FOVEA is the `fovea` command-line tool: tensor results must equal
`fovea run`'s bit for bit, photo results `fovea classify`'s.
Prints one line per test and a final `N passed, M failed`.
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.request

import numpy as np
import tritonclient.grpc as grpcclient
import tritonclient.http as httpclient
from tritonclient.utils import InferenceServerException

import serve_common
from serve_common import RED_PANDA, SQUEEZENET, Server, same_bits

SERVE, FOVEA = sys.argv[1], sys.argv[2]
MAX_REQUEST_BYTES = 8 << 20
TESTS = []


def test(function):
    TESTS.append(function)
    return function


def fovea_run(x):
    return serve_common.fovea_run(FOVEA, x)


def fovea_classify(photo, top):
    output = subprocess.run([FOVEA, "classify", "--model", SQUEEZENET, "--labels", "imagenet", "--top", str(top),
                             "--json", photo], check=True, capture_output=True, text=True).stdout
    return json.loads(output)["results"][0]["observations"]


def text(entry):
    """A BYTES element as text: bytes from binary data and gRPC, str from JSON."""
    return entry.decode() if isinstance(entry, bytes) else entry


def expect_error(call, status, fragment):
    """The call must fail with this HTTP status (a str) or gRPC code name, and a message containing `fragment`."""
    try:
        call()
    except InferenceServerException as error:
        got = error.status()
        assert str(got).endswith(status), f"status {got}, expected {status}: {error.message()}"
        assert fragment in error.message(), f"message {error.message()!r} lacks {fragment!r}"
        return
    raise AssertionError(f"expected an error {status}")


def tensor_input(module, name, array, datatype, binary=None):
    """An InferInput of tritonclient.http or .grpc holding `array`."""
    tensor = module.InferInput(name, list(array.shape), datatype)
    if binary is None:
        tensor.set_data_from_numpy(array)
    else:
        tensor.set_data_from_numpy(array, binary_data=binary)
    return tensor


def check_common_errors(module, client, not_found, invalid, too_large):
    """Unknown model, wrong shape, wrong datatype, oversized request: each its
    status, then a good request still works."""
    data = tensor_input(module, "data", X, "FP32")
    expect_error(lambda: client.infer("nope", [data]), not_found, "no model named 'nope'")
    wrong_shape = tensor_input(module, "data", np.zeros((1, 3, 200, 200), np.float32), "FP32")
    expect_error(lambda: client.infer("squeezenet", [wrong_shape]), invalid, "the model expects [-1, 3, 224, 224]")
    wrong_type = tensor_input(module, "data", np.zeros(X.shape, np.int64), "INT64")
    expect_error(lambda: client.infer("squeezenet", [wrong_type]), invalid, "the model expects FP32")
    oversized = tensor_input(module, "data", np.zeros((16, 3, 224, 224), np.float32), "FP32")  # 9.6 MB > 8 MB
    expect_error(lambda: client.infer("squeezenet", [oversized]), too_large, "")
    assert same_bits(client.infer("squeezenet", [data]).as_numpy("logits"), REFERENCE)


rng = np.random.default_rng(12)
X = rng.standard_normal((1, 3, 224, 224), dtype=np.float32)
REFERENCE = fovea_run(X)
PHOTO = open(RED_PANDA, "rb").read()
CLASSIFY_TOP3 = fovea_classify(RED_PANDA, 3)


# ---- REST (tritonclient.http)

@test
def http_health_and_server_metadata(server):
    client = httpclient.InferenceServerClient(server.http)
    assert client.is_server_live() and client.is_server_ready()
    assert client.is_model_ready("squeezenet") and client.is_model_ready("squeezenet", "1")
    assert not client.is_model_ready("nope")
    metadata = client.get_server_metadata()
    assert metadata["name"] == "fovea"
    assert {"binary_tensor_data", "classification"} <= set(metadata["extensions"])


@test
def http_model_metadata(server):
    client = httpclient.InferenceServerClient(server.http)
    for version in ["", "1"]:
        metadata = client.get_model_metadata("squeezenet", version)
        assert metadata["name"] == "squeezenet" and metadata["versions"] == ["1"]
        inputs = {i["name"]: i for i in metadata["inputs"]}
        assert inputs["data"] == {"name": "data", "datatype": "FP32", "shape": [-1, 3, 224, 224]}, inputs
        assert inputs["image"] == {"name": "image", "datatype": "BYTES", "shape": [-1]}
        assert metadata["outputs"] == [{"name": "logits", "datatype": "FP32", "shape": [-1, 1000]}], metadata["outputs"]
    expect_error(lambda: client.get_model_metadata("nope"), "404", "no model named 'nope'")
    expect_error(lambda: client.get_model_metadata("squeezenet", "2"), "404", "no version '2'")


@test
def http_tensor_inference_json_equals_fovea_run(server):
    client = httpclient.InferenceServerClient(server.http)
    data = httpclient.InferInput("data", list(X.shape), "FP32")
    data.set_data_from_numpy(X, binary_data=False)
    output = httpclient.InferRequestedOutput("logits", binary_data=False)
    result = client.infer("squeezenet", [data], outputs=[output], request_id="json-1")
    assert result.get_response()["id"] == "json-1"
    assert result.get_response()["model_name"] == "squeezenet"
    assert same_bits(result.as_numpy("logits"), REFERENCE)


@test
def http_tensor_inference_binary_equals_fovea_run(server):
    client = httpclient.InferenceServerClient(server.http)
    data = httpclient.InferInput("data", list(X.shape), "FP32")
    data.set_data_from_numpy(X, binary_data=True)
    result = client.infer("squeezenet", [data], outputs=[httpclient.InferRequestedOutput("logits", binary_data=True)])
    assert result.get_output("logits")["parameters"]["binary_data_size"] == 4000
    assert same_bits(result.as_numpy("logits"), REFERENCE)
    # No outputs named: all of them.
    assert same_bits(client.infer("squeezenet", [data]).as_numpy("logits"), REFERENCE)


@test
def http_batch_of_three_equals_three_single_runs(server):
    client = httpclient.InferenceServerClient(server.http)
    batch = rng.standard_normal((3, 3, 224, 224), dtype=np.float32)
    data = httpclient.InferInput("data", list(batch.shape), "FP32")
    data.set_data_from_numpy(batch)
    logits = client.infer("squeezenet", [data]).as_numpy("logits")
    assert logits.shape == (3, 1000)
    for row in range(3):
        assert same_bits(logits[row:row + 1], fovea_run(batch[row:row + 1]))


@test
def http_photo_as_bytes_and_classification(server):
    client = httpclient.InferenceServerClient(server.http)
    image = httpclient.InferInput("image", [1], "BYTES")
    image.set_data_from_numpy(np.array([PHOTO], dtype=np.object_), binary_data=True)
    for binary in [True, False]:
        output = httpclient.InferRequestedOutput("logits", binary_data=binary, class_count=3)
        top = client.infer("squeezenet", [image], outputs=[output]).as_numpy("logits")
        assert top.shape == (1, 3), top.shape
        parsed = [text(entry).split(":", 2) for entry in top[0]]
        assert parsed[0][1] == "387" and parsed[0][2].startswith("lesser panda"), parsed
        # Exactly `fovea classify`'s confidences and labels.
        assert [(float(score), label) for score, _, label in parsed] == \
            [(observation["confidence"], observation["identifier"]) for observation in CLASSIFY_TOP3], (parsed, CLASSIFY_TOP3)


@test
def http_two_photos_in_one_request(server):
    client = httpclient.InferenceServerClient(server.http)
    cat = open(os.path.join(os.path.dirname(RED_PANDA), "chelsea_cat.png"), "rb").read()
    image = httpclient.InferInput("image", [2], "BYTES")
    image.set_data_from_numpy(np.array([PHOTO, cat], dtype=np.object_))
    top = client.infer("squeezenet", [image], outputs=[httpclient.InferRequestedOutput("logits", class_count=1)]).as_numpy("logits")
    assert top.shape == (2, 1)
    assert text(top[0][0]).split(":")[1] == "387"
    assert text(top[1][0]).split(":")[1] in {"281", "282", "285"}, top[1]  # tabby, tiger cat, Egyptian cat


@test
def http_errors(server):
    client = httpclient.InferenceServerClient(server.http)
    check_common_errors(httpclient, client, not_found="404", invalid="400", too_large="413")
    data = tensor_input(httpclient, "data", X, "FP32")
    expect_error(lambda: client.infer("squeezenet", [data], outputs=[httpclient.InferRequestedOutput("nope")]),
                 "400", "no output 'nope'")
    not_a_photo = tensor_input(httpclient, "image", np.array([b"not a photo"], dtype=np.object_), "BYTES")
    expect_error(lambda: client.infer("squeezenet", [not_a_photo]), "400", "input 'image' element 0")


@test
def http_raw_protocol_bodies(server):
    """What no client library sends: malformed JSON and a body that does not match its shape."""
    def post(body, headers=None):
        request = urllib.request.Request(f"http://{server.http}/v2/models/squeezenet/infer", data=body,
                                         headers=headers or {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())
    status, body = post(b"{not json")
    assert status == 400 and "not a JSON object" in body["error"], body
    status, body = post(json.dumps({"inputs": [{"name": "data", "shape": [1, 3, 224, 224], "datatype": "FP32", "data": [1, 2, 3]}]}).encode())
    assert status == 400 and "holds 150528 elements" in body["error"], body
    status, body = post(json.dumps({"inputs": [{"name": "data", "shape": [1, 3, 224, 224], "datatype": "FP99", "data": []}]}).encode())
    assert status == 400 and "unknown datatype 'FP99'" in body["error"], body
    header = json.dumps({"inputs": [{"name": "data", "shape": [1, 3, 224, 224], "datatype": "FP32",
                                     "parameters": {"binary_data_size": 100}}]}).encode()
    status, body = post(header + bytes(100), {"Inference-Header-Content-Length": str(len(header))})
    assert status == 400 and "602112" in body["error"], body


@test
def http_metrics_count_requests(server):
    with urllib.request.urlopen(f"http://{server.http}/metrics") as response:
        exposition = response.read().decode()
    assert 'fovea_requests_total{model="squeezenet",protocol="rest",outcome="success"}' in exposition, exposition[:2000]
    assert 'fovea_requests_total{model="squeezenet",protocol="rest",outcome="failure"}' in exposition
    for name in ["fovea_queue_duration_seconds_bucket", "fovea_compute_duration_seconds_bucket",
                 "fovea_batch_size_bucket", "fovea_inflight_requests"]:
        assert name in exposition, name


@test
def http_page_is_served(server):
    with urllib.request.urlopen(f"http://{server.http}/") as response:
        page = response.read().decode()
        assert response.headers["Content-Type"].startswith("text/html")
    assert "<title>Fovea</title>" in page and "classification: 3" in page
    assert "http://" not in page and "https://" not in page, "no external assets"


# ---- gRPC (tritonclient.grpc)

@test
def grpc_health_and_metadata(server):
    client = grpcclient.InferenceServerClient(server.grpc)
    assert client.is_server_live() and client.is_server_ready() and client.is_model_ready("squeezenet")
    assert "classification" in client.get_server_metadata(as_json=True)["extensions"]
    metadata = client.get_model_metadata("squeezenet", as_json=True)
    inputs = {i["name"]: i for i in metadata["inputs"]}
    assert inputs["data"]["datatype"] == "FP32" and inputs["data"]["shape"] == ["-1", "3", "224", "224"], inputs
    assert inputs["image"]["datatype"] == "BYTES"
    expect_error(lambda: client.get_model_metadata("nope"), "NOT_FOUND", "no model named 'nope'")


@test
def grpc_tensor_inference_equals_fovea_run(server):
    client = grpcclient.InferenceServerClient(server.grpc)
    data = grpcclient.InferInput("data", list(X.shape), "FP32")
    data.set_data_from_numpy(X)
    result = client.infer("squeezenet", [data], outputs=[grpcclient.InferRequestedOutput("logits")], request_id="grpc-1")
    assert result.get_response().id == "grpc-1"
    assert same_bits(result.as_numpy("logits"), REFERENCE)


@test
def grpc_photo_and_classification(server):
    client = grpcclient.InferenceServerClient(server.grpc)
    image = grpcclient.InferInput("image", [1], "BYTES")
    image.set_data_from_numpy(np.array([PHOTO], dtype=np.object_))
    top = client.infer("squeezenet", [image], outputs=[grpcclient.InferRequestedOutput("logits", class_count=3)]).as_numpy("logits")
    parsed = [text(entry).split(":", 2) for entry in top.reshape(-1)]
    assert [(float(score), label) for score, _, label in parsed] == \
        [(observation["confidence"], observation["identifier"]) for observation in CLASSIFY_TOP3], parsed


@test
def grpc_errors(server):
    client = grpcclient.InferenceServerClient(server.grpc)
    check_common_errors(grpcclient, client, not_found="NOT_FOUND", invalid="INVALID_ARGUMENT", too_large="RESOURCE_EXHAUSTED")


def sigterm_finishes_in_flight_requests():
    """Requests waiting in the batcher's queue (a 0.5 s delay) when SIGTERM
    arrives are answered; then the server exits 0."""
    with Server(SERVE, "--model", f"squeezenet={SQUEEZENET}", "--no-grpc", "--max-queue-delay-us", "500000") as server:
        results = []

        def request():
            client = httpclient.InferenceServerClient(server.http)
            results.append(client.infer("squeezenet", [tensor_input(httpclient, "data", X, "FP32")]).as_numpy("logits"))

        threads = [threading.Thread(target=request) for _ in range(3)]
        for thread in threads:
            thread.start()
        time.sleep(0.2)
        server.process.terminate()
        for thread in threads:
            thread.join()
        code = server.stop()
    assert len(results) == 3 and all(same_bits(r, REFERENCE) for r in results), f"{len(results)} of 3 answered"
    assert code == 0, f"exit code {code}"


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as folder:
        log = os.path.join(folder, "serve.log")
        with Server(SERVE, "--model", f"squeezenet={SQUEEZENET}", "--max-request-bytes", str(MAX_REQUEST_BYTES), log=log) as server:
            print(f"fovea-serve ready in {server.startup_seconds:.2f} s (HTTP {server.http}, gRPC {server.grpc})")
            for function in TESTS:
                try:
                    function(server)
                    passed += 1
                    print(f"PASS {function.__name__}")
                except Exception:
                    failed += 1
                    print(f"FAIL {function.__name__}")
                    traceback.print_exc()
            code = server.stop()
            if code == 0:
                passed += 1
                print("PASS sigterm_exits_cleanly")
            else:
                failed += 1
                print(f"FAIL sigterm_exits_cleanly (exit code {code})")
        if failed:
            print(open(log).read()[-4000:])
    try:
        sigterm_finishes_in_flight_requests()
        passed += 1
        print("PASS sigterm_finishes_in_flight_requests")
    except Exception:
        failed += 1
        print("FAIL sigterm_finishes_in_flight_requests")
        traceback.print_exc()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
