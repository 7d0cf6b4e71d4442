#!/usr/bin/python3
"""Checks that each layer of the library includes only the layers below it.

The build already refuses a private header of a layer a target does not link
(cmake/Layers.cmake); this also checks the public headers (include/gpuhist/),
which every target can reach: each belongs to a layer, and a layer's sources
and public headers may include only the public headers of itself and the
layers below. Usage: tests/layers.py SOURCE_DIR
"""
import pathlib
import re
import sys

# Each layer and the layers it may use (docs/ARCHITECTURE.md).
BELOW = {
    "core": [],
    "shaders": [],
    "cpu": ["core"],
    "vulkan": ["core"],
    "count": ["vulkan", "cpu", "core", "shaders"],
    "render": ["vulkan", "core", "shaders"],
    "adjust": ["vulkan", "core", "shaders"],
    "io": ["render", "core"],
    "engine": ["count", "render", "adjust", "cpu", "vulkan", "core", "shaders"],
    "view": ["engine", "io", "count", "render", "adjust", "cpu", "vulkan", "core", "shaders"],
}
# The layer each public header belongs to.
PUBLIC = {
    "core": ["compare", "error", "histogram", "histogram_options", "image", "image_view",
             "pixel_buffer", "statistics", "strategy", "version", "device_info"],
    "render": ["render"],
    "adjust": ["adjust", "adjustment", "clahe"],
    "io": ["decode_files", "image_file", "image_planes", "output_file", "pipeline", "pixel_aspect",
           "report", "video_colour", "video_file", "video_writer"],
    "engine": ["context", "frame_stream", "adjust_image", "gpuhist"],
    "view": ["viewer"],
}
OWNER = {header: layer for layer, headers in PUBLIC.items() for header in headers}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([a-z_0-9]+)\.(?:hpp|h)"', re.M)


def closure(layer):
    seen, todo = {layer}, [layer]
    while todo:
        for below in BELOW[todo.pop()]:
            if below not in seen:
                seen.add(below)
                todo.append(below)
    return seen


def check(path, layer, problems):
    allowed = closure(layer)
    for folder, name in INCLUDE.findall(path.read_text()):
        if folder == "gpuhist":
            owner = OWNER.get(name)
            if owner is None:
                problems.append(f"{path}: gpuhist/{name}.hpp belongs to no layer (tests/layers.py)")
            elif owner not in allowed:
                problems.append(f"{path}: includes gpuhist/{name}.hpp of the {owner} layer")
        elif folder in BELOW and folder not in allowed:
            problems.append(f"{path}: includes {folder}/{name} of the {folder} layer")


def main():
    root = pathlib.Path(sys.argv[1])
    problems = []
    public = sorted((root / "include/gpuhist").glob("*.hpp"))
    for header in public:
        layer = OWNER.get(header.stem)
        if layer is None:
            problems.append(f"{header}: a public header of no layer (add it to tests/layers.py)")
            continue
        check(header, layer, problems)
    for folder in sorted((root / "src").iterdir()):
        if not folder.is_dir():
            continue
        if folder.name not in BELOW:
            problems.append(f"{folder}: a folder of src/ that is no layer (tests/layers.py)")
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix in (".cpp", ".hpp", ".h"):
                check(path, folder.name, problems)
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    print(f"layers: {len(public)} public headers and src/ follow the layers")


main()
