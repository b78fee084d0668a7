"""vq.Session: frames produced in Python, scored as they are pushed."""

from __future__ import annotations

import threading
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _vq
from ._format import VideoFormat, infer_format
from ._result import Result

#: One frame: a single array in vq's packed layout, or a tuple of planes (Y, U, V) / (Y,).
Frame = Union[np.ndarray, Sequence[np.ndarray]]

DEFAULT_MODEL = "version=vmaf_v0.6.1"


def requests(features: Optional[Sequence[str]],
             models: Optional[Sequence[str]]) -> tuple[list[str], list[str]]:
    """The CLI's rule: with neither features nor models, libvmaf's default VMAF model."""
    features = [features] if isinstance(features, str) else list(features or [])
    models = [models] if isinstance(models, str) else list(models or [])
    if not features and not models:
        models = [DEFAULT_MODEL]
    return features, models


class Session:
    """Scores frame pairs pushed from numpy, one pair at a time.

    Example::

        session = vq.Session(features=["psnr"], format=vq.VideoFormat(1920, 1080))
        for ref, dist in pairs:            # each an array of shape (1620, 1920), uint8
            session.push(ref, dist)
        result = session.finish()          # a vq.Result
        print(result.pooled["psnr_y"]["mean"])

    Args:
        features: feature requests in libvmaf's syntax ("psnr", "cambi=window_size=33"); see
            vq.list_features().
        models: VMAF models in libvmaf's --model syntax ("version=vmaf_v0.6.1",
            "path=model.json:name=my_vmaf"). With neither features nor models: the default
            VMAF model, version=vmaf_v0.6.1, as the CLI runs.
        backend: "cpu", "cuda" or "auto" (CUDA when a usable GPU is present).
        threads: CPU worker threads; 0 = every core. Scores never depend on it.
        subsample: score only frames whose index is a multiple of this.
        gpu: the CUDA device ordinal.
        format: the frames' format. Needed before a frame given as a single array; without it
            the first push infers it from a tuple of planes (uint16 samples then need bit_depth).
        bit_depth: the bit depth (9..16) of uint16 frames when the format is inferred.

    Frames (push's ``ref`` and ``dist``): uint8 arrays for 8-bit video, uint16 (native byte order)
    for 9..16 bits, each frame either

    - one C-contiguous array holding the whole frame in vq's packed layout: Y, then U, then V,
      each plane's rows tightly packed, shaped ``format.packed_shape()`` (``(h*3//2, w)`` for
      even-sized 4:2:0, the usual I420 array; ``(h, w)`` for 4:0:0) or 1-D. On the CPU backend it
      is used **without a copy**: the session keeps a reference to the array until it is done
      with the frame (some frames later: motion reads two frames back), so do not write into a
      pushed array afterwards; push a new array per frame.
    - a tuple ``(Y, U, V)`` (``(Y,)`` for 4:0:0) of 2-D planes, each with contiguous samples in a
      row (crops and flipped views are fine). Copied.

    On the CUDA backend every frame is copied into the session's pinned staging memory.

    A wrong type, shape or layout raises vq.UsageError (a ValueError) naming the array, e.g.
    "dist: expected uint16 array for 10-bit video, got uint8". Bad feature or model requests raise
    vq.UsageError; failures while computing raise vq.RunError (a RuntimeError).

    Scores come out as frames complete: ``frames_ready`` counts the frames whose every score is
    final, ``scores()`` returns them and ``new_scores()`` those not yet handed out; finish()
    returns the whole run.

    A Session may be used from several threads: one call runs at a time, and none holds the GIL
    while vq computes. Frames are scored in the order push() is called.
    """

    def __init__(
        self,
        features: Optional[Sequence[str]] = None,
        models: Optional[Sequence[str]] = None,
        *,
        backend: str = "cpu",
        threads: int = 0,
        subsample: int = 1,
        gpu: int = 0,
        format: Optional[VideoFormat] = None,
        bit_depth: Optional[int] = None,
    ) -> None:
        features, models = requests(features, models)
        self._lock = threading.Lock()
        self._delivered = 0  # frames handed out by new_scores()
        self._bit_depth = bit_depth if bit_depth is not None else (format.bit_depth if format else None)
        self._native = _vq.Session(features, models, backend, threads, subsample, gpu)
        if format is not None:
            self.start(format)

    def start(self, format: VideoFormat) -> None:
        """Binds the features to the backends for this format. push() calls it on its first frame
        when it can infer the format; call it yourself to push single arrays."""
        with self._lock:
            self._native.start(format.width, format.height, format.bit_depth, format.chroma)

    @property
    def format(self) -> Optional[VideoFormat]:
        """The frames' format once started, else None."""
        native = self._native.format()
        return VideoFormat(*native) if native else None

    @property
    def needs_reference(self) -> bool:
        """False when every requested feature is no-reference (CAMBI): push(None, dist) then."""
        return self._native.needs_reference()

    @property
    def receipt(self) -> list[dict[str, Any]]:
        """Which backend runs each feature (after start): [{"feature", "backend", "outputs",
        "notes"}]."""
        return self._native.receipts()

    @property
    def frames_pushed(self) -> int:
        """Frame pairs pushed so far."""
        return self._native.frames_pushed()

    def push(self, ref: Optional[Frame], dist: Frame) -> None:
        """Submits the next frame pair (see the class's help for the accepted arrays). Returns
        without waiting for the pair's scores. ``ref`` may be None when every feature is
        no-reference."""
        with self._lock:
            if not self._native.started():
                format = infer_format(dist, self._bit_depth, "dist")
                self._native.start(format.width, format.height, format.bit_depth, format.chroma)
            self._native.push(ref, dist)

    @property
    def frames_ready(self) -> int:
        """Frames [0, frames_ready) have every score final, the models' included (0 before the
        first push). It grows as push() commits frames: a frame is committed once the backends
        are done with it and with every earlier frame, and a score that needs the next frame
        (motion2, hence VMAF) holds the newest frame back until then."""
        return self._native.frames_ready()

    def scores(self, first: int = 0) -> np.ndarray:
        """The final scores of frames [first, frames_ready), as Result.frames holds them: a
        structured array with "frame" and one float64 field per score (with subsample=N, only
        every Nth frame). The same numbers finish() returns for those frames."""
        with self._lock:
            return self._native.ready_scores(first)

    def new_scores(self) -> np.ndarray:
        """The frames that became final since the previous call (all of them the first time), as
        scores() returns them: call it after each push() to follow a run as it goes::

            for ref, dist in frames:
                session.push(ref, dist)
                for record in session.new_scores():
                    print(record["frame"], record["vmaf"])
            rest = session.finish()   # every frame, those not yet handed out included
        """
        with self._lock:
            records = self._native.ready_scores(self._delivered)
            self._delivered = max(self._delivered, self._native.frames_ready())
            return records

    def finish(self) -> Result:
        """Waits for every pushed frame and returns the scores. The session cannot be used
        afterwards."""
        with self._lock:
            return Result(self._native.finish())
