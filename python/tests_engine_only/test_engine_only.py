"""The package as GPUHIST_ENGINE_ONLY builds it: arrays in, exact histograms and
adjustments out, no OpenImageIO or FFmpeg loaded, and a clear AttributeError for
the file and video functions it leaves out. Run with PYTHONPATH naming the
engine-only package (ctest's test_python_engine_only)."""
import pathlib
import pickle
import sys

import numpy as np
import pytest

import gpuhist

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
import oracle  # noqa: E402  (the documented bin formula, shared with the full suite)

FILE_NAMES = ("read", "histogram_file", "histogram_files", "video", "FileHistogram",
              "FileHistograms", "VideoHistograms")


def loaded_libraries():
    with open("/proc/self/maps", encoding="utf-8") as maps:
        return {line.split()[-1].rsplit("/", 1)[-1] for line in maps if "/" in line}


def test_the_engine_only_package_is_the_one_imported():
    assert gpuhist.has_files is False
    assert "has_files" in gpuhist.__all__
    assert "python-engine-only" in gpuhist.__file__


def test_no_decoder_library_is_loaded_or_named():
    decoders = ("libOpenImageIO", "libavcodec", "libavformat", "libswscale", "libgpuhist-images")
    assert [n for n in loaded_libraries() if n.startswith(decoders)] == []
    # Nor named by the extension, which loads the image module on the first read
    # where it has files.
    extension = pathlib.Path(gpuhist._gpuhist.__file__).read_bytes()
    assert [d for d in decoders if d.encode() in extension] == []


def test_the_data_set_module_says_it_needs_files():
    with pytest.raises(ImportError, match="engine alone"):
        import gpuhist.dataset  # noqa: F401


@pytest.mark.parametrize("name", FILE_NAMES)
def test_file_functions_raise_attribute_error_naming_the_build(name):
    assert name not in gpuhist.__all__
    with pytest.raises(AttributeError, match=f"gpuhist.{name}: .*engine alone"):
        getattr(gpuhist, name)
    if name.islower():
        assert not hasattr(gpuhist.Context("cpu"), name)


def test_star_import_gives_the_array_functions():
    namespace = {}
    exec("from gpuhist import *", namespace)  # noqa: S102
    for name in ("histogram", "Histogram", "Context", "equalize", "draw", "compare", "merge"):
        assert name in namespace
    for name in FILE_NAMES:
        assert name not in namespace


def test_unknown_names_raise_the_plain_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'nonsense'"):
        gpuhist.nonsense  # noqa: B018


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
@pytest.mark.parametrize("strategy", ["cpu", None])
def test_histograms_equal_the_oracle(dtype, strategy):
    rng = np.random.default_rng(7)
    if dtype == np.float32:
        image = rng.random((61, 83, 3), dtype=np.float32)
    else:
        image = rng.integers(0, np.iinfo(dtype).max + 1, (61, 83, 3), dtype=dtype)
    h = gpuhist.histogram(image[:, ::-1], 256, strategy=strategy)
    np.testing.assert_array_equal(h.counts, oracle.histograms(image[:, ::-1], 256))
    assert pickle.loads(pickle.dumps(h)).counts.tolist() == h.counts.tolist()
    assert (h + h).counts.sum() == 2 * h.counts.sum()


def test_adjustments_and_drawing_work_on_arrays():
    rng = np.random.default_rng(8)
    image = rng.integers(40, 120, (32, 48, 3), dtype=np.uint8)
    out = gpuhist.equalize(image)
    assert out.shape == image.shape and out.dtype == np.uint8
    assert int(out.max()) - int(out.min()) > int(image.max()) - int(image.min())
    picture = gpuhist.draw(gpuhist.histogram(image), size=(64, 20))
    assert picture.shape == (20, 64, 4) and picture.dtype == np.uint8
