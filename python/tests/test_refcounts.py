"""10,000 runs leave reference counts, live objects and memory flat."""
import gc
import sys

import numpy as np

import rlx


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


def test_refcounts_flat_over_10000_runs(onnx_model):
    s = rlx.Session(onnx_model[0])
    x = np.ones((2, 3), np.float32)
    feeds = {"x": x}
    listed = [1.0, 2.0, 3.0]
    for _ in range(200):  # warm up caches and the allocator
        s.run(feeds)
        s.run({"x": [listed, listed]}, outputs=["z"])
    gc.collect()
    refs = (sys.getrefcount(x), sys.getrefcount(feeds), sys.getrefcount(s),
            sys.getrefcount(listed))
    objects = len(gc.get_objects())
    rss = rss_kib()
    for i in range(10000):
        y, z = s.run(feeds)
        (z,) = s.run({"x": [listed, listed]}, outputs=["z"])
        if i % 1000 == 0:
            try:
                s.run({"x": x.astype(np.float64)})
            except rlx.DtypeError:
                pass
    del y, z
    gc.collect()
    assert (sys.getrefcount(x), sys.getrefcount(feeds), sys.getrefcount(s),
            sys.getrefcount(listed)) == refs
    assert abs(len(gc.get_objects()) - objects) < 50
    assert rss_kib() - rss < 4096, "RSS grew by more than 4 MiB"
    if hasattr(sys, "gettotalrefcount"):  # a debug build of Python
        total = sys.gettotalrefcount()
        for _ in range(1000):
            s.run(feeds)
        assert sys.gettotalrefcount() - total < 100


def test_sessions_freed(mlp):
    rss = None
    for i in range(300):
        s = rlx.Session(mlp[0])
        s.run({"x": np.zeros((4, 3), np.float32)})
        del s
        if i == 50:
            gc.collect()
            rss = rss_kib()
    gc.collect()
    assert rss_kib() - rss < 8192
