"""Histograms of a whole data set on a Dask cluster, exactly.

    if __name__ == "__main__":   # in a script: a LocalCluster's workers import it
        result = gpuhist.dataset.histograms("photos/")      # a LocalCluster, one worker a core
        result = gpuhist.dataset.histograms(paths, client=client, bins=256, batch=64)
    result.total            # gpuhist.Histogram over every readable file (exact uint64)
    result.files            # one row per file: path, bytes, format, width, height, channels,
                            # dtype, warning, notes, alpha, stats
    result.failed           # (path, error) for every file that could not be read

Each task counts `batch` files with the module (gpuhist.histogram_files: decoded on
the task's share of its machine's cores) and returns their merged histogram and
rows; a tree of tasks merges those. Nothing accumulates in a
worker, so when a worker dies its tasks run again elsewhere and the total is
still exact. The command line:

    python3 -m gpuhist.dataset FOLDER [--scheduler tcp://HOST:PORT] [--format json|csv] [-o OUT]

gives the same total as `gpuhist compute FOLDER --merge`. Its exit status: 0, 1 when a file
could not be read (each named on stderr) or none could, 2 for a bad option, 3 when the device
or the scheduler failed, 4 when the output could not be written, 70 when the cluster lost a
merge's every try. A task whose every try lost its worker (a file that takes more memory than a
worker may have) has its files counted again a task each: the file whose own task is lost too
is a failure, the others are counted.
"""
import argparse
import csv
from collections.abc import Iterable
from concurrent.futures import CancelledError
import contextlib
import fnmatch
import glob as globbing
import io
import json
import operator
import os
import pathlib
import re
import shutil
import signal
import stat
import sys
import tempfile
import threading
import time
import warnings

import numpy

from . import _gpuhist

if not _gpuhist.has_files:
    raise ImportError("gpuhist.dataset reads image files: this gpuhist module was built with the "
                      "engine alone (GPUHIST_ENGINE_ONLY), which reads no files or videos")

# What `gpuhist compute FOLDER` takes from a folder: the common formats' extensions.
EXTENSIONS = {".jpg", ".jpeg", ".jpe", ".png", ".tif", ".tiff", ".webp", ".exr", ".gif", ".bmp",
              ".pbm", ".pgm", ".ppm", ".pnm", ".pfm", ".hdr", ".rgbe", ".tga", ".tpic", ".dpx"}


# The statistics of Histogram.stats(), in the order of _gpuhist._stats_table's last axis,
# and those that are whole numbers (bins and pixel counts).
STATISTICS = ("count", "min", "max", "mean", "stddev", "median", "p1", "p99", "shadows",
              "highlights")
_WHOLE = frozenset(("count", "min", "max", "median", "p1", "p99"))
_CHANNELS = ("red", "green", "blue", "luminance")
# A row's fields before its statistics ("warning": None, or the decoder's warning that the
# file may be damaged, its pixels counted as decoded: FileHistogram.warning; "notes": what
# counting left out of the file or changed, a tuple of sentences, empty when nothing:
# FileHistogram.notes; "alpha": the file has an alpha channel, not counted).
FIELDS = ("path", "bytes", "format", "width", "height", "channels", "dtype", "warning", "notes",
          "alpha")


class DatasetResult:
    """The merged histogram, a row for each file counted, and the files that failed.

    The rows travel between workers and to the client as columns (a tuple of fields per
    file and one float64 array of every file's statistics), which Dask moves at memory
    speed; .rows and .files build the per-file dicts when asked for."""

    def __init__(self, total=None, records=None, stats=None, failed=None):
        # A Histogram (histograms() gives a zero one of every channel where no file could
        # be read; None within a task that read none)
        self.total = total
        self.records = [] if records is None else records  # a tuple of FIELDS per file
        # float64 array (files, 4 channels, STATISTICS): _gpuhist._stats_table's rows
        self.stats = numpy.empty((0, 4, len(STATISTICS))) if stats is None else stats
        self.failed = [] if failed is None else failed  # (path, error) for each failed file
        self._rows = None

    @property
    def rows(self):
        """One dict per file: FIELDS and "stats", as Histogram.stats() gives them."""
        if self._rows is None:
            # Rows of workers before "warning", "notes" or "alpha" was a field have them as
            # None, (), None (unknown).
            defaults = (None, (), None)
            self._rows = [dict(zip(FIELDS, tuple(record) + defaults[len(record) - 7:]),
                               stats=_stats_dict(table))
                          for record, table in zip(self.records, self.stats.tolist())]
        return self._rows

    @property
    def files(self):
        """One row per file (a pandas DataFrame where pandas is installed, else a list of dicts)."""
        try:
            import pandas
        except ImportError:
            return self.rows
        # The columns named even where no file was read.
        return pandas.DataFrame(self.rows, columns=[*FIELDS, "stats"])

    def __getstate__(self):
        return (self.total, self.records, self.stats, self.failed)

    def __setstate__(self, state):
        self.__init__(*state)


def _stats_dict(table):
    """One file's row of _gpuhist._stats_table (nested lists) as Histogram.stats() gives it."""
    out = {}
    for name, values in zip(_CHANNELS, table):
        if values[0] != values[0]:  # NaN: a grey image has no colour channels
            continue
        # NaN past the count: nothing counted, the statistic undefined (None, as stats()).
        out[name] = {k: None if v != v else int(v) if k in _WHOLE else v
                     for k, v in zip(STATISTICS, values)}
    return out


