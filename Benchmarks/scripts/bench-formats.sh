#!/usr/bin/env bash
# Decode and colour-matching cost per photo format at the model's input size
# (issue 34): the shared red panda's 224x224 crop as JPEG, PNG, HEIC (8 and
# 10 bit), AVIF and WebP, in sRGB (no profile) and in Display P3 (tagged: ICC,
# or nclx for AVIF), each measured by `fovea bench-photo` (stages "decode",
# colours matched, and "decode-raw", --color-matching off) with SqueezeNet 1.1.
# The formats are measured alternately, ROUNDS times; the table gives each
# one's median over the rounds of bench-photo's medians (CPU ms of the process).
#   Benchmarks/scripts/bench-formats.sh [OUTDIR]     FOVEA=path/to/fovea ROUNDS=3 RUNS=30
# Build fovea in release first (swift build -c release --product fovea).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.build/bench-formats}
fovea=${FOVEA:-.build/release/fovea}
rounds=${ROUNDS:-3}
runs=${RUNS:-30}
model=${FOVEA_SHARED_MODELS:-$PWD/../shared/models}/squeezenet1.1.onnx
mkdir -p "$out"

python3 - "$out" <<'EOF'
import importlib.util, os, struct, subprocess, sys
spec = importlib.util.spec_from_file_location("test_photos", "scripts/gen/test-photos.py")
tp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tp)
out = sys.argv[1]
p = lambda name: os.path.join(out, name)
w, h, rgb = tp.read_ppm(os.path.join(tp.MODELS, "photos", "red_panda.224.ppm"))
profile = tp.icc_profile(tp.P3_PRIMARIES, tp.D65, "Display P3")
table = {}
p3 = bytearray()
for i in range(0, len(rgb), 3):
    key = rgb[i:i + 3]
    if key not in table:
        table[key] = [int(round(v * 65535)) for v in tp.srgb_to_p3(key)]
    p3 += b"".join(struct.pack(">H", v) for v in table[key])
p3_8 = bytes(int(round(int.from_bytes(p3[i:i + 2], "big") / 257)) for i in range(0, len(p3), 2))
tp.write_ppm(p("srgb.ppm"), w, h, rgb)
tp.write_ppm(p("p3.ppm"), w, h, p3_8)
tp.write_png(p("srgb.png"), w, h, rgb, 2)
tp.write_png(p("p3.png"), w, h, p3_8, 2, chunks=[tp.iccp_chunk(profile)])
tp.write_png(p("p3-untagged.png"), w, h, p3_8, 2)
tp.write_png(p("p3-16bit.png"), w, h, bytes(p3), 2, 16, chunks=[tp.iccp_chunk(profile)])
run = lambda *c: subprocess.run(c, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
run("cjpeg", "-quality", "90", "-outfile", p("srgb.jpg"), p("srgb.ppm"))
run("cjpeg", "-quality", "90", "-outfile", p("tmp.jpg"), p("p3.ppm"))
open(p("p3.jpg"), "wb").write(tp.jpeg_with_segments(open(p("tmp.jpg"), "rb").read(), tp.icc_app2_segments(profile, 1)))
run("heif-enc", "-q", "90", "-o", p("srgb.heic"), p("srgb.png"))
run("heif-enc", "-q", "90", "-b", "10", "-o", p("p3-10bit.heic"), p("p3-16bit.png"))
run("heif-enc", "-q", "90", "-o", p("srgb.avif"), p("srgb.png"))
run("heif-enc", "-q", "90", "-o", p("tmp.avif"), p("p3-untagged.png"))
open(p("p3-nclx.avif"), "wb").write(tp.set_nclx(open(p("tmp.avif"), "rb").read(), 12, 13))
run("cwebp", "-quiet", "-q", "90", p("srgb.png"), "-o", p("srgb.webp"))
run("cwebp", "-quiet", "-q", "90", "-metadata", "icc", p("p3.png"), "-o", p("p3.webp"))
EOF

files=(srgb.jpg p3.jpg srgb.png p3.png p3-16bit.png srgb.heic p3-10bit.heic srgb.avif p3-nclx.avif srgb.webp p3.webp)
results="$out/results.txt"
: > "$results"
for round in $(seq "$rounds"); do
  for f in "${files[@]}"; do
    "$fovea" bench-photo --model "$model" --runs "$runs" --warmup 3 "$out/$f" |
      awk -v f="$f" '$1 == "decode" || $1 == "decode-raw" { print f, $1, $2, $3 }' >> "$results"
  done
done
python3 - "$results" "${files[@]}" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
print("| file | decode, matched (ms CPU) | decode, --color-matching off (ms CPU) | colour matching (ms) |")
print("| --- | ---: | ---: | ---: |")
for f in sys.argv[2:]:
    cpu = lambda stage: statistics.median(float(r[3]) for r in rows if r[0] == f and r[1] == stage)
    matched, raw = cpu("decode"), cpu("decode-raw")
    print(f"| {f} | {matched:.3f} | {raw:.3f} | {matched - raw:+.3f} |")
EOF
