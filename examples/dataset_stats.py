#!/usr/bin/python3
"""Per-channel statistics of a folder of images, exactly: each file's
histograms counted by gpuhist, merged in 64 bits, the mean and standard
deviation of every pixel taken from the merged counts (not averaged over
files), as fractions of the top level (of 255 for 8-bit images).

    PYTHONPATH=build/python examples/dataset_stats.py FOLDER [--bins 256]

Exact for 8-bit images at 256 bins (and 16-bit ones at 65536).

Exit status 1 when a file could not be read (each named on stderr).
"""
import argparse
import os
import pathlib
import sys

import numpy as np

import gpuhist
from gpuhist.dataset import expand


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--bins", type=int, default=256)
    args = parser.parse_args()
    # The image files under the folder, as `gpuhist compute FOLDER` finds them.
    # Folders that cannot be listed are failures too, named with their cause.
    unlisted = []
    paths = expand(args.folder, unlisted)
    # A folder without image files is kept by expand(), to be said as such.
    empty = [p for p in paths if os.path.isdir(p)]
    # Decoded on every core while earlier files are counted; each failure its file's own.
    files = list(gpuhist.histogram_files([p for p in paths if p not in empty], args.bins))
    failed = [f"{p}: {cause}" for p, cause in unlisted]
    failed += [f"{p}: no image files in this folder" for p in empty]
    failed += [f.error for f in files if f.error is not None]
    # Grey and colour images mixed as `gpuhist compute --merge` mixes them: a
    # grey image adds to luminance alone.
    total = gpuhist.merge(f.histogram for f in files if f.error is None)
    for error in failed:
        print(f"skipped: {error}", file=sys.stderr)  # the message names its file
    if total is None:
        sys.exit(f"no readable image in {args.folder}")
    # Each channel's mean and standard deviation over every pixel of the set, from
    # the merged counts, as fractions of the top level (what normalising inputs by
    # them needs): bin b stands for the mean of the levels it holds, of L levels,
    # ((b + 0.5) * L / bins - 0.5) / (L - 1). Exact where a bin holds one level
    # (8-bit files at the default 256 bins, 16-bit ones at 65536); otherwise the
    # levels within a bin are taken as even. Floats, or files of several depths
    # mixed: the bin's centre of 0..1.
    depths = {f.dtype for f in files if f.error is None}
    levels = {"uint8": 256, "uint16": 65536}.get(depths.pop()) if len(depths) == 1 else None
    b = np.arange(args.bins)
    value = ((b + 0.5) * levels / args.bins - 0.5) / (levels - 1) if levels else (b + 0.5) / args.bins
    for name, counts in zip(total.channels, total.counts):
        n = int(counts.sum())
        mean = float((counts * value).sum() / n)
        std = float(np.sqrt((counts * (value - mean) ** 2).sum() / n))
        print(f"{name:>9}: {n} pixels, mean {mean:.5f}, std {std:.5f} (of 1.0)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

