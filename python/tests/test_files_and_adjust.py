"""Reading files, drawing, comparing and adjusting: the same values and bytes
as the command line gives for the same files."""
import collections.abc
import json
import os
import pathlib
import pickle
import re
import subprocess
import sys
import warnings
import zlib

import numpy as np
import pytest

import gpuhist
from oracle import histograms


def test_read_gives_the_stored_values(tmp_path):
    rng = np.random.default_rng(7)
    for dtype, pix_fmt in ((np.uint8, "rgb24"), (np.uint16, "rgb48be")):
        top = 255 if dtype == np.uint8 else 65535
        pixels = rng.integers(0, top + 1, (33, 47, 3), dtype=dtype)
        raw = tmp_path / "pixels.raw"
        raw.write_bytes(pixels.astype(">u2" if dtype == np.uint16 else np.uint8).tobytes())
        png = tmp_path / f"{pix_fmt}.png"
        # ffmpeg's own PNG encoder writes the samples as they are.
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", pix_fmt,
                        "-s", "47x33", "-i", str(raw), "-frames:v", "1", str(png)], check=True)
        image = gpuhist.read(str(png))
        assert image.dtype == dtype and image.shape == (33, 47, 3)
        np.testing.assert_array_equal(image, pixels)
        np.testing.assert_array_equal(gpuhist.histogram(image).counts, histograms(pixels))
        np.testing.assert_array_equal(gpuhist.histogram_file(str(png)).counts, histograms(pixels))


def test_a_png_whose_data_fails_its_crc_says_so_in_one_exception(data, tmp_path):
    """A damaged IDAT chunk is refused naming the chunk, before libpng reads it: no line of
    libpng's own ("libpng error: IDAT: CRC error") on the process's stderr."""
    png = bytearray((data / "coffee.png").read_bytes())
    at = png.index(b"IDAT") + 4 + 1000
    png[at] ^= 0xFF
    damaged = tmp_path / "damaged.png"
    damaged.write_bytes(bytes(png))
    done = read_in_a_process_of_its_own(damaged)
    assert done.stdout == 2 * (f"{damaged}: corrupt image: its PNG IDAT chunk's CRC does not "
                               "match its bytes\n"), done.stdout + done.stderr
    assert done.stderr == "", done.stderr


def read_in_a_process_of_its_own(path):
    """gpuhist.read and histogram_file of `path` in a fresh python3, each OSError printed:
    what reaches the process's stdout and stderr."""
    script = ("import sys, gpuhist\n"
              "for read in (gpuhist.read, gpuhist.histogram_file):\n"
              "    try:\n"
              "        read(sys.argv[1])\n"
              "    except OSError as e:\n"
              "        print(e)\n")
    return subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                          text=True, timeout=60)


def test_a_png_that_libpng_refuses_says_so_in_one_exception(tmp_path):
    """A row whose filter byte is not one of PNG's five (its chunks and zlib stream intact):
    libpng refuses it, and the OSError is all that is said; libpng's own "libpng error: bad
    adaptive filter value" does not reach the process's stderr."""
    def chunk(kind, body):
        return (len(body).to_bytes(4, "big") + kind + body +
                zlib.crc32(kind + body).to_bytes(4, "big"))
    rows = b"".join(bytes([7 if y == 2 else 0]) + bytes(range(y * 24, y * 24 + 24))
                    for y in range(4))
    damaged = tmp_path / "filter.png"
    damaged.write_bytes(b"\x89PNG\r\n\x1a\n" +
                        chunk(b"IHDR", (8).to_bytes(4, "big") + (4).to_bytes(4, "big") +
                              bytes([8, 2, 0, 0, 0])) +
                        chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    done = read_in_a_process_of_its_own(damaged)
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith(f"{damaged}: corrupt") and
                                   "bad adaptive filter value" in line for line in lines), \
        done.stdout + done.stderr
    assert done.stderr == "", done.stderr