def expand(paths, problems=None, *, all_formats=False):
    """The files of `paths`: a list of files and folders, a folder (searched recursively
    for the common formats' extensions, or with all_formats every format's the image library
    reads, as `gpuhist compute --formats all` searches it) or a glob pattern (its folders
    searched too), sorted as the command line sorts them. A folder with no image files is
    kept, to be reported as such; folders that cannot be listed are left out, and (path,
    cause) of each is appended to the list `problems` where one is given (histograms()
    reports them in .failed)."""
    files, found = _expand(paths, all_formats)
    if problems is not None:
        problems.extend(found)
    return files


def _known_extensions(all_formats):
    """Whether a folder's search takes a file of an extension (".png", lower case): the
    common formats', or with all_formats every format's the image library reads."""
    if not all_formats:
        return EXTENSIONS.__contains__
    known = dict.fromkeys(EXTENSIONS, True)

    def taken(extension):
        if extension not in known:
            known[extension] = bool(extension) and _gpuhist._has_image_extension(
                "file" + extension, True)
        return known[extension]
    return taken


def _expand(paths, all_formats=False):
    """expand()'s files, and (path, cause) for each folder that could not be listed."""
    known = _known_extensions(all_formats)
    files, problems = [], []
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    elif not isinstance(paths, Iterable):
        raise TypeError("gpuhist: paths is a folder, a glob or a list of paths (str, bytes or "
                        f"os.PathLike), not {type(paths).__name__}")
    for p in paths:
        if not isinstance(p, (str, bytes, os.PathLike)):
            raise TypeError("gpuhist: a path is a str, bytes or os.PathLike, not "
                            f"{type(p).__name__}")
        text = os.fsdecode(p)
        if "\0" in text:  # no file has such a name: said here, not by every try of a task
            problems.append((text, "no such file (a file name holds no NUL character)"))
        elif text == "":  # not the current folder, which a worker would read it as
            problems.append((text, "an empty file name"))
        elif os.path.isdir(text):
            _add_folder(text, files, problems, known)
        elif not os.path.lexists(text) and any(c in text for c in "*?["):
            # A file is the file named, even one named like a pattern ("shot[1].png"); a
            # pattern that matches nothing is kept, to be reported as a file not found.
            problems.extend(_unlistable(text))
            matches = sorted(_glob(text)) or [text]
            # "set/**" matches the folders and the files in them: each file once, however
            # it was reached or named; folders reached through links last, so that a file
            # also found by its own path keeps that name.
            found = []
            for match in sorted(matches, key=os.path.islink):
                if os.path.isdir(match):
                    _add_folder(match, found, problems, known)
                else:
                    found.append(match)
            files.extend(_each_once(found))
        else:
            files.append(text)
    return files, list(dict.fromkeys(problems))  # a folder both globbed and searched: once


def _glob(pattern):
    """glob.glob(pattern, recursive=True), but for `**`, which, as bash's globstar, does not
    go through links to folders: a link back up cannot loop, nor a linked folder be counted
    twice (glob.glob follows them). Names keep the pattern's own start ("./set/**": "./set/a")."""
    if "**" not in pattern:
        return globbing.glob(pattern, recursive=True)
    parts = pattern.split("/")
    first = next(i for i, part in enumerate(parts) if any(c in part for c in "*?["))
    start = "/".join(parts[:first])  # "" (relative), "/" (the root's), "./set", "/data"
    if first == 1 and parts[0] == "":
        start = "/"
    rest = "/".join(parts[first:])
    root = pathlib.Path(start or ".")
    # As glob.glob: a wildcard matches no name starting with a dot unless the pattern's does.
    dotted = any(part.startswith(".") for part in parts[first:])
    found = []
    # A pattern ending in "**" matches the files beneath too (bash's globstar, glob.glob),
    # not only the folders (pathlib's, before Python 3.13).
    wanted = [rest, rest + "/*"] if parts[-1] == "**" else [rest]
    try:
        for match in dict.fromkeys(m for pattern_part in wanted for m in root.glob(pattern_part)):
            relative = match.relative_to(root)
            if not dotted and any(part.startswith(".") for part in relative.parts):
                continue
            name = str(relative)
            if name == ".":
                found.append(start or ".")
            elif not start:
                found.append(name)
            else:
                found.append(start.rstrip("/") + "/" + name)
    except (OSError, ValueError):  # a pattern pathlib refuses ("**x"): glob's reading
        return globbing.glob(pattern, recursive=True)
    return found


def _unlistable(pattern):
    """(folder, cause) for each folder a glob of `pattern` would list but cannot: glob
    passes them over in silence, and the files in them would be lost unsaid. Links to
    folders are followed where a wildcard other than "**" names them, as glob does."""
    parts = pattern.split("/")
    first = next(i for i, part in enumerate(parts) if any(c in part for c in "*?["))
    base = "/".join(parts[:first]) or ("/" if pattern.startswith("/") else ".")
    problems, here = [], [base]

    def listed(folder):
        try:
            with os.scandir(folder) as entries:
                return [(e.name, e.path if folder != "." else e.name, e) for e in entries]
        except NotADirectoryError:
            return []
        except OSError as e:
            if os.path.isdir(folder):  # named as a folder's search names it
                problems.append((str(pathlib.Path(folder)),
                                 f"cannot list the folder: {e.strerror or e}"))
            return []

    for i, part in enumerate(parts[first:], first):
        last = i == len(parts) - 1
        below = []
        if part == "**":
            # Every folder beneath, through no link (bash's globstar), each listed.
            pending = list(here)
            while pending:
                folder = pending.pop()
                below.append(folder)
                for name, path, entry in listed(folder):
                    try:
                        if not name.startswith(".") and entry.is_dir(follow_symlinks=False):
                            pending.append(path)
                    except OSError:
                        pass
        elif any(c in part for c in "*?["):
            for folder in here:
                for name, path, entry in listed(folder):
                    if last or (name.startswith(".") and not part.startswith(".")):
                        continue
                    try:
                        if fnmatch.fnmatch(name, part) and entry.is_dir():
                            below.append(path)
                    except OSError:
                        pass
        else:
            below = [os.path.join(folder, part) for folder in here]
        here = below
    return problems


