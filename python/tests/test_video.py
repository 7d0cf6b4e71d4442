"""gpuhist.video: every frame's histograms, against the frames themselves."""
import json
import os
import re
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import gpuhist
from oracle import histograms


def make_clip(folder, frames, rate):
    """A Matroska clip of PNG frames: decoded as RGB with no conversion, so exactly `frames`
    (an (N, H, W, 3) uint8 array)."""
    raw = folder / "frames.rgb"
    raw.write_bytes(frames.tobytes())
    clip = folder / "clip.mkv"
    height, width = frames.shape[1:3]
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
                    "-s", f"{width}x{height}", "-r", str(rate), "-i", str(raw), "-c:v", "png",
                    str(clip)], check=True)
    return clip


def test_every_frame_of_a_clip_is_counted(tmp_path):
    rng = np.random.default_rng(5)
    frames = rng.integers(0, 256, (7, 36, 52, 3), dtype=np.uint8)
    clip = make_clip(tmp_path, frames, rate=10)
    video = gpuhist.video(str(clip), 64)
    assert (video.width, video.height) == (52, 36) and video.frame_rate == pytest.approx(10)
    got = list(video)
    assert [i for i, _, _ in got] == list(range(7))
    assert [t for _, t, _ in got] == pytest.approx([k / 10 for k in range(7)])
    for k, (_, _, h) in enumerate(got):
        np.testing.assert_array_equal(h.counts, histograms(frames[k], 64))
    assert video.errors == 0
    with pytest.raises(StopIteration):
        next(video)
    # The same counts on a GPU strategy, and from a Context.
    assert [h for _, _, h in gpuhist.video(str(clip), 64, strategy="gpu")] == [h for _, _, h in got]
    assert [h for _, _, h in gpuhist.Context("cpu").video(str(clip), 64)] == [h for _, _, h in got]


