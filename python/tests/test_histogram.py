"""gpuhist.histogram against the documented bin formula (numpy) on arrays of
every dtype, layout and stride, and against the command line on real files."""
import json
import pathlib
import pickle
import subprocess
import threading
import types
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import gpuhist
from oracle import histograms

RNG = np.random.default_rng(20261202)


def random_image(shape, dtype):
    if dtype == np.float32:
        a = RNG.random(shape, dtype=np.float32) * 1.2 - 0.1
        a.flat[::97] = np.nan
        a.flat[::89] = np.inf
        return a
    top = 255 if dtype == np.uint8 else 65535
    a = RNG.integers(0, top + 1, shape, dtype=dtype)
    a.flat[::53] = top
    return a


SHAPES = [(37, 53), (37, 53, 1), (41, 29, 3), (23, 31, 4), (1, 1, 3), (1, 200), (300, 1, 4)]
DTYPES = [np.uint8, np.uint16, np.float32]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("bins", [1, 7, 256, 1000])
def test_counts_equal_the_bin_formula(shape, dtype, bins):
    image = random_image(shape, dtype)
    for strategy in (None, "cpu", "cpu-reference"):
        h = gpuhist.histogram(image, bins, strategy=strategy)
        np.testing.assert_array_equal(h.counts, histograms(image, bins))
    assert h.bins == bins
    assert h.channels == (("luminance",) if len(shape) == 2 or shape[2] == 1
                          else ("red", "green", "blue", "luminance"))


def test_sixteen_bit_at_65536_bins_and_601_weights():
    image = random_image((64, 48, 3), np.uint16)
    h = gpuhist.histogram(image, 65536, luma="601")
    np.testing.assert_array_equal(h.counts, histograms(image, 65536, "601"))


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_gpu_strategy_gives_the_same_counts(dtype):
    image = random_image((45, 67, 4), dtype)
    expected = histograms(image, 256)
    for strategy in ("gpu", "gpu-atomic", "gpu-chunks-reduce"):
        np.testing.assert_array_equal(
            gpuhist.histogram(image, 256, strategy=strategy).counts, expected)


@pytest.mark.parametrize("view", [
    lambda a: a[3:40, 5:60],          # rows apart by more than a row: read in place
    lambda a: a[::2],                 # every other row
    lambda a: a[::-1],                # rows reversed (negative stride)
    lambda a: a[:, ::-1],             # columns reversed
    lambda a: a[:, ::3],              # columns strided
    lambda a: a[..., ::-1],           # BGR as RGB: channels reversed
    lambda a: a.transpose(1, 0, 2),   # Fortran order
    lambda a: np.broadcast_to(a[:1], a.shape),  # every row the same memory
    lambda a: np.broadcast_to(a[:, :1], a.shape),  # every column the same memory
    lambda a: np.broadcast_to(a[:1, :1], a.shape),  # one pixel everywhere
    lambda a: np.broadcast_to(a[:1, ::-1], a.shape)[::-1, ::2],  # both, strided
    lambda a: np.broadcast_to(a[..., :1], a.shape[:2] + (3,)),  # grey as RGB
    lambda a: a[:, :, :3],            # RGB out of RGBA
])
@pytest.mark.parametrize("dtype", DTYPES)
def test_strided_views_are_read_correctly(view, dtype):
    base = random_image((50, 70, 4), dtype)
    image = view(base)
    expected = histograms(np.ascontiguousarray(image))
    np.testing.assert_array_equal(gpuhist.histogram(image).counts, expected)
    np.testing.assert_array_equal(gpuhist.histogram(image, strategy="gpu").counts, expected)


