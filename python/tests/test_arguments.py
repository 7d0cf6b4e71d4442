"""What callers pass, checked with Python's own errors: whole numbers, dtypes,
paths, objects made without __init__; and what comes back keeps its shape,
pickles, and says which threshold it used."""
import errno
import os
import pickle
import re
import subprocess

import numpy as np
import pytest

import gpuhist

RGB = np.zeros((4, 4, 3), np.uint8)
GREY = np.zeros((4, 4), np.uint8)


@pytest.mark.parametrize("call,message", [
    (lambda: gpuhist.histogram(RGB, bins=-1, device="cpu"), "bins must be between 1 and 65536, got -1"),
    (lambda: gpuhist.histogram(RGB, bins=2**70, device="cpu"),
     "bins must be between 1 and 65536, got a number of 2^63 or more"),
    (lambda: gpuhist.read("x.png", max_pixels=-10**30), "max_pixels must be between 1 and"),
    (lambda: gpuhist.Histogram(-3), "bins must be between 1 and 65536, got -3"),
    (lambda: gpuhist.read("x.png", max_pixels=-1), "max_pixels must be between 1 and"),
    (lambda: gpuhist.read("x.png", max_pixels=0), "max_pixels must be between 1 and"),
    (lambda: gpuhist.histogram_files(["x.png"], threads=-1), "threads must be between 1 and"),
    (lambda: gpuhist.histogram_files(["x.png"], threads=0), "threads must be between 1 and"),
    (lambda: gpuhist.draw(gpuhist.Histogram(), size=(-1, 10)), "size's width must be between 1 and"),
    (lambda: gpuhist.draw(gpuhist.Histogram(), size=(5, 0)), "size's height must be between 1 and 16384, got 0"),
    (lambda: gpuhist.draw(gpuhist.Histogram(), size=(16385, 5)), "size's width must be between 1 and 16384"),
    (lambda: gpuhist.draw(gpuhist.Histogram(), background=-1), "background must be between 0 and"),
    (lambda: gpuhist.draw(gpuhist.Histogram(), background=2**32), "background must be between 0"),
    (lambda: gpuhist.clahe(GREY, tiles=(-1, 2), device="cpu"), "tiles must be between 1 and"),
    (lambda: gpuhist.clahe(GREY, tiles=(0, 1), device="cpu"), "tiles must be between 1 and 256, got 0"),
])
def test_whole_numbers_out_of_range_are_value_errors_naming_the_argument(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: gpuhist.clahe(GREY, tiles=(8,), device="cpu"),
     "a pair of whole numbers (X, Y) is needed, not a tuple of 1"),
    (lambda: gpuhist.clahe(GREY, tiles="8", device="cpu"),
     "a pair of whole numbers (X, Y) is needed, not str"),
    (lambda: gpuhist.draw(gpuhist.Histogram(), size=5), "a pair of whole numbers (X, Y) is needed, not int"),
    (lambda: gpuhist.clahe(GREY, tiles=(2.5, 3), device="cpu"), "a whole number is needed, not float"),
    (lambda: gpuhist.clahe(GREY, clip_limit="2", device="cpu"), "a number is needed, not str"),
    (lambda: gpuhist.autolevel(GREY, low=True, device="cpu"), "a number is needed, not bool"),
    (lambda: gpuhist.autolevel(GREY, high=None, device="cpu"), "a number is needed, not NoneType"),
])
def test_pairs_and_numbers_of_the_wrong_kind_are_one_line_type_errors(call, message):
    # The cause, in one line: not pybind11's list of signatures with the whole image in it.
    with pytest.raises(TypeError) as raised:
        call()
    assert str(raised.value) == "gpuhist: " + message


