"""gpuhist.dataset on Dask: a LocalCluster of two worker processes, a
scheduler and two workers started as separate processes on localhost, a worker
killed mid-run; the total equals `gpuhist compute --merge` and numpy."""
import json
import os
import pathlib
import pickle
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import gpuhist
import gpuhist.dataset as ds
from oracle import histograms

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def dataset(tmp_path_factory, data):
    """40 small images (PNG, and the bundled JPEG and PNG), a corrupt
    file and an empty one, in nested folders."""
    root = tmp_path_factory.mktemp("set")
    rng = np.random.default_rng(11)
    expected = np.zeros((4, 256), np.uint64)
    for k in range(38):
        folder = root / f"part{k % 3}"
        folder.mkdir(exist_ok=True)
        pixels = rng.integers(0, 256, (17 + k, 23, 3), dtype=np.uint8)
        write_png(folder / f"img{k:02d}.png", 23, 17 + k, (r.tobytes() for r in pixels))
        expected += histograms(pixels)
    for name in ("coffee.png", "rocket.jpg"):
        shutil.copy(data / name, root / name)
        expected += histograms(gpuhist.read(str(data / name)))
    (root / "part0" / "corrupt.jpg").write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 100)
    (root / "part1" / "empty.png").write_bytes(b"")
    return root, expected


def check(result, expected, root):
    np.testing.assert_array_equal(result.total.counts, expected)
    assert len(result.rows) == 40
    assert sorted(os.path.basename(p) for p, _ in result.failed) == ["corrupt.jpg", "empty.png"]
    assert all(str(root) in p for p, _ in result.failed)
    paths = [r["path"] for r in result.rows]
    assert len(set(paths)) == len(paths)  # none counted twice


@pytest.fixture(scope="module")
def scheduler():
    """A LocalCluster of one worker process, kept for the module: the command's runs that
    test its options and outputs connect to it (--scheduler) rather than each starting a
    cluster of its own, which test_the_command_says_what_compute_says and the interrupt
    tests do."""
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address="127.0.0.1:0") as cluster:
        yield cluster.scheduler_address


def command(scheduler):
    """python3 -m gpuhist.dataset on `scheduler`."""
    return [sys.executable, "-m", "gpuhist.dataset", "--scheduler", scheduler]


def test_a_local_cluster_of_two_workers(dataset, cli, capfd):
    root, expected = dataset
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        result = ds.histograms(str(root), client=client, batch=7)
        check(result, expected, root)
        # Two unpinned workers of one thread on this machine share its cores: each task
        # decodes on half of them; a worker alone would decode on all.
        cores = len(os.sched_getaffinity(0))
        sharing = ds.core_sharing(client)
        assert sorted(sharing.values()) == [2, 2] and set(sharing) == set(client.nthreads())
        assert client.submit(ds._decode_threads, sharing, pure=False).result() == \
            max(1, cores // 2)
        assert client.submit(ds._decode_threads, {}, pure=False).result() == cores
        # The same as the command line's merged total.
        out = subprocess.run([cli, "compute", str(root), "--merge", "--format", "json",
                              "--device", "cpu"], capture_output=True, text=True)
        assert out.returncode == 1  # the corrupt and the empty file
        total = json.loads(out.stdout)[-1]
        assert total["file"] == "(total)" and total["files"] == 40
        assert result.total.to_dict()["histograms"] == total["histograms"]
        # A glob and a list give the same.
        globbed = ds.histograms(str(root / "**" / "*.png"), client=client, batch=5)
        assert globbed.total == ds.histograms(
            sorted(str(p) for p in root.rglob("*.png")), client=client).total
        by_name = {os.path.basename(r["path"]): r for r in result.rows}
        assert {"path", "bytes", "format", "width", "height", "channels", "dtype",
                "stats"} <= set(by_name["rocket.jpg"])
        rocket = by_name["rocket.jpg"]
        assert (rocket["format"], rocket["width"], rocket["height"], rocket["channels"],
                rocket["dtype"]) == ("jpeg", 640, 427, 3, "uint8")
        assert rocket["bytes"] == os.path.getsize(root / "rocket.jpg")
        assert by_name["img05.png"]["format"] == "png" and by_name["img05.png"]["height"] == 22
        # A device no worker has: the caller's ValueError, with no worker's traceback.
        capfd.readouterr()
        with pytest.raises(ValueError, match="no Vulkan device matches 'no-such-device'"):
            ds.histograms(str(root), client=client, device="no-such-device")
        assert "Traceback" not in capfd.readouterr().err
        # Nothing to count: a zero total of every channel, as `gpuhist compute --merge` gives.
        nothing = ds.histograms([], client=client, bins=64).total
        assert nothing.channels == ("red", "green", "blue", "luminance")
        assert nothing.counts.shape == (4, 64) and not nothing.counts.any()
        with pytest.raises(ValueError):
            ds.histograms(str(root), client=client, batch=0)
        # Bad options are the caller's error, not each file's.
        for kwargs in ({"bins": 0}, {"bins": 70000}, {"luma": "999"}, {"max_pixels": 0}):
            with pytest.raises(ValueError):
                ds.histograms(str(root), client=client, **kwargs)
        for kwargs in ({"bins": True}, {"bins": 64.0}, {"batch": "7"}, {"max_pixels": 1.5}):
            with pytest.raises(TypeError):
                ds.histograms(str(root), client=client, **kwargs)
        # Whole numbers of numpy's are whole numbers.
        assert ds.histograms(str(root / "part2"), client=client, bins=np.int64(64),
                             batch=np.uint8(5)).total == \
            ds.histograms(str(root / "part2"), client=client, bins=64).total
        # A failure's cause, the file named beside it rather than in it.
        causes = dict((os.path.basename(p), e) for p, e in result.failed)
        assert not any(e.startswith(str(root)) for e in causes.values()), causes
        assert causes["empty.png"] == "file is empty"


def write_png(path, width, height, rows, colour=2):
    """A PNG of 8-bit samples (colour 2: RGB, 0: grey) of `rows` (bytes each, in order),
    written by zlib without any image library."""
    import struct
    import zlib

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + \
            struct.pack(">I", zlib.crc32(kind + body))
    deflate = zlib.compressobj(9)
    data = b"".join(deflate.compress(b"\0" + row) for row in rows) + deflate.flush()
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height,
                                                                       8, colour, 0, 0, 0)) +
                     chunk(b"IDAT", data) + chunk(b"IEND", b""))