def test_large_strided_arrays_are_counted_a_block_at_a_time():
    # Over 16 MiB of strided pixels (copied a block of rows at a time), a row
    # over 16 MiB (a part of a row at a time), and a broadcast of 10^10 pixels
    # (one pixel, counted 10^10 times): the same counts as a packed copy.
    rows = random_image((1500, 1500, 4), np.uint8)[::-1, ::-1]
    row = random_image((1, 1_200_000, 4), np.float32)[:, ::-1]
    for image in (rows, row):
        expected = gpuhist.histogram(np.ascontiguousarray(image), strategy="cpu")
        assert gpuhist.histogram(image, strategy="cpu") == expected
    huge = np.broadcast_to(np.array([10, 20, 30], np.uint8), (100_000, 100_000, 3))
    counts = gpuhist.histogram(huge, strategy="cpu").counts
    assert counts[:3, [10, 20, 30]].diagonal().tolist() == [10**10] * 3
    assert counts.sum() == 4 * 10**10


def test_non_numpy_buffers_and_array_likes():
    image = random_image((20, 30, 3), np.uint8)
    expected = histograms(image)
    np.testing.assert_array_equal(gpuhist.histogram(memoryview(image)).counts, expected)

    class ArrayInterface:
        def __init__(self, a):
            self.__array_interface__ = a.__array_interface__
            self.keep = a

    np.testing.assert_array_equal(gpuhist.histogram(ArrayInterface(image)).counts, expected)


class DLPackOnly:
    """A tensor that offers nothing but DLPack (as JAX or CuPy arrays do)."""

    def __init__(self, a, device=None):
        self.a = a
        self.device = device

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return self.device or self.a.__dlpack_device__()


@pytest.mark.parametrize("dtype", DTYPES)
def test_dlpack_tensors_are_counted(dtype):
    base = random_image((40, 30, 4), dtype)
    for image in (base, base[:, :, :3], base[:, :, 0], base[::-1], base[:, ::2]):
        expected = histograms(np.ascontiguousarray(image))
        tensor = DLPackOnly(image)
        assert not hasattr(tensor, "__array_interface__")
        np.testing.assert_array_equal(gpuhist.histogram(tensor).counts, expected)
        np.testing.assert_array_equal(gpuhist.histogram(tensor, strategy="gpu").counts, expected)
    # Adjustments take DLPack tensors too and give numpy arrays back.
    grey = random_image((16, 16), np.uint8)
    np.testing.assert_array_equal(gpuhist.equalize(DLPackOnly(grey)), gpuhist.equalize(grey))


def test_what_dlpack_cannot_export_falls_back_or_goes_on():
    """A tensor DLPack cannot export (numpy refuses read-only arrays) is read through its
    __array__ where it has one, else refused with DLPack's reason; an interrupt or
    running out of memory while exporting is raised as it is, not turned into a TypeError."""
    image = random_image((20, 30, 3), np.uint8)
    frozen = image.copy()
    frozen.flags.writeable = False

    class Exportless(DLPackOnly):
        def __array__(self, dtype=None, copy=None):
            return self.a

    np.testing.assert_array_equal(gpuhist.histogram(Exportless(frozen)).counts, histograms(image))
    with pytest.raises(TypeError, match="cannot read the tensor through DLPack: .*readonly"):
        gpuhist.histogram(DLPackOnly(frozen))

    for raised in (KeyboardInterrupt, MemoryError):
        class Raising(DLPackOnly):
            def __dlpack__(self, stream=None, error=raised):
                raise error
        with pytest.raises(raised):
            gpuhist.histogram(Raising(image))


def test_dlpack_tensors_on_a_gpu_are_refused():
    image = random_image((8, 8, 3), np.uint8)
    with pytest.raises(TypeError, match="move it to the CPU"):
        gpuhist.histogram(DLPackOnly(image, device=(2, 0)))  # kDLCUDA
    with pytest.raises(TypeError, match="uint8, uint16 or float32"):
        gpuhist.histogram(DLPackOnly(random_image((8, 8), np.uint8).astype(np.int16)))
    # A device answer that is not (type, id): a TypeError saying so, not pybind11's cast error.
    for answer in ("cpu", None, (1,), ("1", 0)):
        class Odd(DLPackOnly):
            def __dlpack_device__(self, answer=answer):
                return answer
        with pytest.raises(TypeError, match="not a \\(device type, device id\\) tuple"):
            gpuhist.histogram(Odd(image))


