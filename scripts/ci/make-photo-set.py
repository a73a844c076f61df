#!/usr/bin/env python3
"""Makes a photo collection for the large-collection tests from the shared photos
(../shared/models/photos; nothing is downloaded): crops, mirror flips, small
rotations and re-encodes (JPEG at several qualities, PNG) of the four photos,
seeded, so the same COUNT gives the same files.

    make-photo-set.py OUT_DIR COUNT

Writes OUT_DIR/photos/... and OUT_DIR/manifest.txt, one path per line: the
COUNT photos, some in a folder with a space and names with non-ASCII letters,
plus one blank line and one path that does not exist (line 3 and line 7), so a
run has COUNT + 1 results of which one is an error. Needs Pillow.
"""
import os
import random
import sys

from PIL import Image, ImageOps

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PHOTOS = os.path.join(ROOT, "..", "shared", "models", "photos")
SOURCES = ["red_panda.jpg", "rocket.jpg", "coffee.png", "chelsea_cat.png"]
# Folders and name stems, some with spaces and non-ASCII letters.
FOLDERS = ["plain", "with space", "crème brûlée", "日本"]
STEMS = ["photo", "café photo", "fotografía", "фото"]


def variant(image, rng):
    width, height = image.size
    scale = rng.uniform(0.6, 1.0)
    w, h = max(32, int(width * scale)), max(32, int(height * scale))
    x, y = rng.randint(0, width - w), rng.randint(0, height - h)
    out = image.crop((x, y, x + w, y + h))
    if rng.random() < 0.5:
        out = ImageOps.mirror(out)
    if rng.random() < 0.3:
        out = out.rotate(rng.uniform(-10, 10), resample=Image.BILINEAR, expand=False)
    if rng.random() < 0.3:
        factor = rng.uniform(0.5, 1.5)
        out = out.resize((max(32, int(out.width * factor)), max(32, int(out.height * factor))), Image.BILINEAR)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(35)
    sources = [Image.open(os.path.join(PHOTOS, name)).convert("RGB") for name in SOURCES]
    for folder in FOLDERS:
        os.makedirs(os.path.join(out, "photos", folder), exist_ok=True)
    paths = []
    for i in range(count):
        image = variant(sources[i % len(sources)], rng)
        folder = FOLDERS[i % len(FOLDERS)]
        stem = STEMS[(i // len(FOLDERS)) % len(STEMS)]
        if rng.random() < 0.25:
            path = os.path.join(out, "photos", folder, f"{stem} {i:05d}.png")
            image.save(path)
        else:
            path = os.path.join(out, "photos", folder, f"{stem} {i:05d}.jpg")
            image.save(path, quality=rng.choice([60, 75, 90, 95]))
        paths.append(os.path.abspath(path))
    lines = paths[:2] + [""] + paths[2:5] + [os.path.abspath(os.path.join(out, "photos", "missing photo.jpg"))] + paths[5:]
    with open(os.path.join(out, "manifest.txt"), "w", encoding="utf-8") as manifest:
        manifest.write("".join(line + "\n" for line in lines))
    print(f"{count} photos and manifest.txt ({len(lines)} lines) in {out}")


if __name__ == "__main__":
    main()
