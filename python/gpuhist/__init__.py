"""Exact image histograms on the GPU (Vulkan) or the CPU.

    import numpy as np, gpuhist
    h = gpuhist.histogram(np.asarray(image))      # uint8, uint16 or float32 arrays
    h.counts                                      # (channels, bins) uint64, read only
    h.stats()["luminance"]["median"]
    total = sum(gpuhist.histogram_file(p) for p in paths)   # exact merge
    for f in gpuhist.histogram_files(paths):      # decoded on every core, in order
        print(f.path, f.error or f.histogram.stats()["luminance"]["mean"])

Every strategy and device gives the same counts, bit for bit, as the gpuhist
command line and C++ library. See help(gpuhist.histogram).
"""

from ._gpuhist import (
    Context,
    GpuError,
    Histogram,
    __version__,
    autolevel,
    clahe,
    compare,
    devices,
    draw,
    equalize,
    has_files,
    histogram,
    match,
    threshold,
)
from . import _gpuhist

# The image files and videos; absent from a module built with the engine alone
# (GPUHIST_ENGINE_ONLY), which counts, draws and adjusts arrays only.
_FILE_NAMES = (
    "FileHistogram",
    "FileHistograms",
    "VideoHistograms",
    "histogram_file",
    "histogram_files",
    "read",
    "video",
)
if _gpuhist.has_files:
    from ._gpuhist import (
        FileHistogram,
        FileHistograms,
        VideoHistograms,
        histogram_file,
        histogram_files,
        read,
        video,
    )


def __getattr__(name):
    if name in _FILE_NAMES:
        raise AttributeError(
            f"gpuhist.{name}: this gpuhist module was built with the engine alone "
            "(GPUHIST_ENGINE_ONLY): it counts, draws and adjusts arrays, and reads no files or videos"
        )
    raise AttributeError(f"module 'gpuhist' has no attribute '{name}'")


__all__ = [
    "merge",
    "Context",
    "FileHistogram",
    "FileHistograms",
    "GpuError",
    "Histogram",
    "__version__",
    "autolevel",
    "clahe",
    "compare",
    "devices",
    "draw",
    "equalize",
    "has_files",
    "histogram",
    "histogram_file",
    "histogram_files",
    "match",
    "read",
    "threshold",
    "video",
    "VideoHistograms",
]
if not _gpuhist.has_files:
    __all__ = [name for name in __all__ if name not in _FILE_NAMES]


def merge(histograms):
    """The exact sum of `histograms` (any iterable of Histogram of the same bins), grey and
    colour mixed as `gpuhist compute --merge` mixes them: a grey image's counts add to
    luminance alone, so a mixed total's red, green and blue count its colour images and its
    luminance every image. None for no histograms; ValueError for different bins. (`+` and
    `sum` take histograms of the same channels only.)"""
    from . import _gpuhist

    total = None
    for h in histograms:
        if not isinstance(h, Histogram):
            raise TypeError(f"gpuhist.merge takes Histograms, not {type(h).__name__}")
        if total is None:
            total = Histogram(h.bins, len(h.channels) > 1) + h  # a copy
        else:
            total = _gpuhist._merge_any(total, h)
    return total


def _histogram_from_state(state):
    """Rebuilds a pickled Histogram (what Histogram.__reduce__ names: a Python
    function, which every pickle protocol can name)."""
    from . import _gpuhist

    return _gpuhist._histogram_from_state(state)


def _file_histogram_from_state(state):
    """Rebuilds a pickled FileHistogram (what FileHistogram.__reduce__ names)."""
    from . import _gpuhist

    return _gpuhist._file_histogram_from_state(state)