def test_draw_gives_the_command_lines_picture(cli, data, tmp_path):
    path = data / "coffee.png"
    out = tmp_path / "h.png"
    subprocess.run([cli, "draw", str(path), "-o", str(out), "--size", "300x120", "--scale", "log",
                    "--device", "cpu"], check=True, capture_output=True)
    drawn = gpuhist.draw(gpuhist.histogram_file(str(path)), size=(300, 120), scale="log")
    assert drawn.shape == (120, 300, 4) and drawn.dtype == np.uint8
    np.testing.assert_array_equal(drawn[..., :3], gpuhist.read(str(out)))
    assert (drawn[..., 3] == 255).all()
    # On the software device: the same bytes.
    np.testing.assert_array_equal(
        gpuhist.draw(gpuhist.histogram_file(str(path)), size=(300, 120), scale="log",
                     device="auto"), drawn)
    with pytest.raises(ValueError):
        gpuhist.draw(gpuhist.histogram_file(str(path)), size=(0, 10))
    with pytest.raises(ValueError):
        gpuhist.draw(gpuhist.histogram_file(str(path)), channels=["alpha"])


def test_a_grey_histogram_draws_its_luminance(cli, tmp_path):
    """The default channels (red, green, blue) show a grey image's luminance, as
    `gpuhist draw` does, on the CPU and the software device alike."""
    rng = np.random.default_rng(4)
    grey = rng.integers(0, 256, (40, 60), dtype=np.uint8)
    ppm = tmp_path / "grey.pgm"
    ppm.write_bytes(b"P5 60 40 255\n" + grey.tobytes())
    out = tmp_path / "drawn.png"
    subprocess.run([cli, "draw", str(ppm), "-o", str(out), "--device", "cpu"], check=True,
                   capture_output=True)
    h = gpuhist.histogram(grey)
    drawn = gpuhist.draw(h)
    np.testing.assert_array_equal(drawn, gpuhist.draw(h, channels=["luminance"]))
    np.testing.assert_array_equal(drawn, gpuhist.draw(h, device="auto"))
    np.testing.assert_array_equal(drawn[..., :3], gpuhist.read(str(out)))
    assert (drawn[..., :3] == 255).all(axis=-1).any()  # white bars, not an empty picture


def test_channels_to_draw_are_a_name_or_a_list_of_names():
    rng = np.random.default_rng(5)
    h = gpuhist.histogram(rng.integers(0, 256, (20, 30, 3), dtype=np.uint8))
    for name in ("red", "luminance"):
        np.testing.assert_array_equal(gpuhist.draw(h, channels=name),
                                      gpuhist.draw(h, channels=[name]))
        np.testing.assert_array_equal(gpuhist.Context("cpu").draw(h, channels=name),
                                      gpuhist.draw(h, channels=(name,)))
    assert not np.array_equal(gpuhist.draw(h, channels="red"), gpuhist.draw(h, channels="blue"))

    # Sequences that make their items as they are asked for: a numpy array of str, and one
    # of fresh strings (each held while it is read).
    class Fresh(collections.abc.Sequence):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            if i >= 2:
                raise IndexError(i)
            return "".join(["re", "d"]) if i == 0 else "".join(["blu", "e"])

    both = gpuhist.draw(h, channels=["red", "blue"])
    np.testing.assert_array_equal(gpuhist.draw(h, channels=np.array(["red", "blue"])), both)
    np.testing.assert_array_equal(gpuhist.draw(h, channels=Fresh()), both)
    for bad, named in ((b"red", "not bytes"), (5, "not int"), (["red", 3], "not a list holding int")):
        with pytest.raises(TypeError, match=f"channels is a channel's name or a list of them .*{named}"):
            gpuhist.draw(h, channels=bad)
    # The command line's letters too: "rgb", "l", "rgbl".
    np.testing.assert_array_equal(gpuhist.draw(h, channels="rgb"),
                                  gpuhist.draw(h, channels=["red", "green", "blue"]))
    np.testing.assert_array_equal(gpuhist.draw(h, channels="l"), gpuhist.draw(h, channels="luminance"))
    np.testing.assert_array_equal(gpuhist.draw(h, channels=["rg", "luminance"]),
                                  gpuhist.draw(h, channels=["red", "green", "luminance"]))
    for bad in ("rgbx", "", "Red", "rr"):
        with pytest.raises(ValueError, match=f"unknown channel '{bad}' \\(red, green, blue or "
                                             "luminance, or letters of 'rgbl'"):
            gpuhist.draw(h, channels=bad)


