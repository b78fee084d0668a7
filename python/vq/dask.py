"""vq.dask: vq on a Dask cluster (Debian's python3-distributed).

- score_catalogue(jobs, client=...): many (reference, distorted) jobs on the cluster's workers.
  Jobs that share a reference and their options become one many-input run (the reference read
  once, as `vq -r REF -d A -d B`); each result's report files are the vq command's, bit for bit.
- score_chunked(ref, dist, client=..., chunk_frames=N): one long title split into frame ranges
  scored on different workers and merged into exactly the single run's scores (every per-frame
  and pooled value, bit for bit): each chunk reads the frames its features need around it and
  returns only its own; pooling runs once, over the merged frames, in vq's own code.
- python -m vq.dask jobs.csv --scheduler ADDRESS -o results/: a catalogue from a CSV file.

Work lost with a worker (a killed process, a lost machine) is run again by the scheduler; results
are gathered and files written by the client, once per job. A job that asks for backend="cuda"
runs only on workers started with the resource GPU (`dask worker --resources GPU=1`), and every
result says where it ran (``worker``, ``backend_used``).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from . import _vq
from ._format import VideoFormat
from ._result import Result
from ._session import requests

try:
    import distributed
except ImportError as _missing:  # the rest of vq works without it
    raise ImportError("vq.dask needs Dask distributed: apt-get install python3-distributed "
                      "(or pip install distributed)") from _missing


@dataclass
class Job:
    """One catalogue job: a reference, its distorted inputs, and what to score (vq.score's
    arguments). ``names`` name the result files (default: each distorted file's stem)."""

    reference: str
    distorted: Sequence[str]
    features: Optional[Sequence[str]] = None
    models: Optional[Sequence[str]] = None
    backend: str = "cpu"
    threads: int = 1
    subsample: int = 1
    frames: Optional[int] = None
    skip_ref: int = 0
    skip_dist: int = 0
    format: Optional[VideoFormat] = None
    gpu: int = 0
    names: Optional[Sequence[str]] = None

    def native(self) -> tuple:
        """The native job tuple (distorted left empty): what a worker's vq._vq runs."""
        features, models = requests(self.features, self.models)
        raw = ((self.format.width, self.format.height, self.format.bit_depth, self.format.chroma)
               if self.format else None)
        return (os.fspath(self.reference), "", raw, features, models, self.backend, self.threads,
                self.subsample, self.gpu, self.frames or 0, self.skip_ref, self.skip_dist)


@dataclass
class Outcome:
    """What became of one distorted input of a catalogue: its result and the report files written
    (``files``), or ``error`` (vq's one-line message) and ``error_kind`` ("usage"/"runtime")."""

    job: int
    distorted: str
    name: str
    result: Optional[Result] = None
    files: list[Path] = field(default_factory=list)
    error: Optional[str] = None
    error_kind: Optional[str] = None
    worker: Optional[str] = None


def _resources(backend: str) -> Optional[dict[str, int]]:
    # A CUDA job waits for a worker that declares a GPU; it never falls back to a CPU worker.
    return {"GPU": 1} if backend == "cuda" else None


def _where() -> str:
    try:
        return distributed.get_worker().address
    except ValueError:  # run outside a worker (a direct call)
        return "local"


def _score_group(job: tuple, distorted: list[str], formats: list[str]) -> dict[str, Any]:
    """On a worker: one reference's many-input run. vq's own errors come back as values (running
    them again would fail again); anything else raises, and the scheduler may retry it."""
    try:
        results, notes = _vq.run_many_reports(job, distorted, formats)
    except _vq.Error as error:
        kind = "usage" if isinstance(error, _vq.UsageError) else "runtime"
        results, notes = [{"error": str(error), "kind": kind}] * len(distorted), []
    return {"results": results, "notes": notes, "worker": _where()}


def _group(jobs: Sequence[Job]) -> list[tuple[tuple, list[tuple[int, str, str]]]]:
    """Jobs whose native tuples agree (reference and options), each with its inputs:
    [(native job, [(job index, distorted, name)])], in the jobs' order."""
    groups: dict[str, tuple[tuple, list[tuple[int, str, str]]]] = {}
    for index, job in enumerate(jobs):
        distorted = [job.distorted] if isinstance(job.distorted, (str, os.PathLike)) else job.distorted
        names = list(job.names) if job.names else [Path(d).stem for d in distorted]
        if len(names) != len(distorted):
            raise _vq.UsageError(f"job {index}: {len(names)} names for {len(distorted)} inputs")
        native = job.native()
        groups.setdefault(repr(native), (native, []))[1].extend(
            (index, os.fspath(d), name) for d, name in zip(distorted, names))
    return list(groups.values())


def _progress_bar(total: int, enabled: bool, what: str):
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=what, unit="job", file=sys.stderr)


