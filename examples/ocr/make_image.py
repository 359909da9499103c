#!/usr/bin/python3
"""make_image.py - render the OCR example's test image (text.pgm).

Run once by hand; its output is committed so the demo needs no fonts or
PIL: `/usr/bin/python3 examples/ocr/make_image.py examples/ocr/text.pgm`.
Needs python3-pil and fonts-dejavu-core (Debian). The text is what the
demo must print back.
"""
import sys

from PIL import Image, ImageDraw, ImageFont

LINES = ["Hello from rlx", "ONNX runs here 2026"]
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "text.pgm"
    font = ImageFont.truetype(FONT, 30)
    img = Image.new("L", (400, 128), 255)
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(LINES):
        draw.text((24, 18 + 52 * i), line, fill=0, font=font)
    img.save(out, format="PPM")  # "L" images are written as binary PGM (P5)


if __name__ == "__main__":
    main()