def test_compare_gives_the_command_lines_metrics(cli, data):
    a, b = data / "coffee.png", data / "rocket.jpg"
    out = subprocess.run([cli, "compute", str(a), "--compare", str(b), "--format", "json",
                          "--device", "cpu"], check=True, capture_output=True, text=True).stdout
    entry = json.loads(out)
    entry = entry[0] if isinstance(entry, list) else entry
    metrics = gpuhist.compare(gpuhist.histogram_file(str(a)), gpuhist.histogram_file(str(b)))
    for channel, values in metrics.items():
        for name, value in values.items():
            assert value == pytest.approx(entry["comparison"][channel][name], rel=1e-12, abs=1e-15)
    assert set(metrics["red"]) == {"correlation", "chi_square", "intersection", "bhattacharyya",
                                   "kl_divergence", "emd"}
    with pytest.raises(ValueError):
        gpuhist.compare(gpuhist.histogram_file(str(a), 64), gpuhist.histogram_file(str(b)))


@pytest.mark.parametrize("verb,kwargs,args", [
    ("equalize", {}, []),
    ("equalize", {"channels": "each"}, ["--channels", "each"]),
    ("clahe", {"tiles": (4, 3), "clip_limit": 3.0}, ["--tiles", "4x3", "--clip-limit", "3"]),
    ("autolevel", {"low": 1.0, "high": 2.0}, ["--clip", "1,2"]),
    ("threshold", {}, []),
    ("threshold", {"method": 100}, ["--method", "100"]),
    ("threshold", {"method": "triangle"}, ["--method", "triangle"]),
])
def test_adjustments_give_the_command_lines_bytes(cli, data, tmp_path, verb, kwargs, args):
    path = data / "coffee.png"
    out = tmp_path / "out.png"
    subprocess.run([cli, verb, str(path), "-o", str(out), "--device", "cpu", *args], check=True,
                   capture_output=True)
    image = gpuhist.read(str(path))
    adjusted = getattr(gpuhist, verb)(image, **kwargs)
    assert adjusted.dtype == image.dtype
    np.testing.assert_array_equal(adjusted, gpuhist.read(str(out)))
    # A Context has the same method, with the same result.
    np.testing.assert_array_equal(getattr(gpuhist.Context("cpu"), verb)(image, **kwargs), adjusted)
    # A strided view (rows reversed) is adjusted as its pixels: for the adjustments
    # by the whole image's histogram, the result reversed.
    if verb != "clahe":
        flipped = getattr(gpuhist, verb)(image[::-1], **kwargs)
        np.testing.assert_array_equal(flipped, adjusted[::-1])


def test_match_and_its_errors(cli, data, tmp_path):
    a, b = data / "coffee.png", data / "rocket.jpg"
    out = tmp_path / "m.png"
    subprocess.run([cli, "match", str(a), "--reference", str(b), "-o", str(out), "--device", "cpu"],
                   check=True, capture_output=True)
    matched = gpuhist.match(gpuhist.read(str(a)), gpuhist.read(str(b)))
    np.testing.assert_array_equal(matched, gpuhist.read(str(out)))
    np.testing.assert_array_equal(
        gpuhist.Context("cpu").match(gpuhist.read(str(a)), gpuhist.read(str(b))), matched)
    # A reference of another dtype is a dtype error, as the README's rule has it.
    with pytest.raises(TypeError, match="the reference must have the image's dtype"):
        gpuhist.match(gpuhist.read(str(a)), gpuhist.read(str(b)).astype(np.uint16))
    with pytest.raises(TypeError):
        gpuhist.equalize(np.zeros((4, 4, 3), np.float32))
    # A list of numbers is named as what adjustments take, floats among them or not.
    for numbers in ([[1, 2]], [[0.5, 1.0]]):
        with pytest.raises(TypeError, match="adjustments take uint8 or uint16 images"):
            gpuhist.equalize(numbers)
    with pytest.raises(ValueError):
        gpuhist.equalize(np.zeros((4, 4, 3), np.uint8), channels="some")
    with pytest.raises(ValueError):
        gpuhist.threshold(np.zeros((4, 4, 3), np.uint8), method=300)