def test_two_threads_share_one_iterator(tmp_path):
    rng = np.random.default_rng(6)
    frames = rng.integers(0, 256, (20, 24, 32, 3), dtype=np.uint8)
    clip = make_clip(tmp_path, frames, rate=25)
    video = gpuhist.video(str(clip))
    seen = [[], []]

    def take(k):
        for index, _, h in video:
            seen[k].append((index, h))

    threads = [threading.Thread(target=take, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got = sorted(seen[0] + seen[1], key=lambda x: x[0])
    assert [i for i, _ in got] == list(range(20))
    for index, h in got:
        np.testing.assert_array_equal(h.counts, histograms(frames[index]))


def threads_running():
    """The process's threads, native ones included."""
    return len(os.listdir("/proc/self/task"))


def settled_threads(expected, seconds=10):
    """The thread count once it is `expected`, or what it is after `seconds`: a joined
    thread stays listed in /proc/self/task for a moment after the join returns."""
    deadline = time.monotonic() + seconds
    count = threads_running()
    while count != expected and time.monotonic() < deadline:
        time.sleep(0.01)
        count = threads_running()
    return count


def test_an_iterator_left_part_way_stops_its_threads(tmp_path):
    """Frames are decoded ahead on threads of the iterator's own: one dropped after a frame,
    or before any, stops and joins them (no hang, none left running), and others still count."""
    rng = np.random.default_rng(7)
    frames = rng.integers(0, 256, (40, 24, 32, 3), dtype=np.uint8)
    clip = make_clip(tmp_path, frames, rate=25)
    got = list(gpuhist.video(str(clip)))  # the counting threads, kept, start here
    assert [i for i, _, _ in got] == list(range(40))
    np.testing.assert_array_equal(got[-1][2].counts, histograms(frames[-1]))
    time.sleep(0.2)  # the ended iterator's threads leave /proc/self/task
    before = threads_running()
    for _ in range(4):
        video = gpuhist.video(str(clip))
        index, _, h = next(video)
        assert index == 0
        np.testing.assert_array_equal(h.counts, histograms(frames[0]))
        del video
    unread = [gpuhist.video(str(clip)) for _ in range(6)]
    del unread
    assert settled_threads(before) == before
    assert [h for _, _, h in gpuhist.video(str(clip))] == [h for _, _, h in got]


def test_a_file_that_is_not_a_video(tmp_path, data):
    with pytest.raises(FileNotFoundError):
        gpuhist.video(str(tmp_path / "missing.mp4"))
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video at all" * 10)
    with pytest.raises(OSError, match="junk.mp4"):
        list(gpuhist.video(str(junk)))
    with pytest.raises(ValueError):
        next(iter(gpuhist.video(str(data / "coffee.png"), bins=0)))


def test_ctrl_c_while_a_video_opens_is_a_keyboard_interrupt(tmp_path):
    # A pipe no one writes to: opening it waits until Ctrl-C, which must come
    # back as KeyboardInterrupt, not as the read's "Interrupted system call".
    fifo = tmp_path / "waits.mp4"
    os.mkfifo(fifo)
    script = (
        "import os, signal, threading, gpuhist\n"
        "threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
        "try:\n"
        f"    gpuhist.video({str(fifo)!r})\n"
        "except KeyboardInterrupt:\n"
        "    print('KeyboardInterrupt')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout == "KeyboardInterrupt\n", done.stdout + done.stderr


def test_ctrl_c_while_a_stream_stalls_is_a_keyboard_interrupt(tmp_path):
    # A stream that stops coming after its first frames (its writer waits):
    # the next frame is waited for until Ctrl-C, which must end the wait.
    clip = tmp_path / "clip.ts"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", "testsrc2=size=32x32:rate=10", "-frames:v", "30", "-c:v", "libx264",
                    str(clip)], check=True)
    fifo = tmp_path / "stalls.ts"
    os.mkfifo(fifo)
    script = (
        "import os, signal, sys, threading, time, gpuhist\n"
        f"data = open({str(clip)!r}, 'rb').read()\n"
        "def feed():\n"
        f"    with open({str(fifo)!r}, 'wb') as pipe:\n"
        "        pipe.write(data)\n"
        "        pipe.flush()\n"
        "        time.sleep(60)\n"
        "threading.Thread(target=feed, daemon=True).start()\n"
        f"video = gpuhist.video({str(fifo)!r})\n"
        "frames = 0\n"
        "started = time.monotonic()\n"
        "threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
        "try:\n"
        "    for _ in video:\n"
        "        frames += 1\n"
        "except KeyboardInterrupt:\n"
        "    print('KeyboardInterrupt', frames, round(time.monotonic() - started))\n"
        "sys.stdout.flush()\n"
        "os._exit(0)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    words = done.stdout.split()
    assert words[:1] == ["KeyboardInterrupt"], done.stdout + done.stderr
    # Frames came before the stall; the interrupt was heard within seconds, not at the end.
    assert int(words[1]) > 0 and int(words[2]) < 10, done.stdout
    # A signal handler that takes a frame from the iterator waiting for one is refused.
    again = script.replace("os.kill(os.getpid(), signal.SIGINT)", "os.kill(os.getpid(), signal.SIGUSR1)")
    again = again.replace("threading.Timer(", "signal.signal(signal.SIGUSR1, lambda *_: next(video))\n"
                          "threading.Timer(", 1)
    again = again.replace("except KeyboardInterrupt:\n    print('KeyboardInterrupt', frames,",
                          "except RuntimeError as e:\n    print('RuntimeError', frames,")
    done = subprocess.run([sys.executable, "-c", again], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split()[:1] == ["RuntimeError"], done.stdout + done.stderr


def test_one_decoding_thread_decodes_damage_as_the_command_does(tmp_path, cli):
    """threads=1 decodes a damaged stream as `gpuhist video --decode-threads 1` (and `ffmpeg
    -threads 1`) does, every time; threads out of range are a ValueError."""
    clip = tmp_path / "clean.mkv"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", "testsrc2=size=160x120:rate=25", "-t", "2", "-c:v", "libx264", "-g", "10",
                    "-pix_fmt", "yuv420p", str(clip)], check=True)
    data = bytearray(clip.read_bytes())
    at = len(data) * 45 // 100
    data[at:at + 300] = np.random.default_rng(1).integers(0, 256, 300, dtype=np.uint8).tobytes()
    damaged = tmp_path / "damaged.mkv"
    damaged.write_bytes(bytes(data))
    rows = subprocess.run([cli, "video", str(damaged), "--device", "cpu", "--decode-threads", "1",
                           "--no-progress"], capture_output=True, text=True).stdout.splitlines()
    assert rows
    for _ in range(2):
        video = gpuhist.video(str(damaged), threads=1, device="cpu")
        got = [h for _, _, h in video]
        assert video.errors > 0
        assert len(got) == len(rows)
        for h, row in zip(got, rows):
            assert h.to_dict()["histograms"] == json.loads(row)["histograms"]
    for threads in (0, 65, -1):
        with pytest.raises(ValueError, match="threads"):
            gpuhist.video(str(clip), threads=threads)


def test_frames_are_converted_with_the_matrix_the_stream_declares(tmp_path):
    """An HD clip declaring Rec. 709, counted as the ffmpeg command line decodes it."""
    clip = tmp_path / "bt709.mp4"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", "testsrc2=size=64x36:rate=10", "-frames:v", "3", "-c:v", "libx264",
                    "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709",
                    "-color_trc", "bt709", str(clip)], check=True)
    decoded = subprocess.run(["ffmpeg", "-loglevel", "error", "-i", str(clip), "-f", "rawvideo",
                              "-pix_fmt", "rgb24", "-"], check=True, capture_output=True).stdout
    frames = np.frombuffer(decoded, np.uint8).reshape(3, 36, 64, 3)
    video = gpuhist.video(str(clip))
    assert video.colour == {"matrix": "bt709", "primaries": "bt709", "transfer": "bt709",
                            "range": "limited"}
    assert video.rotation == 0
    got = [h for _, _, h in video]
    assert len(got) == 3
    for k, h in enumerate(got):
        np.testing.assert_array_equal(h.counts, histograms(frames[k]))