def test_a_dlpack_capsule_of_device_memory_is_refused_by_its_own_header():
    """A producer whose capsule (not only __dlpack_device__) says CUDA: built
    with ctypes as DLPack lays it out, so no GPU library is needed."""
    import ctypes

    class DLDevice(ctypes.Structure):
        _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]

    class DLDataType(ctypes.Structure):
        _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]

    class DLTensor(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int),
                    ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                    ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]

    class DLManagedTensor(ctypes.Structure):
        _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                    ("deleter", ctypes.c_void_p)]

    shape = (ctypes.c_int64 * 2)(4, 4)
    managed = DLManagedTensor()
    managed.dl_tensor.data = 0x1000  # never read
    managed.dl_tensor.device = DLDevice(2, 0)
    managed.dl_tensor.ndim = 2
    managed.dl_tensor.dtype = DLDataType(1, 8, 1)  # uint8
    managed.dl_tensor.shape = shape
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

    class CudaTensor:
        def __dlpack__(self, stream=None):
            return new_capsule(ctypes.addressof(managed), b"dltensor", None)

    with pytest.raises(TypeError, match="DLPack"):
        gpuhist.histogram(CudaTensor())


def test_the_same_counts_as_the_command_line(cli, data, tmp_path):
    for name in ("coffee.png", "rocket.jpg"):
        path = data / name
        out = subprocess.run([cli, "compute", str(path), "--format", "json", "--bins", "64",
                              "--device", "cpu", "--percentiles", "50,99.5"],
                             check=True, capture_output=True, text=True).stdout
        entry = json.loads(out)
        entry = entry[0] if isinstance(entry, list) else entry
        h = gpuhist.histogram_file(str(path), 64)
        d = h.to_dict(percentiles=[50, 99.5])
        assert d["histograms"] == entry["histograms"]
        assert d["stats"] == entry["stats"]
        assert d["bins"] == entry["bins"] == 64
        # One percentile as a number, or a numpy array of them, as a list of them.
        assert h.stats(percentiles=50) == h.stats(percentiles=[50])
        assert h.to_dict(np.array([50, 99.5])) == d
        for bad in ("50", b"50", ["50"], [None], True):
            with pytest.raises(TypeError, match="percentiles is a number or a list|a number is"):
                h.stats(percentiles=bad)
        with pytest.raises(ValueError, match="percentiles are 0 to 100"):
            h.stats(percentiles=101)
        # The array read, counted, equals the file counted.
        assert gpuhist.histogram(gpuhist.read(str(path)), 64) == h


def test_merging_is_exact_and_checked():
    images = [random_image((30, 40, 3), np.uint8) for _ in range(5)]
    parts = [gpuhist.histogram(i) for i in images]
    total = sum(parts)
    np.testing.assert_array_equal(total.counts, sum(histograms(i) for i in images))
    assert total == parts[0] + parts[1] + parts[2] + parts[3] + parts[4]
    merged = gpuhist.Histogram(256, True)
    for p in parts:
        merged += p
    assert merged == total
    assert total.total() == 5 * 30 * 40
    with pytest.raises(ValueError):
        parts[0] + gpuhist.histogram(images[0], 128)
    with pytest.raises(ValueError):
        parts[0] + gpuhist.histogram(images[0][..., 0])
    with pytest.raises(TypeError):
        parts[0] + 1
    with pytest.raises(TypeError):
        "x" + parts[0]
    # += merges in place: the name keeps its object.
    expected_sum = parts[1] + parts[2]
    merged_in_place = parts[1]
    before = merged_in_place
    merged_in_place += parts[2]
    assert merged_in_place is before and merged_in_place == expected_sum
    # 0 + h is a new Histogram: a running total started at 0 leaves the parts alone.
    fresh = [gpuhist.histogram(i) for i in images]
    first = fresh[0] + gpuhist.Histogram(256, True)
    running = 0
    for p in fresh:
        running += p
    assert running == total and fresh[0] == first and running is not fresh[0]