def blank_png(path, width, height):
    """An RGB PNG of black pixels, a few hundred kilobytes however large, written without
    holding its pixels."""
    row = bytes(3 * width)
    write_png(path, width, height, (row for _ in range(height)))


def test_a_file_that_kills_every_worker_is_a_failure_not_the_runs(data, tmp_path):
    # 432 MB of pixels where a worker may have 400 MB: its nanny ends it each time it
    # decodes the file. The task holding the file loses its workers on every try
    # (KilledWorker); its files are counted again one a task, and the one whose own task
    # is lost is in .failed; the others, in that task and the rest, are counted exactly.
    big = tmp_path / "big.png"
    blank_png(big, 12000, 12000)
    names = [str(data / "coffee.png"), str(big), str(data / "rocket.jpg"),
             str(data / "coffee.png")]
    expected = sum(gpuhist.histogram_file(n, device="cpu") for n in names if n != str(big))
    import dask
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     memory_limit="400MB", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        result = ds.histograms(names, client=client, batch=2, device="cpu")
    assert result.total == expected
    assert [r["path"] for r in result.rows] == [names[0], names[2], names[3]]
    assert result.failed == [(str(big), ds.LOST_CAUSE)]


def test_the_commands_exit_statuses(dataset, tmp_path, scheduler):
    root, _ = dataset
    bad = subprocess.run([sys.executable, "-m", "gpuhist.dataset", str(root), "--bins", "0"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "bins" in bad.stderr and bad.stdout == ""
    no_pixels = subprocess.run([*command(scheduler), str(root),
                                "--max-pixels", "0"], capture_output=True, text=True, timeout=120)
    assert no_pixels.returncode == 2 and "max_pixels is at least 1" in no_pixels.stderr
    nowhere = subprocess.run([*command(scheduler), str(root), "--device",
                              "no such device"], capture_output=True, text=True, timeout=120)
    assert nowhere.returncode == 2 and nowhere.stdout == ""
    assert "no Vulkan device matches 'no such device'" in nowhere.stderr
    unwritable = subprocess.run([*command(scheduler), str(root / "coffee.png"),
                                 "-o", str(tmp_path / "no" / "such" / "out.json")],
                                capture_output=True, text=True, timeout=120)
    assert unwritable.returncode == 4 and "cannot write" in unwritable.stderr
    assert not (tmp_path / "no").exists()
    # A folder as -o: refused before anything is counted, as a missing one is.
    (tmp_path / "folder").mkdir()
    into_folder = subprocess.run([*command(scheduler), str(root), "-o",
                                  str(tmp_path / "folder")], capture_output=True, text=True,
                                 timeout=60)
    assert into_folder.returncode == 4
    assert into_folder.stderr == f"gpuhist: error: {tmp_path / 'folder'}: cannot write: Is a " \
                                 "directory\n"
    # A name with a NUL character names no file: a failure of its own, before any task.
    assert ds._expand(["a\0b.png"]) == ([], [("a\0b.png", "no such file (a file name holds no "
                                                           "NUL character)")])
    assert ds._expand([""]) == ([], [("", "an empty file name")])
    # What is no path at all: a TypeError in the module's words.
    with pytest.raises(TypeError, match="paths is a folder, a glob or a list of paths .* not int"):
        ds.histograms(3)
    with pytest.raises(TypeError, match="a path is a str, bytes or os.PathLike, not NoneType"):
        ds.histograms(["a.png", None])
    # An output that is one of the inputs: refused before anything is counted.
    shutil.copy(root / "coffee.png", tmp_path / "input.png")
    onto = subprocess.run([*command(scheduler), str(tmp_path),
                           "-o", str(tmp_path / "input.png")], capture_output=True, text=True,
                          timeout=120)
    assert onto.returncode == 2 and "is one of the inputs" in onto.stderr, onto.stderr
    assert (tmp_path / "input.png").read_bytes() == (root / "coffee.png").read_bytes()
    # A named pipe is written through, a link's target replaced with the link kept.
    fifo = tmp_path / "rows.fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    piped = subprocess.run([*command(scheduler), str(root / "coffee.png"),
                            "-o", str(fifo)], capture_output=True, text=True, timeout=120)
    through = reader.communicate(timeout=60)[0]
    assert piped.returncode == 0 and json.loads(through.splitlines()[0])["bins"] == 256
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    target, link = tmp_path / "total.json", tmp_path / "link.json"
    target.write_text("old")
    link.symlink_to(target)
    linked = subprocess.run([*command(scheduler), str(root / "coffee.png"),
                             "-o", str(link), "--device", "cpu"],
                            capture_output=True, text=True, timeout=120)
    assert linked.returncode == 0 and link.is_symlink()
    assert json.loads(target.read_text().splitlines()[0])["bins"] == 256
    # /dev/stdout into a pipe: its link names no path ("pipe:[N]"), and is written through.
    stdout = subprocess.run([*command(scheduler), str(root / "coffee.png"),
                             "-o", "/dev/stdout"], capture_output=True, text=True, timeout=120)
    assert stdout.returncode == 0, stdout.stderr
    assert json.loads(stdout.stdout.splitlines()[0])["bins"] == 256
    # Standard output that cannot be written: one line and status 4, no traceback.
    with open("/dev/full", "w") as full:
        filled = subprocess.run([sys.executable, "-m", "gpuhist.dataset",
                                 str(root / "coffee.png")], stdout=full, stderr=subprocess.PIPE,
                                text=True, timeout=120)
    assert filled.returncode == 4
    assert filled.stderr == "gpuhist: error: standard output: cannot write: No space left on " \
                            "device\n"
    # The temporary file is a new one of this run's alone: a link planted where a name made
    # of the process number would be is not written through.
    planted = tmp_path / "planted.txt"
    planted.write_text("kept")
    made = tmp_path / "made.json"
    for pid in range(os.getpid(), os.getpid() + 200):
        os.symlink(planted, tmp_path / f".made.json-{pid}")
    guarded = subprocess.run([*command(scheduler), str(root / "coffee.png"),
                              "-o", str(made), "--device", "cpu"], capture_output=True,
                             text=True, timeout=120)
    assert guarded.returncode == 0, guarded.stderr
    assert planted.read_text() == "kept" and not made.is_symlink()
    assert json.loads(made.read_text().splitlines()[0])["bins"] == 256
    # Another user's link in a folder everyone may write to (as /tmp) is not followed,
    # as the command line does not follow it (made so where this test may change owners).
    if os.geteuid() == 0:
        shared = tmp_path / "shared"
        shared.mkdir()
        os.chmod(shared, 0o1777)
        foreign = shared / "out.json"
        foreign.symlink_to(planted)
        os.lchown(foreign, 65534, 65534)
        refused = subprocess.run([sys.executable, "-m", "gpuhist.dataset",
                                  str(root / "coffee.png"), "-o", str(foreign), "--device", "cpu"],
                                 capture_output=True, text=True, timeout=120)
        assert refused.returncode == 4
        assert refused.stderr.endswith("cannot write: a link in a folder everyone may write to, "
                                       "owned by another user: not followed\n"), refused.stderr
        assert planted.read_text() == "kept"


