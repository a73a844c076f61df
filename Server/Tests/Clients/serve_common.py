"""Shared by the client tests: where things are, and starting/stopping fovea-serve on loopback."""
import os
import socket
import subprocess
import tempfile
import time
import urllib.request

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
MODELS = os.path.abspath(os.path.join(ROOT, "..", "shared", "models"))
SQUEEZENET = os.path.join(MODELS, "squeezenet1.1.onnx")
RED_PANDA = os.path.join(MODELS, "photos", "red_panda.jpg")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """fovea-serve on 127.0.0.1 with free HTTP and gRPC ports; use as a context manager."""

    def __init__(self, binary, *args, log=None):
        self.http_port = free_port()
        self.grpc_port = free_port()
        self.command = [binary, "--host", "127.0.0.1", "--http-port", str(self.http_port),
                        "--grpc-port", str(self.grpc_port), *args]
        self.log = log

    @property
    def http(self):
        return f"127.0.0.1:{self.http_port}"

    @property
    def grpc(self):
        return f"127.0.0.1:{self.grpc_port}"

    def __enter__(self):
        out = open(self.log, "w") if self.log else subprocess.DEVNULL
        self.started = time.monotonic()
        self.process = subprocess.Popen(self.command, stdout=out, stderr=out)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"fovea-serve exited with {self.process.returncode}: {' '.join(self.command)}")
            try:
                with urllib.request.urlopen(f"http://{self.http}/v2/health/ready", timeout=1) as response:
                    if response.status == 200:
                        self.startup_seconds = time.monotonic() - self.started
                        return self
            except OSError:
                time.sleep(0.02)
        self.process.kill()
        raise RuntimeError("fovea-serve did not become ready within 60 s")

    def stop(self):
        """SIGTERM, then wait: returns the exit code."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def __exit__(self, *exc):
        self.stop()


def fovea_run(fovea, x):
    """`fovea run` of SqueezeNet 1.1 on one input tensor: the reference output."""
    with tempfile.TemporaryDirectory() as folder:
        np.save(os.path.join(folder, "x.npy"), x)
        subprocess.run([fovea, "run", "--model", SQUEEZENET, "--input", os.path.join(folder, "x.npy"),
                        "--output", os.path.join(folder, "y.npy")], check=True)
        return np.load(os.path.join(folder, "y.npy"))


def same_bits(a, b):
    """Equal float32 tensors, bit for bit."""
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))
