#!/usr/bin/env python3
"""ocr.py - read the text in an image with PP-OCRv4 through rlx for Python:
the detector finds the lines, each line is cropped and read by the
recogniser, and the text is printed, one line per box in reading order.
The same pipeline as rlx-ocr (ocr.c and its helpers; README.md), with
NumPy doing the array work around the two networks.

    python3 examples/ocr/ocr.py [--device D] [--models DIR] IMAGE.pgm|ppm

DIR holds ch_PP-OCRv4_det_infer.onnx, ch_PP-OCRv4_rec_infer.onnx and
ppocr_keys_v1.txt (scripts/ocr-models.sh fetches them and prints DIR);
its default is $RLX_OCR_MODELS.
"""
import argparse
import functools
import os
import sys

import numpy as np

import rlx

DET_LIMIT = 960  # the detector's longest side, PaddleOCR's default
REC_HEIGHT = 48


def read_pnm(path):
    """A binary PGM (P5) or PPM (P6) with maxval 255, as uint8 [H, W, C]."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while pos < len(data) and data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while end < len(data) and not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    magic, w, h, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
    if magic not in (b"P5", b"P6") or maxval != 255:
        sys.exit(f"ocr.py: {path}: not a binary PGM/PPM with maxval 255. "
                 "Fix: convert it, e.g. with ImageMagick: convert IN -depth 8 OUT.ppm")
    c = 1 if magic == b"P5" else 3
    px = np.frombuffer(data, np.uint8, w * h * c, pos + 1)
    return px.reshape(h, w, c)


def to_chw(img, x0, y0, w, h, ow, oh, mean, std):
    """Region (x0, y0, w, h) of IMG resized bilinearly to (ow, oh), pixel
    centres aligned as OpenCV's INTER_LINEAR, normalised, as [1, 3, oh, ow]."""
    ih, iw, c = img.shape
    fy = (np.arange(oh, dtype=np.float32) + 0.5) * (h / oh) - 0.5
    fx = (np.arange(ow, dtype=np.float32) + 0.5) * (w / ow) - 0.5
    iy, ix = np.floor(fy).astype(np.int64), np.floor(fx).astype(np.int64)
    dy, dx = (fy - iy)[:, None, None], (fx - ix)[None, :, None]
    ys = [np.clip(y0 + iy + k, 0, ih - 1) for k in (0, 1)]
    xs = [np.clip(x0 + ix + k, 0, iw - 1) for k in (0, 1)]
    src = img.astype(np.float32)
    if c == 1:
        src = np.repeat(src, 3, axis=2)
    v = ((1 - dy) * ((1 - dx) * src[ys[0]][:, xs[0]] + dx * src[ys[0]][:, xs[1]]) +
         dy * ((1 - dx) * src[ys[1]][:, xs[0]] + dx * src[ys[1]][:, xs[1]]))
    v = (v / 255.0 - np.asarray(mean, np.float32)) / np.asarray(std, np.float32)
    return np.ascontiguousarray(v.transpose(2, 0, 1)[None], dtype=np.float32)


def det_size(width, height):
    ratio = min(1.0, DET_LIMIT / max(width, height))
    # C's lround: halves away from zero
    w = int(np.floor(width * ratio / 32.0 + 0.5)) * 32
    h = int(np.floor(height * ratio / 32.0 + 0.5)) * 32
    return max(w, 32), max(h, 32)


