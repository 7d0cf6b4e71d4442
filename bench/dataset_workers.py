#!/usr/bin/python3
"""gpuhist.dataset on 1 and on 2 Dask workers over a set of small JPEGs made for
the run, with the speed-up; every total must be equal.

Two ways of placing the workers, each timed with 1 and with 2 of them:
  pinned      a dask-scheduler and dask-worker processes, each worker held to
              its own core (taskset), as workers on one-core machines are: a
              task decodes on the cores its worker may use, so this is the
              speed-up from adding workers;
  LocalCluster  worker processes on every core, as gpuhist.dataset starts by
              itself: one worker alone already decodes on every core.
and, for Dask's own cost, the same files counted in this process by
gpuhist.histogram_files on one thread and on every core.

    PYTHONPATH=build/python bench/dataset_workers.py [--files 2000] [--size 320x240] [--repeat 7]
"""
import argparse
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from distributed import Client, LocalCluster

import gpuhist
import gpuhist.dataset as ds


def timed(run, repeat):
    """The best and the median of `repeat` runs after one to warm up, and the last result."""
    result = run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    times.sort()
    return (times[0], times[len(times) // 2]), result


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pinned_workers(folder, workers, batch, repeat):
    bindir = os.path.dirname(shutil.which("dask-scheduler") or "/usr/bin/dask-scheduler")
    address = f"tcp://127.0.0.1:{free_port()}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    procs = [subprocess.Popen([os.path.join(bindir, "dask-scheduler"), "--host", "127.0.0.1",
                               "--port", address.rsplit(":", 1)[1], "--dashboard-address", ":0"],
                              **quiet)]
    cores = sorted(os.sched_getaffinity(0))
    try:
        for i in range(workers):
            procs.append(subprocess.Popen(
                ["taskset", "-c", str(cores[i % len(cores)]), os.path.join(bindir, "dask-worker"),
                 address, "--nworkers", "1", "--nthreads", "1", "--no-nanny",
                 "--dashboard-address", ":0"], **quiet))
        with Client(address, timeout=60) as client:
            client.wait_for_workers(workers, timeout=60)
            return timed(lambda: ds.histograms(folder, client=client, batch=batch), repeat)
    finally:
        # Workers first, each gone before the scheduler goes: a worker closing while its
        # scheduler shuts down can wait for it for ever.
        for p in reversed(procs):
            p.terminate()
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def local_cluster(folder, workers, batch, repeat):
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        return timed(lambda: ds.histograms(folder, client=client, batch=batch), repeat)


def in_process(files, threads, repeat):
    def run():
        total = None
        for f in gpuhist.histogram_files(files, threads=threads, device="cpu"):
            total = f.histogram if total is None else total + f.histogram
        return total
    return timed(run, repeat)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--size", default="320x240")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=7,
                        help="timed runs (the best and the median are shown)")
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    print(f"gpuhist {gpuhist.__version__}, {cores} cores, {args.files} JPEGs of {args.size}, "
          f"batch {args.batch}, {args.repeat} timed runs each")
    with tempfile.TemporaryDirectory() as folder:
        # Frames of a test pattern as JPEGs, by ffmpeg.
        subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i",
                        f"testsrc2=size={args.size}:rate=30", "-frames:v", str(args.files),
                        "-q:v", "3", str(pathlib.Path(folder) / "f%05d.jpg")], check=True)
        files = ds.expand(folder)
        totals = []
        one, total = in_process(files, 1, args.repeat)
        totals.append(total)
        every, total = in_process(files, None, args.repeat)
        totals.append(total)
        print(f"in this process, histogram_files: {one[0]:.2f} s on 1 thread, "
              f"{every[0]:.2f} s on {cores}")
        print("best (median) of each:")
        print("| workers | pinned, one core each | LocalCluster |")
        print("|---|---|---|")
        times = {}
        for workers in (1, 2):
            pinned, result = pinned_workers(folder, workers, args.batch, args.repeat)
            assert not result.failed
            totals.append(result.total)
            local, result = local_cluster(folder, workers, args.batch, args.repeat)
            totals.append(result.total)
            times[workers] = (pinned, local)
            print(f"| {workers} | {pinned[0]:.2f} s ({pinned[1]:.2f}) | "
                  f"{local[0]:.2f} s ({local[1]:.2f}) |")
        assert all(t == totals[0] for t in totals), "the totals differ"
        speedup = [[times[1][way][k] / times[2][way][k] for k in (0, 1)] for way in (0, 1)]
        print(f"speed-up with 2 workers, best (median): pinned {speedup[0][0]:.2f}x "
              f"({speedup[0][1]:.2f}x), LocalCluster {speedup[1][0]:.2f}x ({speedup[1][1]:.2f}x) "
              f"(every total equal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
