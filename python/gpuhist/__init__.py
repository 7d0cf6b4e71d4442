"""Exact image histograms on the GPU (Vulkan) or the CPU.

    import numpy as np, gpuhist
    h = gpuhist.histogram(np.asarray(image))      # uint8, uint16 or float32 arrays
    h.counts                                      # (channels, bins) uint64, read only
    h.stats()["luminance"]["median"]
    total = gpuhist.merge(gpuhist.histogram_file(p) for p in paths)   # exact; grey and
                                                  # colour mixed (sum() needs equal channels)
    for f in gpuhist.histogram_files(paths):      # decoded on every core, in order
        print(f.path, f.error or f.histogram.stats()["luminance"]["mean"])

Every strategy and device gives the same counts, bit for bit, as the gpuhist
command line and C++ library. See help(gpuhist.histogram).
"""

from ._gpuhist import (
    Context,
    GpuError,
    Histogram,
    PlaneHistogram,
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
    "PlaneHistogram",
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
    luminance every image. None for no histograms; ValueError for different bins, and for a
    PlaneHistogram with anything but the same plane. (`+` and `sum` take histograms of the
    same channels only.)"""
    from . import _gpuhist

    total = None
    for h in histograms:
        if not isinstance(h, Histogram):
            raise TypeError(f"gpuhist.merge takes Histograms, not {type(h).__name__}")
        if total is None:
            total = 0 + h  # a copy
        elif isinstance(total, PlaneHistogram) or isinstance(h, PlaneHistogram):
            total = total + h  # the same plane alone
        else:
            total = _gpuhist._merge_any(total, h)
    return total


def _refusing_planes(method):
    """Histogram's own __init__ or __setstate__, refusing a PlaneHistogram: they remake a
    Histogram in place, and a PlaneHistogram's object is of its own type (pybind11 would
    end the process)."""
    import functools

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        if isinstance(self, PlaneHistogram):
            raise TypeError(f"gpuhist: Histogram.{method.__name__} cannot remake a "
                            "PlaneHistogram (use PlaneHistogram's own)")
        return method(self, *args, **kwargs)

    return guarded


Histogram.__init__ = _refusing_planes(Histogram.__init__)
Histogram.__setstate__ = _refusing_planes(Histogram.__setstate__)


def _histogram_from_state(state):
    """Rebuilds a pickled Histogram (what Histogram.__reduce__ names: a Python
    function, which every pickle protocol can name)."""
    from . import _gpuhist

    return _gpuhist._histogram_from_state(state)


def _plane_histogram_from_state(state):
    """Rebuilds a pickled PlaneHistogram (what PlaneHistogram.__reduce__ names)."""
    from . import _gpuhist

    return _gpuhist._plane_histogram_from_state(state)


def _file_histogram_from_state(state):
    """Rebuilds a pickled FileHistogram (what FileHistogram.__reduce__ names)."""
    from . import _gpuhist

    return _gpuhist._file_histogram_from_state(state)


_CHANNEL_ORDER = ("red", "green", "blue", "luminance")


def _histogram_from_dict(d):
    """Histogram.from_dict(d): the Histogram of `d`, in the shape `to_dict()` and
    `gpuhist compute --format json` give (``{"bins": N, "histograms": {"red": [...],
    ..., "luminance": [...]}}``; other keys, such as "file" and "stats", are ignored), so
    that saved totals load back and merge exactly; a PlaneHistogram's (one row named "y",
    "cb" or "cr") loads as a PlaneHistogram (a `compute --space ycbcr` object holds three:
    load each as {"bins": N, "histograms": {"cb": [...]}}). ValueError for anything else: other
    channels, rows of other lengths, counts that are not whole numbers from 0 to 2**64 - 1
    or that add up to more than 2**64 - 1 in a channel, red, green and blue counting
    different numbers of pixels or luminance fewer, a "bins" that is not the rows' length as
    a whole number."""
    from collections.abc import Mapping

    import numpy as np

    from . import _gpuhist

    rows = d.get("histograms") if isinstance(d, Mapping) else None
    if not isinstance(rows, Mapping):
        raise ValueError("gpuhist: a histogram's dict has \"histograms\": {channel: counts}")
    names = set(rows)
    planes = ({"y"}, {"cb"}, {"cr"})
    if names not in ({"luminance"}, set(_CHANNEL_ORDER), *planes):
        raise ValueError("gpuhist: a histogram's channels are red, green, blue and luminance, "
                         "luminance alone, or one plane (y, cb or cr), not "
                         f"{', '.join(sorted(map(str, names))) or 'none'}")
    colour = len(names) == 4
    order = _CHANNEL_ORDER if colour else tuple(names)
    counts = []
    for name in order:
        value = rows[name]
        # Python's ints kept exact (numpy would make a list with one beyond int64 float64).
        row = value if isinstance(value, np.ndarray) else np.array(value, dtype=object)
        if row.size == 0:
            row = row.astype(np.uint64)  # no bins: said below
        if row.dtype == object:
            whole = (int, np.integer)
            if not all(isinstance(v, whole) and not isinstance(v, (bool, np.bool_))
                       for v in row.ravel()):
                raise ValueError(f"gpuhist: the {name} counts are not whole numbers")
            if any(v < 0 or v >= 1 << 64 for v in row.ravel()):
                raise ValueError(f"gpuhist: the {name} counts are not 0 to 2**64 - 1")
        elif row.dtype.kind == "i":
            if (row < 0).any():
                raise ValueError(f"gpuhist: the {name} counts are not 0 to 2**64 - 1")
        elif row.dtype.kind != "u":
            raise ValueError(f"gpuhist: the {name} counts are not whole numbers")
        if row.ndim != 1:
            raise ValueError(f"gpuhist: the {name} counts are not one row")
        row = row.astype(np.uint64)
        may_overflow = int(row.max(initial=0)) * len(row) >= 1 << 64
        if may_overflow and sum(int(v) for v in row) >= 1 << 64:
            raise ValueError(f"gpuhist: the {name} counts add up to more than 2**64 - 1 in all")
        counts.append(row)
    lengths = {len(row) for row in counts}
    if len(lengths) != 1:
        raise ValueError("gpuhist: every channel has the same number of bins")
    (n,) = lengths
    if "bins" in d and (not isinstance(d["bins"], (int, np.integer)) or isinstance(d["bins"], bool)
                        or d["bins"] != n):
        raise ValueError(f"gpuhist: the counts have {n} bins, not bins={d['bins']!r}")
    # Red, green and blue count the same pixels, and luminance those and any grey
    # image's merged in (gpuhist.merge and --merge add a grey image to luminance alone).
    totals = [sum(int(v) for v in row) for row in counts]
    if colour and (len(set(totals[:3])) != 1 or totals[3] < totals[0]):
        raise ValueError("gpuhist: the channels count different numbers of pixels "
                         f"({', '.join(f'{name} {t}' for name, t in zip(order, totals))}): red, "
                         "green and blue count the same, luminance as many or more")
    if not 1 <= n <= 65536:
        raise ValueError(f"gpuhist: bins must be between 1 and 65536, got {n}")
    state = (n, colour, np.stack(counts).tobytes())
    if names in planes:
        return _gpuhist._plane_histogram_from_state((order[0], state))
    return _gpuhist._histogram_from_state(state)


Histogram.from_dict = staticmethod(_histogram_from_dict)