def test_numpy_reads_a_histogram_as_its_counts():
    h = gpuhist.histogram(random_image((9, 7, 3), np.uint8), 64)
    np.testing.assert_array_equal(np.asarray(h), h.counts)
    assert np.asarray(h).dtype == np.uint64 and np.asarray(h).shape == (4, 64)
    assert np.asarray(h, dtype=np.float64).dtype == np.float64
    writable = np.array(h)
    writable[0, 0] += 1  # a copy of its own
    assert h.__array__(copy=True).flags.writeable  # what numpy 2's np.array(h) keeps
    assert h.counts[0, 0] + 1 == writable[0, 0]
    assert repr(gpuhist.Context("cpu")) == "<gpuhist.Context device='cpu'>"
    assert repr(gpuhist.Context(0)) == "<gpuhist.Context device='0'>"


def test_a_path_is_not_an_image():
    for path in ("data/coffee.png", pathlib.Path("data/coffee.png")):
        with pytest.raises(TypeError, match="not a path: gpuhist.histogram_file"):
            gpuhist.histogram(path, device="cpu")
    with pytest.raises(TypeError, match="not None$"):
        gpuhist.histogram(None, device="cpu")
    # Lists of Python numbers are int64 or float64 to numpy: said, with the way out.
    for listed, dtype, wanted in (([[1, 2], [3, 4]], "int64", "uint8"),
                                  (([0.5],), "float64", "float32")):
        with pytest.raises(TypeError, match=f"not {dtype}: a (list|tuple) of Python numbers.*"
                                            rf"numpy\.asarray\(x, dtype=numpy\.{wanted}\)"):
            gpuhist.histogram(listed, device="cpu")
    assert gpuhist.histogram([np.arange(4, dtype=np.uint8)], device="cpu").total() == 4
    assert "histogram(image: ArrayLike, bins: int = 256" in gpuhist.histogram.__doc__


def test_counts_are_read_only_and_pickle_round_trips():
    h = gpuhist.histogram(random_image((10, 10, 4), np.uint16), 4096)
    with pytest.raises(ValueError):
        h.counts[0, 0] = 1
    assert h.counts.dtype == np.uint64
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(h, protocol=protocol))
        assert again == h and again.bins == 4096 and again.channels == h.channels
    for state in ((256, True, b"short"), (0, True, b""), (-5, True, b""), (70000, False, b""),
                  ("256", True, b""), (256, True)):
        with pytest.raises(ValueError):
            gpuhist.Histogram.__new__(gpuhist.Histogram).__setstate__(state)


