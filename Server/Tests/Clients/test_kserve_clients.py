"""The kserve SDK's v2 clients (REST, JSON and binary; gRPC) against a running
fovea-serve: tensor results equal `fovea run`'s bit for bit. A process of its
own: kserve and tritonclient both register the protocol's .proto in protobuf's
default pool. Run by `scripts/ci/serve-test.sh --kserve`:

    python test_kserve_clients.py FOVEA_SERVE FOVEA
"""
import asyncio
import sys
import traceback

import numpy as np
import serve_common
from kserve import InferenceGRPCClient, InferenceRESTClient, InferInput, InferRequest, RESTConfig

from serve_common import SQUEEZENET, Server, fovea_run

SERVE, FOVEA = sys.argv[1], sys.argv[2]


X = np.random.default_rng(12).standard_normal((1, 3, 224, 224), dtype=np.float32)
REFERENCE = fovea_run(FOVEA, X)


def same_bits(logits):
    return serve_common.same_bits(np.asarray(logits, dtype=np.float32).reshape(REFERENCE.shape), REFERENCE)


async def rest(server, binary):
    client = InferenceRESTClient(config=RESTConfig(protocol="v2"))
    base = f"http://{server.http}"
    assert await client.is_server_ready(base)
    tensor = InferInput("data", list(X.shape), "FP32")
    tensor.set_data_from_numpy(X, binary_data=binary)
    response = await client.infer(base, InferRequest(model_name="squeezenet", infer_inputs=[tensor]), model_name="squeezenet")
    await client.close()
    return response.outputs[0].as_numpy()


async def grpc(server):
    client = InferenceGRPCClient(server.grpc)
    tensor = InferInput("data", list(X.shape), "FP32")
    tensor.set_data_from_numpy(X)
    response = await client.infer(InferRequest(model_name="squeezenet", infer_inputs=[tensor]))
    await client.close()
    return response.outputs[0].as_numpy()


def main():
    passed = failed = 0
    with Server(SERVE, "--model", f"squeezenet={SQUEEZENET}") as server:
        checks = [("kserve_rest_json", lambda: rest(server, False)), ("kserve_rest_binary", lambda: rest(server, True)),
                  ("kserve_grpc", lambda: grpc(server))]
        for name, call in checks:
            try:
                assert same_bits(asyncio.run(call())), "differs from fovea run"
                passed += 1
                print(f"PASS {name}")
            except Exception:
                failed += 1
                print(f"FAIL {name}")
                traceback.print_exc()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