def test_a_turned_clip_says_its_rotation_and_counts_as_coded(tmp_path):
    """A portrait phone clip coded landscape: its turn is given, its counts are its pixels'."""
    rng = np.random.default_rng(8)
    frames = rng.integers(0, 256, (2, 20, 30, 3), dtype=np.uint8)
    coded = make_clip(tmp_path, frames, rate=10)
    turned = tmp_path / "turned.mp4"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(coded), "-c:v", "copy",
                    "-metadata:s:v:0", "rotate=90", str(turned)], check=True)
    video = gpuhist.video(str(turned))
    assert video.rotation == 270 and not video.mirrored
    assert (video.width, video.height) == (30, 20)
    for k, (_, _, h) in enumerate(video):
        np.testing.assert_array_equal(h.counts, histograms(frames[k]))


def raw_planes(clip, pix_fmt, width, height, chroma, sample):
    """ffmpeg's own planes of every frame of `clip` in its decoded pixel format, no conversion:
    a list of (Y', Cb, Cr) arrays per frame (Y' alone where `chroma` is None)."""
    data = subprocess.run(["ffmpeg", "-loglevel", "error", "-i", str(clip), "-f", "rawvideo",
                           "-pix_fmt", pix_fmt, "-"], check=True, capture_output=True).stdout
    values = np.frombuffer(data, sample)
    luma = width * height
    sizes = [luma] + ([chroma[0] * chroma[1]] * 2 if chroma else [])
    frames, at = [], 0
    while at < values.size:
        planes = []
        for size in sizes:
            planes.append(values[at:at + size])
            at += size
        frames.append(planes)
    return frames