def test_pairs_and_numbers_take_lists_and_numpy_scalars():
    assert gpuhist.clahe(GREY, tiles=[4, 2], clip_limit=np.float32(3), device="cpu").shape == GREY.shape
    assert gpuhist.clahe(GREY, tiles=range(2, 4), device="cpu").shape == GREY.shape
    assert gpuhist.draw(gpuhist.Histogram(), size=np.array([30, 20])).shape == (20, 30, 4)
    with pytest.raises(ValueError, match="past a float's range"):
        gpuhist.autolevel(GREY, low=10**400, device="cpu")
    np.testing.assert_array_equal(gpuhist.autolevel(GREY, low=1, high=np.int64(2), device="cpu"),
                                  gpuhist.autolevel(GREY, low=1.0, high=2.0, device="cpu"))


@pytest.mark.parametrize("bins", [True, np.True_, 2.0, "16", None])
def test_a_count_is_a_whole_number_not_a_bool_float_or_str(bins):
    with pytest.raises(TypeError):
        gpuhist.histogram(RGB, bins=bins, device="cpu")


def test_numpy_integers_are_whole_numbers():
    image = np.arange(48, dtype=np.uint8).reshape(4, 4, 3)
    expected = gpuhist.histogram(image, 16, device="cpu")
    for bins in (np.int64(16), np.uint16(16), np.int8(16)):
        assert gpuhist.histogram(image, bins, device="cpu") == expected
    assert gpuhist.draw(expected, size=(np.int32(32), np.uint64(20))).shape == (20, 32, 4)


@pytest.mark.parametrize("array,name", [
    (np.zeros((2, 2), np.int64), "int64"),
    (np.zeros((2, 2), np.float64), "float64"),
    (np.zeros((2, 2), np.int8), "int8"),
    (np.zeros((2, 2), ">u2"), ">u2"),
    (np.zeros((2, 2), np.complex64), "complex64"),
    (np.zeros((2, 2), "datetime64[s]"), "datetime64[s]"),
    ([[1, 2], [3, 4]], "int64"),
])
def test_other_dtypes_are_type_errors_naming_the_dtype(array, name):
    with pytest.raises(TypeError, match=re.escape(f"not {name}")):
        gpuhist.histogram(array, device="cpu")


