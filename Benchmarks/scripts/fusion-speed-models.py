"""Writes the speed-check graphs of issue 19 into OUT_DIR (not run by CI):

  ew_<Op>.onnx      one elementwise operator on 1x64x512x512 (64 MiB in and out, past a 32 MiB L3):
                    fovea bench --model OUT_DIR/ew_Exp.onnx --layers --backends simd,kernels --threads 1
  net_silu.onnx     EfficientNet-style MBConv blocks at 112x112, SiLU as x*Sigmoid(x), squeeze-and-excitation
  net_gelu.onnx     ConvNeXt-style blocks at 112x112 (7x7 depthwise, 1x1 convs), erf GELU written out
  net_layernorm.onnx  transformer MLP blocks on 196 tokens of 384, LayerNorm and GELU written out (opset 13)

usage: python3 Benchmarks/scripts/fusion-speed-models.py OUT_DIR   (needs numpy and onnx; compare with onnxruntime through
       ../shared/tools/ratio_ort.py .build/release/fovea OUT_DIR/net_silu.onnx kernels,simd,blas 1)
"""
import sys, numpy as np, onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh

out = sys.argv[1]
rng = np.random.default_rng(0)
def init(name, array): return nh.from_array(np.asarray(array, dtype=np.float32), name)
def save(name, nodes, inits, in_shape, out_name, out_shape, opset=17):
    g = h.make_graph(nodes, name, [h.make_tensor_value_info("x", T.FLOAT, in_shape)],
                     [h.make_tensor_value_info(out_name, T.FLOAT, out_shape)], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8 if opset <= 17 else 9
    onnx.checker.check_model(m)
    onnx.save(m, f"{out}/{name}.onnx")

# 1. One elementwise operator per model on 1x64x512x512 (64 MiB in, 64 MiB out: twice the 32 MiB L3).
big = [1, 64, 512, 512]
unary = {"Exp": {}, "Log": {}, "Tanh": {}, "Erf": {}, "Sigmoid": {}, "Relu": {}, "Abs": {}, "Neg": {}, "Floor": {},
         "Ceil": {}, "Sqrt": {}, "Reciprocal": {}, "Softplus": {}, "Softsign": {}, "Elu": {"alpha": 1.0},
         "Selu": {}, "Celu": {"alpha": 1.0}, "Mish": {}, "HardSigmoid": {}, "HardSwish": {}}
for op, attrs in unary.items():
    save(f"ew_{op}", [h.make_node(op, ["x"], ["y"], **attrs)], [], big, "y", big, opset=18)
save("ew_Gelu", [h.make_node("Gelu", ["x"], ["y"])], [], big, "y", big, opset=20)
save("ew_GeluTanh", [h.make_node("Gelu", ["x"], ["y"], approximate="tanh")], [], big, "y", big, opset=20)
save("ew_SiLU", [h.make_node("Sigmoid", ["x"], ["s"]), h.make_node("Mul", ["x", "s"], ["y"])], [], big, "y", big)
save("ew_Pow2", [h.make_node("Pow", ["x", "two"], ["y"])], [init("two", 2.0)], big, "y", big)
save("ew_AddBias", [h.make_node("Add", ["x", "b"], ["y"])], [init("b", rng.standard_normal([1, 64, 1, 1]))], big, "y", big)
save("ew_MulScalar", [h.make_node("Mul", ["x", "b"], ["y"])], [init("b", 0.5)], big, "y", big)
save("ew_LayerNorm", [h.make_node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1)],
     [init("g", rng.standard_normal([512])), init("b", rng.standard_normal([512]))], big, "y", big)

