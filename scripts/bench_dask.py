#!/usr/bin/python3
"""vq.dask's figures (docs/distributed.md): one long title scored by one single-threaded vq run
and in chunks on a LocalCluster of worker processes (wall and CPU time, and whether the outputs
are identical but for "fps"), and the per-job overhead of a catalogue of tiny jobs.

    PYTHONPATH=build/python scripts/bench_dask.py REF.y4m DIST.y4m --workers 2 --chunks 4
"""

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import distributed
import numpy as np

import vq
import vq.dask

REPOSITORY = Path(__file__).resolve().parents[1]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def without_fps(report: bytes) -> bytes:
    return re.sub(rb'\n *"fps": [^\n]*', b"", report)


def single_run(vq_binary: Path, ref: str, dist: str, out: Path) -> tuple[float, float]:
    cpu, start = children_cpu(), time.monotonic()
    subprocess.run([str(vq_binary), "-r", ref, "-d", dist, "--threads", "1", "--json", "-o",
                    str(out), "--quiet"], check=True)
    return time.monotonic() - start, children_cpu() - cpu


def chunked_run(client, ref: str, dist: str, chunks: int, out: Path) -> tuple[float, float]:
    workers_cpu = sum(client.run(own_cpu).values())
    cpu, start = own_cpu(), time.monotonic()
    vq.dask.score_chunked(ref, dist, client=client, chunks=chunks, threads=1,
                          outputs={"json": out})
    wall = time.monotonic() - start
    return wall, sum(client.run(own_cpu).values()) - workers_cpu + own_cpu() - cpu


def tiny_jobs(folder: Path, count: int) -> list:
    header = b"YUV4MPEG2 W64 H64 F25:1 Ip A1:1 C420jpeg\n"
    frame = np.arange(64 * 96, dtype=np.uint8).tobytes()
    jobs = []
    for i in range(count):
        ref, dist = folder / f"r{i}.y4m", folder / f"d{i}.y4m"
        ref.write_bytes(header + b"FRAME\n" + frame)
        dist.write_bytes(header + b"FRAME\n" + frame[::-1])
        jobs.append(vq.dask.Job(str(ref), [str(dist)], features=["psnr"]))
    return jobs


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("ref")
    parser.add_argument("dist")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=100)
    parser.add_argument("--vq", default=str(REPOSITORY / "build" / "vq"))
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="vq_bench_dask_"))
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        jobs = tiny_jobs(folder, args.jobs)
        vq.dask.score_catalogue(jobs[:4], client=client)  # warm the workers' imports
        start = time.monotonic()
        outcomes = vq.dask.score_catalogue(jobs, client=client)
        catalogue_wall = time.monotonic() - start
        assert not any(o.error for o in outcomes)
        start = time.monotonic()
        for job in jobs:
            vq.score(job.reference, job.distorted[0], features=job.features, threads=1)
        local_wall = time.monotonic() - start
        print(f"catalogue of {args.jobs} one-frame jobs on {args.workers} workers: "
              f"{catalogue_wall / args.jobs * 1000:.1f} ms wall per job; in-process vq.score: "
              f"{local_wall / args.jobs * 1000:.1f} ms per job; overhead per job (wall x workers "
              f"- local): {(catalogue_wall * args.workers - local_wall) / args.jobs * 1000:.1f} ms")

        singles, chunkeds = [], []
        for _ in range(args.repeat):
            singles.append(single_run(Path(args.vq), args.ref, args.dist, folder / "single.json"))
            chunkeds.append(chunked_run(client, args.ref, args.dist, args.chunks,
                                        folder / "chunked.json"))
            same = (without_fps((folder / "single.json").read_bytes()) ==
                    without_fps((folder / "chunked.json").read_bytes()))
            print(f"single {singles[-1][0]:.2f} s wall {singles[-1][1]:.2f} s CPU; chunked "
                  f"{chunkeds[-1][0]:.2f} s wall {chunkeds[-1][1]:.2f} s CPU; identical: {same}",
                  flush=True)
            if not same:
                return 1
    single_wall = statistics.median(s[0] for s in singles)
    chunked_wall = statistics.median(c[0] for c in chunkeds)
    print(f"median: single {single_wall:.2f} s, chunked {chunked_wall:.2f} s: "
          f"{single_wall / chunked_wall:.2f}x; CPU single "
          f"{statistics.median(s[1] for s in singles):.2f} s, chunked "
          f"{statistics.median(c[1] for c in chunkeds):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