@pytest.mark.parametrize("pix_fmt, codec, bins, sample, shift, chroma", [
    ("yuv420p", "libx264", 256, np.uint8, 0, (25, 15)),
    ("yuv420p10le", "libx264", 1024, np.uint16, 0, (25, 15)),
    ("gray", "ffv1", 64, np.uint8, 2, None),
])
def test_ycbcr_planes_are_the_decoded_levels(tmp_path, pix_fmt, codec, bins, sample, shift,
                                             chroma):
    clip = tmp_path / "clip.mkv"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", "testsrc2=size=50x30:rate=10", "-frames:v", "3", "-c:v", codec,
                    "-pix_fmt", pix_fmt, str(clip)], check=True)
    expected = raw_planes(clip, pix_fmt, 50, 30, chroma, sample)
    assert len(expected) == 3
    got = list(gpuhist.video(str(clip), bins, space="ycbcr"))
    assert [i for i, _, _ in got] == [0, 1, 2]
    for (_, _, planes), want in zip(got, expected):
        assert list(planes) == ["y", "cb", "cr"][:len(want)]
        for name, levels in zip(["y", "cb", "cr"], want):
            h = planes[name]
            assert isinstance(h, gpuhist.PlaneHistogram) and isinstance(h, gpuhist.Histogram)
            assert h.plane == name and h.channels == (name,) and h.bins == bins
            expected_counts = np.bincount(levels.astype(np.int64) >> shift, minlength=bins)
            np.testing.assert_array_equal(h.counts[0], expected_counts)
            assert h.total() == levels.size
            stats = h.stats([50])
            assert list(stats) == [name] and stats[name]["count"] == levels.size
            assert list(h.to_dict()["histograms"]) == [name]
    # Merging each plane over the frames is exact, and keeps the plane.
    for name in list(got[0][2]):
        total = sum(planes[name] for _, _, planes in got)
        assert total.plane == name
        np.testing.assert_array_equal(total.counts, sum(p[name].counts for _, _, p in got))
        assert gpuhist.merge(planes[name] for _, _, planes in got) == total
    assert int(total.counts.sum()) == sum(len(w[-1]) for w in expected)


def test_planes_merge_pickle_and_load_by_name(tmp_path):
    clip = tmp_path / "clip.mkv"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", "testsrc2=size=32x16:rate=10", "-frames:v", "2", "-c:v", "libx264",
                    "-pix_fmt", "yuv420p", str(clip)], check=True)
    (_, _, first), (_, _, second) = gpuhist.video(str(clip), space="ycbcr")
    y, cb = first["y"], first["cb"]
    grey = gpuhist.Histogram.from_dict({"histograms": {"luminance": y.counts[0]}})
    # A plane merges with the same plane alone, whichever side it is on.
    def grey_plus_equals_y():
        total = gpuhist.Histogram(256, False)
        total += y

    for bad in (lambda: y + cb, lambda: y + grey, lambda: grey + y, lambda: sum([y, cb]),
                lambda: gpuhist.merge([cb, y]), lambda: gpuhist.merge([grey, y]),
                grey_plus_equals_y):
        with pytest.raises(ValueError, match="plane"):
            bad()
    with pytest.raises(TypeError):
        y + 1
    merged = y + second["y"]
    assert merged.plane == "y" and merged.total() == 2 * 32 * 16
    in_place = gpuhist.PlaneHistogram("y")
    in_place += y
    assert in_place == y and in_place is not y
    # Equal only to the same plane of the same counts.
    assert y != grey and grey != y
    assert y.__eq__(3) is NotImplemented and y != 3
    # Histogram's own __init__ and __setstate__ cannot remake a plane (pybind11 would abort).
    with pytest.raises(TypeError, match="PlaneHistogram"):
        gpuhist.Histogram.__init__(y, 256, False)
    with pytest.raises(TypeError, match="PlaneHistogram"):
        gpuhist.Histogram.__setstate__(y, grey.__getstate__())
    remade = gpuhist.PlaneHistogram.__new__(gpuhist.PlaneHistogram)
    remade.__setstate__(cb.__getstate__())
    assert remade == cb and remade.plane == "cb"
    assert cb != gpuhist.Histogram.from_dict({"histograms": {"cr": cb.counts[0]}})
    # Every pickle protocol, to_dict and from_dict keep the plane.
    import pickle
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(cb, protocol))
        assert type(back) is gpuhist.PlaneHistogram and back == cb
    loaded = gpuhist.Histogram.from_dict(cb.to_dict())
    assert type(loaded) is gpuhist.PlaneHistogram and loaded == cb
    assert gpuhist.compare(y, y)["y"]["intersection"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="same name"):
        gpuhist.compare(y, cb)
    for a, b in ((y, grey), (grey, y)):
        with pytest.raises(ValueError, match="plane"):
            gpuhist.compare(a, b)
    with pytest.raises(ValueError, match=r"not 'y\\x00'"):
        gpuhist.PlaneHistogram("y\0")
    # Exact or refused: counts that would pass 2**64 - 1.
    big = gpuhist.Histogram.from_dict({"histograms": {"y": [2**64 - 1, 0]}})
    one = gpuhist.Histogram.from_dict({"histograms": {"y": [0, 1]}})
    for bad in (lambda: big + one, lambda: gpuhist.merge([big, one])):
        with pytest.raises(ValueError, match=r"2\*\*64 - 1"):
            bad()
    with pytest.raises(ValueError, match=r"2\*\*64 - 1"):
        gpuhist._plane_histogram_from_state(("y", (2, False, ((2**64 - 1).to_bytes(8, "little")
                                                                * 2))))
    with pytest.raises(ValueError, match="plane"):
        gpuhist.PlaneHistogram("u")
    with pytest.raises(ValueError, match="bins"):
        gpuhist.PlaneHistogram("y", 0)
    with pytest.raises(ValueError, match="pickled"):
        gpuhist._plane_histogram_from_state(("y", (4, True, bytes(4 * 4 * 8))))
    assert repr(cb) == f"<gpuhist.PlaneHistogram cb, 256 bins, {16 * 8} samples>"


