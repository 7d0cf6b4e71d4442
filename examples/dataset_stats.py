#!/usr/bin/python3
"""Per-channel statistics of a folder of images, exactly: each file's
histograms counted by gpuhist, merged in 64 bits, the mean and standard
deviation taken from the merged counts (not averaged over files).

    PYTHONPATH=build/python examples/dataset_stats.py FOLDER [--bins 256]
"""
import argparse
import pathlib
import sys

import numpy as np

import gpuhist


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--bins", type=int, default=256)
    args = parser.parse_args()
    total, failed = None, []
    paths = sorted(str(p) for p in args.folder.rglob("*") if p.is_file())
    # Decoded on every core while earlier files are counted; each failure its file's own.
    for f in gpuhist.histogram_files(paths, args.bins):
        if f.error is not None:
            failed.append((f.path, f.error))
            continue
        h = f.histogram
        if total is None or total.channels == h.channels:
            total = h if total is None else total + h
        else:
            failed.append((f.path, "grey among colour images (or colour among grey)"))
    if total is None:
        sys.exit(f"no readable image in {args.folder}")
    centres = (np.arange(args.bins) + 0.5) / args.bins  # bin centres, 0..1
    for name, counts in zip(total.channels, total.counts):
        n = counts.sum()
        mean = float((counts * centres).sum() / n)
        std = float(np.sqrt((counts * (centres - mean) ** 2).sum() / n))
        print(f"{name:>9}: {n} pixels, mean {mean:.5f}, std {std:.5f} (of 1.0)")
    for path, error in failed:
        print(f"skipped {path}: {error}", file=sys.stderr)


if __name__ == "__main__":
    main()