# 2. SiLU network: EfficientNet-style MBConv blocks at 112x112, SiLU written as x * Sigmoid(x), with SE.
def conv(nodes, inits, x, cin, cout, k, name, group=1, stride=1):
    w = init(f"{name}_w", rng.standard_normal([cout, cin // group, k, k]) * (1.0 / np.sqrt(cin // group * k * k)))
    b = init(f"{name}_b", rng.standard_normal([cout]) * 0.1)
    inits += [w, b]
    nodes.append(h.make_node("Conv", [x, w.name, b.name], [name], kernel_shape=[k, k], pads=[k // 2] * 4,
                             strides=[stride, stride], group=group))
    return name
def silu(nodes, x, name):
    nodes += [h.make_node("Sigmoid", [x], [name + "_s"]), h.make_node("Mul", [x, name + "_s"], [name])]
    return name
def gelu(nodes, inits, x, name):
    inits += [init(name + "_r2", 1.4142135381698608), init(name + "_one", 1.0), init(name + "_half", 0.5)]
    nodes += [h.make_node("Div", [x, name + "_r2"], [name + "_d"]), h.make_node("Erf", [name + "_d"], [name + "_e"]),
              h.make_node("Add", [name + "_e", name + "_one"], [name + "_a"]), h.make_node("Mul", [x, name + "_a"], [name + "_m"]),
              h.make_node("Mul", [name + "_m", name + "_half"], [name])]
    return name
nodes, inits = [], []
x = silu(nodes, conv(nodes, inits, "x", 3, 32, 3, "stem"), "stem_act")
for i in range(3):
    e = silu(nodes, conv(nodes, inits, x, 32, 96, 1, f"b{i}_expand"), f"b{i}_expand_act")
    d = silu(nodes, conv(nodes, inits, e, 96, 96, 3, f"b{i}_dw", group=96), f"b{i}_dw_act")
    p = f"b{i}_pool"; nodes.append(h.make_node("GlobalAveragePool", [d], [p]))
    r = silu(nodes, conv(nodes, inits, p, 96, 8, 1, f"b{i}_se1"), f"b{i}_se1_act")
    g = f"b{i}_gate"; nodes.append(h.make_node("Sigmoid", [conv(nodes, inits, r, 8, 96, 1, f"b{i}_se2")], [g]))
    s = f"b{i}_scaled"; nodes.append(h.make_node("Mul", [d, g], [s]))
    pr = conv(nodes, inits, s, 96, 32, 1, f"b{i}_project")
    nodes.append(h.make_node("Add", [x, pr], [f"b{i}_out"])); x = f"b{i}_out"
save("net_silu", nodes, inits, [1, 3, 112, 112], x, [1, 32, 112, 112], opset=13)

# 3. GELU network: ConvNeXt-style pointwise/depthwise blocks at 112x112 with erf GELU written out.
nodes, inits = [], []
x = conv(nodes, inits, "x", 3, 32, 3, "stem")
for i in range(3):
    d = conv(nodes, inits, x, 32, 32, 7, f"g{i}_dw", group=32)
    e = gelu(nodes, inits, conv(nodes, inits, d, 32, 128, 1, f"g{i}_expand"), f"g{i}_gelu")
    pr = conv(nodes, inits, e, 128, 32, 1, f"g{i}_project")
    nodes.append(h.make_node("Add", [x, pr], [f"g{i}_out"])); x = f"g{i}_out"
save("net_gelu", nodes, inits, [1, 3, 112, 112], x, [1, 32, 112, 112], opset=13)

# 4. LayerNorm network: transformer MLP blocks over 196 tokens of 384 (2-D), LayerNorm and GELU written out.
nodes, inits = [], []
x = "x"
for i in range(3):
    n = f"l{i}"
    inits += [init(n + "_two", 2.0), init(n + "_eps", 1e-6), init(n + "_g", 1 + 0.1 * rng.standard_normal([384])),
              init(n + "_b", 0.1 * rng.standard_normal([384])),
              init(n + "_w1", rng.standard_normal([384, 1536]) / np.sqrt(384)), init(n + "_b1", 0.1 * rng.standard_normal([1536])),
              init(n + "_w2", rng.standard_normal([1536, 384]) / np.sqrt(1536)), init(n + "_b2", 0.1 * rng.standard_normal([384]))]
    nodes += [h.make_node("ReduceMean", [x], [n + "_m"], axes=[-1]), h.make_node("Sub", [x, n + "_m"], [n + "_d"]),
              h.make_node("Pow", [n + "_d", n + "_two"], [n + "_p"]), h.make_node("ReduceMean", [n + "_p"], [n + "_v"], axes=[-1]),
              h.make_node("Add", [n + "_v", n + "_eps"], [n + "_ve"]), h.make_node("Sqrt", [n + "_ve"], [n + "_s"]),
              h.make_node("Div", [n + "_d", n + "_s"], [n + "_n"]), h.make_node("Mul", [n + "_n", n + "_g"], [n + "_ng"]),
              h.make_node("Add", [n + "_ng", n + "_b"], [n + "_ln"]),
              h.make_node("MatMul", [n + "_ln", n + "_w1"], [n + "_h0"]), h.make_node("Add", [n + "_h0", n + "_b1"], [n + "_h"])]
    a = gelu(nodes, inits, n + "_h", n + "_gelu")
    nodes += [h.make_node("MatMul", [a, n + "_w2"], [n + "_o0"]), h.make_node("Add", [n + "_o0", n + "_b2"], [n + "_o"]),
              h.make_node("Add", [x, n + "_o"], [n + "_out"])]
    x = n + "_out"
save("net_layernorm", nodes, inits, [196, 384], x, [196, 384], opset=13)
print("ok")