def test_bad_arrays_and_options_raise():
    good = random_image((8, 8, 3), np.uint8)
    for bad in (np.zeros((4, 4), np.int32), np.zeros((4, 4), np.float64),
                np.zeros((4, 4), bool), np.zeros((4, 4), ">u2"), np.zeros((2, 2, 2, 3), np.uint8),
                np.zeros((4, 4, 2), np.uint8), np.zeros((4, 4, 5), np.uint8), np.zeros(16, np.uint8),
                "not an image"):
        with pytest.raises(TypeError):
            gpuhist.histogram(bad)
    for kwargs in ({"bins": 0}, {"bins": 65537}, {"luma": "2020"}, {"strategy": "fast"}):
        with pytest.raises(ValueError):
            gpuhist.histogram(good, **kwargs)
    # No pixels: no counts, as numpy counts an empty array; nothing to adjust.
    for empty, channels in ((np.zeros((0, 4, 3), np.uint8), 4), (np.zeros((4, 0), np.uint16), 1),
                            (np.zeros((0, 0, 4), np.float32), 4)):
        h = gpuhist.histogram(empty, 16)
        assert h.counts.shape == (channels, 16) and h.counts.sum() == 0
        other = gpuhist.histogram(np.ones((2, 2, 3) if channels == 4 else (2, 2), empty.dtype), 16)
        np.testing.assert_array_equal((h + other).counts, other.counts)
        # Nothing counted: the count is 0, every other statistic undefined (None), as the
        # command line's JSON writes null; the table of a data set has NaN there.
        for stats in h.stats(percentiles=[5]).values():
            assert stats["count"] == 0
            assert all(v is None for k, v in stats.items() if k != "count"), stats
        table = gpuhist._gpuhist._stats_table([h])
        assert (table[0, -1, 0] == 0) and np.isnan(table[0, -1, 1:]).all()
    with pytest.raises(TypeError, match="1, 3 or 4 channels, not 0"):
        gpuhist.histogram(np.zeros((4, 4, 0), np.uint8))
    with pytest.raises(ValueError, match="the image is empty"):
        gpuhist.equalize(np.zeros((0, 4), np.uint8))
    with pytest.raises(ValueError, match="the reference is empty"):
        gpuhist.match(np.zeros((4, 4), np.uint8), np.zeros((4, 0), np.uint8))
    with pytest.raises(gpuhist.GpuError):
        gpuhist.histogram(good, strategy="gpu", device="cpu")
    with pytest.raises(ValueError):
        gpuhist.Context("no such device anywhere")


def test_files_that_cannot_be_read(tmp_path, data):
    with pytest.raises(FileNotFoundError, match="missing.png"):
        gpuhist.histogram_file(str(tmp_path / "missing.png"))
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    with pytest.raises(OSError, match="broken.png"):
        gpuhist.read(str(broken))
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(OSError):
        gpuhist.histogram_file(str(empty))
    # Too large for the limit: refused before anything is allocated.
    with pytest.raises(OSError, match="coffee.png"):
        gpuhist.read(str(data / "coffee.png"), max_pixels=1000)


def test_threads_count_at_once_on_one_context():
    context = gpuhist.Context("auto")
    images = [random_image((64, 80, 4), np.uint8) for _ in range(16)]
    expected = [histograms(i) for i in images]

    def count(k):
        strategy = "gpu" if k % 2 else "cpu"
        return context.histogram(images[k], strategy=strategy).counts

    with ThreadPoolExecutor(4) as pool:
        for got, want in zip(pool.map(count, range(16)), expected):
            np.testing.assert_array_equal(got, want)


_FORKED = {}  # what a forked child finds: a Context cannot be pickled, it is inherited


def _count_in_forked_child(k):
    """Counts on the GPU in a process forked after the parent used the device."""
    image, expected = _FORKED["image"], _FORKED["expected"]
    return (_FORKED["context"].histogram(image, strategy="gpu") == expected and
            gpuhist.histogram(image, strategy="gpu") == expected)