def test_match_counts_the_reference_by_the_images_weights(cli, tmp_path):
    """Green matched to red: the green level becomes the reference's red luminance level,
    by the weights asked for (Rec. 601's or 709's), from the module and the command."""
    image = np.zeros((2, 2, 3), np.uint8)
    image[0] = (0, 255, 0)
    reference = np.zeros((2, 2, 3), np.uint8)
    reference[0] = (255, 0, 0)
    img_png, ref_png = tmp_path / "green.png", tmp_path / "red.png"
    cv2 = pytest.importorskip("cv2")
    cv2.imwrite(str(img_png), image[..., ::-1])
    cv2.imwrite(str(ref_png), reference[..., ::-1])
    levels = set()
    for luma in ("601", "709"):
        red = gpuhist.histogram(reference, luma=luma).counts[3]
        level = int(np.flatnonzero(red)[-1])  # the red pixels' luminance level
        levels.add(level)
        matched = gpuhist.match(image, reference, luma=luma)
        assert matched[0, 0].tolist() == [0, level, 0]
        out = tmp_path / f"m{luma}.png"
        subprocess.run([cli, "match", str(img_png), "--reference", str(ref_png), "--luma", luma,
                        "-o", str(out), "--device", "cpu"], check=True, capture_output=True)
        np.testing.assert_array_equal(gpuhist.read(str(out)), matched)
    assert len(levels) == 2


def test_histogram_files_counts_every_file_in_order(data, tmp_path):
    """Many files decoded on several threads: each file's counts as numpy's, in the
    order given, every failure that file's own, whatever the thread count."""
    rng = np.random.default_rng(5)
    paths, expected = [], []
    for k, (dtype, pix_fmt) in enumerate([(np.uint8, "rgb24"), (np.uint16, "rgb48be"),
                                          (np.uint8, "gray")] * 3):
        top = 255 if dtype == np.uint8 else 65535
        shape = (9 + k, 13 + 2 * k) + (() if pix_fmt == "gray" else (3,))
        pixels = rng.integers(0, top + 1, shape, dtype=dtype)
        raw = tmp_path / "pixels.raw"
        raw.write_bytes(pixels.astype(">u2" if dtype == np.uint16 else np.uint8).tobytes())
        png = tmp_path / f"{k}.png"
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", pix_fmt,
                        "-s", f"{shape[1]}x{shape[0]}", "-i", str(raw), "-frames:v", "1", str(png)],
                       check=True)
        paths.append(str(png))
        expected.append(histograms(pixels, 64))
    paths.insert(2, str(tmp_path / "missing.png"))
    expected.insert(2, FileNotFoundError)
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 100)
    paths.insert(5, str(corrupt))
    expected.insert(5, OSError)
    # A name that is not UTF-8 comes back as it was given (os.fsdecode's escapes).
    odd = os.fsdecode(b"odd-\xff.jpg")
    (tmp_path / odd).write_bytes((data / "rocket.jpg").read_bytes())
    paths.append(str(tmp_path / odd))
    expected.append(gpuhist.histogram(gpuhist.read(str(data / "rocket.jpg")), 64).counts)
    for threads in (None, 1, 2, 3):
        files = gpuhist.histogram_files(paths, 64, threads=threads, device="cpu")
        assert len(files) == len(paths)
        assert files.threads == (threads or min(len(os.sched_getaffinity(0)), len(paths)))
        got = list(files)
        assert [f.path for f in got] == paths
        for f, want in zip(got, expected):
            if isinstance(want, type):
                assert f.histogram is None and isinstance(f.error, want), f
                assert f.path in str(f.error) or "corrupt" in str(f.error)
            else:
                assert f.error is None, f
                np.testing.assert_array_equal(f.histogram.counts, want)
    first = got[0]
    assert (first.width, first.height, first.channels, first.dtype, first.format) == \
        (13, 9, 3, "uint8", "png")
    assert (got[1].dtype, got[3].channels) == ("uint16", 1)
    assert "odd-" in repr(got[-1]) and "jpeg" in repr(got[-1])
    # A context's files, the same counts; options checked before anything is decoded.
    context = gpuhist.Context("cpu")
    assert [f.histogram for f in context.histogram_files(paths, 64)] == \
        [f.histogram for f in got]
    for kwargs in ({"bins": 0}, {"threads": 0}, {"luma": "2020"}):
        with pytest.raises(ValueError):
            gpuhist.histogram_files(paths, **kwargs)
    # Any iterable of paths (a generator, pathlib paths), but not one path.
    assert [f.histogram for f in gpuhist.histogram_files((pathlib.Path(p) for p in paths), 64)] \
        == [f.histogram for f in got]
    for one in (paths[0], pathlib.Path(paths[0]), paths[0].encode()):
        with pytest.raises(TypeError, match="not one path"):
            gpuhist.histogram_files(one)
    for bad in ([paths[0], 7], 7):
        with pytest.raises(TypeError):
            gpuhist.histogram_files(bad)
    big = gpuhist.histogram_files([paths[0]], max_pixels=100)
    assert "pixels" in str(next(big).error)


