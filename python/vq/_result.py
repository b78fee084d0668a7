"""The scores of a finished run."""

from __future__ import annotations

from typing import Any

import numpy as np


class Result:
    """The scores of a run, as the CLI's JSON output carries them.

    Attributes:
        frames: numpy structured array, one record per scored frame (with ``subsample=N``, every
            Nth): an int64 field ``"frame"`` (the frame's index in the run), then one float64
            field per score in the CLI's output order (``result.frames["vmaf"]``), NaN where a
            frame has no value.
        pooled: ``{score: {method: value}}`` with libvmaf's methods "min", "max", "mean" and
            "harmonic_mean" (a method is absent where libvmaf omits it: a frame without a value).
        aggregates: whole-run values such as PSNR's ``apsnr_y`` (``{name: value}``).
        receipt: one dict per feature, in request order: ``{"feature", "backend", "outputs",
            "notes"}`` (which backend computed which outputs; notes are counts such as the CUDA
            CAMBI's order-dependent frames: ``{"name", "count", "message"}``).
        backend_used: "cpu", "cuda" or "cuda+cpu".
        notes: the run's one-line notes and warnings (inputs of different lengths, ...).
        fps: frames scored per second; width, height: the pictures' size.
    """

    def __init__(self, native: dict[str, Any]) -> None:
        self.frames: np.ndarray = native["frames"]
        self.pooled: dict[str, dict[str, float]] = native["pooled"]
        self.aggregates: dict[str, float] = native["aggregates"]
        self.receipt: list[dict[str, Any]] = native["receipts"]
        self.backend_used: str = native["backend_used"]
        self.notes: list[str] = native.get("notes", [])
        self.fps: float = native["fps"]
        self.width: int = native["width"]
        self.height: int = native["height"]

    @property
    def names(self) -> list[str]:
        """Every score's name, in output order (the fields of ``frames`` after "frame")."""
        return list(self.frames.dtype.names[1:])

    def __getitem__(self, name: str) -> np.ndarray:
        """``result["vmaf"]``: one score's per-frame values (float64, NaN where absent)."""
        return self.frames[name]

    def to_pandas(self) -> Any:
        """The per-frame scores as a pandas DataFrame indexed by frame number.

        Raises ImportError (with how to install it) when pandas is not installed."""
        try:
            import pandas
        except ImportError as missing:
            raise ImportError(
                "Result.to_pandas() needs pandas: apt-get install python3-pandas "
                "(or pip install pandas)") from missing
        return pandas.DataFrame(self.frames).set_index("frame")

    def __repr__(self) -> str:
        means = [f"{name}={methods['mean']:.6f}" for name, methods in self.pooled.items()
                 if "mean" in methods]
        more = ", ..." if len(means) > 4 else ""
        return (f"<vq.Result {len(self.frames)} frames, {self.backend_used}: "
                f"mean {', '.join(means[:4])}{more}>")