def test_a_forked_child_opens_its_own_device():
    # A Vulkan device does not survive fork(): a multiprocessing "fork" pool's workers,
    # given a Context and the module's contexts the parent used, count on devices of their
    # own instead of waiting for ever on the parent's; the parent's still counts after.
    import multiprocessing
    image = random_image((40, 50, 3), np.uint8)
    context = gpuhist.Context("auto")
    expected = context.histogram(image, strategy="gpu")
    assert gpuhist.histogram(image, strategy="gpu") == expected
    _FORKED.update(context=context, image=image, expected=expected)
    try:
        with multiprocessing.get_context("fork").Pool(2) as pool:
            result = pool.map_async(_count_in_forked_child, range(4))
            assert result.get(timeout=120) == [True] * 4
    finally:
        _FORKED.clear()
    assert context.histogram(image, strategy="gpu") == expected
    # A child that drops an inherited Context it never used leaves the parent's device alone
    # instead of destroying it (which waits for ever on threads that are not there).
    import os
    import signal
    child = os.fork()
    if child == 0:
        signal.alarm(60)
        try:
            del context
            _FORKED.clear()
            os._exit(0)
        finally:
            os._exit(1)
    _, status = os.waitpid(child, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status


def test_the_gil_is_released_while_counting():
    # Another Python thread runs while a large image is counted.
    image = random_image((3000, 3000, 3), np.uint8)
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=tick)
    t.start()
    for _ in range(3):
        gpuhist.histogram(image, strategy="cpu-reference")
    done.set()
    t.join()
    assert len(ticks) > 5


def test_devices_and_context():
    devices = gpuhist.devices()
    assert all({"index", "name", "type", "hardware"} <= set(d) for d in devices)
    assert gpuhist.Context("cpu").device is None
    if devices:
        assert gpuhist.Context("0").device == devices[0]["name"]


@pytest.mark.parametrize("shape,bins", [((20, 30, 3), 1), ((20, 30), 256), ((5, 7, 4), 65536)])
def test_a_histogram_loads_back_from_its_dict(shape, bins):
    h = gpuhist.histogram(random_image(shape, np.uint16), bins)
    loaded = gpuhist.Histogram.from_dict(json.loads(json.dumps(h.to_dict())))
    assert loaded == h and loaded.channels == h.channels and loaded.bins == bins


def test_a_saved_command_line_total_merges_with_new_counts(cli, data):
    run = subprocess.run([cli, "compute", str(data / "coffee.png"), str(data / "rocket.jpg"),
                          "--merge", "--format", "json", "--device", "cpu"],
                         capture_output=True, text=True, check=True)
    saved = gpuhist.Histogram.from_dict(json.loads(run.stdout)[-1])
    coffee = gpuhist.histogram_file(data / "coffee.png", device="cpu")
    rocket = gpuhist.histogram_file(data / "rocket.jpg", device="cpu")
    assert saved == coffee + rocket
    assert (saved + coffee).total() == 2 * coffee.total() + rocket.total()
    # A total of grey and colour images (the grey ones in luminance alone) loads back too.
    grey = gpuhist.histogram(np.full((3, 5), 9, np.uint8))
    mixed = gpuhist.merge([grey, coffee])
    assert gpuhist.Histogram.from_dict(json.loads(json.dumps(mixed.to_dict()))) == mixed


