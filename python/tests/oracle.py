"""The documented bin formula in numpy: what every gpuhist strategy must count."""
import numpy as np

WEIGHTS = {"709": (2126, 7152, 722), "601": (2990, 5870, 1140)}


def channel_bins(values, bins, dtype):
    if dtype == np.float32:
        v = np.nan_to_num(values.astype(np.float32), nan=0.0, posinf=1.0, neginf=0.0)
        v = np.clip(v, np.float32(0), np.float32(1))
        scaled = np.floor(v * np.float32(bins)).astype(np.int64)
        return np.minimum(scaled, bins - 1)
    top = 255 if dtype == np.uint8 else 65535
    return np.minimum(values.astype(np.int64) * bins // top, bins - 1)


def luma_bins(rgb, bins, dtype, luma="709"):
    wr, wg, wb = WEIGHTS[luma]
    if dtype == np.float32:
        f = {"709": (0.2126, 0.7152, 0.0722), "601": (0.299, 0.587, 0.114)}[luma]
        c = [np.clip(np.nan_to_num(rgb[..., i].astype(np.float32), nan=0.0, posinf=1.0, neginf=0.0),
                     np.float32(0), np.float32(1)) for i in range(3)]
        rg = np.float32(f[0]) * c[0] + np.float32(f[1]) * c[1]
        y = np.clip(rg + np.float32(f[2]) * c[2], np.float32(0), np.float32(1))
        return channel_bins(y, bins, np.float32)
    top = 255 if dtype == np.uint8 else 65535
    s = (wr * rgb[..., 0].astype(np.int64) + wg * rgb[..., 1].astype(np.int64)
         + wb * rgb[..., 2].astype(np.int64))
    return np.minimum(s * bins // (10000 * top), bins - 1)


def histograms(image, bins=256, luma="709"):
    """(channels, bins) uint64 counts of an (H, W), (H, W, 1), (H, W, 3) or (H, W, 4) array."""
    image = np.asarray(image)
    dtype = image.dtype.type
    if image.ndim == 2 or image.shape[2] == 1:
        grey = image.reshape(image.shape[0], image.shape[1])
        b = channel_bins(grey, bins, dtype)
        return np.bincount(b.ravel(), minlength=bins).astype(np.uint64)[None, :]
    rows = [np.bincount(channel_bins(image[..., c], bins, dtype).ravel(), minlength=bins)
            for c in range(3)]
    rows.append(np.bincount(luma_bins(image, bins, dtype, luma).ravel(), minlength=bins))
    return np.stack(rows).astype(np.uint64)
