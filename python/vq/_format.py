"""The video format of frames pushed from numpy, and its inference from a first frame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

CHROMA_FORMATS = ("420", "422", "444", "400")


@dataclass(frozen=True)
class VideoFormat:
    """A planar YCbCr video format.

    Attributes:
        width, height: the luma plane's size in pixels (1..16384).
        bit_depth: 8 (uint8 samples) or 9..16 (uint16 samples, native byte order).
        chroma: "420", "422", "444" or "400" (luma only). Chroma planes of odd-sized 4:2:0 and
            4:2:2 video are ceil(width/2) wide (and, for 4:2:0, ceil(height/2) high).

    Used for raw YUV files (``vq.score(..., format=...)``, the CLI's -w -h -p -b) and for frames
    pushed from numpy (``vq.Session(format=...)``).
    """

    width: int
    height: int
    bit_depth: int = 8
    chroma: str = "420"

    def plane_shapes(self) -> list[tuple[int, int]]:
        """The (rows, columns) of each plane: Y, then U and V unless the format is 4:0:0."""
        if self.chroma == "400":
            return [(self.height, self.width)]
        chroma_width = self.width if self.chroma == "444" else (self.width + 1) // 2
        chroma_height = (self.height + 1) // 2 if self.chroma == "420" else self.height
        return [(self.height, self.width)] + [(chroma_height, chroma_width)] * 2

    def packed_shape(self) -> tuple[int, int]:
        """The shape of one array holding a whole frame in vq's packed layout (Y, then U, then V,
        rows tightly packed), when the planes add up to whole rows of luma width: (h*3//2, w) for
        4:2:0 with even sizes, (2h, w) for 4:2:2 with an even width, (3h, w) for 4:4:4, (h, w)
        for 4:0:0."""
        samples = sum(rows * columns for rows, columns in self.plane_shapes())
        if samples % self.width:
            raise ValueError(f"{self}: the planes do not fill whole rows; use a 1-D array of {samples}")
        return (samples // self.width, self.width)

    @property
    def dtype(self) -> np.dtype:
        """numpy's sample type for this bit depth: uint8 or uint16."""
        return np.dtype(np.uint16 if self.bit_depth > 8 else np.uint8)


def infer_format(frame: Any, bit_depth: Optional[int], name: str) -> VideoFormat:
    """The format of a first frame given as a tuple of planes ((Y, U, V) or (Y,)).

    A single array cannot say how its rows split into planes, so it needs the format given."""
    from ._vq import UsageError

    if not isinstance(frame, (tuple, list)):
        raise UsageError(
            f"{name}: a single array needs the session's format: vq.Session(format=vq.VideoFormat("
            "width, height, bit_depth, chroma)) or Session.start(...); or push a tuple (Y, U, V)")
    if len(frame) not in (1, 3) or not all(isinstance(p, np.ndarray) and p.ndim == 2 for p in frame):
        raise UsageError(f"{name}: expected a tuple (Y, U, V) or (Y,) of 2-D numpy arrays")
    height, width = frame[0].shape
    chroma = "400"
    if len(frame) == 3:
        shapes = {
            (height, width): "444",
            (height, (width + 1) // 2): "422",
            ((height + 1) // 2, (width + 1) // 2): "420",
        }
        chroma = shapes.get(frame[1].shape, "")
        if not chroma:
            raise UsageError(
                f"{name}: plane U has shape {frame[1].shape}, which is no chroma layout of a "
                f"{width}x{height} luma plane (4:2:0, 4:2:2 or 4:4:4)")
    if bit_depth is None:
        if frame[0].dtype != np.uint8:
            raise UsageError(
                f"{name}: {frame[0].dtype} samples need the bit depth (9..16): "
                "vq.Session(bit_depth=10) or vq.score(..., bit_depth=10)")
        bit_depth = 8
    return VideoFormat(width, height, bit_depth, chroma)
