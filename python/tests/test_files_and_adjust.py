"""Reading files, drawing, comparing and adjusting: the same values and bytes
as the command line gives for the same files."""
import json
import subprocess

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
    with pytest.raises(ValueError):
        gpuhist.match(gpuhist.read(str(a)), gpuhist.read(str(b)).astype(np.uint16))
    with pytest.raises(TypeError):
        gpuhist.equalize(np.zeros((4, 4, 3), np.float32))
    with pytest.raises(ValueError):
        gpuhist.equalize(np.zeros((4, 4, 3), np.uint8), channels="some")
    with pytest.raises(ValueError):
        gpuhist.threshold(np.zeros((4, 4, 3), np.uint8), method=300)
