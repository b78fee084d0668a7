"""vq: video quality (VMAF, PSNR, SSIM, CAMBI, CIEDE2000, ...) with libvmaf's numbers, on the CPU
and NVIDIA GPUs.

    import vq
    result = vq.score("ref.y4m", "dist.y4m")      # VMAF v0.6.1, as `vq -r ref.y4m -d dist.y4m`
    print(result.pooled["vmaf"]["mean"])

- vq.score(ref, dist, ...): a whole run from files or iterables of numpy frames -> vq.Result.
- vq.Session(...): push frame pairs from numpy one at a time, then finish() -> vq.Result.
- vq.VideoFormat: raw YUV files' and numpy frames' format.
- vq.list_features(), vq.list_models(): what can be requested.
- Errors: vq.Error, and below it vq.UsageError (also ValueError) and vq.RunError (also
  RuntimeError), each with the CLI's one-line message.

help(vq.score), help(vq.Session) and help(vq.Result) say the rest.
"""

import os as _os
from pathlib import Path as _Path

# Containers (mp4, mkv, ...) are read by vq's FFmpeg module, installed beside the native module
# when vq was built with FFmpeg; the library looks for it where this variable says.
_ffmpeg_module = _Path(__file__).with_name("libvq_ffmpeg.so")
if _ffmpeg_module.exists():
    _os.environ.setdefault("VQ_FFMPEG_MODULE", str(_ffmpeg_module))

from . import _vq  # noqa: E402
from ._format import VideoFormat  # noqa: E402
from ._result import Result  # noqa: E402
from ._score import score  # noqa: E402
from ._session import Frame, Session  # noqa: E402

Error = _vq.Error
UsageError = _vq.UsageError
RunError = _vq.RunError

__version__: str = _vq.version

# Shown as vq.Session, vq.score ... in help() and reprs, where users meet them.
for _public in (score, Session, Result, VideoFormat):
    _public.__module__ = __name__


def list_features() -> str:
    """Every feature, its CUDA twin and its options (what `vq --list-features` prints)."""
    return _vq.describe_features()


def list_models() -> str:
    """Every built-in VMAF model (for models=["version=NAME"]), with its intended display, viewing
    distance and frame rate (what `vq --list-models` prints)."""
    return _vq.describe_models()


__all__ = ["score", "Session", "Result", "VideoFormat", "Frame", "Error", "UsageError",
           "RunError", "list_features", "list_models", "__version__"]
