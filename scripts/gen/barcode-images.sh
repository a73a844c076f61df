#!/usr/bin/env bash
# Writes the barcode test images in Tests/FoveaTests/Frames/Barcodes (committed;
# CI does not run this): a QR code, an EAN-13, a Code 128, the EAN-13 stored
# turned a quarter with an EXIF orientation tag, and a picture with no code,
# each on a 400×300 white canvas, plus expected.json: each code's payload and
# the pixel box of its dark modules in the upright image (x, y from the top left).
# Python packages qrcode, python-barcode and Pillow go in .build-barcodes (a venv).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build-barcodes
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check qrcode==8.2 pillow==13.0.0 python-barcode==0.16.1
fi
"$venv/bin/python" - <<'EOF'
import json
import qrcode
import barcode
from barcode.writer import ImageWriter
from PIL import Image, ImageDraw

out = "Tests/FoveaTests/Frames/Barcodes"
W, H = 400, 300

def canvas():
    return Image.new("RGB", (W, H), "white")

def dark_box(img):
    """Box (x, y, width, height) of the dark pixels."""
    gray = img.convert("L").point(lambda v: 255 if v < 128 else 0)
    left, top, right, bottom = gray.getbbox()
    return [left, top, right - left, bottom - top]

def linear(kind, payload):
    code = barcode.get(kind, payload, writer=ImageWriter())
    # No human-readable text under the bars: the box is the bars alone.
    return code, code.render({"module_width": 0.25, "module_height": 12, "quiet_zone": 4, "dpi": 200, "write_text": False}).convert("RGB")

expected = {}

# QR code, 4 pixels per module.
qr = qrcode.QRCode(box_size=4, border=0)
qr.add_data("https://fovea.example/item/42")
qr.make(fit=True)
image = canvas()
image.paste(qr.make_image(fill_color="black", back_color="white").convert("RGB"), (60, 40))
image.save(f"{out}/qr.png", optimize=True)
expected["qr.png"] = {"symbology": "QR", "payload": "https://fovea.example/item/42", "box": dark_box(image)}

# EAN-13 and Code 128.
for name, kind, payload, at in [("ean13.png", "ean13", "4006381333931", (90, 150)), ("code128.png", "code128", "FOVEA-128", (70, 100))]:
    code, bars = linear(kind, payload)
    image = canvas()
    image.paste(bars, at)
    image.save(f"{out}/{name}", optimize=True)
    expected[name] = {"symbology": "EAN13" if kind == "ean13" else "Code128", "payload": code.get_fullcode(), "box": dark_box(image)}

# The EAN-13 image stored turned 90° anticlockwise, with EXIF orientation 6
# (rotate 90° clockwise to display): upright, it is ean13.png.
upright = Image.open(f"{out}/ean13.png")
exif = Image.Exif()
exif[0x0112] = 6
upright.transpose(Image.Transpose.ROTATE_90).save(f"{out}/ean13_exif_rotated.png", exif=exif, optimize=True)
expected["ean13_exif_rotated.png"] = dict(expected["ean13.png"])

# No code: shapes and text.
image = canvas()
draw = ImageDraw.Draw(image)
draw.ellipse((40, 40, 180, 180), outline="black", width=6)
draw.rectangle((220, 60, 360, 240), fill=(90, 120, 200))
draw.text((60, 230), "no barcode here", fill="black")
image.save(f"{out}/no_code.png", optimize=True)
expected["no_code.png"] = None

with open(f"{out}/expected.json", "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")
print(json.dumps(expected, sort_keys=True))
EOF
