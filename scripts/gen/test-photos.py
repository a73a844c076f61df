#!/usr/bin/env python3
"""Makes the photos the format tests read (issue 34), from the shared red panda.

    scripts/gen/test-photos.py OUTDIR

Python's standard library writes the PNGs and ICC profiles byte by byte; the
Debian tools make the rest: cjpeg (libjpeg-turbo-progs), avifenc (libavif-bin), heif-enc
(libheif-examples), cwebp and img2webp (webp). Nothing is downloaded. Every
file is written into OUTDIR (the tests use .build/test-photos), with
OUTDIR/manifest.json saying what each one is. Run by the tests themselves.

Two sources:
- the shared red panda (../shared/models/photos/red_panda.224.ppm), cut to
  224x168 so that a rotation shows, in every container;
- a chart of 24 known sRGB colours in 16x16 patches, re-encoded in Display P3
  and tagged as such (ICC profile, or nclx for AVIF), for colour matching.
"""
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.environ.get("FOVEA_SHARED_MODELS", os.path.join(ROOT, "..", "shared", "models"))


# ---------------------------------------------------------------- pictures

def read_ppm(path):
    data = open(path, "rb").read()
    parts = data.split(maxsplit=4)
    assert parts[0] == b"P6" and parts[3] == b"255"
    width, height = int(parts[1]), int(parts[2])
    return width, height, parts[4][: width * height * 3]


def crop(width, height, rgb, new_height):
    top = (height - new_height) // 2
    return width, new_height, rgb[top * width * 3:(top + new_height) * width * 3]


def transformed(width, height, pixels, channels, fn):
    """pixels moved by fn(x, y, width, height) -> (x', y', width', height')."""
    _, _, out_w, out_h = fn(0, 0, width, height)
    out = bytearray(out_w * out_h * channels)
    for y in range(height):
        for x in range(width):
            nx, ny, _, _ = fn(x, y, width, height)
            o, i = (ny * out_w + nx) * channels, (y * width + x) * channels
            out[o:o + channels] = pixels[i:i + channels]
    return out_w, out_h, bytes(out)


def rotate_clockwise(x, y, w, h):  # the picture turned 90 degrees clockwise
    return h - 1 - y, x, h, w


def mirror_left_right(x, y, w, h):
    return w - 1 - x, y, w, h


