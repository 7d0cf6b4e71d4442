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
    FileHistogram,
    FileHistograms,
    GpuError,
    Histogram,
    __version__,
    autolevel,
    clahe,
    compare,
    devices,
    draw,
    equalize,
    histogram,
    histogram_file,
    histogram_files,
    match,
    read,
    threshold,
    video,
    VideoHistograms,
)

__all__ = [
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
    "histogram",
    "histogram_file",
    "histogram_files",
    "match",
    "read",
    "threshold",
    "video",
    "VideoHistograms",
]


def _histogram_from_state(state):
    """Rebuilds a pickled Histogram (what Histogram.__reduce__ names: a Python
    function, which every pickle protocol can name)."""
    from . import _gpuhist

    return _gpuhist._histogram_from_state(state)