def find_boxes(prob, img_w, img_h, thresh=0.3, box_thresh=0.6, unclip=1.5, min_size=3):
    """DB's boxes: 8-connected components of prob > thresh whose mean
    probability is at least box_thresh, grown by the unclip margin and
    scaled to the image, in reading order (ocr_boxes.c)."""
    h, w = prob.shape
    mask = prob > thresh
    seen = np.zeros_like(mask)
    boxes = []
    for start in np.flatnonzero(mask):
        if seen.flat[start]:
            continue
        stack, pixels, total = [start], 0, 0.0
        seen.flat[start] = True
        x0, y0, x1, y1 = w, h, -1, -1
        while stack:
            p = stack.pop()
            py, px = divmod(int(p), w)
            total += float(prob[py, px])
            pixels += 1
            x0, x1, y0, y1 = min(x0, px), max(x1, px), min(y0, py), max(y1, py)
            for qy in range(max(py - 1, 0), min(py + 2, h)):
                for qx in range(max(px - 1, 0), min(px + 2, w)):
                    if mask[qy, qx] and not seen[qy, qx]:
                        seen[qy, qx] = True
                        stack.append(qy * w + qx)
        bw, bh = x1 - x0 + 1, y1 - y0 + 1
        score = total / pixels
        if min(bw, bh) < min_size or score < box_thresh:
            continue
        d = bw * bh * unclip / (2.0 * (bw + bh))
        sx, sy = img_w / w, img_h / h
        boxes.append((int(np.clip(int((x0 - d) * sx), 0, img_w)),
                      int(np.clip(int((y0 - d) * sy), 0, img_h)),
                      int(np.clip(int((x1 + 1 + d) * sx + 0.999), 0, img_w)),
                      int(np.clip(int((y1 + 1 + d) * sy + 0.999), 0, img_h)),
                      score))

    def order(a, b):  # same line when the centres are within half a height
        ca, cb = (a[1] + a[3]) // 2, (b[1] + b[3]) // 2
        half = min(a[3] - a[1], b[3] - b[1]) // 2
        if ca + half < cb:
            return -1
        if cb + half < ca:
            return 1
        return (a[0] > b[0]) - (a[0] < b[0])
    return sorted(boxes, key=functools.cmp_to_key(order))


def ctc_decode(scores, chars):
    """Greedy CTC: the best class per step, repeats collapsed, blanks (0)
    dropped; returns (text, mean score of the kept steps)."""
    best = scores.argmax(axis=1)
    keep = (best != 0) & np.concatenate(([True], best[1:] != best[:-1]))
    keep &= best <= len(chars)
    text = "".join(chars[c - 1] for c in best[keep])
    conf = float(scores[np.arange(len(best)), best][keep].mean()) if keep.any() else 0.0
    return text, conf


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("image")
    ap.add_argument("--device", default=None)
    ap.add_argument("--models", default=os.environ.get("RLX_OCR_MODELS"))
    a = ap.parse_args()
    if not a.models:
        sys.exit("ocr.py: no model directory (--models or RLX_OCR_MODELS). "
                 "Fix: --models $(bash scripts/ocr-models.sh)")
    with open(os.path.join(a.models, "ppocr_keys_v1.txt"), encoding="utf-8") as f:
        chars = [line.rstrip("\r\n") for line in f] + [" "]  # + the space class
    img = read_pnm(a.image)
    ih, iw = img.shape[:2]
    # the models' sides are symbolic (and cannot be 1): each Session
    # compiles for a first real shape, then again (cached) for each shape
    # it is fed, a crop of another width
    dw, dh = det_size(iw, ih)
    det = rlx.Session(os.path.join(a.models, "ch_PP-OCRv4_det_infer.onnx"), device=a.device,
                      shapes={"x": (1, 3, dh, dw)})
    rec = rlx.Session(os.path.join(a.models, "ch_PP-OCRv4_rec_infer.onnx"), device=a.device,
                      shapes={"x": (1, 3, REC_HEIGHT, 320)})
    print(f"ocr.py: running on {det.backend}", file=sys.stderr)

    x = to_chw(img, 0, 0, iw, ih, dw, dh, (0.485, 0.456, 0.406), (0.229, 0.224, 0.225))
    (prob,) = det.run({det.inputs[0].name: x}, outputs=[det.outputs[0].name])
    boxes = find_boxes(prob[0, 0], iw, ih)
    for i, (x0, y0, x1, y1, score) in enumerate(boxes):
        bw, bh = x1 - x0, y1 - y0
        rw = max(16, ((REC_HEIGHT * bw + bh - 1) // bh + 7) // 8 * 8)
        crop = to_chw(img, x0, y0, bw, bh, rw, REC_HEIGHT, (0.5,) * 3, (0.5,) * 3)
        (scores,) = rec.run({rec.inputs[0].name: crop}, outputs=[rec.outputs[0].name])
        if scores.shape[2] != len(chars) + 1:
            sys.exit(f"ocr.py: the recogniser scores {scores.shape[2]} classes, the "
                     f"character list has {len(chars)} (+ blank). Fix: use the list "
                     "that comes with the model")
        text, conf = ctc_decode(scores[0], chars)
        print(text)
        print(f"ocr.py: box {i} at ({x0},{y0})-({x1},{y1}), detector {score:.2f}, "
              f"recogniser {conf:.2f}", file=sys.stderr)
    if not boxes:
        print("ocr.py: no text found", file=sys.stderr)


if __name__ == "__main__":
    main()