# ---------------------------------------------------------------- PNG

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(path, width, height, samples, color_type, bit_depth=8, chunks=(), palette=None, trns=None):
    """samples: bytes of packed rows (no filter bytes), big-endian for 16 bits."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    row = width * channels * bit_depth // 8
    raw = b"".join(b"\0" + samples[y * row:(y + 1) * row] for y in range(height))
    out = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0))
    for kind, data in chunks:
        out += png_chunk(kind, data)
    if palette is not None:
        out += png_chunk(b"PLTE", palette)
    if trns is not None:
        out += png_chunk(b"tRNS", trns)
    out += png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b"")
    open(path, "wb").write(out)


def iccp_chunk(profile, name=b"Display P3"):
    return (b"iCCP", name + b"\0\0" + zlib.compress(profile))


def write_ppm(path, width, height, rgb):
    open(path, "wb").write(b"P6\n%d %d\n255\n" % (width, height) + rgb)


# ---------------------------------------------------------------- colour

def srgb_decode(v):
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def srgb_encode(v):
    v = min(1.0, max(0.0, v))
    return v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def apply(m, v):
    return [sum(m[i][k] * v[k] for k in range(3)) for i in range(3)]


def inverse(m):
    a, b, c = m[0]
    d, e, f = m[1]
    g, h, i = m[2]
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


def rgb_to_xyz(primaries, white):
    """The matrix from linear RGB to XYZ for xy primaries and white point."""
    def xyz(x, y):
        return [x / y, 1.0, (1 - x - y) / y]
    columns = [xyz(*p) for p in primaries]
    m = [[columns[j][i] for j in range(3)] for i in range(3)]
    scale = apply(inverse(m), xyz(*white))
    return [[m[i][j] * scale[j] for j in range(3)] for i in range(3)]


D65 = (0.3127, 0.3290)
SRGB_PRIMARIES = [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]
P3_PRIMARIES = [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
SRGB_TO_XYZ = rgb_to_xyz(SRGB_PRIMARIES, D65)
P3_TO_XYZ = rgb_to_xyz(P3_PRIMARIES, D65)
SRGB_TO_P3 = matmul(inverse(P3_TO_XYZ), SRGB_TO_XYZ)


def srgb_to_p3(rgb):
    """An 8-bit sRGB colour as Display P3 (sRGB's curve, P3's primaries), 0...1."""
    linear = apply(SRGB_TO_P3, [srgb_decode(c / 255) for c in rgb])
    return [srgb_encode(c) for c in linear]


def s15(v):
    return struct.pack(">i", int(round(v * 65536)))


def icc_profile(primaries, white, description):
    """A v2 matrix/TRC display profile (PCS XYZ, D50; Bradford-adapted colorants, sRGB tone curve)."""
    bradford = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
    d50 = [0.9642, 1.0, 0.8249]
    wx, wy = white
    source = [wx / wy, 1.0, (1 - wx - wy) / wy]
    cone_s, cone_d = apply(bradford, source), apply(bradford, d50)
    adapt = matmul(inverse(bradford), matmul([[cone_d[i] / cone_s[i] if i == j else 0 for j in range(3)] for i in range(3)], bradford))
    m = matmul(adapt, rgb_to_xyz(primaries, white))
    text = description.encode()

    def xyz_tag(v):
        return b"XYZ \0\0\0\0" + b"".join(s15(c) for c in v)
    curve = b"curv\0\0\0\0" + struct.pack(">I", 1024) + b"".join(
        struct.pack(">H", int(round(srgb_decode(i / 1023) * 65535))) for i in range(1024))
    desc = b"desc\0\0\0\0" + struct.pack(">I", len(text) + 1) + text + b"\0" + b"\0" * 8 + b"\0\0\0" + b"\0" * 67
    cprt = b"text\0\0\0\0" + b"No copyright, generated by scripts/gen/test-photos.py\0"
    tags = [(b"desc", desc), (b"cprt", cprt), (b"wtpt", xyz_tag(d50)),
            (b"rXYZ", xyz_tag([m[0][0], m[1][0], m[2][0]])), (b"gXYZ", xyz_tag([m[0][1], m[1][1], m[2][1]])),
            (b"bXYZ", xyz_tag([m[0][2], m[1][2], m[2][2]])), (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve)]
    offset = 128 + 4 + 12 * len(tags)
    table, body = b"", b""
    for signature, data in tags:
        while len(body) % 4:
            body += b"\0"
        table += signature + struct.pack(">II", offset + len(body), len(data))
        body += data
    size = offset + len(body)
    header = (struct.pack(">I", size) + b"lcms" + struct.pack(">I", 0x02100000) + b"mntrRGB XYZ "
              + struct.pack(">6H", 2026, 12, 7, 0, 0, 0) + b"acsp" + b"APPL" + b"\0" * 4 + b"\0" * 4 + b"\0" * 4
              + b"\0" * 8 + b"\0" * 4 + b"".join(s15(c) for c in d50) + b"lcms" + b"\0" * 44)
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + table + body


# 24 sRGB colours (the ColorChecker's usual sRGB values): all inside P3.
CHART_COLOURS = [
    (115, 82, 68), (194, 150, 130), (98, 122, 157), (87, 108, 67), (133, 128, 177), (103, 189, 170),
    (214, 126, 44), (80, 91, 166), (193, 90, 99), (94, 60, 108), (157, 188, 64), (224, 163, 46),
    (56, 61, 150), (70, 148, 73), (175, 54, 60), (231, 199, 31), (187, 86, 149), (8, 133, 161),
    (243, 243, 242), (200, 200, 200), (160, 160, 160), (122, 122, 121), (85, 85, 85), (52, 52, 52)]
PATCH = 16


def chart(encode, levels):
    """The chart (6 x 4 patches) with each colour encode()d to 0...levels."""
    width, height = 6 * PATCH, 4 * PATCH
    out = []
    for y in range(height):
        for x in range(width):
            colour = encode(CHART_COLOURS[(y // PATCH) * 6 + x // PATCH])
            out.append([int(round(c * levels)) for c in colour])
    return width, height, out


# ---------------------------------------------------------------- JPEG

def jpeg_with_segments(jpeg, segments):
    """Inserts APPn segments (marker byte, payload) right after SOI."""
    return jpeg[:2] + b"".join(b"\xFF" + bytes([m]) + struct.pack(">H", len(p) + 2) + p for m, p in segments) + jpeg[2:]


def icc_app2_segments(profile, pieces):
    size = -(-len(profile) // pieces)
    chunks = [profile[i:i + size] for i in range(0, len(profile), size)]
    return [(0xE2, b"ICC_PROFILE\0" + bytes([k + 1, len(chunks)]) + c) for k, c in enumerate(chunks)]


def exif_app1(orientation):
    tiff = b"MM\0\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    return (0xE1, b"Exif\0\0" + tiff)


# ---------------------------------------------------------------- HEIF boxes

def boxes(data, start, end):
    i = start
    while i + 8 <= end:
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[i + 8:i + 16])[0], 16
        elif size == 0:
            size = end - i
        yield kind, i, header, size
        i += size


def find_box(data, path, start=0, end=None):
    end = len(data) if end is None else end
    kind, rest = path[0], path[1:]
    for k, at, header, size in boxes(data, start, end):
        if k == kind:
            body = at + header + (4 if k in (b"meta", b"iloc", b"ipma", b"iinf", b"pitm", b"iref") else 0)
            return (at, header, size) if not rest else find_box(data, rest, body, at + size)
    raise KeyError(kind)


def add_transforms(heif, properties):
    """A HEIF with extra transformative properties (irot, imir boxes) on its
    primary item, in order: ipco grows, ipma gains the associations, the box
    sizes above them and every iloc offset behind them are moved."""
    data = bytearray(heif)
    ipco_at, ipco_header, ipco_size = find_box(data, [b"meta", b"iprp", b"ipco"])
    count = sum(1 for _ in boxes(data, ipco_at + ipco_header, ipco_at + ipco_size))
    new_props = b"".join(struct.pack(">I4s", 8 + len(p), k) + p for k, p in properties)
    ipma_at, ipma_header, ipma_size = find_box(data, [b"meta", b"iprp", b"ipma"])
    version, flags = data[ipma_at + 8], int.from_bytes(data[ipma_at + 9:ipma_at + 12], "big")
    assert flags & 1 == 0 and version == 0, "ipma with 15-bit indices or 32-bit ids"
    entries = struct.unpack(">I", data[ipma_at + 12:ipma_at + 16])[0]
    # The primary item is the first (heif-enc writes one image item).
    i = ipma_at + 16
    assert entries >= 1
    i += 2
    association_count_at = i
    n = data[i]
    insert_at = i + 1 + n
    associations = bytes(0x80 | (count + 1 + k) for k in range(len(properties)))
    grow_ipma, grow_ipco = len(associations), len(new_props)
    data[association_count_at] = n + len(properties)
    data[insert_at:insert_at] = associations
    data[ipco_at + ipco_size:ipco_at + ipco_size] = new_props
    grow = grow_ipma + grow_ipco
    for path, extra in ((["meta", "iprp", "ipco"], grow_ipco), (["meta", "iprp", "ipma"], grow_ipma),
                        (["meta", "iprp"], grow), (["meta"], grow)):
        at, _, size = find_box(bytes(heif), [p.encode() for p in path])
        # A box behind ipco has moved by what ipco gained.
        if at > ipco_at + ipco_size - 1 and path[-1] != "ipco" and at > ipco_at:
            at += grow_ipco
        data[at:at + 4] = struct.pack(">I", size + extra)
    # iloc: every extent in the file (construction method 0) moves by `grow`.
    iloc_at, iloc_header, _ = find_box(bytes(data), [b"meta", b"iloc"])
    version = data[iloc_at + 8]
    i = iloc_at + 12
    offset_size, length_size = data[i] >> 4, data[i] & 15
    base_size, index_size = data[i + 1] >> 4, (data[i + 1] & 15 if version in (1, 2) else 0)
    i += 2
    items = struct.unpack(">H", data[i:i + 2])[0] if version < 2 else struct.unpack(">I", data[i:i + 4])[0]
    i += 2 if version < 2 else 4

    def move(at, size):
        if size:
            value = int.from_bytes(data[at:at + size], "big")
            data[at:at + size] = (value + grow).to_bytes(size, "big")
    for _ in range(items):
        i += 2 if version < 2 else 4
        method = 0
        if version in (1, 2):
            method = int.from_bytes(data[i:i + 2], "big") & 15
            i += 2
        i += 2  # data reference index
        base_at = i
        i += base_size
        extents = struct.unpack(">H", data[i:i + 2])[0]
        i += 2
        if method == 0 and base_size:
            move(base_at, base_size)
        for _ in range(extents):
            i += index_size
            if method == 0 and not base_size:
                move(i, offset_size)
            i += offset_size + length_size
    return bytes(data)


def box(kind, body):
    return struct.pack(">I4s", 8 + len(body), kind) + body


def full_box(kind, version, flags, body):
    return box(kind, struct.pack(">I", (version << 24) | flags) + body)


def single_item(heif):
    """The coded data and the hvcC, ispe and colr property boxes of a HEIF
    holding one image item (as heif-enc writes it)."""
    ipco_at, ipco_header, ipco_size = find_box(heif, [b"meta", b"iprp", b"ipco"])
    properties = {k: heif[at:at + size] for k, at, _, size in boxes(heif, ipco_at + ipco_header, ipco_at + ipco_size)}
    iloc_at, _, _ = find_box(heif, [b"meta", b"iloc"])
    version = heif[iloc_at + 8]
    assert version in (0, 1), "iloc version"
    i = iloc_at + 12
    offset_size, length_size, base_size = heif[i] >> 4, heif[i] & 15, heif[i + 1] >> 4
    index_size = heif[i + 1] & 15 if version == 1 else 0
    i += 2
    items = struct.unpack(">H", heif[i:i + 2])[0]
    assert items == 1, "one item"
    i += 2 + 2 + (2 if version == 1 else 0) + 2
    base = int.from_bytes(heif[i:i + base_size], "big") if base_size else 0
    i += base_size
    extents = struct.unpack(">H", heif[i:i + 2])[0]
    i += 2
    data = b""
    for _ in range(extents):
        i += index_size
        offset = int.from_bytes(heif[i:i + offset_size], "big")
        length = int.from_bytes(heif[i + offset_size:i + offset_size + length_size], "big")
        data += heif[base + offset:base + offset + length]
        i += offset_size + length_size
    return data, properties[b"hvcC"], properties[b"ispe"], properties.get(b"colr")


def grid_heif(tiles, rows, columns, width, height):
    """A HEIC whose primary item is a `grid` of hidden hvc1 tiles, as an
    iPhone writes its photos (heif-enc 1.15 cannot write one): `tiles` are
    single-image HEICs of one size, row by row; the grid declares rows x
    columns and an output of width x height (a hostile grid declares more
    tiles than it references)."""
    parts = [single_item(t) for t in tiles]
    grid_id = len(parts) + 1
    # Properties: each tile's hvcC, the tiles' ispe, the grid's ispe, its colr.
    properties = [hvcc for _, hvcc, _, _ in parts] + [parts[0][2], full_box(b"ispe", 0, 0, struct.pack(">II", width, height))]
    colr = parts[0][3]
    if colr is not None:
        properties.append(colr)
    tile_ispe, grid_ispe = len(parts) + 1, len(parts) + 2
    associations = [(n + 1, [0x80 | (n + 1), tile_ispe]) for n in range(len(parts))]
    associations.append((grid_id, [grid_ispe] + ([0x80 | (grid_ispe + 1)] if colr is not None else [])))
    ipma = struct.pack(">I", len(associations)) + b"".join(
        struct.pack(">HB", item, len(props)) + bytes(props) for item, props in associations)
    infes = [full_box(b"infe", 2, 1, struct.pack(">HH4s", n + 1, 0, b"hvc1") + b"\0") for n in range(len(parts))]
    infes.append(full_box(b"infe", 2, 0, struct.pack(">HH4s", grid_id, 0, b"grid") + b"\0"))
    grid_data = struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)
    payloads = [data for data, _, _, _ in parts] + [grid_data]
    ftyp = box(b"ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heic")

    def meta(mdat_start):
        extents, offset = [], mdat_start
        for n, payload in enumerate(payloads):
            extents.append(struct.pack(">HHHII", n + 1, 0, 1, offset, len(payload)))
            offset += len(payload)
        iloc = full_box(b"iloc", 0, 0, bytes([0x44, 0x00]) + struct.pack(">H", len(payloads)) + b"".join(extents))
        return full_box(b"meta", 0, 0, b"".join([
            full_box(b"hdlr", 0, 0, struct.pack(">I4s12s", 0, b"pict", b"\0" * 12) + b"\0"),
            full_box(b"pitm", 0, 0, struct.pack(">H", grid_id)),
            full_box(b"iinf", 0, 0, struct.pack(">H", len(infes)) + b"".join(infes)),
            full_box(b"iref", 0, 0, box(b"dimg", struct.pack(">HH", grid_id, len(parts)) +
                                             b"".join(struct.pack(">H", n + 1) for n in range(len(parts))))),
            box(b"iprp", box(b"ipco", b"".join(properties)) + full_box(b"ipma", 0, 0, ipma)),
            iloc]))
    mdat_start = len(ftyp) + len(meta(0)) + 8
    return ftyp + meta(mdat_start) + box(b"mdat", b"".join(payloads))


def set_nclx(heif, primaries, transfer):
    """The colr nclx box's colour primaries and transfer characteristics set (same size)."""
    data = bytearray(heif)
    at = data.find(b"colrnclx")
    assert at >= 0, "no colr nclx box"
    data[at + 8:at + 12] = struct.pack(">HH", primaries, transfer)
    return bytes(data)