def test_paths_are_checked_as_open_checks_them(tmp_path):
    with pytest.raises(ValueError, match="null byte"):
        gpuhist.read("a\0b.png")
    with pytest.raises(ValueError, match="null byte"):
        gpuhist.video(b"a\0b.mp4")
    with pytest.raises(TypeError, match="not int"):
        gpuhist.read(3)
    with pytest.raises(TypeError, match="not int"):
        gpuhist.histogram_files([3])
    missing = tmp_path / "missing.png"
    for call in (lambda: gpuhist.read(missing), lambda: gpuhist.histogram_file(missing),
                 lambda: gpuhist.video(tmp_path / "missing.mp4")):
        with pytest.raises(FileNotFoundError) as raised:
            call()
        assert raised.value.errno == errno.ENOENT
        assert raised.value.filename.startswith(str(tmp_path / "missing."))
    with pytest.raises(IsADirectoryError) as raised:
        gpuhist.read(tmp_path)
    assert raised.value.errno == errno.EISDIR and raised.value.filename == str(tmp_path)
    # A file named as a folder on the way: what open() raises of it.
    (tmp_path / "plain.png").write_bytes(b"x")
    inside = tmp_path / "plain.png" / "x.png"
    with pytest.raises(NotADirectoryError):
        open(inside)
    for call in (lambda: gpuhist.read(inside), lambda: gpuhist.histogram_file(inside),
                 lambda: gpuhist.video(tmp_path / "plain.png" / "x.mp4")):
        with pytest.raises(NotADirectoryError) as raised:
            call()
        assert raised.value.errno == errno.ENOTDIR
    # A file's error in a batch is the same exception, not raised.
    (tmp_path / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n broken")
    odd = tmp_path / os.fsdecode(b"caf\xe9.png")
    gone, broken, odd_gone = gpuhist.histogram_files([missing, tmp_path / "broken.png", odd])
    assert isinstance(gone.error, FileNotFoundError) and gone.error.filename == str(missing)
    assert isinstance(odd_gone.error, FileNotFoundError) and odd_gone.error.filename == str(odd)
    assert type(broken.error) is OSError and "broken.png" in str(broken.error)


@pytest.mark.parametrize("make", [
    lambda: gpuhist.Histogram.__new__(gpuhist.Histogram),
    lambda: gpuhist.Context.__new__(gpuhist.Context),
    lambda: gpuhist.FileHistograms.__new__(gpuhist.FileHistograms),
    lambda: gpuhist.VideoHistograms.__new__(gpuhist.VideoHistograms),
    lambda: gpuhist.FileHistogram.__new__(gpuhist.FileHistogram),
])
def test_objects_made_without_init_are_refused_not_read(make):
    made = make()
    name = type(made).__name__
    calls = {
        "Histogram": [lambda: made.total(), lambda: made.counts, lambda: made + gpuhist.Histogram(),
                      lambda: gpuhist.Histogram() + made, lambda: pickle.dumps(made)],
        "Context": [lambda: made.histogram(GREY), lambda: made.device,
                    lambda: made.histogram_files([]), lambda: made.video("x.mp4")],
        "FileHistograms": [lambda: next(made), lambda: len(made)],
        "VideoHistograms": [lambda: next(made), lambda: made.width],
        "FileHistogram": [lambda: made.path, lambda: made.histogram, lambda: repr(made)],
    }[name]
    for call in calls:
        with pytest.raises(TypeError, match=f"this {name} was made by __new__"):
            call()


def test_file_histograms_pickle_with_every_protocol(data, tmp_path):
    paths = [data / "coffee.png", tmp_path / "missing.png"]
    counted, failed = gpuhist.histogram_files(paths, device="cpu")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(counted, protocol=protocol))
        assert back.histogram == counted.histogram
        assert (back.path, back.width, back.height, back.channels, back.dtype, back.format) == (
            counted.path, counted.width, counted.height, counted.channels, counted.dtype,
            counted.format)
        back = pickle.loads(pickle.dumps(failed, protocol=protocol))
        assert back.histogram is None and isinstance(back.error, FileNotFoundError)
        assert back.error.filename == str(paths[1])
    with pytest.raises(ValueError):
        gpuhist._file_histogram_from_state(("x",))


@pytest.mark.parametrize("verb", ["equalize", "clahe", "autolevel", "threshold"])
def test_adjustments_keep_a_grey_images_channel_axis(verb):
    grey = (np.arange(64 * 48, dtype=np.uint32).reshape(48, 64) * 7 % 251).astype(np.uint8)
    flat = getattr(gpuhist, verb)(grey, device="cpu")
    kept = getattr(gpuhist, verb)(grey[:, :, np.newaxis], device="cpu")
    assert flat.shape == (48, 64) and kept.shape == (48, 64, 1)
    np.testing.assert_array_equal(kept[:, :, 0], flat)
    # A thresholded colour image is grey, with no channel axis.
    assert gpuhist.threshold(np.dstack([grey] * 3), device="cpu").shape == (48, 64)


@pytest.mark.parametrize("method", ["otsu", "triangle", 100])
def test_threshold_returns_the_level_the_command_line_prints(cli, data, tmp_path, method):
    path = data / "coffee.png"
    run = subprocess.run([cli, "threshold", str(path), "-o", str(tmp_path / "t.png"),
                          "--method", str(method), "--device", "cpu"],
                         check=True, capture_output=True, text=True)
    printed = int(re.search(r"threshold (-?\d+)", run.stdout + run.stderr).group(1))
    image, level = gpuhist.threshold(gpuhist.read(path), method=method, return_level=True,
                                     device="cpu")
    assert level == printed
    np.testing.assert_array_equal(image, gpuhist.read(tmp_path / "t.png"))
    np.testing.assert_array_equal(
        image, gpuhist.threshold(gpuhist.read(path), method=method, device="cpu"))


class Interrupted(Exception):
    pass