def test_histogram_files_from_several_threads(tmp_path, data):
    """Python threads sharing one iterator take each file once; an iterator left
    half-read stops its decoding threads."""
    import threading
    paths = [str(data / "coffee.png"), str(data / "rocket.jpg")] * 12
    files = gpuhist.histogram_files(paths, threads=2, device="cpu")
    taken, lock = [], threading.Lock()

    def take():
        for f in files:
            with lock:
                taken.append(f)

    workers = [threading.Thread(target=take) for _ in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(taken) == len(paths) and all(f.error is None for f in taken)
    assert sum(f.histogram for f in taken) == sum(
        gpuhist.histogram_file(p, device="cpu") for p in paths)
    half = gpuhist.histogram_files(paths, threads=3)
    next(half)
    del half


def test_files_are_named_by_str_bytes_or_pathlike(data, tmp_path):
    # A name that is not UTF-8, as os.listdir and glob give it (with surrogate escapes).
    odd = os.fsdecode(b"caf\xe9.png")
    (tmp_path / odd).write_bytes((data / "coffee.png").read_bytes())
    expected = gpuhist.read(str(data / "coffee.png"))
    for name in (str(tmp_path / odd), pathlib.Path(tmp_path / odd),
                 os.fsencode(str(tmp_path / odd))):
        np.testing.assert_array_equal(gpuhist.read(name), expected)
        assert gpuhist.histogram_file(name, device="cpu") == gpuhist.histogram(expected)
    with pytest.raises(OSError):
        gpuhist.read(pathlib.Path(tmp_path / "missing.png"))


def test_a_threshold_level_is_any_whole_number_from_minus_one():
    grey = np.arange(7, dtype=np.uint8).reshape(1, 7) * 40
    by_int = gpuhist.threshold(grey, method=100, device="cpu")
    for level in (np.int64(100), np.uint8(100), np.int16(100)):
        np.testing.assert_array_equal(gpuhist.threshold(grey, method=level, device="cpu"), by_int)
    # -1: every sample is above it (as `gpuhist threshold --method -1`).
    assert (gpuhist.threshold(grey, method=-1, device="cpu") == 255).all()
    for bad in (100.0, True, None):
        with pytest.raises(TypeError):
            gpuhist.threshold(grey, method=bad, device="cpu")
    for bad in (-2, 256, 70000):
        with pytest.raises(ValueError):
            gpuhist.threshold(grey, method=bad, device="cpu")


def test_merge_mixes_grey_and_colour_as_the_command_line(cli, data, tmp_path):
    grey = tmp_path / "grey.png"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(data / "coffee.png"),
                    "-pix_fmt", "gray", str(grey)], check=True)
    paths = [str(data / "coffee.png"), str(grey), str(data / "rocket.jpg")]
    files = list(gpuhist.histogram_files(paths, device="cpu"))
    parts = [f.histogram for f in files]
    before = [p.counts.copy() for p in parts]
    total = gpuhist.merge(f.histogram for f in files)
    run = subprocess.run([cli, "compute", *paths, "--merge", "--format", "json", "--device", "cpu"],
                         capture_output=True, text=True, check=True)
    merged = json.loads(run.stdout)[-1]
    assert merged["file"] == "(total)" and merged["files"] == 3
    assert total.to_dict()["histograms"] == merged["histograms"]
    # Every image adds to luminance, the colour ones alone to red, green and blue.
    assert total.total() == sum(f.width * f.height for f in files)
    assert f"{total.total()} pixels" in repr(total)
    assert total.counts[0].sum() == total.total() - files[1].width * files[1].height
    for p, counts in zip(parts, before):
        np.testing.assert_array_equal(p.counts, counts)  # the parts are left alone
    assert gpuhist.merge([]) is None
    with pytest.raises(ValueError):
        gpuhist.merge([parts[0], gpuhist.histogram(np.zeros((2, 2), np.uint8), 64)])
    with pytest.raises(TypeError):
        gpuhist.merge([parts[0], 1])


