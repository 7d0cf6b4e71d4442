#!/usr/bin/python3
"""The Python module against what a numpy user would use instead, in one run:
the call overhead on a 1x1 image, and a 12 MP RGB image counted by gpuhist's
cpu strategy against OpenCV (calcHist three times, cvtColor to grey, calcHist)
and numpy (bincount of each channel), in the same process.

    PYTHONPATH=build/python bench/python_histogram.py [--repeat N]
"""
import argparse
import statistics
import time

import numpy as np

import gpuhist

try:
    import cv2
except ImportError:  # OpenCV is a yardstick only
    cv2 = None


def best_median(fn, repeat, inner=1):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - start) / inner)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    tiny = np.zeros((1, 1, 3), np.uint8)
    context = gpuhist.Context("cpu")
    overhead = best_median(lambda: context.histogram(tiny, strategy="cpu"), args.repeat, 2000)
    print(f"call overhead, 1x1 RGB, cpu strategy: {overhead * 1e6:.1f} us")
    module = best_median(lambda: gpuhist.histogram(tiny, strategy="cpu"), args.repeat, 2000)
    print(f"the same through gpuhist.histogram (shared context): {module * 1e6:.1f} us")

    image = rng.integers(0, 256, (3000, 4000, 3), dtype=np.uint8)  # 12 MP
    ours = best_median(lambda: context.histogram(image, strategy="cpu"), args.repeat)
    print(f"12 MP RGB, gpuhist cpu strategy (R, G, B, luminance): {ours * 1e3:.2f} ms")
    rows = []
    if cv2 is not None:
        cv2.setNumThreads(0)

        def opencv():
            for c in range(3):
                cv2.calcHist([image], [c], None, [256], [0, 256])
            grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
            cv2.calcHist([grey], [0], None, [256], [0, 256])

        theirs = best_median(opencv, args.repeat)
        rows.append(("OpenCV calcHist x3 + cvtColor + calcHist", theirs))
    else:
        print("OpenCV not installed (python3-opencv): no OpenCV row")

    def numpy_bincount():
        for c in range(3):
            np.bincount(image[..., c].ravel(), minlength=256)

    rows.append(("numpy bincount x3 (no luminance)", best_median(numpy_bincount, max(3, args.repeat // 3))))
    for name, t in rows:
        print(f"12 MP RGB, {name}: {t * 1e3:.2f} ms ({t / ours:.2f}x gpuhist's time)")


if __name__ == "__main__":
    main()