def test_what_a_paths_fspath_raises_goes_on():
    class Raising:
        def __fspath__(self):
            raise Interrupted("from __fspath__")

    class Wrong:
        def __fspath__(self):
            return 3

    with pytest.raises(Interrupted):
        gpuhist.read(Raising())
    with pytest.raises(TypeError):
        gpuhist.read(Wrong())


@pytest.mark.parametrize("make", [
    lambda data: gpuhist.Context("cpu"),
    lambda data: gpuhist.histogram_files([data / "coffee.png"]),
    lambda data: gpuhist.video(data / "coffee.png"),
])
def test_what_cannot_be_pickled_says_so_with_every_protocol(data, make):
    try:
        made = make(data)
    except OSError:  # coffee.png is no video: an iterator made from nothing
        pytest.skip("no video to open")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        with pytest.raises(TypeError, match="cannot be pickled"):
            pickle.dumps(made, protocol=protocol)


@pytest.mark.parametrize("state", [
    "not a tuple",
    ("x",),
    ("p", None, None, 1, 1, 3, "uint8", "png", False, False),      # neither histogram nor error
    ("p", gpuhist.Histogram(), OSError("x"), 1, 1, 3, "uint8", "png", False, False),  # both
    ("p", gpuhist.Histogram(), None, -1, 1, 3, "uint8", "png", False, False),
    ("p", gpuhist.Histogram(), None, 1.5, 1, 3, "uint8", "png", False, False),
    ("p", gpuhist.Histogram(), None, 1, 1, 3, 3, "png", False, False),
    ("p", "not a histogram", None, 1, 1, 3, "uint8", "png", False, False),
    ("p", None, "not an exception", 1, 1, 3, "uint8", "png", False, False),
    ("p", gpuhist.Histogram(), None, 1, 1, 3, "uint8", "png", False, False, 5),  # warning not str
])
def test_a_bad_pickled_file_histogram_is_a_value_error(state):
    with pytest.raises(ValueError, match="not a pickled FileHistogram"):
        gpuhist._file_histogram_from_state(state)


def test_limits_are_named_by_the_argument(data):
    with pytest.raises(OSError, match=re.escape("exceeds the limit of 10 (max_pixels)")):
        gpuhist.read(data / "coffee.png", max_pixels=10)
    (failed,) = gpuhist.histogram_files([data / "coffee.png"], max_pixels=10)
    assert "(max_pixels)" in str(failed.error) and "--max-pixels" not in str(failed.error)


def test_formats_are_named_by_the_argument(tmp_path):
    psd = tmp_path / "layers.psd"
    psd.write_bytes(b"8BPS" + bytes(60))
    refusal = "psd files are not read by default (all_formats=True tries every format"
    with pytest.raises(OSError, match=re.escape(refusal)):
        gpuhist.read(psd)
    unknown = tmp_path / "notes"
    unknown.write_bytes(b"plain text, no image")
    with pytest.raises(OSError, match=re.escape("(all_formats=True tries every format")):
        gpuhist.read(unknown)
    (failed,) = gpuhist.histogram_files([psd])
    assert "all_formats=True" in str(failed.error) and "--formats" not in str(failed.error)
    # histogram_file takes the argument its error names, as read() does.
    sgi = tmp_path / "picture.sgi"
    subprocess.run(["oiiotool", "--pattern", "fill:topleft=0,0,0:bottomright=1,0.5,0.2", "16x8",
                    "3", "-d", "uint8", "-o", str(sgi)], check=True)
    with pytest.raises(OSError, match=re.escape("(all_formats=True tries every format")):
        gpuhist.histogram_file(sgi)
    for counted in (gpuhist.histogram_file(sgi, all_formats=True),
                    gpuhist.Context("cpu").histogram_file(sgi, all_formats=True)):
        assert counted == gpuhist.histogram(gpuhist.read(sgi, all_formats=True))


