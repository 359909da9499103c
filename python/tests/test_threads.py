"""Several Python threads share one Session: every result is right, and
the GIL is released while a program runs."""
import threading
import time

import numpy as np

import rlx


def test_threads_share_a_session(onnx_model):
    path, W, B = onnx_model
    s = rlx.Session(path)
    errors = []

    def worker(k):
        try:
            for i in range(200):
                n = 1 + (k + i) % 4
                x = np.full((n, 3), k + i / 10, np.float32)
                y, z = s.run({"x": x})
                np.testing.assert_allclose(y, np.maximum(x @ W + B, 0),
                                           rtol=1e-6)
                np.testing.assert_array_equal(z, x * 2)
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_gil_released_while_running(big_matmul):
    """A thread stamping the clock keeps stamping in the middle of a run:
    with the GIL held for the whole run it could only stamp before the
    run and after it returns."""
    path, n = big_matmul
    s = rlx.Session(path, device="cpu-ref")  # slow enough to watch
    x = np.ones((n, n), np.float32)
    s.run({"x": x})
    stamps = []
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            stamps.append(time.perf_counter())

    t = threading.Thread(target=spin)
    t.start()
    try:
        time.sleep(0.01)
        t0 = time.perf_counter()
        (y,) = s.run({"x": x})
        t1 = time.perf_counter()
    finally:
        stop.set()
        t.join()
    np.testing.assert_array_equal(y, x)
    lo, hi = t0 + (t1 - t0) * 0.25, t0 + (t1 - t0) * 0.75
    inside = sum(1 for v in stamps if lo <= v <= hi)
    assert inside > 0, f"no stamps during a {1e3 * (t1 - t0):.0f} ms run"
