#!/usr/bin/env python3
"""Small ONNX graphs, one per operator form and per exporter pattern (issue 19,
parts 1 and 3), run in Fovea on every backend and in onnxruntime.

    .build-python/bin/python scripts/ci/onnx-op-check.py [--fovea .build/release/fovea] [--only substring]

Uses the venv scripts/ci/arch-models.sh makes (numpy, onnx, onnxruntime). Every
case is built with onnx.helper, run by onnxruntime (the expected output) and by
`fovea run --backend B --threads 1` for each backend B (nodes B cannot run go to
the reference backend, as in any plan). A float output passes when
max |fovea - ort| <= TOLERANCE * max(|ort|, 1) (the case may loosen it, with
the reason next to it); integer and boolean outputs must be equal. Prints one
line per failure and ends with `N passed, M failed` (a case on one backend
counts once); exits 1 on any failure.
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

# Relative to the output's largest magnitude (at least 1): float32 rounding of
# short chains of elementwise ops, and the backends' vectorized exp/tanh/erf
# (issue 19, part 4: within a few ulp), stay far below it.
TOLERANCE = 1e-4
BACKENDS = ["reference", "simd", "kernels", "blas"]
FLOAT = TensorProto.FLOAT
RNG = np.random.default_rng(19)
ort.set_default_logger_severity(3)  # not the deprecation notes about the opset forms tested on purpose


def rand(*shape, low=-3.0, high=3.0):
    return RNG.uniform(low, high, size=shape).astype(np.float32)


class Case:
    """One graph: nodes over the float input 'x' (and any extra inputs), constants
    as initializers, outputs named in `outputs` with their element types."""

    def __init__(self, name, opset, nodes, inputs, outputs, initializers=(), tolerance=TOLERANCE):
        self.name, self.opset, self.tolerance = name, opset, tolerance
        self.inputs = inputs  # [(name, array)]
        graph_inputs = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
                        for n, a in inputs]
        graph_outputs = [helper.make_tensor_value_info(n, t, None) for n, t in outputs]
        inits = [numpy_helper.from_array(np.asarray(a), n) for n, a in initializers]
        graph = helper.make_graph(nodes, name.replace(" ", "_"), graph_inputs, graph_outputs, inits)
        self.model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        self.model.ir_version = min(self.model.ir_version, 10)  # what onnxruntime reads



def node(op, inputs, outputs, **attrs):
    return helper.make_node(op, inputs, outputs, **attrs)


def unary(op, opset, x=None, name=None, tolerance=TOLERANCE, **attrs):
    x = rand(2, 3, 5, 7) if x is None else x
    return Case(name or f"{op} opset {opset}", opset, [node(op, ["x"], ["y"], **attrs)], [("x", x)], [("y", FLOAT)],
                tolerance=tolerance)


def binary(op, opset, b, name=None, x=None):
    x = rand(2, 3, 5, 7) if x is None else x
    return Case(name or f"{op} opset {opset} b{list(b.shape)}", opset, [node(op, ["x", "b"], ["y"])], [("x", x)],
                [("y", FLOAT)], [("b", b)])


def i64(*values):
    return np.array(values, dtype=np.int64)


# ---------------------------------------------------------------- part 1: operators

def reductions():
    cases = []
    for op in ["ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceL2", "ReduceSumSquare"]:
        # ReduceSum takes axes as an input from opset 13, the others from 18.
        input_from = 13 if op == "ReduceSum" else 18
        for opset in ([11, 13, 18] if op == "ReduceSum" else [13, 18]):
            for axes, keep in [((2, 3), 1), ((1,), 0), ((-1,), 1), (None, 0)]:
                name = f"{op} opset {opset} axes={axes} keepdims={keep}"
                if axes is None:
                    cases.append(Case(name, opset, [node(op, ["x"], ["y"], keepdims=keep)], [("x", rand(2, 3, 4, 5))], [("y", FLOAT)]))
                elif opset >= input_from:
                    cases.append(Case(name, opset, [node(op, ["x", "axes"], ["y"], keepdims=keep)], [("x", rand(2, 3, 4, 5))],
                                      [("y", FLOAT)], [("axes", i64(*axes))]))
                else:
                    cases.append(Case(name, opset, [node(op, ["x"], ["y"], axes=list(axes), keepdims=keep)],
                                      [("x", rand(2, 3, 4, 5))], [("y", FLOAT)]))
    # An empty axes input with noop_with_empty_axes: the identity (opset 18).
    cases.append(Case("ReduceMean opset 18 noop_with_empty_axes", 18,
                      [node("ReduceMean", ["x", "axes"], ["y"], noop_with_empty_axes=1)], [("x", rand(2, 3, 4))],
                      [("y", FLOAT)], [("axes", np.zeros(0, np.int64))]))
    for opset in [11, 13]:
        for axis, keep, last in [(1, 1, 0), (-1, 0, 0), (1, 1, 1)]:
            if last and opset < 12:
                continue  # select_last_index is from ArgMax-12
            x = np.round(rand(2, 5, 4)).astype(np.float32)  # ties, for select_last_index
            attrs = {"select_last_index": last} if opset >= 12 else {}
            cases.append(Case(f"ArgMax opset {opset} axis={axis} keepdims={keep} last={last}", opset,
                              [node("ArgMax", ["x"], ["y"], axis=axis, keepdims=keep, **attrs)],
                              [("x", x)], [("y", TensorProto.INT64)]))
    return cases


def math_ops():
    positive = rand(2, 3, 5, 7, low=0.1, high=4.0)
    cases = [unary(op, 13) for op in ["Exp", "Tanh", "Abs", "Neg", "Floor", "Ceil", "Erf", "Reciprocal"]]
    cases += [unary("Sqrt", 13, positive), unary("Log", 13, positive), unary("Exp", 7, name="Exp opset 7")]
    for exponent in [2.0, 3.0, 0.5, -1.0, 1.7]:
        cases.append(binary("Pow", 13, np.array(exponent, np.float32), name=f"Pow opset 13 x^{exponent}", x=positive))
    cases.append(binary("Pow", 15, rand(1, 3, 1, 1, low=0.5, high=2.0), name="Pow opset 15 broadcast exponent", x=positive))
    cases.append(binary("Pow", 13, np.array(2.0, np.float32), name="Pow opset 13 negative base squared"))
    for op in ["Min", "Max"]:
        cases.append(binary(op, 13, rand(1, 3, 1, 7)))
        cases.append(Case(f"{op} opset 13 three inputs", 13, [node(op, ["x", "a", "b"], ["y"])], [("x", rand(2, 3, 5, 7))],
                          [("y", FLOAT)], [("a", rand(3, 1, 1)), ("b", rand(7))]))
    for op in ["Add", "Sub", "Mul", "Div"]:
        cases.append(binary(op, 14, rand(3, 1, 7, low=0.5, high=2.0)))
    return cases


def activations():
    cases = [unary("Relu", 14), unary("Sigmoid", 13), unary("Softsign", 13),
             unary("Elu", 7, alpha=0.7), unary("Selu", 7), unary("Selu", 7, name="Selu opset 7 alpha/gamma", alpha=1.5, gamma=1.1),
             unary("Celu", 12, alpha=0.8), unary("Softplus", 13),
             unary("Mish", 18), unary("HardSigmoid", 7), unary("HardSigmoid", 13, name="HardSigmoid opset 13 alpha/beta", alpha=0.25, beta=0.4),
             unary("HardSwish", 14), unary("LeakyRelu", 16, alpha=0.1),
             unary("Clip", 7, name="Clip opset 7 attributes", min=-1.0, max=2.0)]
    cases.append(Case("Clip opset 13 min/max inputs", 13, [node("Clip", ["x", "lo", "hi"], ["y"])], [("x", rand(2, 3, 5, 7))],
                      [("y", FLOAT)], [("lo", np.array(0, np.float32)), ("hi", np.array(6, np.float32))]))
    cases.append(Case("Clip opset 13 only max", 13, [node("Clip", ["x", "", "hi"], ["y"])], [("x", rand(2, 3, 5, 7))],
                      [("y", FLOAT)], [("hi", np.array(1, np.float32))]))
    cases.append(binary("PRelu", 16, rand(3, 1, 1, low=0, high=0.5), name="PRelu opset 16 per channel"))
    for approximate in ["none", "tanh"]:
        cases.append(unary("Gelu", 20, name=f"Gelu opset 20 approximate={approximate}", approximate=approximate))
    cases.append(unary("Softmax", 13, axis=1))
    cases.append(unary("LogSoftmax", 13, axis=-1))
    return cases


def normalizations():
    cases = []
    for axis in [-1, 1, 2]:
        x = rand(2, 4, 5, 6)
        shape = x.shape[axis:]
        cases.append(Case(f"LayerNormalization opset 17 axis={axis}", 17,
                          [node("LayerNormalization", ["x", "scale", "bias"], ["y"], axis=axis, epsilon=1e-5)],
                          [("x", x)], [("y", FLOAT)], [("scale", rand(*shape)), ("bias", rand(*shape))]))
    cases.append(Case("LayerNormalization opset 17 no bias", 17, [node("LayerNormalization", ["x", "scale"], ["y"])],
                      [("x", rand(2, 7, 12))], [("y", FLOAT)], [("scale", rand(12))]))
    cases.append(Case("InstanceNormalization opset 7", 7,
                      [node("InstanceNormalization", ["x", "scale", "bias"], ["y"], epsilon=1e-5)],
                      [("x", rand(2, 3, 5, 7))], [("y", FLOAT)], [("scale", rand(3)), ("bias", rand(3))]))
    # GroupNormalization: scale and bias per group at 18, per channel from 21.
    cases.append(Case("GroupNormalization opset 18", 18,
                      [node("GroupNormalization", ["x", "scale", "bias"], ["y"], num_groups=2, epsilon=1e-5)],
                      [("x", rand(2, 6, 5, 7))], [("y", FLOAT)], [("scale", rand(2)), ("bias", rand(2))]))
    cases.append(Case("GroupNormalization opset 21", 21,
                      [node("GroupNormalization", ["x", "scale", "bias"], ["y"], num_groups=3, epsilon=1e-5)],
                      [("x", rand(2, 6, 5, 7))], [("y", FLOAT)], [("scale", rand(6)), ("bias", rand(6))]))
    cases.append(Case("BatchNormalization opset 15", 15,
                      [node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], epsilon=1e-5)],
                      [("x", rand(2, 3, 5, 7))], [("y", FLOAT)],
                      [("s", rand(3)), ("b", rand(3)), ("m", rand(3)), ("v", rand(3, low=0.5, high=2))]))
    return cases


def data_movement():
    x = rand(2, 6, 5, 8)
    cases = [
        Case("Slice opset 13 steps and negative indices", 13, [node("Slice", ["x", "s", "e", "a", "st"], ["y"])], [("x", x)],
             [("y", FLOAT)], [("s", i64(1, -1, 0)), ("e", i64(5, -6, 100)), ("a", i64(1, 2, 3)), ("st", i64(2, -1, 3))]),
        Case("Slice opset 13 no axes", 13, [node("Slice", ["x", "s", "e"], ["y"])], [("x", x)], [("y", FLOAT)],
             [("s", i64(0, 1)), ("e", i64(1, 4))]),
        Case("Slice opset 9 attributes", 9, [node("Slice", ["x"], ["y"], starts=[1], ends=[4], axes=[3])], [("x", x)], [("y", FLOAT)]),
        Case("Split opset 13 split input", 13, [node("Split", ["x", "sp"], ["a", "b"], axis=1), node("Sub", ["a", "b"], ["y"])],
             [("x", rand(2, 6, 5))], [("y", FLOAT)], [("sp", i64(3, 3))]),
        Case("Split opset 13 uneven outputs", 13, [node("Split", ["x", "sp"], ["a", "b"], axis=-1)], [("x", x)],
             [("a", FLOAT), ("b", FLOAT)], [("sp", i64(3, 5))]),
        Case("Split opset 11 attribute", 11, [node("Split", ["x"], ["a", "b", "c"], axis=1, split=[1, 2, 3])], [("x", x)],
             [("a", FLOAT), ("b", FLOAT), ("c", FLOAT)]),
        Case("Split opset 18 num_outputs", 18, [node("Split", ["x"], ["a", "b", "c"], axis=3, num_outputs=3)], [("x", x)],
             [("a", FLOAT), ("b", FLOAT), ("c", FLOAT)]),
        Case("Gather opset 13 axis 1", 13, [node("Gather", ["x", "i"], ["y"], axis=1)], [("x", x)], [("y", FLOAT)],
             [("i", i64(0, 5, -1, 2))]),
        Case("Gather opset 13 scalar index", 13, [node("Gather", ["x", "i"], ["y"], axis=0)], [("x", x)], [("y", FLOAT)],
             [("i", np.array(1, np.int64))]),
        Case("Gather opset 13 2-D indices", 13, [node("Gather", ["x", "i"], ["y"], axis=2)], [("x", x)], [("y", FLOAT)],
             [("i", np.array([[0, 1], [4, -2]], np.int64))]),
        Case("Expand opset 13", 13, [node("Expand", ["x", "s"], ["y"])], [("x", rand(3, 1, 5))], [("y", FLOAT)],
             [("s", i64(2, 1, 4, 1))]),
        Case("Tile opset 13", 13, [node("Tile", ["x", "r"], ["y"])], [("x", rand(2, 3, 4))], [("y", FLOAT)], [("r", i64(1, 2, 3))]),
        Case("Where opset 16 broadcast", 16, [node("Greater", ["x", "t"], ["c"]), node("Where", ["c", "x", "z"], ["y"])],
             [("x", rand(2, 3, 5))], [("y", FLOAT)], [("t", np.array(0.5, np.float32)), ("z", rand(3, 1))]),
        Case("Equal, Less, Not opset 13 bool outputs", 13,
             [node("Equal", ["x", "r"], ["e"]), node("Less", ["x", "t"], ["l"]), node("Not", ["l"], ["n"])],
             [("x", np.round(rand(2, 3, 5)))], [("e", TensorProto.BOOL), ("n", TensorProto.BOOL)],
             [("r", np.round(rand(3, 5))), ("t", np.array(0.0, np.float32))]),
        Case("Cast opset 13 float→int64→float", 13,
             [node("Cast", ["x"], ["i"], to=TensorProto.INT64), node("Cast", ["i"], ["y"], to=FLOAT)],
             [("x", rand(2, 3, 5))], [("y", FLOAT)]),
        Case("Cast opset 13 bool→float", 13,
             [node("Greater", ["x", "t"], ["c"]), node("Cast", ["c"], ["y"], to=FLOAT)],
             [("x", rand(2, 3, 5))], [("y", FLOAT)], [("t", np.array(0, np.float32))]),
        Case("ConstantOfShape + Range opset 11", 11,
             [node("ConstantOfShape", ["s"], ["c"], value=numpy_helper.from_array(np.array([0.5], np.float32))),
              node("Range", ["start", "limit", "delta"], ["r"]), node("Add", ["x", "c"], ["a"]), node("Mul", ["a", "r"], ["y"])],
             [("x", rand(2, 3, 5))], [("y", FLOAT)],
             [("s", i64(2, 3, 5)), ("start", np.array(1.0, np.float32)), ("limit", np.array(3.5, np.float32)),
              ("delta", np.array(0.5, np.float32))]),
        Case("DepthToSpace opset 13 DCR", 13, [node("DepthToSpace", ["x"], ["y"], blocksize=2, mode="DCR")],
             [("x", rand(2, 8, 3, 4))], [("y", FLOAT)]),
        Case("DepthToSpace opset 13 CRD", 13, [node("DepthToSpace", ["x"], ["y"], blocksize=2, mode="CRD")],
             [("x", rand(2, 8, 3, 4))], [("y", FLOAT)]),
        Case("SpaceToDepth opset 13", 13, [node("SpaceToDepth", ["x"], ["y"], blocksize=2)], [("x", rand(2, 3, 4, 6))], [("y", FLOAT)]),
        Case("Transpose opset 13", 13, [node("Transpose", ["x"], ["y"], perm=[0, 2, 3, 1])], [("x", x)], [("y", FLOAT)]),
    ]
    # Mod and ScatterND, as torch.onnx writes Swin-T and ViT-B/16 (zoo check).
    for fmod in [0, 1]:
        cases.append(Case(f"Mod opset 13 int64 fmod={fmod}", 13,
                          [node("Cast", ["x"], ["i"], to=TensorProto.INT64), node("Mod", ["i", "d"], ["y"], fmod=fmod)],
                          [("x", np.round(rand(2, 3, 5, low=-9, high=9)))], [("y", TensorProto.INT64)], [("d", i64(3, -3, 4, -4, 5))]))
    cases.append(binary("Mod", 13, rand(5, low=0.5, high=2), name="Mod opset 13 float fmod=1", x=rand(2, 3, 5)))
    cases[-1].model.graph.node[0].attribute.append(helper.make_attribute("fmod", 1))
    for opset, reduction in [(13, None), (16, "add"), (16, "mul"), (18, "max"), (18, "min")]:
        attrs = {"reduction": reduction} if reduction else {}
        cases.append(Case(f"ScatterND opset {opset} reduction={reduction or 'none'}", opset,
                          [node("ScatterND", ["x", "i", "u"], ["y"], **attrs)], [("x", rand(2, 3, 4))], [("y", FLOAT)],
                          [("i", np.array([[0, 1], [1, 2], [0, 0]], np.int64)), ("u", rand(3, 4))]))
    # Swin-T's padding to a multiple of the window: pads computed from the shape.
    cases.append(Case("Shape→Mod→Pad opset 13 (Swin window padding)", 13,
                      [node("Shape", ["x"], ["s"]), node("Gather", ["s", "three"], ["w"], axis=0), node("Mod", ["w", "win"], ["m"]),
                       node("Sub", ["win", "m"], ["d"]), node("Mod", ["d", "win"], ["r"]), node("Unsqueeze", ["r", "ax"], ["r1"]),
                       node("Concat", ["zeros", "r1"], ["pads"], axis=0), node("Pad", ["x", "pads", "fill"], ["y"])],
                      [("x", rand(1, 2, 3, 5))], [("y", FLOAT)],
                      [("three", np.array(3, np.int64)), ("win", np.array(4, np.int64)), ("ax", i64(0)), ("zeros", np.zeros(7, np.int64)),
                       ("fill", np.array(0, np.float32))]))
    cases.append(Case("Shape→Range opset 13 (computed limit)", 13,
                      [node("Shape", ["x"], ["s"]), node("Gather", ["s", "three"], ["w"], axis=0),
                       node("Range", ["zero", "w", "one"], ["r"]), node("Cast", ["r"], ["rf"], to=FLOAT), node("Add", ["x", "rf"], ["y"])],
                      [("x", rand(1, 2, 3, 5))], [("y", FLOAT)],
                      [("three", np.array(3, np.int64)), ("zero", np.array(0, np.int64)), ("one", np.array(1, np.int64))]))
    # The dynamic-batch shape subgraph exporters write before Flatten/Reshape.
    cases.append(Case("Shape→Gather→Unsqueeze→Concat→Reshape opset 13", 13,
                      [node("Shape", ["x"], ["s"]), node("Gather", ["s", "zero"], ["n"], axis=0),
                       node("Unsqueeze", ["n", "ax"], ["n1"]), node("Concat", ["n1", "minus1"], ["shape"], axis=0),
                       node("Reshape", ["x", "shape"], ["y"])],
                      [("x", x)], [("y", FLOAT)],
                      [("zero", np.array(0, np.int64)), ("ax", i64(0)), ("minus1", i64(-1))]))
    cases.append(Case("Shape→Slice→Concat→Reshape opset 15 (ViT flatten)", 15,
                      [node("Shape", ["x"], ["s"], start=0, end=2), node("Concat", ["s", "minus1"], ["shape"], axis=0),
                       node("Reshape", ["x", "shape"], ["r"]), node("Transpose", ["r"], ["y"], perm=[0, 2, 1])],
                      [("x", x)], [("y", FLOAT)], [("minus1", i64(-1))]))
    return cases


def resizes():
    cases = []
    # 4×6 by scales 2 and 1.5 gives whole output lengths: with a fractional one (5 × 1.5 = 7.5)
    # align_corners differs between onnxruntime (7 - 1 in the denominator) and the ONNX
    # reference implementation and its node tests (7.5 - 1), which Fovea follows.
    x = rand(1, 2, 4, 6)
    roi = np.zeros(0, np.float32)
    for opset in [11, 13, 18, 19]:
        for mode, ctm, nearest in [("nearest", "asymmetric", "floor"), ("nearest", "half_pixel", "round_prefer_floor"),
                                   ("nearest", "align_corners", "round_prefer_ceil"), ("nearest", "tf_half_pixel_for_nn", "ceil"),
                                   ("linear", "half_pixel", None), ("linear", "pytorch_half_pixel", None),
                                   ("linear", "align_corners", None), ("linear", "asymmetric", None),
                                   ("linear", "half_pixel_symmetric", None)]:
            if ctm == "half_pixel_symmetric" and opset < 19:
                continue  # introduced by Resize-19
            if ctm == "tf_half_pixel_for_nn" and opset >= 19:
                continue
            attrs = {"mode": mode, "coordinate_transformation_mode": ctm}
            if nearest:
                attrs["nearest_mode"] = nearest
            for by in ["scales", "sizes"]:
                if by == "scales":
                    extra = [("roi", roi), ("scales", np.array([1, 1, 2.0, 1.5], np.float32))]
                    ins = ["x", "roi", "scales"]
                else:
                    extra = [("roi", roi), ("scales", np.zeros(0, np.float32)), ("sizes", i64(1, 2, 7, 3))]
                    ins = ["x", "roi", "scales", "sizes"]
                cases.append(Case(f"Resize opset {opset} {mode} {ctm} {nearest or ''} by {by}".replace("  ", " "), opset,
                                  [node("Resize", ins, ["y"], **attrs)], [("x", x)], [("y", FLOAT)], extra))
    # half_pixel_symmetric differs from half_pixel only when input × scale is fractional (5 × 1.5).
    for mode in ["linear", "nearest"]:
        cases.append(Case(f"Resize opset 19 {mode} half_pixel_symmetric fractional length", 19,
                          [node("Resize", ["x", "", "scales"], ["y"], mode=mode, coordinate_transformation_mode="half_pixel_symmetric")],
                          [("x", rand(1, 2, 3, 5))], [("y", FLOAT)], [("scales", np.array([1, 1, 1.5, 1.5], np.float32))]))
    # Empty-name optional inputs, as the PyTorch exporter writes Upsample at opset 13+.
    cases.append(Case("Resize opset 13 nearest scales with empty roi name", 13,
                      [node("Resize", ["x", "", "scales"], ["y"], mode="nearest")], [("x", x)], [("y", FLOAT)],
                      [("scales", np.array([1, 1, 2, 2], np.float32))]))
    return cases


# ---------------------------------------------------------------- part 3: exporter patterns

def conv_case(name, activation_nodes, opset=13, out="y", extra_inits=(), tolerance=TOLERANCE):
    """Conv 3→8, 3×3, pad 1, then the activation written on 'c'."""
    inits = [("w", rand(8, 3, 3, 3, low=-0.5, high=0.5)), ("bias", rand(8, low=-0.5, high=0.5))] + list(extra_inits)
    nodes = [node("Conv", ["x", "w", "bias"], ["c"], pads=[1, 1, 1, 1])] + activation_nodes
    return Case(name, opset, nodes, [("x", rand(1, 3, 10, 12))], [(out, FLOAT)], inits, tolerance)


def scalar(value):
    return np.array(value, np.float32)


def silu(x, y, p=""):
    return [node("Sigmoid", [x], [p + "sig"]), node("Mul", [x, p + "sig"], [y])]


def erf_gelu(x, y, p=""):
    # torch.onnx (opset < 20): x * 0.5 * (1 + erf(x / sqrt(2))), in this order.
    return [node("Div", [x, "sqrt2"], [p + "d"]), node("Erf", [p + "d"], [p + "e"]), node("Add", [p + "e", "one"], [p + "a"]),
            node("Mul", [x, p + "a"], [p + "m"]), node("Mul", [p + "m", "half"], [y])]


def tanh_gelu(x, y, p=""):
    # 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))), as torch writes approximate='tanh'.
    return [node("Pow", [x, "three"], [p + "p"]), node("Mul", [p + "p", "c044"], [p + "m1"]), node("Add", [x, p + "m1"], [p + "a1"]),
            node("Mul", [p + "a1", "k"], [p + "m2"]), node("Tanh", [p + "m2"], [p + "t"]), node("Add", [p + "t", "one"], [p + "a2"]),
            node("Mul", [x, "half"], [p + "h"]), node("Mul", [p + "h", p + "a2"], [y])]


def hardswish_written(x, y, p=""):
    # x * relu6(x + 3) / 6 (Keras, tf2onnx and torch before opset 14).
    return [node("Add", [x, "three"], [p + "a"]), node("Clip", [p + "a", "zero", "six"], [p + "c"]),
            node("Mul", [x, p + "c"], [p + "m"]), node("Div", [p + "m", "six"], [y])]


def hardsigmoid_written(x, y, p=""):
    return [node("Add", [x, "three"], [p + "a"]), node("Clip", [p + "a", "zero", "six"], [p + "c"]),
            node("Div", [p + "c", "six"], [y])]


PATTERN_CONSTANTS = [("sqrt2", scalar(math.sqrt(2))), ("one", scalar(1)), ("half", scalar(0.5)), ("three", scalar(3)),
                     ("c044", scalar(0.044715)), ("k", scalar(math.sqrt(2 / math.pi))), ("zero", scalar(0)), ("six", scalar(6))]


def pattern_case(name, nodes, x=None, opset=13, inits=()):
    x = rand(2, 3, 5, 7) if x is None else x
    return Case(name, opset, nodes, [("x", x)], [("y", FLOAT)], PATTERN_CONSTANTS + list(inits))


def patterns():
    cases = [
        pattern_case("pattern x*Sigmoid(x)", silu("x", "y")),
        pattern_case("pattern Sigmoid(x)*x (operands swapped)", [node("Sigmoid", ["x"], ["s"]), node("Mul", ["s", "x"], ["y"])]),
        pattern_case("pattern erf-GELU", erf_gelu("x", "y")),
        pattern_case("pattern erf-GELU (0.5*x first)", [node("Mul", ["x", "half"], ["h"]), node("Div", ["x", "sqrt2"], ["d"]),
                                                        node("Erf", ["d"], ["e"]), node("Add", ["e", "one"], ["a"]),
                                                        node("Mul", ["h", "a"], ["y"])]),
        pattern_case("pattern tanh-GELU", tanh_gelu("x", "y")),
        pattern_case("pattern HardSwish written out", hardswish_written("x", "y")),
        pattern_case("pattern HardSigmoid written out", hardsigmoid_written("x", "y")),
        pattern_case("pattern x*HardSigmoid(x) (HardSwish at opset 13)",
                     [node("HardSigmoid", ["x"], ["h"], alpha=1 / 6, beta=0.5), node("Mul", ["x", "h"], ["y"])]),
    ]
    # LayerNorm over the last axis as torch.onnx writes it at opset 13 and at 18 (axes input).
    for opset in [13, 18]:
        def mean(i, o):
            if opset >= 18:
                return node("ReduceMean", [i, "axes"], [o], keepdims=1)
            return node("ReduceMean", [i], [o], axes=[-1], keepdims=1)
        nodes = [mean("x", "mu"), node("Sub", ["x", "mu"], ["d"]), node("Pow", ["d", "two"], ["sq"]), mean("sq", "var"),
                 node("Add", ["var", "eps"], ["ve"]), node("Sqrt", ["ve"], ["sd"]), node("Div", ["d", "sd"], ["n"]),
                 node("Mul", ["n", "gamma"], ["g"]), node("Add", ["g", "beta"], ["y"])]
        inits = [("two", scalar(2)), ("eps", scalar(1e-6)), ("gamma", rand(12)), ("beta", rand(12))]
        if opset >= 18:
            inits.append(("axes", i64(-1)))
        cases.append(pattern_case(f"pattern decomposed LayerNorm opset {opset}", nodes, x=rand(2, 9, 12), opset=opset, inits=inits))
    # ConvNeXt's channels-first LayerNorm: the same ops over axis 1.
    nodes = [node("ReduceMean", ["x"], ["mu"], axes=[1]), node("Sub", ["x", "mu"], ["d"]), node("Pow", ["d", "two"], ["sq"]),
             node("ReduceMean", ["sq"], ["var"], axes=[1]), node("Add", ["var", "eps"], ["ve"]), node("Sqrt", ["ve"], ["sd"]),
             node("Div", ["d", "sd"], ["y"])]
    cases.append(pattern_case("pattern decomposed LayerNorm over channels", nodes, x=rand(2, 8, 5, 6),
                              inits=[("two", scalar(2)), ("eps", scalar(1e-6))]))
    # Squeeze-and-excitation: GAP → 1×1 conv → activation → 1×1 conv → gate → Mul, with each gate exporters use.
    for act_name, act, gate_name, gate in [
            ("Relu", lambda i, o: [node("Relu", [i], [o])], "Sigmoid", lambda i, o: [node("Sigmoid", [i], [o])]),
            ("SiLU", lambda i, o: silu(i, o, "act_"), "Sigmoid", lambda i, o: [node("Sigmoid", [i], [o])]),
            ("Relu", lambda i, o: [node("Relu", [i], [o])], "HardSigmoid",
             lambda i, o: [node("HardSigmoid", [i], [o], alpha=1 / 6, beta=0.5)])]:
        nodes = ([node("GlobalAveragePool", ["x"], ["p"]), node("Conv", ["p", "w1", "b1"], ["r"])] + act("r", "ra")
                 + [node("Conv", ["ra", "w2", "b2"], ["e"])] + gate("e", "g") + [node("Mul", ["x", "g"], ["y"])])
        cases.append(pattern_case(f"pattern squeeze-and-excitation {act_name}/{gate_name}", nodes, x=rand(2, 16, 6, 7),
                                  inits=[("w1", rand(4, 16, 1, 1, low=-0.5, high=0.5)), ("b1", rand(4)),
                                         ("w2", rand(16, 4, 1, 1, low=-0.5, high=0.5)), ("b2", rand(16))]))
    # Conv followed by each activation.
    simple = {"Relu": {}, "LeakyRelu": {"alpha": 0.1}, "Sigmoid": {}, "Tanh": {}, "Elu": {"alpha": 1.0}, "Selu": {},
              "Celu": {"alpha": 1.0}, "Softplus": {}, "Softsign": {}, "HardSigmoid": {}, "HardSwish": {}, "Mish": {},
              "Erf": {}, "Abs": {}}
    for op, attrs in simple.items():
        opset = 18 if op == "Mish" else 14
        cases.append(conv_case(f"pattern Conv+{op}", [node(op, ["c"], ["y"], **attrs)], opset=opset))
    for approximate in ["none", "tanh"]:
        cases.append(conv_case(f"pattern Conv+Gelu({approximate}) opset 20",
                               [node("Gelu", ["c"], ["y"], approximate=approximate)], opset=20))
    cases.append(conv_case("pattern Conv+Clip(0,6)", [node("Clip", ["c", "zero", "six"], ["y"])], extra_inits=PATTERN_CONSTANTS))
    cases.append(conv_case("pattern Conv+PRelu", [node("PRelu", ["c", "slope"], ["y"])],
                           extra_inits=[("slope", rand(8, 1, 1, low=0, high=0.5))]))
    for name, pattern in [("x*Sigmoid(x)", silu), ("erf-GELU", erf_gelu), ("tanh-GELU", tanh_gelu),
                          ("HardSwish written out", hardswish_written), ("HardSigmoid written out", hardsigmoid_written)]:
        cases.append(conv_case(f"pattern Conv+{name}", pattern("c", "y", "p_"), extra_inits=PATTERN_CONSTANTS))
    # A Conv whose output is also read elsewhere: the activation must not be fused over it.
    cases.append(conv_case("pattern Conv+SiLU with the conv output also a graph output", silu("c", "y"), out="c"))
    return cases


# ---------------------------------------------------------------- quantized operators (issue 32)

def u8(*shape):
    return RNG.integers(0, 256, size=shape).astype(np.uint8)


def s8(*shape):
    return RNG.integers(-128, 128, size=shape).astype(np.int8)


def quantization():
    """QuantizeLinear/DequantizeLinear at each opset form, per tensor and per axis;
    the integer operators on random 8-bit values. All bit-exact against onnxruntime."""
    U8, S8, I32 = TensorProto.UINT8, TensorProto.INT8, TensorProto.INT32
    cases = []
    # Ties: multiples of 0.25 over a 0.5 scale land on halves; large values saturate.
    ties = (RNG.integers(-600, 600, size=(2, 3, 5, 7)) * 0.25).astype(np.float32)
    for opset in (10, 13, 19, 21):
        cases.append(Case(f"QuantizeLinear opset {opset} uint8 per tensor", opset, [node("QuantizeLinear", ["x", "s", "z"], ["y"])],
                          [("x", ties)], [("y", U8)], [("s", np.float32(0.5)), ("z", np.uint8(100))]))
        cases.append(Case(f"DequantizeLinear opset {opset} int8 per tensor", opset, [node("DequantizeLinear", ["x", "s", "z"], ["y"])],
                          [("x", s8(2, 3, 5, 7))], [("y", FLOAT)], [("s", np.float32(0.037)), ("z", np.int8(-3))]))
    for opset in (13, 21):
        cases.append(Case(f"QuantizeLinear opset {opset} int8 per axis", opset,
                          [node("QuantizeLinear", ["x", "s", "z"], ["y"], axis=1)], [("x", rand(2, 3, 5, 7, low=-40, high=40))],
                          [("y", S8)], [("s", np.array([0.1, 0.25, 0.3], np.float32)), ("z", np.array([0, -7, 12], np.int8))]))
        cases.append(Case(f"DequantizeLinear opset {opset} uint8 per axis -1", opset,
                          [node("DequantizeLinear", ["x", "s", "z"], ["y"], axis=-1)], [("x", u8(2, 3, 5, 4))], [("y", FLOAT)],
                          [("s", np.array([0.1, 0.25, 0.3, 2], np.float32)), ("z", np.array([0, 255, 12, 128], np.uint8))]))
    cases.append(Case("QuantizeLinear opset 13 no zero point", 13, [node("QuantizeLinear", ["x", "s"], ["y"])],
                      [("x", ties)], [("y", U8)], [("s", np.float32(0.5))]))
    cases.append(Case("DequantizeLinear opset 13 int32 bias", 13,
                      [node("DequantizeLinear", ["b", "s"], ["d"]), node("Add", ["x", "d"], ["y"])], [("x", rand(2, 5))],
                      [("y", FLOAT)], [("b", np.array([-70000, 3, 0, 12345, 2], np.int32)), ("s", np.float32(0.0013))]))
    cases.append(Case("QuantizeLinear→DequantizeLinear opset 13 (fake quantize)", 13,
                      [node("QuantizeLinear", ["x", "s", "z"], ["q"]), node("DequantizeLinear", ["q", "s", "z"], ["y"])],
                      [("x", rand(2, 3, 5, 7))], [("y", FLOAT)], [("s", np.float32(0.021)), ("z", np.uint8(128))]))
    for name, x in (("random", rand(3, 4, 5)), ("all zero", np.zeros((2, 3), np.float32)), ("positive", rand(7, low=0.5, high=9))):
        cases.append(Case(f"DynamicQuantizeLinear opset 11 {name}", 11, [node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"])],
                          [("x", x)], [("y", U8), ("s", FLOAT), ("z", U8)]))
    conv_attrs = dict(kernel_shape=[3, 3], pads=[1, 0, 2, 1], strides=[2, 1], group=2)
    # int8 weights in 7 bits: on x86 without VNNI onnxruntime multiplies u8 × s8 with vpmaddubsw, whose
    # int16 pair sums saturate (255·127·2 > 32767). With full-range weights it differed from onnx's
    # ReferenceEvaluator by up to 23 steps in 134 of 576 outputs (Zen 3, ort 1.32), where Fovea matched it exactly.
    for wname, w, wz in (("int8 w per channel", (s8(6, 2, 3, 3) // 2).astype(np.int8), np.zeros(6, np.int8)),
                         ("uint8 w", u8(6, 2, 3, 3), np.uint8(131))):
        cases.append(Case(f"QLinearConv opset 10 uint8 x, {wname}", 10,
                          [node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"], **conv_attrs)],
                          [("x", u8(2, 4, 9, 8))], [("y", U8)],
                          [("xs", np.float32(0.05)), ("xz", np.uint8(120)), ("w", w),
                           ("ws", np.array([0.01, 0.02, 0.005, 0.03, 0.011, 0.009], np.float32) if wz.ndim else np.float32(0.013)),
                           ("wz", wz), ("ys", np.float32(0.7)), ("yz", np.uint8(100)),
                           ("b", RNG.integers(-5000, 5000, size=6).astype(np.int32))]))
    cases.append(Case("ConvInteger opset 10 uint8", 10,
                      [node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], dilations=[2, 1])],
                      [("x", u8(2, 3, 7, 6))], [("y", I32)], [("w", u8(5, 3, 3, 3)), ("xz", np.uint8(7)), ("wz", np.uint8(200))]))
    cases.append(Case("ConvInteger opset 10 no zero points", 10, [node("ConvInteger", ["x", "w"], ["y"], kernel_shape=[1, 1])],
                      [("x", u8(1, 3, 4, 4))], [("y", I32)], [("w", u8(2, 3, 1, 1))]))
    cases.append(Case("MatMulInteger opset 10 uint8 × int8, per-column b zero point", 10,
                      [node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])], [("a", u8(2, 5, 7))], [("y", I32)],
                      [("b", s8(7, 3)), ("az", np.uint8(3)), ("bz", np.array([0, -4, 9], np.int8))]))
    cases.append(Case("MatMulInteger opset 10 uint8 × uint8", 10, [node("MatMulInteger", ["a", "b"], ["y"])],
                      [("a", u8(4, 6))], [("y", I32)], [("b", u8(6, 2))]))
    for bname, b, bz in (("uint8", u8(7, 3), np.uint8(114)), ("int8", s8(7, 3), np.int8(0))):
        cases.append(Case(f"QLinearMatMul opset 10 uint8 × {bname}", 10,
                          [node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])],
                          [("a", u8(2, 5, 7))], [("y", U8)],
                          [("as", np.float32(0.0066)), ("az", np.uint8(113)), ("b", b), ("bs", np.float32(0.00705)), ("bz", bz),
                           ("ys", np.float32(0.0107)), ("yz", np.uint8(118))]))
    return cases


# ---------------------------------------------------------------- running

def compare(expected, actual, tolerance):
    if actual.shape != expected.shape:
        return f"shape {list(actual.shape)}, expected {list(expected.shape)}"
    if expected.dtype.kind in "biu":
        if not np.array_equal(actual.astype(expected.dtype), expected):
            return f"{int(np.sum(actual.astype(expected.dtype) != expected))} element(s) differ"
        return None
    if not np.array_equal(np.isnan(actual), np.isnan(expected)):
        return "NaN in different places"
    finite = ~np.isnan(expected)
    error = float(np.max(np.abs(actual[finite].astype(np.float64) - expected[finite]), initial=0))
    bound = tolerance * max(float(np.max(np.abs(expected[finite]), initial=0)), 1.0)
    return None if error <= bound else f"max abs error {error:.3g} > {bound:.3g}"


def run_case(case, fovea, backends, directory):
    """Returns [(backend, error message or None)]."""
    stem = os.path.join(directory, "".join(c if c.isalnum() else "_" for c in case.name))
    model_path = stem + ".onnx"
    onnx.save(case.model, model_path)
    feeds = dict(case.inputs)
    try:
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.log_severity_level = 3  # not the warnings about unused shared constants
        session = ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])
        expected = session.run(None, feeds)
    except Exception as error:  # a case onnxruntime cannot run says so, once
        return [("onnxruntime", f"onnxruntime: {str(error).splitlines()[0]}")]
    input_args = []
    for i, (name, value) in enumerate(case.inputs):
        path = f"{stem}.in{i}.npy"
        np.save(path, value)
        input_args += ["--input", path]
    results = []
    for backend in backends:
        outputs = [f"{stem}.{backend}.out{i}.npy" for i in range(len(expected))]
        command = [fovea, "run", "--model", model_path, *input_args, "--backend", backend, "--threads", "1"]
        for path in outputs:
            command += ["--output", path]
        proc = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            results.append((backend, "fovea: " + (lines[-1] if lines else f"exit {proc.returncode}")))
            continue
        problems = []
        for i, (want, path) in enumerate(zip(expected, outputs)):
            problem = compare(np.asarray(want), np.load(path), case.tolerance)
            if problem:
                problems.append(f"output {i}: {problem}")
        results.append((backend, "; ".join(problems) or None))
    return results


def all_cases():
    return reductions() + math_ops() + activations() + normalizations() + data_movement() + resizes() + patterns() + quantization()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fovea", default=".build/release/fovea")
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (each fovea run uses 1 thread)")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args()
    cases = [c for c in all_cases() if not args.only or args.only.lower() in c.name.lower()]
    if args.list:
        for case in cases:
            print(case.name)
        return
    if not os.access(args.fovea, os.X_OK):
        sys.exit(f"error: {args.fovea} not found: swift build -c release --product fovea")
    backends = args.backends.split(",")
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="onnx-op-check-") as directory:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for case, results in zip(cases, pool.map(lambda c: run_case(c, args.fovea, backends, directory), cases)):
                for backend, problem in results:
                    if problem is None:
                        passed += 1
                    else:
                        failed += 1
                        print(f"FAIL {case.name} [{backend}]: {problem}", flush=True)
    print(f"{len(cases)} graphs on {', '.join(backends)} against onnxruntime {ort.__version__}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
