#!/usr/bin/env python3
"""NumPy and numexpr references for the libeh section of `make bench`.

Run by build/bench/eh-bench (bench/libeh_cases.c); prints one JSON object on
stdout.  Timing matches the C harness: one warm-up run, then up to --reps
timed runs (fewer, but at least 3, when one run is slower than
--budget / --reps), each timed in-process with time.perf_counter; the
median is reported.  A missing module is reported in the JSON, never as a
failure, so the harness can skip that column with a note.

Cases (float32, on the C side's inputs: with --data-dir, x.f32 and y.f32
written there by the harness, and this script's results saved next to them
as <case>.numpy for the harness to check libeh against):
  chain  sqrt(abs(tanh((x - m) / s) * 3 + 1)), x uniform in [-3, 3)
  add    x + y, x uniform in [-3, 3), y uniform in [0, 1)
  sum    sum(y), y uniform in [0, 1)
"""
import os
import argparse
import json
import platform
import statistics
import sys
import time


def measure(fn, reps, budget):
    t0 = time.perf_counter()
    fn()  # warm-up
    warm = time.perf_counter() - t0
    n = reps
    if warm > 0 and warm * reps > budget:
        n = max(3, int(budget / warm))
        n = min(n, reps)
    times, cpu = [], []
    for _ in range(n):
        c = time.process_time()
        a = time.perf_counter()
        fn()
        times.append(time.perf_counter() - a)
        cpu.append(time.process_time() - c)
    return {
        "median_s": statistics.median(times),
        "cpu_median_s": statistics.median(cpu),
        "min_s": min(times),
        "max_s": max(times),
        "reps": n,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--budget", type=float, default=4.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--m", type=float, default=0.5)
    ap.add_argument("--s", type=float, default=1.5)
    ap.add_argument("--cases", default="chain,add,sum")
    ap.add_argument("--data-dir", default=None)
    args = ap.parse_args()
    cases = set(args.cases.split(","))

    out = {
        "python": platform.python_version(),
        "executable": sys.executable,
        "numpy": None,
        "numexpr": None,
        "numexpr_threads": None,
        "numexpr_vml": None,
        "missing": {},
        "cases": {},
    }
    try:
        import numpy as np
        out["numpy"] = np.__version__
    except Exception as e:  # ImportError, or a broken install
        out["missing"]["numpy"] = "%s: %s" % (type(e).__name__, e)
        print(json.dumps(out))
        return
    ne = None
    try:
        import numexpr
        ne = numexpr
        out["numexpr"] = ne.__version__
        ne.set_num_threads(args.threads)
        out["numexpr_threads"] = args.threads
        out["numexpr_vml"] = bool(getattr(ne, "use_vml", False))
    except Exception as e:
        out["missing"]["numexpr"] = "%s: %s" % (type(e).__name__, e)

    def save(name, value):
        if args.data_dir:
            np.ascontiguousarray(value).tofile(os.path.join(args.data_dir, name + ".numpy"))

    if args.data_dir:
        x = np.fromfile(os.path.join(args.data_dir, "x.f32"), dtype=np.float32)
        y = np.fromfile(os.path.join(args.data_dir, "y.f32"), dtype=np.float32)
    else:
        rng = np.random.default_rng(0)
        x = (rng.random(args.n, dtype=np.float32) * 6 - 3).astype(np.float32)
        y = rng.random(args.n, dtype=np.float32)
    m = np.float32(args.m)
    s = np.float32(args.s)

    if "chain" in cases:
        res = {}

        def np_chain():
            return np.sqrt(np.abs(np.tanh((x - m) / s) * 3 + 1))

        r = np_chain()
        assert r.dtype == np.float32, r.dtype
        save("chain", r)
        res["numpy"] = measure(np_chain, args.reps, args.budget)
        # tanh alone: how much of the chain it is (for the report's reasons)
        res["numpy_tanh"] = measure(lambda: np.tanh(x), args.reps, args.budget)
        if ne is not None:
            expr = "sqrt(abs(tanh((x - m) / s) * 3 + 1))"
            local = {"x": x, "m": m, "s": s}

            def ne_chain():
                return ne.evaluate(expr, local_dict=local)

            rn = ne_chain()
            res["numexpr_dtype"] = str(rn.dtype)
            res["numexpr_max_abs_diff"] = float(np.max(np.abs(rn.astype(np.float64) - r)))
            res["numexpr"] = measure(ne_chain, args.reps, args.budget)
        out["cases"]["chain"] = res

    if "add" in cases:
        def np_add():
            return np.add(x, y)

        save("add", np_add())
        out["cases"]["add"] = {"numpy": measure(np_add, args.reps, args.budget)}

    if "sum" in cases:
        def np_sum():
            return np.sum(y)

        assert np_sum().dtype == np.float32
        out["cases"]["sum"] = {"numpy": measure(np_sum, args.reps, args.budget),
                               "value": float(np_sum())}

    print(json.dumps(out))


if __name__ == "__main__":
    main()