def score_catalogue(jobs: Sequence[Job], *, client: "distributed.Client",
                    output_dir: Optional[os.PathLike] = None,
                    formats: Sequence[str] = ("json",), retries: int = 2,
                    progress: bool = False) -> list[Outcome]:
    """Scores every job's distorted inputs on the cluster and returns one Outcome per input, in
    the jobs' order. Inputs that share a reference and options are one many-input run (one task);
    with ``output_dir``, each input's reports are written there as NAME.FORMAT, the bytes the vq
    command writes (``vq -r REF -d DIST --json``). An input that fails fails alone, with vq's
    message. ``retries``: how often a task is run again after it raised something other than vq's
    own errors (a worker lost mid-task is rescheduled by Dask regardless). ``progress``: a tqdm
    bar on standard error (the Dask dashboard shows the tasks too)."""
    formats = list(formats)
    for format in formats:
        if format not in ("xml", "json", "csv", "sub"):
            raise _vq.UsageError(f"unknown report format '{format}' (xml, json, csv or sub)")
    groups = _group(jobs)
    futures = {client.submit(_score_group, native, [d for _, d, _ in members], formats,
                             pure=False, retries=retries, resources=_resources(native[5])): g
               for g, (native, members) in enumerate(groups)}
    out = Path(output_dir) if output_dir is not None else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    outcomes: dict[tuple[int, int], Outcome] = {}  # (group, input) -> its outcome
    bar = _progress_bar(sum(len(members) for _, members in groups), progress, "vq catalogue")
    for future in distributed.as_completed(list(futures)):
        g = futures[future]
        members = groups[g][1]
        try:
            group = future.result()
        except Exception as error:  # the task itself failed (after its retries): every input
            group = {"results": [{"error": f"{type(error).__name__}: {error}", "kind": "runtime"}]
                     * len(members), "notes": [], "worker": None}
        for i, ((index, distorted, name), native) in enumerate(zip(members, group["results"])):
            outcome = Outcome(index, distorted, name, worker=group["worker"])
            if "error" in native:
                outcome.error, outcome.error_kind = native["error"], native["kind"]
            else:
                reports = native.pop("reports")
                native["notes"] = group["notes"]
                outcome.result = Result(native)
                for format, data in reports.items():
                    if out is not None:
                        path = out / f"{name}.{format}"
                        path.write_bytes(data)
                        outcome.files.append(path)
            outcomes[(g, i)] = outcome
            if bar:
                bar.update(1)
    if bar:
        bar.close()
    return sorted(outcomes.values(), key=lambda outcome: outcome.job)


def _count_frames(job: tuple) -> int:
    return _vq.count_frames(job)


def _score_chunk(job: tuple, first: int, count: int) -> dict[str, Any]:
    chunk = _vq.run_chunk(job, first, count)
    chunk["worker"] = _where()
    return chunk