def set_ispe(heif, width, height):
    """Every ispe box declares width x height (a hostile header)."""
    data = bytearray(heif)
    at = 0
    while True:
        at = data.find(b"ispe", at)
        if at < 0:
            return bytes(data)
        data[at + 8:at + 16] = struct.pack(">II", width, height)
        at += 4


# ---------------------------------------------------------------- main

def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for tool in ("cjpeg", "heif-enc", "avifenc", "cwebp", "img2webp"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is missing: scripts/ci/install-deps.sh installs it")
    manifest = {}

    def path(name):
        return os.path.join(out, name)

    # The red panda, 224x168, upright: the reference every container must give back.
    w, h, rgb = crop(*read_ppm(os.path.join(MODELS, "photos", "red_panda.224.ppm")), 168)
    write_ppm(path("panda.ppm"), w, h, rgb)
    write_png(path("panda.png"), w, h, rgb, 2)
    manifest["panda.png"] = "8-bit RGB PNG, the reference"
    wide = b"".join(struct.pack(">H", v * 257) for v in rgb)
    write_png(path("panda-16bit.png"), w, h, wide, 2, 16)
    manifest["panda-16bit.png"] = "16-bit RGB PNG"
    run("cjpeg", "-quality", "95", "-sample", "1x1", "-outfile", path("panda.jpg"), path("panda.ppm"))
    run("cjpeg", "-quality", "95", "-progressive", "-outfile", path("panda-progressive.jpg"), path("panda.ppm"))
    run("cjpeg", "-quality", "95", "-arithmetic", "-outfile", path("panda-arithmetic.jpg"), path("panda.ppm"))
    manifest.update({"panda.jpg": "baseline JPEG q95 4:4:4", "panda-progressive.jpg": "progressive JPEG",
                     "panda-arithmetic.jpg": "arithmetic-coded JPEG"})

    run("heif-enc", "-q", "90", "-p", "chroma=444", "-o", path("panda.heic"), path("panda.png"))
    run("heif-enc", "-q", "90", "-b", "10", "-p", "chroma=444", "-o", path("panda-10bit.heic"), path("panda-16bit.png"))
    run("heif-enc", "-q", "90", "-o", path("panda.avif"), path("panda.png"))
    # 10-bit AVIF through libavif's avifenc (heif-enc 1.15 makes aom 3.6 assert in
    # write_color_config when it asks for one); quantizer 0-10 of 63, 4:4:4.
    run("avifenc", "-d", "10", "-y", "444", "--min", "0", "--max", "10", path("panda-16bit.png"), path("panda-10bit.avif"))
    manifest.update({"panda.heic": "8-bit HEIC 4:4:4", "panda-10bit.heic": "10-bit HEIC", "panda.avif": "8-bit AVIF",
                     "panda-10bit.avif": "10-bit AVIF 4:4:4 (avifenc)"})

    # A grid (tiled) HEIC as iPhones write them: 2x2 hidden tiles of 128x96,
    # the edge tiles padded by repeating the last column and row, cropped by
    # the grid's output size back to 224x168.
    tile_w, tile_h, tiles = 128, 96, []
    for row in range(2):
        for column in range(2):
            pixels = bytearray()
            for y in range(tile_h):
                sy = min(row * tile_h + y, h - 1)
                for x in range(tile_w):
                    sx = min(column * tile_w + x, w - 1)
                    pixels += rgb[(sy * w + sx) * 3:(sy * w + sx) * 3 + 3]
            write_png(path("tmp.tile.png"), tile_w, tile_h, bytes(pixels), 2)
            run("heif-enc", "-q", "90", "-p", "chroma=444", "-o", path("tmp.tile.heic"), path("tmp.tile.png"))
            tiles.append(open(path("tmp.tile.heic"), "rb").read())
    open(path("panda-grid.heic"), "wb").write(grid_heif(tiles, 2, 2, w, h))
    manifest["panda-grid.heic"] = "HEIC grid of 2x2 hidden 128x96 tiles cropped to 224x168, as iPhones write"

    # Stored turned and mirrored, with irot (90 degrees anticlockwise) then imir
    # (left-right) to show it upright. The stored pixels are the upright ones
    # mirrored, then turned clockwise, so that irot then imir undo it.
    sw, sh, stored = transformed(*transformed(w, h, rgb, 3, mirror_left_right), 3, rotate_clockwise)
    write_ppm(path("stored.ppm"), sw, sh, stored)
    run("cjpeg", "-quality", "95", "-sample", "1x1", "-outfile", path("stored.jpg"), path("stored.ppm"))
    stored_jpeg = open(path("stored.jpg"), "rb").read()
    # EXIF orientation 6 inside, as an iPhone writes it next to the container's transform.
    open(path("stored-exif6.jpg"), "wb").write(jpeg_with_segments(stored_jpeg, [exif_app1(6)]))
    # imir axis 1: left-right as libheif reads it (0 is top-bottom; the wording
    # of ISO/IEC 23008-12 has been read both ways).
    transforms = [(b"irot", bytes([1])), (b"imir", bytes([1]))]
    for name, source, bits in (("panda-irot-imir.heic", "stored.ppm", 8), ("panda-irot-imir-exif.heic", "stored-exif6.jpg", 8)):
        src = path(source)
        if source.endswith(".ppm"):
            write_png(path("stored.png"), sw, sh, stored, 2)
            src = path("stored.png")
        run("heif-enc", "-q", "90", "-p", "chroma=444", "-o", path("tmp.heic"), src)
        open(path(name), "wb").write(add_transforms(open(path("tmp.heic"), "rb").read(), transforms))
    # 10 bits with irot only: libheif 1.15 cannot mirror images deeper than 8 bits.
    rw, rh, rotated = transformed(w, h, rgb, 3, rotate_clockwise)
    write_png(path("stored-16bit.png"), rw, rh, b"".join(struct.pack(">H", v * 257) for v in rotated), 2, 16)
    run("heif-enc", "-q", "90", "-b", "10", "-p", "chroma=444", "-o", path("tmp.heic"), path("stored-16bit.png"))
    open(path("panda-10bit-irot.heic"), "wb").write(add_transforms(open(path("tmp.heic"), "rb").read(), transforms[:1]))
    manifest.update({"panda-irot-imir.heic": "HEIC stored turned and mirrored, irot 90 + imir",
                     "panda-irot-imir-exif.heic": "the same with EXIF orientation 6 inside (must not be applied)",
                     "panda-10bit-irot.heic": "10-bit HEIC stored turned, irot 90"})

    # WebP: lossy, lossless, alpha, animated.
    run("cwebp", "-quiet", "-q", "90", path("panda.png"), "-o", path("panda.webp"))
    run("cwebp", "-quiet", "-lossless", path("panda.png"), "-o", path("panda-lossless.webp"))
    alpha = bytes(a for y in range(h) for x in range(w) for a in (*rgb[(y * w + x) * 3:(y * w + x) * 3 + 3], (x * 255) // (w - 1)))
    write_png(path("panda-alpha.png"), w, h, alpha, 6)
    run("cwebp", "-quiet", "-lossless", "-exact", path("panda-alpha.png"), "-o", path("panda-alpha.webp"))
    run("heif-enc", "-q", "90", "-p", "chroma=444", "-o", path("panda-alpha.heic"), path("panda-alpha.png"))
    grey = bytes([128] * (w * h * 3))
    write_png(path("grey.png"), w, h, grey, 2)
    run("img2webp", "-lossless", path("panda.png"), "-d", "100", path("grey.png"), "-o", path("panda-animated.webp"))
    manifest.update({"panda.webp": "lossy WebP q90", "panda-lossless.webp": "lossless WebP",
                     "panda-alpha.png": "RGBA PNG, alpha ramps 0 (left) to 255 (right)",
                     "panda-alpha.webp": "lossless WebP with that alpha", "panda-alpha.heic": "HEIC with that alpha",
                     "panda-animated.webp": "animated WebP: the panda, then grey"})

    # PNG transparency: palette + tRNS, grey + alpha.
    palette = bytes(c for i in range(4) for c in (i * 80, 255 - i * 80, 40))
    indices = bytes((x // 4) % 4 for y in range(8) for x in range(16))
    write_png(path("palette-trns.png"), 16, 8, indices, 3, palette=palette, trns=bytes([0, 85, 170, 255]))
    grey_alpha = bytes(v for y in range(8) for x in range(16) for v in (200, x * 17))
    write_png(path("grey-alpha.png"), 16, 8, grey_alpha, 4)
    manifest.update({"palette-trns.png": "palette PNG, tRNS alphas 0, 85, 170, 255", "grey-alpha.png": "grey 200, alpha 17x"})

    # Colour: the chart in Display P3, tagged.
    p3 = icc_profile(P3_PRIMARIES, D65, "Display P3 (scripts/gen/test-photos.py)")
    open(path("display-p3.icc"), "wb").write(p3)
    cw, ch, chart8 = chart(srgb_to_p3, 255)
    _, _, chart16 = chart(srgb_to_p3, 65535)
    _, _, chart_srgb = chart(lambda c: [v / 255 for v in c], 255)
    flat8 = bytes(v for px in chart8 for v in px)
    flat16 = b"".join(struct.pack(">H", v) for px in chart16 for v in px)
    write_ppm(path("chart-srgb.ppm"), cw, ch, bytes(v for px in chart_srgb for v in px))
    write_ppm(path("chart-p3-raw.ppm"), cw, ch, flat8)
    write_png(path("chart-p3-raw.png"), cw, ch, flat8, 2)
    write_png(path("chart-p3.png"), cw, ch, flat8, 2, chunks=[iccp_chunk(p3)])
    write_png(path("chart-p3-16bit.png"), cw, ch, flat16, 2, 16, chunks=[iccp_chunk(p3)])
    write_ppm(path("chart-p3.ppm"), cw, ch, flat8)
    run("cjpeg", "-quality", "98", "-sample", "1x1", "-outfile", path("tmp.jpg"), path("chart-p3.ppm"))
    open(path("chart-p3.jpg"), "wb").write(jpeg_with_segments(open(path("tmp.jpg"), "rb").read(), icc_app2_segments(p3, 3)))
    run("heif-enc", "-q", "95", "-b", "10", "-p", "chroma=444", "-o", path("chart-p3-10bit.heic"), path("chart-p3-16bit.png"))
    # heif-enc 1.15 writes nclx 2/2/6 whatever --colour_primaries says: set
    # primaries 12 (Display P3) and transfer 13 (sRGB) in the colr box itself.
    run("heif-enc", "-q", "95", "-o", path("tmp.avif"), path("chart-p3-raw.png"))
    open(path("chart-p3-nclx.avif"), "wb").write(set_nclx(open(path("tmp.avif"), "rb").read(), 12, 13))
    run("cwebp", "-quiet", "-lossless", "-metadata", "icc", path("chart-p3.png"), "-o", path("chart-p3.webp"))
    manifest.update({"display-p3.icc": "Display P3 ICC profile (v2, matrix/TRC)",
                     "chart-srgb.ppm": "24 sRGB colours, 16x16 patches: the expected values",
                     "chart-p3-raw.ppm": "the same colours in Display P3 values: what --color-matching off gives",
                     "chart-p3.png": "P3 chart, iCCP", "chart-p3-16bit.png": "16-bit P3 chart, iCCP",
                     "chart-p3.jpg": "P3 chart JPEG q98 4:4:4, ICC split over 3 APP2 markers",
                     "chart-p3-10bit.heic": "10-bit HEIC, colr ICC", "chart-p3-nclx.avif": "AVIF, colr nclx 12/13/6 (no ICC)",
                     "chart-p3.webp": "lossless WebP, ICCP"})

    # The panda in Display P3 (16-bit values, tagged), as an iPhone stores it: a 10-bit HEIC and a PNG.
    table = {}
    p3_wide = bytearray()
    for i in range(0, len(rgb), 3):
        key = rgb[i:i + 3]
        if key not in table:
            table[key] = b"".join(struct.pack(">H", int(round(v * 65535))) for v in srgb_to_p3(key))
        p3_wide += table[key]
    write_png(path("panda-p3-16bit.png"), w, h, bytes(p3_wide), 2, 16, chunks=[iccp_chunk(p3)])
    run("heif-enc", "-q", "90", "-b", "10", "-p", "chroma=444", "-o", path("panda-p3.heic"), path("panda-p3-16bit.png"))
    manifest.update({"panda-p3-16bit.png": "the panda in Display P3, 16-bit PNG with iCCP",
                     "panda-p3.heic": "the panda in Display P3, 10-bit HEIC with colr ICC"})

    # Hostile files.
    hostile = {}
    for name in ("panda.heic", "panda.avif", "panda.webp", "panda-animated.webp"):
        data = open(path(name), "rb").read()
        cut = "cut-" + name
        open(path(cut), "wb").write(data[:len(data) // 2])
        hostile[cut] = "the first half of " + name
    open(path("huge-ispe.heic"), "wb").write(set_ispe(open(path("panda.heic"), "rb").read(), 12000, 12000))
    hostile["huge-ispe.heic"] = "declares 12000x12000 (144 megapixels)"
    open(path("grid-missing-tiles.heic"), "wb").write(grid_heif(tiles, 3, 3, 3 * 128, 3 * 96))
    hostile["grid-missing-tiles.heic"] = "a grid declaring 3x3 tiles that references 4"
    webp = bytearray(open(path("panda-lossless.webp"), "rb").read())
    lossless_at = webp.find(b"VP8L")
    # VP8L header: 14-bit width-1 and height-1 after the signature byte 0x2f.
    bits = int.from_bytes(webp[lossless_at + 9:lossless_at + 13], "little")
    bits = (bits & ~((1 << 28) - 1)) | (16383) | (16383 << 14)
    webp[lossless_at + 9:lossless_at + 13] = bits.to_bytes(4, "little")
    open(path("huge-canvas.webp"), "wb").write(bytes(webp))
    hostile["huge-canvas.webp"] = "lossless WebP declaring 16384x16384"
    garbage = bytes((i * 73 + 11) % 256 for i in range(3000))
    write_png(path("corrupt-iccp.png"), w, h, rgb, 2, chunks=[iccp_chunk(garbage, b"junk")])
    write_png(path("enormous-iccp.png"), w, h, rgb, 2, chunks=[iccp_chunk(b"\0" * (64 << 20), b"huge")])
    segments = icc_app2_segments(p3, 3)
    open(path("missing-app2.jpg"), "wb").write(jpeg_with_segments(open(path("panda.jpg"), "rb").read(), segments[:2]))
    hostile.update({"corrupt-iccp.png": "iCCP of junk bytes", "enormous-iccp.png": "iCCP inflating to 64 MB",
                    "missing-app2.jpg": "ICC profile in 3 APP2 pieces, one missing"})
    manifest["hostile"] = hostile
    for name in os.listdir(out):
        if name.startswith(("tmp.", "stored")):
            os.remove(path(name))
    json.dump(manifest, open(path("manifest.json"), "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