def test_a_plane_draws_under_its_own_name(tmp_path):
    """A plane draws as a grey histogram of its counts, whether its channels are
    left out or named by the plane's name; another plane's name is refused."""
    clip = tmp_path / "clip.mkv"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", "testsrc2=size=64x32:rate=10", "-frames:v", "1", "-c:v", "libx264",
                    "-pix_fmt", "yuv444p", str(clip)], check=True)
    ((_, _, planes),) = gpuhist.video(str(clip), space="ycbcr")
    context = gpuhist.Context("cpu")
    for name, plane in planes.items():
        grey = gpuhist.Histogram.from_dict({"histograms": {"luminance": plane.counts[0]}})
        want = gpuhist.draw(grey, size=(128, 40))
        assert (want[..., :3] == 255).all(axis=-1).any()  # bars, not an empty picture
        for drawn in (gpuhist.draw(plane, size=(128, 40)),
                      gpuhist.draw(plane, size=(128, 40), channels=[name]),
                      gpuhist.draw(plane, size=(128, 40), channels=list(plane.channels)),
                      context.draw(plane, size=(128, 40), channels=[name])):
            np.testing.assert_array_equal(drawn, want)
        other = "cr" if name == "y" else "y"
        for bad in (lambda: gpuhist.draw(plane, channels=[other]),
                    lambda: context.draw(plane, channels=[name, other])):
            with pytest.raises(ValueError, match=f"a {name} plane has no channel '{other}'"):
                bad()
    with pytest.raises(ValueError, match="unknown channel 'u'"):
        gpuhist.draw(planes["cb"], channels=["u"])


@pytest.mark.parametrize("pix_fmt, chroma", [("yuvj444p", (600, 400)), ("yuvj420p", (300, 200)),
                                            ("yuvj422p", (300, 400)), ("gray", None)])
def test_a_jpegs_planes_are_its_decoded_levels(tmp_path, data, cli, pix_fmt, chroma):
    """histogram_file(space="ycbcr") counts a JPEG's planes as ffmpeg decodes them, as
    `gpuhist compute --space ycbcr` does."""
    photo = tmp_path / "photo.jpg"
    if pix_fmt == "gray":  # ffmpeg's encoder writes no grey JPEG
        subprocess.run(["oiiotool", str(data / "coffee.png"), "--ch", "R", "-o", str(photo)],
                       check=True)
    else:
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(data / "coffee.png"),
                        "-pix_fmt", pix_fmt, str(photo)], check=True)
    (want,) = raw_planes(photo, pix_fmt, 600, 400, chroma, np.uint8)
    names = ["y", "cb", "cr"][:len(want)]
    for got in (gpuhist.histogram_file(photo, space="ycbcr"),
                gpuhist.Context("cpu").histogram_file(str(photo), 64, space="ycbcr")):
        assert list(got) == names
        for name, levels in zip(names, want):
            h = got[name]
            assert isinstance(h, gpuhist.PlaneHistogram) and h.plane == name
            np.testing.assert_array_equal(
                h.counts[0], np.bincount(levels.astype(np.int64) * h.bins // 256,
                                         minlength=h.bins))
    import json
    run = subprocess.run([cli, "compute", "--space", "ycbcr", "--format", "json", str(photo)],
                         check=True, capture_output=True, text=True)
    got = gpuhist.histogram_file(photo, space="ycbcr")
    assert json.loads(run.stdout)["histograms"] == {n: h.counts[0].tolist() for n, h in got.items()}


