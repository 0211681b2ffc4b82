#!/usr/bin/env python3
"""NumPy references of the "everyday" section of `make bench`.

Run by build/bench/eh-bench (bench/everyday_cases.c), which first writes
the inputs to --data-dir (raw float32 files and manifest.json, its shapes):
NumPy computes on exactly libeh's inputs.  For each case it saves its result
to <data-dir>/<case>.numpy (raw, the dtype in the JSON) -- the harness
checks libeh's result against it before timing libeh -- then times it as
the C harness does (one warm-up, up to --reps runs, fewer when slow, the
median).  View cases time a loop of --per views and report the time per
view.  Prints one JSON object; a missing NumPy is reported, not fatal.
"""
import argparse
import json
import os
import statistics
import sys
import time


def measure(fn, reps, budget, per=1):
    t0 = time.perf_counter()
    fn()
    warm = time.perf_counter() - t0
    n = reps
    if warm > 0 and warm * reps > budget:
        n = min(reps, max(3, int(budget / warm)))
    times, cpu = [], []
    for _ in range(n):
        c = time.process_time()
        a = time.perf_counter()
        fn()
        times.append((time.perf_counter() - a) / per)
        cpu.append((time.process_time() - c) / per)
    return {"median_s": statistics.median(times), "min_s": min(times), "max_s": max(times),
            "cpu_median_s": statistics.median(cpu), "reps": n, "per": per}


def cases(np, d, n):
    """case id -> (function, items per timed call).  d: the inputs."""
    x, p, m, s = d["x"], d["p"], d["m"], d["s"]
    rng = np.random.default_rng(1)

    def softmax(a):
        e = np.exp(a - a.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def log_softmax(a):
        t = a - a.max(axis=1, keepdims=True)
        return t - np.log(np.exp(t).sum(axis=1, keepdims=True))

    half = x.shape[0] // 2
    x2 = x.reshape(half, 2)
    x3 = x.reshape(1, x.shape[0], 1)
    return {
        "tanh": (lambda: np.tanh(x), 1),
        "sin": (lambda: np.sin(x), 1),
        "exp": (lambda: np.exp(x), 1),
        "log": (lambda: np.log(p), 1),
        "sigmoid": (lambda: 1 / (1 + np.exp(-x)), 1),
        "sqrt": (lambda: np.sqrt(p), 1),
        "sum_axis0": (lambda: m.sum(axis=0), 1),
        "max_all": (lambda: x.max(), 1),
        "argmax_axis1": (lambda: m.argmax(axis=1), 1),
        "softmax": (lambda: softmax(s), 1),
        "log_softmax": (lambda: log_softmax(s), 1),
        "random_normal": (lambda: rng.standard_normal(n, dtype=np.float32), 1),
        "random_uniform": (lambda: rng.random(n, dtype=np.float32), 1),
        "reshape": (lambda: x.reshape(half, 2), 1),
        "expand_dims": (lambda: np.expand_dims(x, 0), 1),
        "squeeze": (lambda: x3.squeeze(), 1),
        "row_slice": (lambda: x2[half // 4:half // 2], 1),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--budget", type=float, default=4.0)
    ap.add_argument("--per", type=int, default=100000)
    args = ap.parse_args()
    out = {"python": sys.version.split()[0], "executable": sys.executable, "numpy": None,
           "missing": {}, "cases": {}}
    try:
        import numpy as np
        out["numpy"] = np.__version__
    except Exception as e:
        out["missing"]["numpy"] = "%s: %s" % (type(e).__name__, e)
        print(json.dumps(out))
        return
    with open(os.path.join(args.data_dir, "manifest.json")) as f:
        manifest = json.load(f)
    d = {name: np.fromfile(os.path.join(args.data_dir, name + ".f32"), dtype=np.float32).reshape(
        spec["shape"]) for name, spec in manifest["arrays"].items()}
    table = cases(np, d, manifest["n"])
    for cid in args.cases.split(","):
        fn, _ = table[cid]
        res = np.asarray(fn())
        view = cid in ("reshape", "expand_dims", "squeeze", "row_slice")
        np.ascontiguousarray(res).tofile(os.path.join(args.data_dir, cid + ".numpy"))
        if view:
            per = args.per

            def loop(fn=fn, per=per):
                for _ in range(per):
                    fn()
            st = measure(loop, args.reps, args.budget, per)
        else:
            st = measure(fn, args.reps, args.budget)
        st["dtype"] = str(res.dtype)
        st["shape"] = list(res.shape)
        st["shares_memory"] = bool(view and np.shares_memory(res, d["x"]))
        out["cases"][cid] = st
    print(json.dumps(out))


if __name__ == "__main__":
    main()