def score_chunked(ref: os.PathLike | str, dist: os.PathLike | str, *,
                  client: "distributed.Client", chunk_frames: Optional[int] = None,
                  chunks: Optional[int] = None, features: Optional[Sequence[str]] = None,
                  models: Optional[Sequence[str]] = None, backend: str = "cpu",
                  threads: int = 1, subsample: int = 1, frames: Optional[int] = None,
                  skip_ref: int = 0, skip_dist: int = 0,
                  format: Optional[VideoFormat] = None, gpu: int = 0,
                  outputs: Optional[dict[str, os.PathLike | str]] = None, retries: int = 2,
                  progress: bool = False) -> Result:
    """Scores one pair in chunks of ``chunk_frames`` frames (or in ``chunks`` equal chunks) on the
    cluster's workers and merges them: the Result (and the ``outputs``, {format: path}, e.g.
    {"json": "title.json"}) equal vq.score's on the whole pair, every per-frame and pooled value
    bit for bit; only "fps" (the merged run's speed) differs. The other arguments are vq.score's.
    ``result.chunks`` lists each chunk: first and end frame, the worker, the backend used.

    Raises vq.UsageError for a feature whose values need the whole run (psnr=enable_apsnr) and
    for bad arguments, vq.RunError for an input that cannot be read."""
    if (chunk_frames is None) == (chunks is None):
        raise _vq.UsageError("score_chunked: give chunk_frames or chunks")
    if (chunk_frames or chunks or 0) < 1:
        raise _vq.UsageError("score_chunked: chunk_frames and chunks must be at least 1")
    features, models = requests(features, models)
    raw = (format.width, format.height, format.bit_depth, format.chroma) if format else None
    job = (os.fspath(ref), os.fspath(dist), raw, features, models, backend, threads, subsample,
           gpu, frames or 0, skip_ref, skip_dist)
    total = client.submit(_count_frames, job, pure=False, retries=retries,
                          resources=_resources(backend)).result()
    if total == 0:
        raise _vq.RunError(f"no frames to score in '{os.fspath(dist)}'")
    size = chunk_frames if chunk_frames is not None else -(-total // chunks)
    starts = range(0, total, size)
    futures = [client.submit(_score_chunk, job, first, min(size, total - first), pure=False,
                             retries=retries, resources=_resources(backend))
               for first in starts]
    bar = _progress_bar(len(futures), progress, "vq chunks")
    for _ in distributed.as_completed(futures):
        if bar:
            bar.update(1)
    if bar:
        bar.close()
    pieces = client.gather(futures)
    native = _vq.merge_chunks(pieces, [(f, os.fspath(p)) for f, p in (outputs or {}).items()])
    native["notes"] = sorted({note for piece in pieces for note in piece["notes"]})
    result = Result(native)
    result.chunks = [{"first": p["first"], "end": p["end"], "worker": p["worker"],
                      "backend_used": p["backend_used"]} for p in pieces]
    return result


def _count(text: Optional[str], what: str) -> int:
    try:
        value = int(text or 1)
    except ValueError:
        value = 0
    if value < 1:
        raise _vq.UsageError(f"{what}: expected a whole number >= 1, got '{text}'")
    return value


def read_jobs(path: os.PathLike | str) -> list[Job]:
    """A catalogue CSV: a header, then one row per distorted input with the columns reference,
    distorted and optionally name, features, models (space-separated, libvmaf's syntax), backend,
    subsample."""
    jobs = []
    with open(path, newline="") as file:
        for line, row in enumerate(csv.DictReader(file), start=2):
            if not row.get("reference") or not row.get("distorted"):
                raise _vq.UsageError(f"{path}:{line}: a row needs a reference and a distorted "
                                     "input (columns reference,distorted)")
            jobs.append(Job(row["reference"], [row["distorted"]],
                            features=(row.get("features") or "").split() or None,
                            models=(row.get("models") or "").split() or None,
                            backend=row.get("backend") or "cpu",
                            subsample=_count(row.get("subsample"), f"{path}:{line}: subsample"),
                            names=[row["name"]] if row.get("name") else None))
    return jobs


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vq.dask",
                                     description="Score a catalogue (CSV) on a Dask cluster.")
    parser.add_argument("jobs", help="CSV: reference,distorted[,name,features,models,backend]")
    parser.add_argument("--scheduler", required=True, help="the scheduler's address")
    parser.add_argument("-o", "--output", required=True, help="folder for the reports")
    parser.add_argument("--format", action="append", choices=["json", "xml", "csv", "sub"],
                        help="report formats (repeatable; default json)")
    args = parser.parse_args(argv)
    try:
        jobs = read_jobs(args.jobs)
    except (OSError, _vq.Error) as error:
        print(f"vq.dask: {error}", file=sys.stderr)
        return 2
    with distributed.Client(args.scheduler) as client:
        outcomes = score_catalogue(jobs, client=client, output_dir=args.output,
                                   formats=args.format or ["json"], progress=True)
    failed = [o for o in outcomes if o.error]
    for outcome in failed:
        print(f"vq.dask: {outcome.name}: {outcome.error}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
