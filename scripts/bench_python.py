#!/usr/bin/python3
"""bench_python.py — what scoring from Python costs beside the CLI: per-frame time of default VMAF
(vmaf_v0.6.1) on the CPU for the same 1080p frames, four ways:

  cli             build/vq -r ref.y4m -d dist.y4m (the process, start-up included)
  score(paths)    vq.score("ref.y4m", "dist.y4m"): the library reads the files
  push packed     vq.Session.push of one I420 array per frame, already in memory (no copy)
  push planes     vq.Session.push of (Y, U, V) tuples, already in memory (copied)

Each way runs on N frames and on `small` frames; per frame = (t(N) - t(small)) / (N - small), the
start-up cancelled out, and whole = t(N) / N; beside the wall time, the CPU time the run used (the
CLI's process, or this one's), which a busy machine disturbs less. Times are medians of --runs
runs. Every way must give
the same pooled VMAF (checked). The clip: natural content (a Mandelbrot zoom over a gradient with
temporal noise, x264 CRF 12 vs CRF 32, as scripts/bench_cli.sh makes it) when ffmpeg has libx264,
else vq-synth's textured scene; made once in --dir.

  PYTHONPATH=build/python scripts/bench_python.py [--frames 48] [--small 8] [--threads 2]
      [--runs 3] [--size 1920x1080] [--build build] [--dir /tmp/vq-bench-python]
"""

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import vq


def make_clip(directory: Path, size: str, frames: int, build: Path) -> tuple[Path, Path]:
    ref, dist = directory / f"ref_{size}_{frames}.y4m", directory / f"dist_{size}_{frames}.y4m"
    if ref.exists() and dist.exists():
        return ref, dist
    directory.mkdir(parents=True, exist_ok=True)
    ffmpeg = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y"]
    encoders = subprocess.run(ffmpeg[:3] + ["-encoders"], capture_output=True, text=True).stdout \
        if shutil.which("ffmpeg") else ""
    if "libx264" in encoders:
        source, encoded = directory / "src.mkv", directory / "dist.mkv"
        subprocess.run(ffmpeg + [
            "-f", "lavfi", "-i",
            f"mandelbrot=size={size}:rate=24:start_scale=0.3:end_scale=0.1,format=yuv420p",
            "-f", "lavfi", "-i",
            f"gradients=size={size}:rate=24:speed=0.02:c0=0x203060:c1=0xa0c0e0:nb_colors=2,"
            "format=yuv420p",
            "-filter_complex", "[0][1]blend=all_mode=average,noise=alls=6:allf=t+u,format=yuv420p",
            "-frames:v", str(frames), "-c:v", "libx264", "-preset", "veryfast", "-crf", "12",
            str(source)], check=True)
        subprocess.run(ffmpeg + ["-i", str(source), "-c:v", "libx264", "-preset", "veryfast",
                                 "-crf", "32", str(encoded)], check=True)
        for mkv, y4m in ((source, ref), (encoded, dist)):
            subprocess.run(ffmpeg + ["-i", str(mkv), "-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe",
                                     str(y4m)], check=True)
        source.unlink()
        encoded.unlink()
    else:
        print("bench_python.py: no ffmpeg with libx264; vq-synth's textured scene instead",
              file=sys.stderr)
        subprocess.run([str(build / "vq-synth"), "--scene", "textured", "--size", size,
                        "--frames", str(frames), "--y4m", "--ref", str(ref), "--dist", str(dist)],
                       check=True)
    return ref, dist


def read_frames(path: Path, video: vq.VideoFormat) -> list[np.ndarray]:
    rows, columns = video.packed_shape()
    frames = []
    with open(path, "rb") as file:
        file.readline()
        while file.readline():
            frames.append(np.frombuffer(file.read(rows * columns), np.uint8).reshape(rows, columns))
    return frames


def planes(frame: np.ndarray, video: vq.VideoFormat) -> tuple:
    flat, result, offset = frame.reshape(-1), [], 0
    for rows, columns in video.plane_shapes():
        result.append(flat[offset:offset + rows * columns].reshape(rows, columns))
        offset += rows * columns
    return tuple(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=48)
    parser.add_argument("--small", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--build", type=Path, default=Path(__file__).resolve().parents[1] / "build")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/vq-bench-python"))
    args = parser.parse_args()

    ref_path, dist_path = make_clip(args.dir, args.size, args.frames, args.build)
    width, height = map(int, args.size.split("x"))
    video = vq.VideoFormat(width, height)
    refs, dists = read_frames(ref_path, video), read_frames(dist_path, video)
    ref_planes = [planes(f, video) for f in refs]
    dist_planes = [planes(f, video) for f in dists]
    threads = args.threads

    def cli(n):
        subprocess.run([str(args.build / "vq"), "-r", str(ref_path), "-d", str(dist_path),
                        "--threads", str(threads), "--frame_cnt", str(n), "-q", "--json", "-o",
                        "/dev/null"], check=True)
        return None

    def score_paths(n):
        return vq.score(ref_path, dist_path, threads=threads, frames=n)

    def push(ref_frames, dist_frames):
        def run(n):
            session = vq.Session(threads=threads, format=video)
            for i in range(n):
                session.push(ref_frames[i], dist_frames[i])
            return session.finish()
        return run

    ways = [("cli", cli), ("score(paths)", score_paths), ("push packed", push(refs, dists)),
            ("push planes", push(ref_planes, dist_planes))]
    vmaf = {}
    timings = {name: {args.small: [], args.frames: []} for name, _ in ways}
    cpu_times = {name: {args.small: [], args.frames: []} for name, _ in ways}

    def cpu_seconds():
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
            resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    for _ in range(args.runs):  # interleaved, so that a slow moment hurts every way alike
        for name, way in ways:
            for n in (args.small, args.frames):
                start, cpu_start = time.perf_counter(), cpu_seconds()
                result = way(n)
                timings[name][n].append(time.perf_counter() - start)
                cpu_times[name][n].append(cpu_seconds() - cpu_start)
                if result is not None and n == args.frames:
                    vmaf[name] = result.pooled["vmaf"]["mean"]
    if len(set(vmaf.values())) != 1:
        sys.exit(f"bench_python.py: the ways disagree: {vmaf}")

    print(f"default VMAF (vmaf_v0.6.1), CPU, --threads {threads}, {args.size} 8-bit 4:2:0, "
          f"{args.frames} frames (per frame: t({args.frames}) - t({args.small}) over "
          f"{args.frames - args.small}), median of {args.runs}; pooled vmaf {next(iter(vmaf.values())):.6f}")
    def per_frame(samples, name):
        large = statistics.median(samples[name][args.frames])
        small = statistics.median(samples[name][args.small])
        return (large - small) / (args.frames - args.small) * 1000, large / args.frames * 1000

    print(f"{'way':<14} {'wall ms/frame':>13} {'vs cli':>7} {'whole':>7} "
          f"{'CPU ms/frame':>13} {'vs cli':>7} {'whole':>7}")
    wall_base, cpu_base = per_frame(timings, "cli")[0], per_frame(cpu_times, "cli")[0]
    for name, _ in ways:
        wall, wall_whole = per_frame(timings, name)
        cpu, cpu_whole = per_frame(cpu_times, name)
        print(f"{name:<14} {wall:13.2f} {wall / wall_base - 1:+7.1%} {wall_whole:7.2f} "
              f"{cpu:13.2f} {cpu / cpu_base - 1:+7.1%} {cpu_whole:7.2f}")


if __name__ == "__main__":
    main()
