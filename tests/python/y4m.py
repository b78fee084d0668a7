"""A minimal Y4M reader and writer for the tests: 4:2:0 / 4:2:2 / 4:4:4 / mono, 8..16 bits."""

import re
import re
from pathlib import Path
from typing import Iterator

import numpy as np

import vq

CHROMA_TAGS = {"420": "420", "420jpeg": "420", "420paldv": "420", "420mpeg2": "420",
               "422": "422", "444": "444", "mono": "400"}


def read_format(path: Path) -> vq.VideoFormat:
    with open(path, "rb") as file:
        header = file.readline().decode().split()
    fields = {word[0]: word[1:] for word in header[1:]}
    tag = fields.get("C", "420jpeg")
    deep = re.fullmatch(r"(420|422|444|mono)p(\d+)", tag)
    base, depth = (deep.group(1), int(deep.group(2))) if deep else (tag, 8)
    return vq.VideoFormat(int(fields["W"]), int(fields["H"]), depth, CHROMA_TAGS[base])


def frames(path: Path) -> Iterator[np.ndarray]:
    """Each frame as one 1-D array in vq's packed layout (a fresh array per frame)."""
    video = read_format(path)
    samples = sum(rows * columns for rows, columns in video.plane_shapes())
    with open(path, "rb") as file:
        file.readline()
        while file.readline():  # "FRAME..."
            yield np.frombuffer(file.read(samples * video.dtype.itemsize), dtype=video.dtype).copy()


def planes(frame: np.ndarray, video: vq.VideoFormat) -> tuple:
    """A packed frame as its tuple of 2-D planes (views)."""
    result, offset = [], 0
    for rows, columns in video.plane_shapes():
        result.append(frame[offset:offset + rows * columns].reshape(rows, columns))
        offset += rows * columns
    return tuple(result)


def write(path: Path, video: vq.VideoFormat, packed_frames) -> None:
    tag = {"420": "420jpeg", "422": "422", "444": "444", "400": "mono"}[video.chroma]
    if video.bit_depth > 8:
        tag = f"{tag.replace('jpeg', '')}p{video.bit_depth}"
    with open(path, "wb") as file:
        file.write(f"YUV4MPEG2 W{video.width} H{video.height} F25:1 Ip A1:1 C{tag}\n".encode())
        for frame in packed_frames:
            file.write(b"FRAME\n")
            file.write(np.ascontiguousarray(frame, dtype=video.dtype).tobytes())