def test_the_command_says_what_compute_says(cli, tmp_path):
    """Grey images alone, a corrupt file and an empty folder: the same CSV columns as
    `gpuhist compute --merge`, each failure named once, the empty folder named."""
    grey, empty = tmp_path / "grey", tmp_path / "empty"
    grey.mkdir()
    empty.mkdir()
    rng = np.random.default_rng(5)
    for k in range(3):
        pixels = rng.integers(0, 256, (9 + k, 7), dtype=np.uint8)
        write_png(grey / f"g{k}.png", 7, 9 + k, (r.tobytes() for r in pixels), colour=0)
    (grey / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n broken")
    run = subprocess.run([sys.executable, "-m", "gpuhist.dataset", str(grey), str(empty),
                          "--format", "csv"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    errors = [line for line in run.stderr.splitlines() if line.startswith("gpuhist: error:")]
    assert f"gpuhist: error: {empty}: no image files in this folder" in errors
    broken = [line for line in errors if "broken.png" in line]
    assert len(broken) == 1 and broken[0].count("broken.png") == 1, broken
    assert not any("gpuhist: error: gpuhist:" in line for line in errors)
    cli_run = subprocess.run([cli, "compute", str(grey), "--merge", "--format", "csv",
                              "--device", "cpu"], capture_output=True, text=True)
    cli_lines = cli_run.stdout.splitlines()
    expected = [cli_lines[0]] + [line for line in cli_lines if line.startswith("(total),")]
    assert expected[0] == "file,bin,red,green,blue,luminance" and len(expected) == 257
    assert run.stdout.splitlines() == expected



def test_an_empty_folder_beside_readable_files_is_a_failure(data, tmp_path, scheduler, capsys):
    """Status 1, as for `gpuhist compute`, though every file was counted."""
    empty = tmp_path / "empty"
    empty.mkdir()
    shutil.copy(data / "coffee.png", tmp_path / "coffee.png")

    assert ds.main(["--scheduler", scheduler, str(empty), str(tmp_path / "coffee.png")]) == 1
    out, err = capsys.readouterr()
    assert f"gpuhist: error: {empty}: no image files in this folder" in err
    assert json.loads(out.splitlines()[0])["files"] == 1
    assert ds.main(["--scheduler", scheduler, str(tmp_path / "coffee.png")]) == 0


def test_a_decoders_warning_is_in_the_files_row_and_on_stderr(data, tmp_path, scheduler,
                                                               capsys):
    whole = (data / "rocket.jpg").read_bytes()
    end = whole.rindex(b"\xff\xd9")
    (tmp_path / "padded.jpg").write_bytes(whole[:end] + bytes(64) + whole[end:])
    shutil.copy(data / "rocket.jpg", tmp_path / "rocket.jpg")
    result = ds.count_batch(ds.expand(str(tmp_path)), 256, "709", "cpu", 1 << 28)
    rows = {os.path.basename(r["path"]): r for r in result.rows}
    assert "extraneous bytes before marker 0xd9" in rows["padded.jpg"]["warning"]
    assert rows["rocket.jpg"]["warning"] is None
    assert result.failed == []

    assert ds.main(["--scheduler", scheduler, str(tmp_path)]) == 0
    _, err = capsys.readouterr()
    assert err == (f"gpuhist: warning: {tmp_path / 'padded.jpg'}: "
                   f"{rows['padded.jpg']['warning']} (the file may be damaged; its pixels are "
                   "used as decoded)\n")


def test_what_counting_leaves_out_is_in_the_files_row_and_on_stderr(tmp_path, scheduler,
                                                                    capsys):
    subprocess.run(["oiiotool", "--pattern", "constant:color=0.25,0.5,0.75,1,0.125", "6x4", "5",
                    "--chnames", "R,G,B,A,Z", "-d", "float", "-o", str(tmp_path / "depth.exr")],
                   check=True)
    result = ds.count_batch([str(tmp_path / "depth.exr")], 256, "709", "cpu", 1 << 28)
    note = "its channel Z is not counted (R, G, B counted as RGB)"
    assert result.rows[0]["notes"] == (note,) and result.rows[0]["warning"] is None

    assert ds.main(["--scheduler", scheduler, str(tmp_path)]) == 0
    _, err = capsys.readouterr()
    assert err == f"gpuhist: warning: {tmp_path / 'depth.exr'}: {note}\n"


def test_folders_that_cannot_be_listed_links_that_loop_and_globs_of_folders(
        data, tmp_path, monkeypatch):
    """A folder that cannot be listed is a failure with its cause (as the command line says
    it), never dropped; a link that loops is kept, to be reported when read; a glob's
    folders are searched."""
    (tmp_path / "set" / "locked").mkdir(parents=True)
    (tmp_path / "set" / "sub").mkdir()
    shutil.copy(data / "coffee.png", tmp_path / "set" / "a.png")
    shutil.copy(data / "coffee.png", tmp_path / "set" / "sub" / "b.png")
    (tmp_path / "set" / "loop.png").symlink_to("loop.png")
    (tmp_path / "set" / "folder.png").symlink_to("sub")  # a link to a folder: not followed
    scandir = os.scandir

    def refusing(path="."):
        if os.path.basename(os.fsdecode(path)) == "locked":
            raise PermissionError(13, "Permission denied", path)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    files, problems = ds._expand(str(tmp_path / "set"))
    names = [os.path.relpath(f, tmp_path / "set") for f in files]
    assert names == ["a.png", "loop.png", os.path.join("sub", "b.png")]
    assert problems == [(str(tmp_path / "set" / "locked"),
                         "cannot list the folder: Permission denied")]
    # A folder that cannot be listed, named alone: its cause, not "no image files".
    locked = ds.histograms(str(tmp_path / "set" / "locked"))
    assert not locked.total.counts.any() and locked.failed == problems
    # A glob: its files, and the files of its folders, each once ("**" matches both); the
    # folder it cannot list is said (glob.glob passed it over in silence).
    for pattern in ("*", "**", "**/*.png", "*/*.png", "./**"):
        files, problems = ds._expand(str(tmp_path / "set" / pattern))
        if pattern != "*/*.png":
            assert sorted(os.path.basename(f) for f in files) == ["a.png", "b.png", "loop.png"]
        assert problems == [(str(tmp_path / "set" / "locked"),
                             "cannot list the folder: Permission denied")], pattern
    # "**" goes through no link to a folder, as bash's globstar: a link back up does not
    # loop (glob.glob's "**" went round it 40 times), a linked folder is not counted twice.
    (tmp_path / "set" / "sub" / "up").symlink_to("..")
    (tmp_path / "set" / "alias").symlink_to("sub")
    for pattern in ("**", "**/*", "**/*.png"):
        files, _ = ds._expand(str(tmp_path / "set" / pattern))
        names = sorted(os.path.relpath(f, tmp_path / "set") for f in files)
        assert names == ["a.png", "loop.png", os.path.join("sub", "b.png")], pattern
    # A link to a file is a file of its own, in a glob as in a folder's search (a glob
    # dropped it as the file it names, where the folder and the command line count it).
    (tmp_path / "set" / "sub" / "again.png").symlink_to("b.png")
    for pattern in ("set/sub/*.png", "set/sub"):
        files, _ = ds._expand(str(tmp_path / pattern))
        assert sorted(os.path.basename(f) for f in files) == ["again.png", "b.png"], pattern
    (tmp_path / "set" / "sub" / "again.png").unlink()
    # A link to a folder outside, matched by the pattern, is searched (its files found once).
    (tmp_path / "outside").mkdir()
    shutil.copy(data / "coffee.png", tmp_path / "outside" / "c.png")
    (tmp_path / "set" / "external").symlink_to(tmp_path / "outside")
    files, _ = ds._expand(str(tmp_path / "set" / "**" / "*"))
    assert sorted(os.path.relpath(f, tmp_path / "set") for f in files) == [
        "a.png", os.path.join("external", "c.png"), "loop.png", os.path.join("sub", "b.png")]


def test_rows_keep_the_names_given_one_a_path(data, tmp_path, monkeypatch):
    """The same file named two ways is two rows of those names; a name through a link is
    read where the link leads ("link/../x.png"), as the system and the command line read it."""
    (tmp_path / "real" / "inner").mkdir(parents=True)
    shutil.copy(data / "coffee.png", tmp_path / "real" / "x.png")
    (tmp_path / "link").symlink_to(tmp_path / "real" / "inner")
    monkeypatch.chdir(tmp_path)
    names = ["real/x.png", "./real/x.png", "link/../x.png"]
    result = ds.count_batch([os.path.join(os.getcwd(), n) for n in names], 256, "709", "cpu",
                            1 << 28, names=names)
    assert [r["path"] for r in result.rows] == names and result.failed == []


def test_a_cluster_that_cannot_count_is_said_at_once(monkeypatch):
    """No worker (after WORKER_WAIT_SECONDS): ClusterError, where the tasks would wait."""
    monkeypatch.setattr(ds, "WORKER_WAIT_SECONDS", 1)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            with pytest.raises(ds.ClusterError, match="the cluster has no worker"):
                ds.histograms([__file__], client=client)


def test_a_data_set_of_one_task_starts_one_worker(dataset, monkeypatch):
    """The LocalCluster started for a data set has no more workers than tasks: a lone
    worker's task decodes on every core, where a worker a core would leave all but one idle;
    its memory limit stays a core's share."""
    root, expected = dataset
    started = []

    class Recorded(distributed.LocalCluster):
        def __init__(self, *args, **kwargs):
            started.append((kwargs["n_workers"], kwargs["memory_limit"]))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(distributed, "LocalCluster", Recorded)
    check(ds.histograms(str(root), batch=64), expected, root)
    # Its memory is what each of a worker a core (or GPU) would have, not the machine's.
    from distributed.system import MEMORY_LIMIT
    gpus = ds._hardware_gpus()
    share = gpus if gpus > 1 else len(ds.allowed_cores())
    assert started == [(1, MEMORY_LIMIT // share)]


def test_percentiles_as_compute_gives_them(cli, data, scheduler):
    """--percentiles: the total's statistics with them, those of `compute --merge`; a list
    that is not one, or another format than json, refused before anything is counted."""
    asked = "2.5, 50,+99.9,1e1"
    run = subprocess.run([*command(scheduler), str(data), "--device", "cpu",
                          "--percentiles", asked], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    cli_run = subprocess.run([cli, "compute", str(data), "--merge", "--format", "json",
                              "--device", "cpu", "--percentiles", asked],
                             capture_output=True, text=True, check=True)
    expected = json.loads(cli_run.stdout)[-1]["stats"]
    assert json.loads(run.stdout)["stats"] == expected
    assert expected["red"]["p2.5"] <= expected["red"]["p10"] <= expected["red"]["p50"]
    for bad in (["--percentiles", "5,101"], ["--percentiles", ""], ["--percentiles", "nan"],
                ["--percentiles", "5,,6"], ["--percentiles", "5", "--format", "csv"]):
        refused = subprocess.run([*command(scheduler), str(data), *bad],
                                 capture_output=True, text=True, timeout=60)
        assert refused.returncode == 2 and refused.stdout == "", bad
        assert "--percentiles" in refused.stderr.splitlines()[-1], refused.stderr


def test_names_with_control_characters_are_one_line_as_compute_says_them(cli, tmp_path, scheduler):
    """A name holding a carriage return, an escape or a line break: its error one line on
    stderr, escaped as the command line escapes it (\\r, \\x1B, \\n)."""
    bad = tmp_path / "zz\r\x1bbad\nname.png"
    bad.write_bytes(b"not an image")
    # (Bytes: text mode would read a carriage return as a line break.)
    run = subprocess.run([*command(scheduler), str(bad), "--device", "cpu"],
                         capture_output=True, timeout=120)
    assert run.returncode == 1
    stderr = run.stderr.decode()
    errors = [line for line in stderr.split("\n") if "zz" in line]
    assert len(errors) == 1 and "zz\\r\\x1Bbad\\nname.png" in errors[0], stderr
    assert "\r" not in stderr and "\x1b" not in stderr
    said = subprocess.run([cli, "compute", str(bad), "--device", "cpu"], capture_output=True,
                          text=True)
    assert "zz\\r\\x1Bbad\\nname.png" in said.stderr.splitlines()[0], said.stderr


def test_nothing_readable_gives_the_commands_zero_total(tmp_path, scheduler, capsys):
    (tmp_path / "empty.png").write_bytes(b"")
    assert ds.main(["--scheduler", scheduler, str(tmp_path / "empty.png"), "--bins", "7"]) == 1
    out, err = capsys.readouterr()
    total = json.loads(out)
    assert total["files"] == 0 and total["bins"] == 7
    assert total["histograms"]["red"] == [0] * 7 and total["stats"]["luminance"]["count"] == 0
    assert ds.main(["--scheduler", scheduler, str(tmp_path / "empty.png"), "--bins", "3", "--format", "csv"]) == 1
    out, _ = capsys.readouterr()
    assert out.splitlines() == ["file,bin,red,green,blue,luminance", "(total),0,0,0,0,0",
                                "(total),1,0,0,0,0", "(total),2,0,0,0,0"]


def test_a_file_named_like_a_pattern_is_that_file(data, tmp_path):
    for name in ("shot[1].png", "shot1.png"):
        shutil.copy(data / "coffee.png", tmp_path / name)
    assert ds.expand(str(tmp_path / "shot[1].png")) == [str(tmp_path / "shot[1].png")]
    assert ds.expand(str(tmp_path / "shot?.png")) == [str(tmp_path / "shot1.png")]
    # A pattern matching nothing is kept, to be reported as missing rather than dropped.
    assert ds.expand(str(tmp_path / "none*.png")) == [str(tmp_path / "none*.png")]


def test_folders_in_a_list_are_searched_and_an_empty_one_reported(data, tmp_path):
    (tmp_path / "set" / "deep").mkdir(parents=True)
    (tmp_path / "empty").mkdir()
    shutil.copy(data / "coffee.png", tmp_path / "set" / "deep" / "a.png")
    shutil.copy(data / "rocket.jpg", tmp_path / "set" / "b.jpg")
    (tmp_path / "set" / "notes.txt").write_text("not an image")
    shutil.copy(data / "coffee.png", tmp_path / "one.png")
    listed = [tmp_path / "one.png", str(tmp_path / "set"), tmp_path / "empty"]
    files = ds.expand(listed)
    assert files == [str(tmp_path / "one.png"), str(tmp_path / "set" / "b.jpg"),
                     str(tmp_path / "set" / "deep" / "a.png"), str(tmp_path / "empty")]
    result = ds.count_batch(files, 256, "709", "cpu", 1 << 28)
    assert [os.path.basename(r["path"]) for r in result.rows] == ["one.png", "b.jpg", "a.png"]
    assert result.failed == [(str(tmp_path / "empty"), "no image files in this folder")]
    # A link to a missing file is kept and reported, as the command line reports it.
    (tmp_path / "set" / "gone.png").symlink_to("nowhere.png")
    linked = ds.count_batch(ds.expand(str(tmp_path / "set")), 256, "709", "cpu", 1 << 28)
    assert (str(tmp_path / "set" / "gone.png"), "no such file") in linked.failed
    # Named alone, as a string, bytes or a path, the empty folder is kept to be reported too.
    for alone in (str(tmp_path / "empty"), os.fsencode(tmp_path / "empty"), tmp_path / "empty"):
        assert ds.expand(alone) == [str(tmp_path / "empty")]
    alone = ds.count_batch(ds.expand(str(tmp_path / "empty")), 256, "709", "cpu", 1 << 28)
    assert len(alone.rows) == 0
    assert alone.failed == [(str(tmp_path / "empty"), "no image files in this folder")]


def test_every_format_the_library_reads_as_computes_formats_all(cli, data, tmp_path, scheduler):
    """all_formats (--formats all) searches folders for, and reads, every format the image
    library reads, as `gpuhist compute --formats all`; without it, such a file named is a
    failure whose message names the option that reads it."""
    subprocess.run(["oiiotool", str(data / "coffee.png"), "-o", str(tmp_path / "c.sgi")],
                   check=True)
    shutil.copy(data / "rocket.jpg", tmp_path / "rocket.jpg")
    sgi = str(tmp_path / "c.sgi")
    assert ds.expand(str(tmp_path)) == [str(tmp_path / "rocket.jpg")]
    assert ds.expand(str(tmp_path), all_formats=True) == [sgi, str(tmp_path / "rocket.jpg")]
    refused = ds.count_batch([sgi], 256, "709", "cpu", 1 << 28)
    assert refused.total is None and refused.failed[0][0] == sgi
    assert "(all_formats=True tries every format" in refused.failed[0][1]
    with pytest.raises(TypeError, match="all_formats is a bool, not str"):
        ds.histograms([sgi], all_formats="common")  # before any cluster starts
    read = ds.count_batch([sgi], 256, "709", "cpu", 1 << 28, all_formats=True)
    np.testing.assert_array_equal(read.total.counts,
                                  histograms(gpuhist.read(sgi, all_formats=True)))
    run = subprocess.run([*command(scheduler), str(tmp_path), "--formats",
                          "all", "--device", "cpu"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stderr == ""
    merged = subprocess.run([cli, "compute", str(tmp_path), "--formats", "all", "--merge",
                             "--format", "json", "--device", "cpu"], capture_output=True,
                            text=True, check=True)
    total = json.loads(merged.stdout)[-1]
    got = json.loads(run.stdout)
    assert got["files"] == total["files"] == 2 and got["histograms"] == total["histograms"]
    named = subprocess.run([*command(scheduler), sgi, "--device", "cpu"],
                           capture_output=True, text=True, timeout=120)
    assert named.returncode == 1
    assert named.stderr.splitlines()[0] == (
        f"gpuhist: error: {sgi}: cannot read image: sgi files are not read by default "
        "(--formats all tries every format the image library reads)")


def session_processes(session):
    """(pid, command line) of each process of the session `session`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat_line = pathlib.Path(f"/proc/{entry}/stat").read_text()
            cmdline = pathlib.Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile
        # pid (comm) state ppid pgrp session ...: comm may hold spaces and parentheses.
        fields = stat_line.rsplit(")", 1)[1].split()
        if int(fields[3]) == session:
            found.append((int(entry), cmdline.replace(b"\0", b" ").decode(errors="replace")))
    return found


@pytest.mark.parametrize("presses", [1, 2])
def test_an_interrupt_while_the_cluster_starts_ends_the_run(dataset, tmp_path, presses):
    """Ctrl-C reaches the whole process group, while the LocalCluster starts too: the run ends
    by the signal (it went on to the end before), with no output, no worker's traceback and
    no process left behind; pressed twice (the second ends a start that hangs), the same."""
    root, _ = dataset
    out = tmp_path / "total.json"
    run = subprocess.Popen([sys.executable, "-m", "gpuhist.dataset", str(root), "--device", "cpu",
                            "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, start_new_session=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        # The first worker process spawned: the cluster is starting.
        while not any("spawn_main" in c for _, c in session_processes(run.pid)):
            assert run.poll() is None and time.monotonic() < deadline, run.communicate()
            time.sleep(0.005)
        for press in range(presses):
            time.sleep(0.1 * press)
            os.killpg(run.pid, signal.SIGINT)
        said, complaints = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert run.returncode == -signal.SIGINT, said + complaints
    assert complaints == ""
    assert not out.exists()
    deadline = time.monotonic() + 10
    while session_processes(run.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert session_processes(run.pid) == []


def test_the_example_script_gives_the_merged_statistics(data, tmp_path):
    (tmp_path / "sub").mkdir()
    shutil.copy(data / "coffee.png", tmp_path / "sub" / "coffee.png")
    shutil.copy(data / "rocket.jpg", tmp_path / "rocket.jpg")
    (tmp_path / "notes.txt").write_text("not an image")  # passed over, as the CLI does
    script = pathlib.Path(__file__).resolve().parents[2] / "examples" / "dataset_stats.py"
    run = subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True,
                         text=True, env=dict(os.environ))
    assert run.returncode == 0, run.stderr
    images = [gpuhist.read(str(tmp_path / "sub" / "coffee.png")),
              gpuhist.read(str(tmp_path / "rocket.jpg"))]
    red = np.concatenate([im[..., 0].ravel() for im in images]).astype(np.float64)
    line = next(x for x in run.stdout.splitlines() if x.strip().startswith("red:"))
    # The statistics of the values themselves, as inputs are normalised (of 255).
    assert f"red: {red.size} pixels, mean {red.mean() / 255:.5f}, std {red.std() / 255:.5f}" in line
    # 16-bit images at a bin a level: exact too (of 65535).
    deep = tmp_path / "deep"
    deep.mkdir()
    pixels = np.random.default_rng(3).integers(0, 65536, (9, 13, 3), dtype=np.uint16)
    (deep / "p.raw").write_bytes(pixels.astype(">u2").tobytes())
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb48be",
                    "-s", "13x9", "-i", str(deep / "p.raw"), "-frames:v", "1",
                    str(deep / "p.png")], check=True)
    (deep / "p.raw").unlink()
    run = subprocess.run([sys.executable, str(script), str(deep), "--bins", "65536"],
                         capture_output=True, text=True, env=dict(os.environ))
    assert run.returncode == 0, run.stderr
    red = pixels[..., 0].astype(np.float64) / 65535
    line = next(x for x in run.stdout.splitlines() if x.strip().startswith("red:"))
    assert f"red: {red.size} pixels, mean {red.mean():.5f}, std {red.std():.5f}" in line
    # A folder without images is said to be one, not taken for a file.
    (tmp_path / "empty").mkdir()
    empty = subprocess.run([sys.executable, str(script), str(tmp_path / "empty")],
                           capture_output=True, text=True, env=dict(os.environ))
    assert empty.returncode == 1
    assert empty.stderr.splitlines() == [f"skipped: {tmp_path / 'empty'}: no image files in this "
                                         "folder", f"no readable image in {tmp_path / 'empty'}"]
    # A folder that cannot be listed is a failure too (status 1), named with its cause;
    # expand() gives it to a list of problems where one is passed. (Made unlistable for
    # this process alone where it runs as root, whom a mode of 000 does not stop.)
    locked = tmp_path / "locked"
    locked.mkdir()
    shutil.copy(data / "coffee.png", locked / "hidden.png")
    listed = os.scandir

    def refusing(path="."):
        if os.fspath(path).rstrip("/") == str(locked):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return listed(path)

    problems = []
    try:
        os.scandir = refusing
        files = gpuhist.dataset.expand(str(tmp_path), problems)
    finally:
        os.scandir = listed
    assert str(locked / "hidden.png") not in files and str(tmp_path / "rocket.jpg") in files
    assert len(problems) == 1 and problems[0][0] == str(locked), problems
    # The script, with the same folder refused to it.
    refused_run = (f"import os, runpy, sys\nlisted = os.scandir\n"
                   f"def refusing(path='.'):\n"
                   f"    if os.fspath(path).rstrip('/') == {str(locked)!r}:\n"
                   f"        raise PermissionError(13, 'Permission denied', os.fspath(path))\n"
                   f"    return listed(path)\n"
                   f"os.scandir = refusing\nsys.argv = [{str(script)!r}, {str(tmp_path)!r}]\n"
                   f"runpy.run_path({str(script)!r}, run_name='__main__')\n")
    unlisted = subprocess.run([sys.executable, "-c", refused_run], capture_output=True, text=True,
                              env=dict(os.environ))
    assert unlisted.returncode == 1, unlisted.stderr
    assert any(line.startswith(f"skipped: {locked}: ") for line in unlisted.stderr.splitlines()), \
        unlisted.stderr


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_workers(address, n, timeout=60):
    with distributed.Client(address, timeout=timeout) as client:
        client.wait_for_workers(n, timeout=timeout)


def killed_mid_run(run, worker, timeout):
    """What run() returns, or the exception it raises, when `worker` (a process) is killed
    0.7 s after it starts; fails where it finished before, or is still running `timeout`
    seconds after."""
    outcome = {}

    def call():
        try:
            outcome["value"] = run()
        except Exception as e:  # noqa: BLE001 — handed to the caller to check
            outcome["value"] = e

    t = threading.Thread(target=call)
    t.start()
    time.sleep(0.7)
    assert t.is_alive(), "the run finished before the worker could be killed"
    worker.send_signal(signal.SIGKILL)
    t.join(timeout=timeout)
    assert not t.is_alive(), "the run waited on after the worker was killed"
    return outcome["value"]


def test_a_scheduler_and_workers_as_processes_and_a_worker_killed(dataset, tmp_path):
    root, expected = dataset
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ)
    bindir = os.path.dirname(shutil.which("dask-scheduler") or "/usr/bin/dask-scheduler")
    procs = [subprocess.Popen([os.path.join(bindir, "dask-scheduler"), "--host", "127.0.0.1",
                               "--port", str(port), "--dashboard-address", ":0"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        # Each worker held to a core of its own where there are two (as on machines of
        # one core): then no other worker shares its cores.
        cpus = sorted(os.sched_getaffinity(0))
        for k in range(2):
            pin = ["taskset", "-c", str(cpus[k])] if len(cpus) >= 2 else []
            # Started in another folder: the files are named to them absolute.
            procs.append(subprocess.Popen(
                [*pin, os.path.join(bindir, "dask-worker"), address, "--nworkers", "1",
                 "--nthreads", "1", "--no-nanny", "--dashboard-address", ":0"], env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/"))
        wait_for_workers(address, 2)
        with distributed.Client(address) as client:
            sharing = ds.core_sharing(client)
            assert sorted(sharing.values()) == ([1, 1] if len(cpus) >= 2 else [2, 2])
            assert set(client.run(ds.allowed_cores).values()) == \
                ({(cpus[0],), (cpus[1],)} if len(cpus) >= 2 else {tuple(cpus)})
        # The command: the same total, as JSON, of the folder named relative to where it runs.
        out = tmp_path / "total.json"
        run = subprocess.run([sys.executable, "-m", "gpuhist.dataset", root.name, "--scheduler",
                              address, "--batch", "4", "-o", str(out)], capture_output=True,
                             text=True, env=env, timeout=300, cwd=root.parent)
        assert run.returncode == 1, run.stderr  # two files failed
        assert f"gpuhist: error: {root.name}/" in run.stderr  # named as given
        assert "corrupt.jpg" in run.stderr and "empty.png" in run.stderr
        total = json.loads(out.read_text())
        assert total["files"] == 40 and len(total["failed"]) == 2
        assert np.array_equal(
            np.array([total["histograms"][c] for c in ("red", "green", "blue", "luminance")],
                     np.uint64), expected)
        # A worker that cannot import gpuhist (another user's, on a shared cluster) is given
        # no task (it would stop on the first it cannot unpickle), said in one warning, and
        # is still there after; the others count the set, exactly.
        lacking = {k: v for k, v in env.items() if k != "PYTHONPATH"}
        if subprocess.run([sys.executable, "-c", "import gpuhist"], env=lacking, cwd="/",
                          capture_output=True).returncode != 0:
            procs.append(subprocess.Popen(
                [os.path.join(bindir, "dask-worker"), address, "--nworkers", "1", "--nthreads",
                 "1", "--no-nanny", "--dashboard-address", ":0"], env=lacking,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/"))
            wait_for_workers(address, 3)
            mixed_out = tmp_path / "mixed.json"
            mixed = subprocess.run([sys.executable, "-m", "gpuhist.dataset", root.name,
                                    "--scheduler", address, "--batch", "1", "-o",
                                    str(mixed_out)], capture_output=True, text=True, env=env,
                                   timeout=300, cwd=root.parent)
            assert mixed.returncode == 1, mixed.stderr
            assert ("gpuhist: warning: 1 of the cluster's 3 workers cannot run gpuhist "
                    "(ModuleNotFoundError") in mixed.stderr
            assert json.loads(mixed_out.read_text())["histograms"] == total["histograms"]
            assert procs[-1].poll() is None, "the worker without gpuhist stopped"
            procs[-1].terminate()
            procs[-1].wait(timeout=20)
            with distributed.Client(address) as client:
                deadline = time.monotonic() + 30
                while len(client.scheduler_info()["workers"]) > 2 and time.monotonic() < deadline:
                    time.sleep(0.1)
        # A worker killed while its tasks run: they run again on the other, exactly once each.
        with distributed.Client(address) as client:
            once = [str(p) for p in sorted(root.rglob("*.png"))]
            repeats = 60  # a few seconds of tasks: the kill lands mid-run
            result = killed_mid_run(
                lambda: ds.histograms(once * repeats, client=client, batch=1), procs[1], 240)
            assert isinstance(result, ds.DatasetResult), result
            single = ds.histograms(once, client=client)
            assert result.total == sum([single.total] * repeats)
            assert len(result.rows) == repeats * len(single.rows)
            assert len(result.failed) == repeats * len(single.failed)
            # Every worker killed mid-run, none coming back: ClusterError once the cluster
            # has had none for WORKER_WAIT_SECONDS (3 here), not a wait for ever, also
            # with Dask's progress bar (the command's on a terminal), which waits for every
            # task.
            waited, ds.WORKER_WAIT_SECONDS = ds.WORKER_WAIT_SECONDS, 3
            try:
                error = killed_mid_run(
                    lambda: ds.histograms(once * repeats, client=client, batch=1,
                                          progress=True), procs[2], 60)
                assert isinstance(error, ds.ClusterError), error
                assert "the cluster's workers all left" in str(error)
            finally:
                ds.WORKER_WAIT_SECONDS = waited
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_devices_are_shared_out_one_a_worker():
    assert ds.device_for_worker(0, 0) == "auto"
    assert [ds.device_for_worker(n, 2) for n in range(4)] == ["0", "1", "0", "1"]
    assert ds.device_for_worker("worker-x", 3) in {"0", "1", "2"}


def test_a_tasks_rows_travel_as_columns_and_read_back_as_stats(data, tmp_path):
    # A colour and a grey image, a corrupt one: the rows a task returns, pickled as Dask
    # moves them and merged, give each file's Histogram.stats() exactly.
    grey = tmp_path / "grey.png"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=37x21", "-frames:v", "1", "-pix_fmt", "gray",
                    str(grey)], check=True)
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 100)
    paths = [str(data / "coffee.png"), str(grey), str(corrupt), str(data / "rocket.jpg")]
    first = ds.count_batch(paths[:2], 256, "709", "cpu", 1 << 28)
    second = ds.count_batch(paths[2:], 256, "709", "cpu", 1 << 28)
    assert first.stats.shape == (2, 4, len(ds.STATISTICS))
    moved = pickle.loads(pickle.dumps(ds.merge_results(first, second)))
    assert [r["path"] for r in moved.rows] == [paths[0], paths[1], paths[3]]
    assert [p for p, _ in moved.failed] == [str(corrupt)]
    for row in moved.rows:
        h = gpuhist.histogram_file(row["path"], device="cpu")
        assert row["stats"] == h.stats()
        assert all(type(v) is int for k, v in row["stats"]["luminance"].items()
                   if k in ("count", "min", "max", "median", "p1", "p99"))
        assert row["bytes"] == os.path.getsize(row["path"])
    assert set(moved.rows[1]["stats"]) == {"luminance"}
    assert (moved.rows[1]["channels"], moved.rows[1]["format"]) == (1, "png")
    assert moved.total == ds.merge_results(first).total + ds.merge_results(second).total
    # A task of nothing but failures has no rows and no total.
    empty = ds.count_batch([str(corrupt)], 256, "709", "cpu", 1 << 28)
    assert empty.total is None and empty.rows == [] and ds.merge_results(empty).stats.shape[0] == 0
