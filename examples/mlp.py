#!/usr/bin/env python3
"""mlp.py [EXAMPLES_DIR] [--device DEVICE] - run the MLP example model
(examples/generate.py writes it into <builddir>/examples/mlp) from Python,
check its output against the NumPy reference and time a few runs.

    PYTHONPATH=build/python /usr/bin/python3 examples/mlp.py build/examples
"""
import argparse
import os
import sys
import time

import numpy as np

import rlx


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("examples", nargs="?", default="build/examples",
                    help="the directory generate.py wrote (default: %(default)s)")
    ap.add_argument("--device", default=None,
                    help="a device or backend id (default: the best available)")
    args = ap.parse_args()
    d = os.path.join(args.examples, "mlp")

    print("devices:", ", ".join(f"{x['name']} ({x['backend']})"
                                for x in rlx.devices()))
    try:
        sess = rlx.Session(os.path.join(d, "mlp.yaml"), device=args.device)
    except rlx.Error as e:
        print(f"mlp.py: {e.reason}\nFix: {e.fix}", file=sys.stderr)
        return 1
    print(f"{sess.backend} on {sess.device}: {sess.placement}")
    for t in sess.inputs + sess.outputs:
        print(f"  {t.name}: {t.dtype}{list(t.shape)}")

    x = np.load(os.path.join(d, "x.npy"))
    (probs,) = sess.run({"x": x})
    want = np.load(os.path.join(d, "probs.expected.npy"))
    err = float(np.abs(probs - want).max())
    print(f"classes: {probs.argmax(-1).tolist()}  max |error|: {err:.2e}")
    if err > 1e-4:
        print("mlp.py: the output differs from NumPy's", file=sys.stderr)
        return 1

    t0 = time.perf_counter()
    runs = 20
    for _ in range(runs):
        sess.run({"x": x})
    ms = (time.perf_counter() - t0) * 1e3 / runs
    print(f"{ms:.2f} ms per run ({runs} runs)")
    sess.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
