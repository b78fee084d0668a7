"""vq.score: one call for a whole run, from files or from iterables of numpy frames."""

from __future__ import annotations

import itertools
import os
from typing import Iterable, Optional, Sequence, Union

from . import _vq
from ._format import VideoFormat
from ._result import Result
from ._session import Frame, Session, requests

#: A video: a file path (anything the vq CLI reads) or an iterable of frames.
Video = Union[str, "os.PathLike[str]", Iterable[Frame]]


def score(
    ref: Optional[Video],
    dist: Video,
    *,
    features: Optional[Sequence[str]] = None,
    models: Optional[Sequence[str]] = None,
    backend: str = "cpu",
    threads: int = 0,
    subsample: int = 1,
    frames: Optional[int] = None,
    skip_ref: int = 0,
    skip_dist: int = 0,
    format: Optional[VideoFormat] = None,
    bit_depth: Optional[int] = None,
    gpu: int = 0,
) -> Result:
    """Scores a distorted video against its reference and returns a vq.Result.

    Example::

        result = vq.score("ref.y4m", "dist.mp4")                  # VMAF v0.6.1, like the CLI
        result.pooled["vmaf"]["mean"]                             # pooled score
        result.frames["vmaf"]                                     # per-frame scores (numpy)
        vq.score("ref.y4m", "dist.y4m", features=["psnr", "cambi"], threads=4).to_pandas()
        vq.score("ref.yuv", "dist.yuv", format=vq.VideoFormat(1920, 1080, 10, "420"))
        vq.score(ref_frames, dist_frames, features=["psnr"])      # iterables of numpy frames

    Args:
        ref, dist: the videos. Each is a file path (Y4M, raw YUV with ``format``, or any
            container vq reads through FFmpeg; "-" is a Y4M stream on standard input), or an
            iterable of frames (numpy arrays as vq.Session.push takes them: a tuple (Y, U, V)
            of planes, or with ``format`` one array per frame in vq's packed layout, e.g. shape
            (h*3//2, w) for 4:2:0). Both paths or both iterables. ``ref`` may be None when every
            feature is no-reference (CAMBI).
        features: feature requests in libvmaf's syntax ("psnr", "cambi=window_size=33",
            "psnr=enable_mse=true"); vq.list_features() lists them.
        models: VMAF models in libvmaf's --model syntax ("version=vmaf_v0.6.1neg:name=vmaf_neg",
            "path=model.json"); vq.list_models() lists the built-in ones. With neither features
            nor models, the default model version=vmaf_v0.6.1 runs, as in the CLI.
        backend: "cpu" (default), "cuda" or "auto" (CUDA when a usable GPU is present).
        threads: CPU worker threads; 0 = every core. Scores never depend on it.
        subsample: score only every Nth frame (libvmaf's --subsample).
        frames: score at most this many frame pairs (libvmaf's --frame_cnt); None or 0 = all.
        skip_ref, skip_dist: leading frames of each input to drop (--frame_skip_ref/_dist).
        format: for paths, the raw YUV files' format (the CLI's -w -h -p -b); for frames, the
            frames' format (needed when each frame is a single array).
        bit_depth: for frames given as tuples of uint16 planes: the bit depth (9..16).
        gpu: the CUDA device ordinal.

    Returns:
        vq.Result: ``.frames`` (numpy structured array: "frame" and one float64 field per score),
        ``.pooled`` ({score: {"min", "max", "mean", "harmonic_mean"}}), ``.aggregates``,
        ``.receipt`` (which backend computed what), ``.backend_used``, ``.notes``,
        ``.to_pandas()``.

    Raises:
        vq.UsageError (a ValueError): a bad feature, option, model or format, a wrong frame
            array (the message names it: "dist: expected uint16 array for 10-bit video, got
            uint8"); the CLI's exit status 2.
        vq.RunError (a RuntimeError): an input that cannot be read or compared, a backend
            failure; the CLI's exit status 1. Both are vq.Error, with the CLI's one-line message.
    """
    features, models = requests(features, models)
    if isinstance(dist, (str, os.PathLike)):
        if ref is not None and not isinstance(ref, (str, os.PathLike)):
            raise _vq.UsageError("ref: expected a file path like dist, or None")
        raw = (format.width, format.height, format.bit_depth, format.chroma) if format else None
        return Result(_vq.run_files(
            os.fspath(ref) if ref is not None else "", os.fspath(dist), raw, features, models,
            backend, threads, subsample, gpu, frames or 0, skip_ref, skip_dist))
    if isinstance(ref, (str, os.PathLike)):
        raise _vq.UsageError("dist: expected a file path like ref, or ref given as frames")

    session = Session(features, models, backend=backend, threads=threads, subsample=subsample,
                      gpu=gpu, format=format, bit_depth=bit_depth)
    dist_frames = itertools.islice(dist, skip_dist, None)
    ref_frames = itertools.islice(ref, skip_ref, None) if ref is not None else itertools.repeat(None)
    pushed = 0
    for ref_frame, dist_frame in zip(ref_frames, dist_frames):
        if frames and pushed == frames:
            break
        session.push(ref_frame, dist_frame)
        pushed += 1
    if pushed == 0:
        raise _vq.RunError("no frames to score in dist" + (" after skipping" if skip_ref or skip_dist else ""))
    return session.finish()