def test_damaged_jpeg_data_is_a_warning_or_an_error(data, tmp_path):
    whole = (data / "rocket.jpg").read_bytes()
    scan, end = whole.index(b"\xff\xda"), whole.rindex(b"\xff\xd9")
    padded, cut = tmp_path / "padded.jpg", tmp_path / "cut.jpg"
    padded.write_bytes(whole[:end] + bytes(64) + whole[end:])  # coded data left over
    cut.write_bytes(whole[:(scan + end) // 2])
    left_over = r"padded\.jpg: Corrupt JPEG data: \d+ extraneous bytes before marker 0xd9"
    with pytest.warns(UserWarning, match=left_over):
        image = gpuhist.read(padded)
    np.testing.assert_array_equal(image, gpuhist.read(data / "rocket.jpg"))
    with pytest.warns(UserWarning, match=left_over):
        gpuhist.histogram_file(padded, device="cpu")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match=left_over):
            gpuhist.read(padded)
        gpuhist.read(data / "rocket.jpg")
    with pytest.raises(OSError, match="cut.jpg: corrupt or truncated image: Premature end of JPEG"):
        gpuhist.read(cut)
    files = list(gpuhist.histogram_files([padded, cut, data / "rocket.jpg"], device="cpu"))
    assert "extraneous bytes before marker 0xd9" in files[0].warning
    assert files[2].warning is None
    assert files[0].histogram == files[2].histogram
    assert isinstance(files[1].error, OSError) and files[1].warning is None
    assert pickle.loads(pickle.dumps(files[0])).warning == files[0].warning


def test_what_counting_leaves_out_is_a_warning_and_a_note(tmp_path):
    """Pages after the first and channels neither counted nor alpha: a UserWarning from
    read() and histogram_file(), FileHistogram.notes (pickled), as the command line warns."""
    depth, pages = tmp_path / "depth.exr", tmp_path / "pages.tif"
    subprocess.run(["oiiotool", "--pattern", "constant:color=0.25,0.5,0.75,1,0.125", "6x4", "5",
                    "--chnames", "R,G,B,A,Z", "-d", "float", "-o", str(depth)], check=True)
    subprocess.run(["oiiotool", "--pattern", "constant:color=1,0,0", "4x4", "3", "--pattern",
                    "constant:color=0,1,0", "4x4", "3", "--siappend", "-d", "uint8", "-o",
                    str(pages)], check=True)
    channel = "its channel Z is not counted (R, G, B counted as RGB)"
    page = "the file holds more than one page (or frame); the first is counted"
    with pytest.warns(UserWarning, match=re.escape(f"depth.exr: {channel}")):
        image = gpuhist.read(depth)
    assert image.shape == (4, 6, 3)
    with pytest.warns(UserWarning, match=re.escape(f"pages.tif: {page}")):
        h = gpuhist.histogram_file(pages, device="cpu")
    assert h.counts[0][255] == 16
    files = list(gpuhist.histogram_files([depth, pages], device="cpu"))
    assert files[0].notes == (channel,) and files[1].notes == (page,)
    assert pickle.loads(pickle.dumps(files[0])).notes == (channel,)
    assert files[0].warning is None  # the decoder's damage warning only


def test_read_with_alpha_gives_the_stored_rgba(tmp_path, data):
    """alpha=True: a colour image's four channels as stored (straight alpha, colour under
    alpha 0 kept), as OpenCV's IMREAD_UNCHANGED reads them; counted as its RGB. A grey
    image's alpha is left out, with a warning."""
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(12)
    for dtype, pix_fmt in ((np.uint8, "rgba"), (np.uint16, "rgba64be")):
        top = 255 if dtype == np.uint8 else 65535
        pixels = rng.integers(0, top + 1, (21, 34, 4), dtype=dtype)
        pixels[0, :, 3] = 0
        raw = tmp_path / "pixels.raw"
        raw.write_bytes(pixels.astype(">u2" if dtype == np.uint16 else np.uint8).tobytes())
        png = tmp_path / f"{pix_fmt}.png"
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", pix_fmt,
                        "-s", "34x21", "-i", str(raw), "-frames:v", "1", str(png)], check=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            rgba = gpuhist.read(str(png), alpha=True)
        assert rgba.dtype == dtype and rgba.shape == (21, 34, 4)
        np.testing.assert_array_equal(rgba, pixels)
        np.testing.assert_array_equal(
            rgba, cv2.cvtColor(cv2.imread(str(png), cv2.IMREAD_UNCHANGED), cv2.COLOR_BGRA2RGBA))
        np.testing.assert_array_equal(gpuhist.read(str(png)), pixels[..., :3])
        assert gpuhist.histogram(rgba) == gpuhist.histogram(pixels[..., :3])
    # Without alpha in the file, alpha=True changes nothing.
    for name in ("coffee.png", "rocket.jpg"):
        np.testing.assert_array_equal(gpuhist.read(str(data / name), alpha=True),
                                      gpuhist.read(str(data / name)))
    grey = rng.integers(0, 256, (9, 11, 2), dtype=np.uint8)
    raw = tmp_path / "ya.raw"
    raw.write_bytes(grey.tobytes())
    ya = tmp_path / "ya8.png"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "ya8",
                    "-s", "11x9", "-i", str(raw), "-frames:v", "1", str(ya)], check=True)
    with pytest.warns(UserWarning, match="alpha is not read"):
        read = gpuhist.read(str(ya), alpha=True)
    np.testing.assert_array_equal(read, grey[..., 0])