def _each_once(names):
    """`names` without a second name of a file named already ("./a.png" and "a.png", or a
    path through a link to a folder: the same folder, by os.path.realpath, and name), in
    order. A link to a file is a file of its own, as a folder's search and the command line
    count it."""
    seen = {}
    for name in names:
        folder, base = os.path.split(name)
        seen.setdefault(os.path.join(os.path.realpath(folder or "."), base), name)
    return list(seen.values())


def _add_folder(folder, files, problems, known):
    """A folder's image files into `files`, searched as the command line searches it; the
    folder itself where it holds none (reported as such), unless it could not be listed."""
    before = len(problems)
    found = _search(str(pathlib.Path(folder)), problems, known)
    if found:
        files.extend(found)
    elif len(problems) == before:
        files.append(folder)


def _search(folder, problems, known=EXTENSIONS.__contains__):
    """The files under `folder` whose extensions `known` takes, sorted, named as
    pathlib's rglob names them; links to folders are not followed, a link to a missing file
    or one that cannot be followed (a loop), a pipe or a device is kept (to be reported, as
    the command line reports it); a folder that cannot be listed goes to `problems` with its cause, as the
    command line says it. os.scandir knows most entries' types without a stat call each."""
    found = []
    pending = [folder]
    while pending:
        here = pending.pop()
        try:
            with os.scandir(here) as entries:
                for entry in entries:
                    path = entry.name if here == "." else entry.path
                    if not known(os.path.splitext(entry.name)[1].lower()):
                        try:
                            if entry.is_dir(follow_symlinks=False):
                                pending.append(path)
                        except OSError:  # gone since it was listed
                            pass
                        continue
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            pending.append(path)
                        elif not entry.is_dir():  # (a link to a folder is not followed)
                            # A link to a missing file is kept, to be reported as missing,
                            # and a pipe or device, to be reported as not a regular file.
                            found.append(path)
                    except OSError:  # a link that cannot be followed (a loop): reported
                        if entry.is_symlink():
                            found.append(path)
        except OSError as e:
            problems.append((here, f"cannot list the folder: {e.strerror or e}"))
    return sorted(found)


def device_for_worker(name, gpus):
    """The device a worker opens on a machine of `gpus` hardware GPUs: one a worker,
    by the worker's number (LocalCluster names them 0, 1, …); "auto" without GPUs."""
    if gpus <= 0:
        return "auto"
    try:
        return str(int(name) % gpus)
    except (TypeError, ValueError):
        return str(abs(hash(name)) % gpus)


def _worker_device(default):
    if default is not None:
        return default
    try:
        from distributed import get_worker
        worker = get_worker()
    except (ImportError, ValueError):
        return "auto"
    return getattr(worker, "gpuhist_device", "auto")


_CONTEXTS = {}
_CONTEXTS_LOCK = threading.Lock()


def _context(device):
    """One context per device in each worker process, opened by its first task."""
    with _CONTEXTS_LOCK:
        if device not in _CONTEXTS:
            _CONTEXTS[device] = _gpuhist.Context(device)
        return _CONTEXTS[device]


