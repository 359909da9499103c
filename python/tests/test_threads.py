"""Several Python threads share one Session: every result is right, and
the GIL is released while a program runs."""
import threading

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
    path, n = big_matmul
    s = rlx.Session(path)
    x = np.ones((n, n), np.float32)
    s.run({"x": x})
    ticks = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            ticks[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        before = ticks[0]
        (y,) = s.run({"x": x})
        during = ticks[0] - before
    finally:
        stop.set()
        t.join()
    np.testing.assert_array_equal(y, x)
    # with the GIL held for the whole run, the spinning thread would get
    # at most a switch interval's worth of ticks around the call
    assert during > 1000, during