def test_read_with_alpha_takes_the_alpha_wherever_it_is_stored(tmp_path):
    """A channel between the colour and the alpha (R, G, B, X, A; an OpenEXR's R, G, B, Y, A)
    is left out and the alpha read, scanline or tiled; a fourth channel that is not alpha is
    no alpha."""
    def made(name, names, *options):
        path = tmp_path / name
        subprocess.run(["oiiotool", "--pattern", "constant:color=0.2,0.4,0.6,0.5,1",
                        "8x8", str(len(names)), "--chnames", ",".join(names), *options,
                        "-o", str(path)], check=True)
        return str(path)

    tiff = made("rgbxa.tif", "RGBXA", "-d", "uint8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fourth channel is not counted
        rgba = gpuhist.read(tiff, alpha=True)
    assert rgba.shape == (8, 8, 4)
    np.testing.assert_array_equal(rgba[0, 0], [51, 102, 153, 255])
    for tiles in ((), ("--tile", "4", "4")):
        exr = made(f"rgbya{len(tiles)}.exr", "RGBYA", "-d", "half", *tiles)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rgba = gpuhist.read(exr, alpha=True)
        np.testing.assert_array_equal(rgba[..., 3], 1.0)
        np.testing.assert_allclose(rgba[0, 0, :3], [0.2, 0.4, 0.6], atol=1e-3)
    rgby = made("rgby.exr", "RGBY", "-d", "half")
    with pytest.warns(UserWarning, match="its channel Y is not counted"):
        assert gpuhist.read(rgby, alpha=True).shape == (8, 8, 3)