def allowed_cores():
    """The processors this process may run on (its affinity: taskset, cpusets)."""
    try:
        return tuple(sorted(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return tuple(range(os.cpu_count() or 1))


def core_sharing(client, answers=None):
    """For each worker's address, the Dask threads that may run on its cores: its own and
    those of every worker on the same machine whose allowed processors overlap its own
    (all of them for workers left unpinned, none for workers pinned to other cores).
    answers: the workers' allowed_cores() as client.run gives them, where asked already."""
    from distributed.comm import get_address_host
    if answers is None:
        answers = client.run(allowed_cores, on_error="return")
    cores = {address: set(c) for address, c in answers.items() if isinstance(c, tuple)}
    threads = client.nthreads()
    sharing = {}
    for address, mine in cores.items():
        host = get_address_host(address)
        sharing[address] = sum(threads.get(other, 1) for other, theirs in cores.items()
                               if get_address_host(other) == host and mine & theirs)
    return sharing


def _decode_threads(sharing):
    """A task's share of the cores its worker may run on: those cores divided among the
    Dask threads that share them (core_sharing; each runs one task at a time), so that
    one worker a core decodes on one thread, and a lone one-thread worker on every core."""
    cores = len(allowed_cores())
    try:
        from distributed import get_worker
        worker = get_worker()
    except (ImportError, ValueError):  # called outside a worker
        return cores
    share = (sharing or {}).get(worker.address) or getattr(worker, "nthreads", 1)
    return max(1, cores // max(1, share))


def _cause(path, error):
    """Why a file failed, without its name, in the command line's words: "no such file",
    "corrupt or truncated image: …" (the file is named beside it)."""
    if isinstance(error, IsADirectoryError) or os.path.isdir(path):
        return "no image files in this folder"
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, PermissionError):
        return f"cannot open: {error.strerror or 'Permission denied'}"
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        return error.strerror
    text = str(error)
    # The module's messages write a name's bytes that are not UTF-8 as \xNN.
    for name in (path, os.fsencode(path).decode("utf-8", "backslashreplace")):
        if text.startswith(f"{name}: "):
            return text[len(name) + 2:]
    return text


def _said(error):
    """An exception's message without the module's "gpuhist: " prefix (added once, in front)."""
    text = str(error)
    return text[len("gpuhist: "):] if text.startswith("gpuhist: ") else text


def count_batch(paths, bins, luma, device, max_pixels, sharing=None, names=None,
                all_formats=False):
    """One task: the merged histogram of `paths`, their rows and their failures, named
    by `names` (the names given, one a path; default: the paths)."""
    # The device is opened before any file: a device that cannot be had, or that fails
    # (GpuError), fails the task (run again by Dask up to its retries), not the files.
    context = _context(_worker_device(device))
    total, records, histograms, failed = None, [], [], []
    files = context.histogram_files(paths, bins, luma=luma, max_pixels=max_pixels,
                                    threads=_decode_threads(sharing), all_formats=all_formats)
    for i, f in enumerate(files):  # one a path, in order
        name = f.path if names is None else names[i]
        if f.error is not None:
            failed.append((name, _cause(f.path, f.error)))
            continue
        try:
            size = os.path.getsize(f.path)
        except OSError:  # gone since it was read
            size = None
        h = f.histogram
        records.append((name, size, f.format, f.width, f.height, f.channels, f.dtype,
                        f.warning, tuple(f.notes), f.alpha))
        histograms.append(h)
        total = h if total is None else _gpuhist._merge_any(total, h)
    return DatasetResult(total, records, _gpuhist._stats_table(histograms), failed)


def _count_task(batch, bins, luma, device, max_pixels, sharing=None, all_formats=False):
    """count_batch of a (paths, names) pair: what client.map hands each task."""
    paths, names = batch
    return count_batch(paths, bins, luma, device, max_pixels, sharing, names, all_formats)


def merge_results(*results):
    """Tasks' results as one: histograms added exactly, rows and failures in order."""
    total, records, failed = None, [], []
    for r in results:
        if r.total is not None:
            total = r.total if total is None else _gpuhist._merge_any(total, r.total)
        records.extend(r.records)
        failed.extend(r.failed)
    stats = numpy.concatenate([r.stats for r in results]) if results else None
    return DatasetResult(total, records, stats, failed)


# Results merged a node of the tree. Adding histograms and joining columns costs
# little; a scheduled task costs the scheduler about a millisecond of CPU on a small
# machine, and each level of the tree a round trip. 32 at a time: 32 tasks need one
# merge, a million files in tasks of 64 three levels (2000 files on two one-core
# workers: 0.51 s against 0.54 s with merges of 8).
MERGE_FAN_IN = 32


class _AssignDevices:
    """A worker plugin: each worker opens its own GPU where the machine has several."""
    name = "gpuhist-devices"

    def __init__(self, gpus):
        self.gpus = gpus

    def setup(self, worker):
        worker.gpuhist_device = device_for_worker(worker.name, self.gpus)


def _hardware_gpus():
    try:
        return sum(1 for d in _gpuhist.devices() if d["hardware"])
    except Exception:  # noqa: BLE001 — no Vulkan at all: no GPU
        return 0


def _whole(value, name):
    if isinstance(value, (bool, numpy.bool_)) or not hasattr(type(value), "__index__"):
        raise TypeError(f"gpuhist: {name} is a whole number, not {type(value).__name__}")
    return operator.index(value)


def _check_options(bins, batch, luma, device, max_pixels):
    """The options checked here, not file by file in the tasks: whole numbers (numpy's too)
    as the module takes them. Returns bins, batch, luma and max_pixels as the tasks take
    them; ValueError or TypeError for a bad one."""
    bins, batch = _whole(bins, "bins"), _whole(batch, "batch")
    max_pixels = _whole(max_pixels, "max_pixels")
    if batch < 1:
        raise ValueError("gpuhist: batch is at least 1")
    if max_pixels < 1:
        raise ValueError(f"gpuhist: max_pixels is at least 1, got {max_pixels}")
    if not 1 <= bins <= 65536:
        raise ValueError(f"gpuhist: bins must be between 1 and 65536, got {bins}")
    if not isinstance(luma, (str, bool, numpy.bool_)) and hasattr(luma, "__index__"):
        luma = str(operator.index(luma))  # 709 (numpy's too) as the module takes it
    if luma not in ("709", "601", "rec709", "rec601"):
        raise ValueError(f"gpuhist: luma is '709' or '601', not '{luma}'")
    return bins, batch, luma, max_pixels


def histograms(paths, *, client=None, scheduler=None, bins=256, batch=64, luma="709",
               device=None, max_pixels=1 << 28, progress=False, all_formats=False):
    """The exact histograms of a data set, counted on a Dask cluster.

    paths: a list of files and folders, a folder or a glob. client: a distributed.Client;
    scheduler: the address of one to connect to; neither: a LocalCluster with
    one worker process per core (one per GPU on a machine with several), no more than
    there are tasks, started and stopped here. batch: files per task. device: the device
    every worker opens (default: its own GPU, else "auto"). all_formats: folders are searched for, and
    files read in, every format the image library reads, as `gpuhist compute --formats all`
    (the common ones alone by default). Files that cannot be read are in .failed, never
    fatal and never dropped.
    """
    bins, batch, luma, max_pixels = _check_options(bins, batch, luma, device, max_pixels)
    if not isinstance(all_formats, (bool, numpy.bool_)):
        raise TypeError(f"gpuhist: all_formats is a bool, not {type(all_formats).__name__}")
    files, problems = _expand(paths, bool(all_formats))
    result = _count(files, problems, client, scheduler, bins, batch, luma, device, max_pixels,
                    progress, bool(all_formats))
    # Nothing readable: a zero total of every channel, as `gpuhist compute --merge` gives.
    if result.total is None:
        result.total = _gpuhist.Histogram(bins)
    return result


def _count(files, problems, client, scheduler, bins, batch, luma, device, max_pixels,
           progress, all_formats=False):
    """histograms() of files expanded already; `problems`: the folders that could not be
    listed, among the failures first."""
    if not files:
        return DatasetResult(None, failed=problems)
    from distributed import Client, LocalCluster
    own_cluster = None
    own_client = None
    try:
        if client is None:
            if scheduler is not None:
                own_client = client = Client(scheduler)
            else:
                with _interrupt_held():
                    gpus = _hardware_gpus()
                    share = gpus if gpus > 1 else len(allowed_cores())
                    # No more workers than tasks: a worker's start costs about a second
                    # of a core, and a lone worker's task decodes on every core. Each
                    # keeps the memory it would have as one of `share` (Dask gives each
                    # of n workers 1/n of it), past which its nanny ends it.
                    workers = max(1, min(share, -(-len(files) // batch)))
                    from distributed.system import MEMORY_LIMIT
                    # Dask's dashboard on a free port of this machine alone (None still
                    # starts one, on every interface at 8787, with a warning when that port
                    # is taken).
                    own_cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                               processes=True, dashboard_address="127.0.0.1:0",
                                               memory_limit=MEMORY_LIMIT // max(1, share))
                    own_client = client = Client(own_cluster)
                    if gpus > 1 and device is None:
                        client.register_worker_plugin(_AssignDevices(gpus))
        return _count_on(client, files, problems, bins, batch, luma, device, max_pixels,
                         progress, all_formats)
    finally:
        if own_client is not None:
            own_client.close()
        if own_cluster is not None:
            own_cluster.close()


@contextlib.contextmanager
def _interrupt_held():
    """While a LocalCluster starts: the terminal's interrupt (Ctrl-C) reaches the whole
    process group, and the worker processes must not take it (this process closes them on
    its way out, without their tracebacks), while this one must, once the cluster is up.

    SIGINT is blocked on this thread: the threads the cluster starts (its event loop, its
    processes' watchers) inherit the mask, and so do the worker processes they spawn, which
    never take it. multiprocessing's resource tracker unblocks SIGINT on the thread that
    first starts it, so it is started first. On the main thread, an interrupt that another
    thread takes meanwhile is held rather than raised inside Dask's start; held or pending,
    it is raised on the way out, once the caller has the cluster to close. A thread started
    here, before the mask, takes them, so that a second interrupt ends a start that hangs,
    raised inside it when it next wakes (Dask's waits last ten seconds at most); the workers
    then end when they see this process go."""
    from multiprocessing import resource_tracker
    resource_tracker.ensure_running()
    taken = []
    handler = None
    done = threading.Event()
    if threading.current_thread() is threading.main_thread():
        previous = signal.getsignal(signal.SIGINT)
        if callable(previous):
            handler = previous

            def held(signum, frame):
                taken.append(signum)
                if len(taken) > 1:
                    raise KeyboardInterrupt
            signal.signal(signal.SIGINT, held)
            threading.Thread(target=done.wait, name="gpuhist interrupts", daemon=True).start()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        done.set()
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a pending interrupt is taken
        if handler is not None:
            signal.signal(signal.SIGINT, handler)
            if taken:
                handler(signal.SIGINT, None)


def _count_on(client, files, problems, bins, batch, luma, device, max_pixels, progress,
              all_formats):
    """_count's work on a running `client`."""
    from distributed import KilledWorker
    # Read by absolute names, as a worker's own folder may be another (a dask-worker
    # started elsewhere), joined as given (not normalised: "link/../x.png" is where the
    # link leads); reported by the names given.
    here = os.getcwd()
    absolute = [os.path.join(here, f) for f in files]
    batches = [absolute[i:i + batch] for i in range(0, len(absolute), batch)]
    names = [files[i:i + batch] for i in range(0, len(files), batch)]
    answers = _check_workers(client, device)
    sharing = core_sharing(client, answers)
    # Workers that cannot run gpuhist (a shared cluster's others) are given no task: one
    # would stop on the first it cannot unpickle. Where every worker can, none is
    # singled out, so that a worker restarted under another address takes tasks too.
    unable = {a: c for a, c in answers.items() if not isinstance(c, tuple)}
    where = {} if not unable else {"workers": [a for a in answers if a not in unable],
                                   "allow_other_workers": False}
    if unable:
        cause = next(iter(unable.values()))
        warnings.warn(f"{len(unable)} of the cluster's {len(answers)} workers cannot run "
                      f"gpuhist ({_error_text(cause)}): the others count the data set",
                      ClusterWarning, stacklevel=4)
    # One message to the scheduler for every task, not one each.
    parts = list(zip(batches, names))
    options = dict(bins=bins, luma=luma, device=device, max_pixels=max_pixels,
                   sharing=sharing, pure=False, retries=2, **where)
    if all_formats:  # (named only then: a worker of an older gpuhist takes the rest)
        options["all_formats"] = True
    futures = client.map(_count_task, parts, **options)
    while True:
        top = _merge_tree(client, futures, where)
        bar = _progress_bar(futures) if progress else None
        try:
            result = _result(client, top, where.get("workers"))
            if bar is not None:
                bar.join(timeout=10)  # its last state drawn, before the output
            break
        except KilledWorker:
            # Tasks whose every try lost its worker (a file that takes more memory than
            # a worker may have): their files are counted again one a task, and a file
            # whose own task loses its workers too is a failure, not the whole run's.
            split = _split_killed(client, futures, parts, options, where)
            if split is None:
                raise
            futures, parts = split
    # The folders that could not be listed among the failures, first.
    result.failed = problems + result.failed
    return result


def _progress_bar(futures):
    """Dask's progress bar of `futures`, drawn on stderr (Dask draws it on stdout, which may
    hold the output) by a thread of its own: the bar waits for every task, also where the
    workers are gone, which _result sees and says."""
    from contextlib import redirect_stdout

    from distributed import progress as show_progress

    def draw():
        try:
            with redirect_stdout(sys.stderr):
                show_progress(futures)
        except Exception:  # noqa: BLE001 — the client closed under it: the run failed
            pass
    bar = threading.Thread(target=draw, name="gpuhist dataset progress", daemon=True)
    bar.start()
    return bar


def _merge_tree(client, futures, where):
    """The future of the tasks' merged result: a tree of merges, submitted at once, groups of
    MERGE_FAN_IN, then groups of those."""
    while len(futures) > 1:
        futures = [client.submit(merge_results, *futures[i:i + MERGE_FAN_IN], pure=False,
                                 **where)
                   if len(futures[i:i + MERGE_FAN_IN]) > 1 else futures[i]
                   for i in range(0, len(futures), MERGE_FAN_IN)]
    return futures[0]


# A file whose task lost its worker on every try, counted alone.
LOST_CAUSE = ("the worker counting it died on every try (more memory than a worker may have, "
              "or killed)")


def _lost_file(name):
    """A task's result for one file its workers died counting: that file failed."""
    return DatasetResult(None, [], _gpuhist._stats_table([]), [(name, LOST_CAUSE)])


def _split_killed(client, futures, parts, options, where):
    """The tasks again, each that ended in KilledWorker as a task per file (a file alone
    in its task: a failure, _lost_file), in the same order; None where none did. parts:
    each task's (paths, names), None for a _lost_file task; options: client.map's for
    _count_task; where: the workers tasks are held to, as _count gives them."""
    from distributed import KilledWorker
    out, out_parts, split = [], [], False
    for future, part in zip(futures, parts):
        if part is None or future.status != "error" or \
                not isinstance(future.exception(), KilledWorker):
            out.append(future)
            out_parts.append(part)
            continue
        split = True
        paths, names = part
        if len(paths) == 1:
            out.append(client.submit(_lost_file, names[0], pure=False, **where))
            out_parts.append(None)
            continue
        ones = [([p], [n]) for p, n in zip(paths, names)]
        out.extend(client.map(_count_task, ones, **options))
        out_parts.extend(ones)
    return (out, out_parts) if split else None


def _result(client, future, workers):
    """The future's result; ClusterError once the cluster has had no worker that can run
    the tasks for WORKER_WAIT_SECONDS (a worker restarted by its nanny comes back under
    another address), where they would wait for ever: no worker at all, or, with the tasks
    held to `workers` (those that can run gpuhist, on a cluster where some cannot), none
    of those."""
    from distributed import TimeoutError as DaskTimeoutError
    gone_since = None
    while True:
        try:
            return future.result(timeout=1)
        except (TimeoutError, DaskTimeoutError):
            present = set(client.nthreads())  # every worker (scheduler_info() may list 5)
            if present & set(workers) if workers is not None else present:
                gone_since = None
            elif gone_since is None:
                gone_since = time.monotonic()
            elif time.monotonic() - gone_since > WORKER_WAIT_SECONDS:
                if workers is None:
                    raise ClusterError(f"the cluster's workers all left, and none came for "
                                       f"{WORKER_WAIT_SECONDS} s") from None
                raise ClusterError("the workers that can run gpuhist left the cluster, and its "
                                   "others cannot run gpuhist") from None


class ClusterError(RuntimeError):
    """The cluster cannot count: it has no worker, or none that can import gpuhist."""


class ClusterWarning(UserWarning):
    """Some of the cluster's workers cannot run gpuhist: the others count the data set."""


# How long a cluster may take to have a worker before it is taken to have none.
WORKER_WAIT_SECONDS = 30


def _ready(device):
    """A worker's answer before the tasks: the device named opened (and kept for them) on
    the worker, where the tasks run, not where the data set is asked for (a login node
    without the cluster's GPUs); then allowed_cores(). The device's error is returned, not
    raised, so that the worker does not log it with its traceback as well."""
    if device is not None:
        try:
            _context(device)
        except (ValueError, _gpuhist.GpuError) as error:
            return error
    return allowed_cores()


def _check_workers(client, device=None):
    """Each worker's allowed_cores(), as client.run gives them (an exception for a worker
    that cannot run gpuhist or open `device`); ClusterError where the cluster has no worker
    after WORKER_WAIT_SECONDS, or none that can run gpuhist (its tasks would wait for ever);
    the error itself where the device is the cause on every worker (ValueError for one that
    does not exist, GpuError)."""
    try:
        client.wait_for_workers(1, timeout=WORKER_WAIT_SECONDS)
    except TimeoutError:
        raise ClusterError(f"the cluster has no worker (waited {WORKER_WAIT_SECONDS} s)") from None
    answers = client.run(_ready, device, on_error="return")
    if answers and all(isinstance(a, BaseException) for a in answers.values()):
        # The device's error where a worker could run gpuhist but not open the device.
        for error in answers.values():
            if isinstance(error, (ValueError, _gpuhist.GpuError)):
                raise error
        raise ClusterError("no worker of the cluster can run gpuhist: "
                           f"{_error_text(next(iter(answers.values())))}")
    return answers


def _error_text(error):
    """A worker's error as one says it: "ModuleNotFoundError: No module named 'gpuhist'"
    (Dask hands some over wrapped in a plain Exception)."""
    if type(error) is Exception and len(error.args) == 1 and isinstance(error.args[0],
                                                                         BaseException):
        error = error.args[0]
    if type(error) is Exception and len(error.args) == 1 and isinstance(error.args[0], str):
        return error.args[0]
    return f"{type(error).__name__}: {error}"


def _total_entry(result, total, percentiles=()):
    entry = {"file": "(total)", "files": len(result.records)}
    entry.update(total.to_dict(percentiles))
    entry["failed"] = [{"file": _shown(p), "error": e} for p, e in result.failed]
    return entry


def _shown(path):
    """A name as the command line shows it: bytes that are not UTF-8 (undecodable in a
    file name, escaped by os.fsdecode) as U+FFFD."""
    return os.fsencode(path).decode("utf-8", "replace")


# A percentile as the command line writes one: decimal, a sign and an exponent allowed,
# spaces around it (as compute's).
_PERCENTILE = re.compile(r" *[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)? *")


def _percentiles(text):
    """--percentiles' list: numbers from 0 to 100 separated by commas (argparse's type)."""
    values = []
    for item in text.split(","):
        if not _PERCENTILE.fullmatch(item) or not 0 <= float(item) <= 100:
            raise argparse.ArgumentTypeError(
                f"'{_one_line(text)}' is not numbers from 0 to 100 separated by commas")
        values.append(float(item) + 0.0)  # -0 as 0
    return tuple(values)


def _one_line(text):
    """`text` on one line, as the command line writes its messages: line breaks and other
    control characters (which file names may hold) as \\n, \\r, \\t or \\xHH."""
    escapes = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    return "".join(c if " " <= c != "\x7f" else escapes.get(c, f"\\x{ord(c):02X}")
                   for c in text)


def _say(kind, text):
    """One line on stderr: "gpuhist: error: TEXT" (or warning)."""
    print(f"gpuhist: {kind}: {_one_line(text)}", file=sys.stderr)


def _output_problem(output, inputs):
    """(status, message) where -o cannot be written or is one of the inputs, else None.
    The output is written beside its target and renamed onto it: an input it would replace
    is the file at its path (a hard link elsewhere keeps its contents), so only inputs of
    its name are looked at."""
    folder = os.path.dirname(os.path.abspath(output)) or "."
    if not os.path.isdir(folder):
        return 4, "cannot write: No such file or directory"
    if os.path.isdir(output):
        return 4, "cannot write: Is a directory"
    if os.path.isfile(output):
        target = os.path.realpath(output)
        name = os.path.basename(target)
        for f in inputs:
            if os.path.basename(f) == name or os.path.islink(f):
                if os.path.realpath(f) == target:
                    return 2, "is one of the inputs: it would be overwritten"
    return None


def _may_follow(link):
    """Whether the link `link` may be written through: not another user's link in a folder
    everyone may write to (/tmp), as the kernel's protected_symlinks rule and the command
    line's outputs do not follow it."""
    try:
        own = os.lstat(link)
        folder = os.stat(os.path.dirname(os.path.abspath(link)))
    except OSError:
        return False
    shared = bool(folder.st_mode & stat.S_ISVTX) and bool(folder.st_mode & stat.S_IWOTH)
    return not shared or own.st_uid in (os.geteuid(), folder.st_uid)


def _write_output(output, data):
    """Writes `data` to the file `output` as the command line writes its outputs: a link's
    target through the link, one that is not a regular file (a pipe, /dev/null) in place,
    a regular one complete or not at all (a new temporary file beside it, made for this run
    alone, renamed over it when whole). 0, or 4 with one line said."""
    tmp = None
    try:
        if os.path.islink(output) and not _may_follow(output):
            raise OSError(0, "a link in a folder everyone may write to, owned by another "
                             "user: not followed")
        target = os.path.realpath(output)
        # Decided on the name given: /dev/stdout's link leads to "pipe:[N]", no path.
        if os.path.exists(output) and not os.path.isfile(output):
            with open(output, "w", encoding="utf-8") as f:
                f.write(data)
            return 0
        folder, name = os.path.split(target)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}-", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
        if os.path.exists(target):
            shutil.copymode(target, tmp)
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, target)
        return 0
    except OSError as e:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        _say("error", f"{_shown(output)}: cannot write: {e.strerror or e}")
        return 4


def _write_stdout(data):
    """Writes `data` to standard output: 0; 4 with one line where it cannot be written (a
    full disk, a closed descriptor); a reader that went away ends the process by SIGPIPE,
    as the command line's tools end."""
    try:
        if sys.stdout is None:
            raise OSError(0, "standard output is closed")
        sys.stdout.write(data)
        sys.stdout.flush()
        return 0
    except BrokenPipeError:
        # Nothing more goes to the pipe, not even at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGPIPE)
        return 4  # (not reached)
    except (OSError, ValueError) as e:
        _say("error", f"standard output: cannot write: {getattr(e, 'strerror', None) or e}")
        try:
            # What is left in its buffer is dropped, not written again at exit.
            sys.stdout = open(os.devnull, "w", encoding="utf-8")
        except OSError:
            pass
        return 4


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m gpuhist.dataset",
        description="The merged histograms of a data set, counted on a Dask cluster.")
    parser.add_argument("paths", nargs="+", help="files, folders or glob patterns")
    parser.add_argument("--scheduler", help="a Dask scheduler's address (default: a LocalCluster)")
    parser.add_argument("--format", choices=("json", "csv"), default="json")
    parser.add_argument("-o", "--output", help="write here (default: standard output)")
    parser.add_argument("--bins", type=int, default=256)
    parser.add_argument("--batch", type=int, default=64, help="files per task")
    parser.add_argument("--luma", default="709")
    parser.add_argument("--device", help="the device every worker opens: auto, cpu, an index or a "
                        "piece of a name (default: each worker its own GPU, else auto)")
    parser.add_argument("--max-pixels", type=int, default=1 << 28,
                        help="files of more pixels than this are failures, as compute's")
    parser.add_argument("--formats", choices=("common", "all"), default="common",
                        help="common: JPEG, PNG, TIFF, WebP, OpenEXR, GIF, BMP, PNM, HDR, Targa, "
                        "DPX; all: also every other format the image library reads, as "
                        "compute's")
    parser.add_argument("--percentiles", type=_percentiles, default=(),
                        help="also give these percentiles of every channel, e.g. 5,25,75,95 "
                        "(json)")
    args = parser.parse_args(argv)
    if args.percentiles and args.format != "json":
        parser.error("--percentiles needs --format json")
    # Dask's own log (its INFO lines, the tracebacks it logs of a lost scheduler) is not for
    # the command's stderr, whose errors are one line each; DASK_LOGGING__DISTRIBUTED set
    # by the user is kept. Read when distributed is first imported, here and by the workers
    # of the cluster started here.
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")
    # Standard output, by any of its names: written to, not replaced (a log it appends to).
    if args.output in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"):
        args.output = "-"
    all_formats = args.formats == "all"
    files, problems = _expand(args.paths, all_formats)
    # The output, before anything is counted: not one of the inputs (it would be
    # replaced), and in a folder that exists.
    if args.output and args.output != "-":
        problem = _output_problem(args.output, files)
        if problem is not None:
            status, message = problem
            _say("error", f"{_shown(args.output)}: {message}")
            return status
    try:
        _check_options(args.bins, args.batch, args.luma, args.device, args.max_pixels)
        # A folder without image files is kept, and reported with the failures.
        # A ClusterWarning as one line; others as Python shows them, once the recording
        # (which would record what is shown again) is over.
        said = []
        try:
            with warnings.catch_warnings(record=True) as said:
                warnings.simplefilter("always", ClusterWarning)
                result = _count(files, problems, None, args.scheduler, args.bins, args.batch,
                                args.luma, args.device, args.max_pixels, sys.stderr.isatty(),
                                all_formats)
        finally:
            for warning in said:
                if issubclass(warning.category, ClusterWarning):
                    _say("warning", f"{warning.message}")
                else:
                    warnings.showwarning(warning.message, warning.category, warning.filename,
                                         warning.lineno)
    except ValueError as e:
        _say("error", f"{_said(e)}")
        return 2
    except _gpuhist.GpuError as e:
        _say("error", f"{_said(e)}")
        return 3
    except (OSError, ClusterError) as e:  # the scheduler cannot be reached, or has no worker
        _say("error", f"{_said(e)}")
        return 3
    except CancelledError:  # the scheduler went away: its tasks with it
        print("gpuhist: error: the cluster failed: the scheduler, or the connection to it, was "
              "lost", file=sys.stderr)
        return 3
    except Exception as e:  # noqa: BLE001 — Dask's own failures (a task's workers all lost)
        _say("error", f"the cluster failed: {type(e).__name__}: {e}")
        return 70
    text = io.StringIO()
    # Nothing readable: a zero total of every channel, as `gpuhist compute --merge` gives.
    total = result.total if result.total is not None else _gpuhist.Histogram(args.bins)
    if args.format == "json":
        json.dump(_total_entry(result, total, args.percentiles), text)
        text.write("\n")
    else:
        writer = csv.writer(text, lineterminator="\n")
        # The command line's columns: every channel, those a grey-only set lacks empty.
        writer.writerow(["file", "bin", *_CHANNELS])
        rows = dict(zip(total.channels, total.counts))
        for b in range(total.bins):
            writer.writerow(["(total)", b, *(int(rows[c][b]) if c in rows else ""
                                             for c in _CHANNELS)])
    for record in result.records:
        # (Rows of workers before "warning" or "notes" was a field are shorter.)
        warning = record[7] if len(record) > 7 else None
        if warning is not None:
            _say("warning", f"{_shown(record[0])}: {_gpuhist._damage_warning(warning)}")
        for note in (record[8] if len(record) > 8 else ()):
            _say("warning", f"{_shown(record[0])}: {note}")
    for path, error in result.failed:
        # (The module names its arguments; this command's options are --max-pixels and
        # --formats.)
        error = error.replace("(max_pixels)", "(--max-pixels)").replace(
            "(all_formats=True tries", "(--formats all tries")
        _say("error", f"{_shown(path)}: {error}")
    if args.output and args.output != "-":
        written = _write_output(args.output, text.getvalue())
        if written != 0:
            return written
    else:
        written = _write_stdout(text.getvalue())
        if written != 0:
            return written
    if result.total is None:
        print("gpuhist: error: no readable image", file=sys.stderr)
        return 1
    return 1 if result.failed else 0


if __name__ == "__main__":
    # Run as gpuhist.dataset, not __main__: the tasks' functions then reach the workers by
    # name (importable there) instead of pickled with this module's globals.
    from gpuhist.dataset import main as _main

    try:
        sys.exit(_main())
    except KeyboardInterrupt:
        pass
    # Ended by the interrupt, as the command line's tools end, without Python's traceback
    # (the cluster started here is closed on the way out). Out of the handler, the
    # interrupted frames are gone: collected, the cluster's queues release their semaphores,
    # which the signal's end would leave to multiprocessing's tracker to warn of.
    import gc
    gc.collect()
    sys.stderr.flush()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)