def test_luminance_weights_go_with_rgb_alone(data):
    """luma weighs RGB's luminance: with Y'CbCr planes, which have none, it is refused as
    `--luma` with `--space ycbcr` is, before any file is opened; unsaid, it is "709"."""
    said = re.escape('luma goes with space="rgb"')
    for luma in (601, "709"):
        with pytest.raises(ValueError, match=said):
            gpuhist.histogram_file(data / "rocket.jpg", space="ycbcr", luma=luma)
        with pytest.raises(ValueError, match=said):
            gpuhist.Context("cpu").histogram_file(data / "rocket.jpg", space="ycbcr", luma=luma)
        with pytest.raises(ValueError, match=said):
            gpuhist.video(data / "missing.mp4", space="ycbcr", luma=luma)
        with pytest.raises(ValueError, match=said):
            gpuhist.Context("cpu").video(data / "missing.mp4", space="ycbcr", luma=luma)
    unsaid = gpuhist.histogram_file(data / "rocket.jpg", device="cpu")
    np.testing.assert_array_equal(
        unsaid.counts, gpuhist.histogram_file(data / "rocket.jpg", device="cpu", luma=709).counts)


def test_a_jpegs_planes_refuse_other_files(tmp_path, data):
    with pytest.raises(OSError, match=re.escape(
            "counted from JPEG files, and this is a PNG file (count it with space=\"rgb\" instead)")):
        gpuhist.histogram_file(data / "coffee.png", space="ycbcr")
    with pytest.raises(FileNotFoundError):
        gpuhist.histogram_file(tmp_path / "missing.jpg", space="ycbcr")
    with pytest.raises(FileNotFoundError):
        gpuhist.histogram_file(tmp_path / "missing.tga", space="ycbcr")  # Targa: by its name
    with pytest.raises(IsADirectoryError):
        gpuhist.histogram_file(tmp_path, space="ycbcr")
    (tmp_path / "folder.tga").mkdir()
    with pytest.raises(IsADirectoryError):
        gpuhist.histogram_file(tmp_path / "folder.tga", space="ycbcr")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(OSError, match="empty.jpg: empty file"):
        gpuhist.histogram_file(empty, space="ycbcr")
    damaged = tmp_path / "damaged.jpg"
    damaged.write_bytes((data / "rocket.jpg").read_bytes()[:3000])
    with pytest.raises(OSError, match="damaged.jpg: corrupt"):
        gpuhist.histogram_file(damaged, space="ycbcr")
    with pytest.raises(ValueError, match="space"):
        gpuhist.histogram_file(data / "rocket.jpg", space="yuv")
    with pytest.raises(OSError, match=r"its 640x427 = 273280 pixels exceed the limit of 100 "
                                      r"\(max_pixels\)"):
        gpuhist.histogram_file(data / "rocket.jpg", space="ycbcr", max_pixels=100)
    header = tmp_path / "header.jpg"
    header.write_bytes((data / "rocket.jpg").read_bytes()[:300])
    with pytest.raises(OSError, match="header.jpg: corrupt or truncated JPEG"):
        gpuhist.histogram_file(header, space="ycbcr")


def test_ycbcr_refuses_what_is_not_planar(tmp_path):
    clip = tmp_path / "nv12.nut"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", "testsrc2=size=16x8:rate=10", "-frames:v", "1", "-c:v", "rawvideo",
                    "-pix_fmt", "nv12", str(clip)], check=True)
    with pytest.raises(OSError, match="nv12"):
        gpuhist.video(str(clip), space="ycbcr")
    with pytest.raises(ValueError, match="space"):
        gpuhist.video(str(clip), space="yuv")