def test_a_link_that_leads_back_to_itself_is_said_as_open_says_it(tmp_path):
    loop = tmp_path / "loop.png"
    loop.symlink_to("loop.png")
    for call in (gpuhist.read, gpuhist.histogram_file, gpuhist.video):
        with pytest.raises(OSError) as raised:
            call(loop)
        assert raised.value.errno == errno.ELOOP and raised.value.filename == str(loop)


def test_a_video_given_as_an_image_names_the_module_s_video_reader(tmp_path):
    clip = tmp_path / "clip.mp4"
    clip.write_bytes(bytes(64))
    with pytest.raises(OSError, match=re.escape("named as a video (gpuhist.video reads videos)")):
        gpuhist.read(clip)


@pytest.mark.parametrize("array,name", [
    (np.zeros((2, 2), np.float32), "float32"),
    (np.zeros((2, 2), np.int32), "int32"),
])
def test_adjustments_name_the_dtypes_they_take(array, name):
    message = re.escape(f"adjustments take uint8 or uint16 images (native byte order), not {name}")
    with pytest.raises(TypeError, match=message):
        gpuhist.equalize(array, device="cpu")
    with pytest.raises(TypeError, match=message):
        gpuhist.match(np.zeros((2, 2), np.uint8), array, device="cpu")


@pytest.mark.parametrize("call,message", [
    (lambda image: gpuhist.autolevel(image, low=60, device="cpu"),
     "gpuhist: low is a percentage from 0 to 50, not 60.0"),
    (lambda image: gpuhist.autolevel(image, high=-1, device="cpu"),
     "gpuhist: high is a percentage from 0 to 50, not -1.0"),
    (lambda image: gpuhist.autolevel(image, low=float("nan"), device="cpu"),
     "gpuhist: low is a percentage from 0 to 50, not nan"),
    (lambda image: gpuhist.clahe(image, clip_limit=-0.5, device="cpu"),
     "gpuhist: clip_limit is a number from 0 up, not -0.5"),
    (lambda image: gpuhist.clahe(image, clip_limit=float("inf"), device="cpu"),
     "gpuhist: clip_limit is a number from 0 up, not inf"),
    (lambda image: gpuhist.histogram(image, device="no such device"),
     "gpuhist: no Vulkan device matches 'no such device'"),
    # Spaces alone would match every device name that has a space.
    (lambda image: gpuhist.histogram(image, device=" "),
     "gpuhist: a device is named by part of its name, its index, 'cpu' or 'auto', not by "
     "spaces alone"),
])
def test_adjustment_options_are_value_errors_naming_the_argument(call, message):
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        call(np.zeros((4, 4), np.uint8))


def test_luma_and_device_may_be_written_as_numbers():
    image = np.arange(48, dtype=np.uint8).reshape(4, 4, 3)
    for luma in ("601", "709"):
        assert gpuhist.histogram(image, luma=int(luma), device="cpu") == \
            gpuhist.histogram(image, luma=luma, device="cpu")
    assert gpuhist.Context(np.int64(0)).device == gpuhist.Context("0").device is not None
    assert gpuhist.equalize(image, luma=601, device=0).shape == image.shape
    for bad in (6.01, True, None, [601]):
        with pytest.raises(TypeError, match="a luma or device is a str .* or a whole number, not "):
            gpuhist.histogram(image, luma=bad, device="cpu")
    with pytest.raises(TypeError, match="not float"):
        gpuhist.Context(0.0)
    # None is the default device, for a Context as for the functions.
    assert repr(gpuhist.Context(None)) == repr(gpuhist.Context()) == "<gpuhist.Context device='auto'>"
    # A level past the image's largest sample is named with that sample.
    for dtype, level, top in ((np.uint8, -2, 255), (np.uint8, 256, 255), (np.uint16, 65536, 65535)):
        with pytest.raises(ValueError, match=f"a threshold of {level} is outside -1 to the "
                           f"image's largest sample, {top}"):
            gpuhist.threshold(np.zeros((4, 4), dtype), method=level)