def test_counts_up_to_64_bits_load_and_anything_else_is_a_value_error():
    top = (1 << 64) - 1
    big = gpuhist.Histogram.from_dict({"histograms": {"luminance": [top - (1 << 63), 0, 1 << 63]}})
    assert big.counts.tolist() == [[top - (1 << 63), 0, 1 << 63]] and big.total() == top
    grey = {"luminance": [1, 2]}
    bad = [
        ({}, "has \"histograms\""),
        ([], "has \"histograms\""),
        ({"histograms": {"red": [1], "luminance": [1]}}, "channels are red, green, blue"),
        ({"histograms": {}}, "not none"),
        ({"bins": 3, "histograms": grey}, "the counts have 2 bins, not bins=3"),
        ({"histograms": {"red": [1], "green": [1], "blue": [1, 2], "luminance": [1]}},
         "same number of bins"),
        ({"histograms": {"luminance": [1, -1]}}, "not 0 to 2\\*\\*64 - 1"),
        ({"histograms": {"luminance": [1, 1 << 64]}}, "not 0 to 2\\*\\*64 - 1"),
        ({"histograms": {"luminance": [1.5, 2.0]}}, "not whole numbers"),
        ({"histograms": {"luminance": [True, False]}}, "not whole numbers"),
        ({"histograms": {"luminance": ["1", "2"]}}, "not whole numbers"),
        ({"histograms": {"luminance": [[1, 2]]}}, "not one row"),
        ({"histograms": {"luminance": []}}, "bins must be between 1 and 65536, got 0"),
        ({"histograms": {"luminance": [0] * 65537}}, "got 65537"),
        ({"histograms": ["luminance"]}, "has \"histograms\""),
        ({"bins": "2", "histograms": grey}, "the counts have 2 bins, not bins='2'"),
        ({"histograms": {"luminance": [top, 1]}}, "more than 2\\*\\*64 - 1 in all"),
        ({"histograms": {"luminance": np.array([top, 1], np.uint64)}}, "in all"),
        ({"bins": 2.0, "histograms": grey}, "the counts have 2 bins, not bins=2.0"),
        ({"histograms": {"red": [5, 5], "green": [1, 1], "blue": [1, 1], "luminance": [1, 1]}},
         "count different numbers of pixels \\(red 10, green 2, blue 2, luminance 2\\)"),
        ({"histograms": {"red": [1, 1], "green": [1, 1], "blue": [1, 1], "luminance": [1, 0]}},
         "luminance as many or more"),
    ]
    for d, message in bad:
        with pytest.raises(ValueError, match=message):
            gpuhist.Histogram.from_dict(d)
    proxy = types.MappingProxyType({"bins": 3, "histograms": types.MappingProxyType(grey)})
    with pytest.raises(ValueError, match="the counts have 2 bins, not bins=3"):
        gpuhist.Histogram.from_dict(proxy)


def test_merging_past_sixty_four_bits_is_refused():
    """Exact or refused: counts that would add up past 2**64 - 1 in a channel raise, and an
    in-place merge leaves the histogram as it was."""
    big = gpuhist.Histogram.from_dict({"histograms": {"luminance": [2**64 - 1, 0]}})
    one = gpuhist.Histogram.from_dict({"histograms": {"luminance": [0, 1]}})
    for bad in (lambda: big + one, lambda: sum([big, one]), lambda: gpuhist.merge([one, big])):
        with pytest.raises(ValueError, match=r"luminance counts would add up to more than 2\*\*64 - 1"):
            bad()
    before = big.counts.copy()
    with pytest.raises(ValueError):
        big += one
    np.testing.assert_array_equal(big.counts, before)
    most = gpuhist.Histogram.from_dict({"histograms": {"luminance": [2**64 - 2, 0]}})
    assert (most + one).total() == 2**64 - 1
    with pytest.raises(ValueError, match=r"2\*\*64 - 1"):
        gpuhist._histogram_from_state((2, False, (2**64 - 1).to_bytes(8, "little") * 2))


def tiff_with_orientation(path, pixels, orientation):
    """An uncompressed 8-bit RGB TIFF of `pixels` (H, W, 3) tagged with an EXIF orientation."""
    height, width, _ = pixels.shape
    data = pixels.tobytes()
    entries = [(256, 3, 1, width), (257, 3, 1, height), (258, 3, 3, None), (259, 3, 1, 1),
               (262, 3, 1, 2), (273, 4, 1, None), (274, 3, 1, orientation), (277, 3, 1, 3),
               (278, 3, 1, height), (279, 4, 1, len(data))]
    ifd_at = 8
    extra_at = ifd_at + 2 + 12 * len(entries) + 4
    bits_at, data_at = extra_at, extra_at + 6
    out = bytearray(b"II*\0" + ifd_at.to_bytes(4, "little"))
    out += len(entries).to_bytes(2, "little")
    for tag, kind, count, value in entries:
        if tag == 258:
            value = bits_at
        elif tag == 273:
            value = data_at
        out += tag.to_bytes(2, "little") + kind.to_bytes(2, "little") + count.to_bytes(4, "little")
        out += value.to_bytes(2, "little") + b"\0\0" if kind == 3 and count == 1 else \
            value.to_bytes(4, "little")
    out += b"\0\0\0\0" + (8).to_bytes(2, "little") * 3 + data
    path.write_bytes(bytes(out))


