#!/usr/bin/python3
"""gpuhist.dataset on 1 and on 2 Dask worker processes (a LocalCluster each),
over a set of small JPEGs made for the run, with the speed-up; the totals
must be equal.

    PYTHONPATH=build/python bench/dataset_workers.py [--files 2000] [--size 320x240]
"""
import argparse
import pathlib
import subprocess
import tempfile
import time

from distributed import Client, LocalCluster

import gpuhist.dataset as ds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--size", default="320x240")
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        # Frames of a test pattern as JPEGs, by ffmpeg.
        subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i",
                        f"testsrc2=size={args.size}:rate=30", "-frames:v", str(args.files),
                        "-q:v", "3", str(pathlib.Path(folder) / "f%05d.jpg")], check=True)
        totals, seconds = [], []
        for workers in (1, 2):
            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                ds.histograms(folder, client=client, batch=args.batch)  # warm the workers
                start = time.perf_counter()
                result = ds.histograms(folder, client=client, batch=args.batch)
                seconds.append(time.perf_counter() - start)
                totals.append(result.total)
            print(f"{workers} worker(s): {args.files} files of {args.size} in {seconds[-1]:.2f} s "
                  f"({args.files / seconds[-1]:.0f} files/s), {len(result.failed)} failed")
        assert totals[0] == totals[1], "the totals differ"
        print(f"speed-up with 2 workers: {seconds[0] / seconds[1]:.2f}x (totals equal)")


if __name__ == "__main__":
    main()
