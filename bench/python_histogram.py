#!/usr/bin/python3
"""The Python module against what a numpy user would use instead, in one run:
the call overhead on a 1x1 image, and a 12 MP RGB image counted by gpuhist's
cpu strategy against OpenCV (calcHist three times, cvtColor to grey, calcHist)
and numpy (bincount of each channel), in the same process. With --sizes, RGBA8
numpy arrays of those sizes (ordinary pageable memory) to the four histograms
on the host, by gpuhist's default (auto), gpu and cpu strategies, against
OpenCV on every thread and, where PyTorch sees a CUDA device, what a PyTorch
user writes (the array to the GPU, bincount of R, G, B and the luminance
bin, the counts back), gpuhist's and PyTorch's counts checked equal to gpuhist's
cpu strategy (OpenCV's grey is Rec.601, the same work, and is not compared).

    PYTHONPATH=build/python bench/python_histogram.py [--repeat N] [--sizes WxH,...]
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
    parser.add_argument("--sizes", help="WxH,...: RGBA8 arrays from host memory, every strategy")
    parser.add_argument("--no-pytorch", action="store_true",
                        help="leave PyTorch (and its CUDA context on the same GPU) out")
    args = parser.parse_args()
    if args.sizes:
        host_memory(args.sizes, args.repeat, not args.no_pytorch)
        return
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

        def opencv():
            for c in range(3):
                cv2.calcHist([image], [c], None, [256], [0, 256])
            grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
            cv2.calcHist([grey], [0], None, [256], [0, 256])

        theirs = best_median(opencv, args.repeat)
        rows.append((f"OpenCV calcHist x3 + cvtColor + calcHist, {cv2.getNumThreads()} threads", theirs))
    else:
        print("OpenCV not installed (python3-opencv): no OpenCV row")

    def numpy_bincount():
        for c in range(3):
            np.bincount(image[..., c].ravel(), minlength=256)

    rows.append(("numpy bincount x3 (no luminance)", best_median(numpy_bincount, max(3, args.repeat // 3))))
    for name, t in rows:
        print(f"12 MP RGB, {name}: {t * 1e3:.2f} ms ({t / ours:.2f}x gpuhist's time)")


def torch_counts(torch, image):
    """What a PyTorch user writes: the array to the GPU, R, G, B and the
    luminance bin (gpuhist's exact formula) counted by bincount, back to the host."""
    t = torch.from_numpy(image).cuda()
    rgb = t[..., :3].to(torch.int64)
    s = rgb[..., 0] * 2126 + rgb[..., 1] * 7152 + rgb[..., 2] * 722
    luma = torch.clamp((s * 256) // (10000 * 255), max=255)
    out = [torch.bincount(rgb[..., c].flatten(), minlength=256) for c in range(3)]
    out.append(torch.bincount(luma.flatten(), minlength=256))
    return torch.stack(out).cpu().numpy()


def host_memory(sizes, repeat, pytorch):
    rng = np.random.default_rng(2)
    context = gpuhist.Context("auto")
    device = context.device
    print(f"gpuhist {gpuhist.__version__}, device: {device or 'none (cpu)'}")
    torch = None
    if pytorch:
        try:
            import torch

            torch = torch if torch.cuda.is_available() else None
        except ImportError:
            pass
    header = f"{'size':>12} {'what':<44} {'ms':>9} {'vs auto':>8}"
    print(header)
    for size in sizes.split(","):
        w, h = (int(v) for v in size.split("x"))
        image = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
        inner = max(1, min(1000, int(2e7 // (w * h))))
        expected = context.histogram(image, strategy="cpu").counts
        rows = []
        for strategy in (None, "gpu", "cpu"):
            if strategy == "gpu" and device is None:
                continue
            got = context.histogram(image, strategy=strategy).counts
            assert np.array_equal(got, expected), f"{size} {strategy}: counts differ"
            t = best_median(lambda: context.histogram(image, strategy=strategy), repeat, inner)
            rows.append((f"gpuhist {strategy or 'auto'} (numpy, pageable)", t))
        if cv2 is not None:

            def opencv():
                for c in range(3):
                    cv2.calcHist([image], [c], None, [256], [0, 256])
                grey = cv2.cvtColor(image, cv2.COLOR_RGBA2GRAY)
                cv2.calcHist([grey], [0], None, [256], [0, 256])

            name = f"OpenCV calcHist x3 + cvtColor + calcHist, {cv2.getNumThreads()}t"
            rows.append((name, best_median(opencv, repeat, inner)))
        if torch is not None:
            got = torch_counts(torch, image)
            assert np.array_equal(got.astype(np.uint64), expected), f"{size} PyTorch: counts differ"

            def pytorch():
                torch_counts(torch, image)

            pytorch()
            rows.append(("PyTorch: .cuda(), bincount x4, .cpu()", best_median(pytorch, repeat, inner)))
        auto = rows[0][1]
        for name, t in rows:
            print(f"{size:>12} {name:<44} {t * 1e3:9.3f} {t / auto:7.2f}x")


if __name__ == "__main__":
    main()