def webp_with_orientation(path, pixels, orientation):
    """A lossless WebP of `pixels` (ffmpeg's) in the extended format, with an EXIF chunk
    holding the orientation after the image data, where the format puts it."""
    height, width, _ = pixels.shape
    ppm = path.with_suffix(".ppm")
    ppm.write_bytes(b"P6 %d %d 255\n" % (width, height) + pixels.tobytes())
    plain = path.with_suffix(".plain.webp")
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(ppm), "-c:v", "libwebp",
                    "-lossless", "1", str(plain)], check=True)
    image = plain.read_bytes()[12:]  # its chunk (VP8L), after RIFF, size, WEBP
    vp8x = (b"VP8X" + (10).to_bytes(4, "little") + bytes([0x08, 0, 0, 0]) +
            (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))
    tiff = (b"II*\0" + (8).to_bytes(4, "little") + (1).to_bytes(2, "little") +
            (0x0112).to_bytes(2, "little") + (3).to_bytes(2, "little") + (1).to_bytes(4, "little") +
            orientation.to_bytes(2, "little") + b"\0\0" + b"\0\0\0\0")
    exif = b"EXIF" + len(tiff).to_bytes(4, "little") + tiff
    body = b"WEBP" + vp8x + image + exif
    path.write_bytes(b"RIFF" + len(body).to_bytes(4, "little") + body)


@pytest.mark.parametrize("orientation", range(1, 9))
@pytest.mark.parametrize("kind", ["tif", "webp"])
def test_read_upright_turns_as_the_exif_orientation_says(tmp_path, orientation, kind):
    """The pixels as stored, and upright=True as the tag defines each orientation (as
    PIL's ImageOps.exif_transpose shows them); the files' orientation is given too. A
    WebP's EXIF chunk, which OpenImageIO does not read, is read too."""
    stored = np.random.default_rng(orientation).integers(0, 256, (5, 7, 3), dtype=np.uint8)
    tif = tmp_path / f"tagged.{kind}"
    (tiff_with_orientation if kind == "tif" else webp_with_orientation)(tif, stored, orientation)
    np.testing.assert_array_equal(gpuhist.read(tif), stored)
    shown = {1: stored, 2: stored[:, ::-1], 3: stored[::-1, ::-1], 4: stored[::-1],
             5: stored.transpose(1, 0, 2), 6: np.rot90(stored, -1),
             7: stored.transpose(1, 0, 2)[::-1, ::-1], 8: np.rot90(stored, 1)}[orientation]
    np.testing.assert_array_equal(gpuhist.read(tif, upright=True), shown)
    (row,) = gpuhist.histogram_files([tif])
    assert row.orientation == orientation
    assert pickle.loads(pickle.dumps(row)).orientation == orientation
    np.testing.assert_array_equal(row.histogram.counts, gpuhist.histogram(stored).counts)


def test_a_signal_during_a_count_raises_its_handlers_error():
    """A count on the cpu strategy runs Python's signal handlers now and then (about every
    20 ms, from the main thread): the handler's error (Ctrl-C's KeyboardInterrupt) ends the
    count and is raised as it is; the module counts on after it."""
    import signal

    class Stop(Exception):
        pass

    def stop(signum, frame):
        raise Stop

    image = np.full((4000, 6000, 3), 9, np.uint8)  # 72 MB: tens of milliseconds to count
    previous = signal.signal(signal.SIGALRM, stop)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.002)
        with pytest.raises(Stop):
            for _ in range(200):  # until the alarm, whichever count it lands in
                gpuhist.histogram(image, strategy="cpu")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert int(gpuhist.histogram(image, strategy="cpu").counts[0][9]) == 4000 * 6000

