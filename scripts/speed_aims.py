#!/usr/bin/env python3
"""Issue 24's speed aims measured on one machine in one run, as one table.

Runs there (the GPU machine, through scripts/device_round.sh aims) or here (the CPU rows alone):
vq beside the reference CLI at equal threads, every command's runs interleaved round after round
with the others' so that drift of a shared machine falls on all alike. Each run's CPU time and
peak memory come from the kernel's accounting of the child (wait4, GNU time), its wall time from a
clock around it. Per-frame cost is (t(big) - t(small)) / (big - small) of median whole-process
times, start-up excluded; whole process is the big run's median.

    scripts/speed_aims.py --vq VQ --reference VMAF --synth VQ_SYNTH [--natural DIR]
                          [--read-floor VQ_READ_FLOOR] [--bench VQ_BENCH] [--clips DIR] [--cuda]
                          [--rounds 5] [--work DIR] [--out FILE]

--clips DIR holds make_codec_clips.sh's bench/ (the 4K HEVC 10-bit pair) and parity/ (one small
clip per codec), for the NVDEC rows. Standard library only: the GPU machine has no pip.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

@dataclass
class Run:
    wall: float  # seconds
    cpu: float  # user + system seconds
    peak_mib: float


def measure(command, time_tool):
    """One run of a command, its output discarded; a failure stops the section with its reason.

    Peak memory comes from GNU time's report of its own child: a child forked from this Python
    process would inherit its resident pages' high-water mark, which survives exec.
    """
    with tempfile.NamedTemporaryFile("r") as peak:
        start = time.perf_counter()
        process = subprocess.Popen([time_tool, "-f", "%M", "-o", peak.name] + list(map(str, command)),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        stderr = process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)  # times include the reaped command's
        wall = time.perf_counter() - start
        process.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            last = stderr.decode(errors="replace").strip().splitlines()[-1:] or ["(no message)"]
            raise RuntimeError(f"{' '.join(map(str, command))}: {last[0]}")
        return Run(wall, usage.ru_utime + usage.ru_stime, int(peak.read().split()[-1]) / 1024)


class Rounds:
    """Commands timed in turn, round after round; medians per key."""

    def __init__(self, time_tool):
        self.time_tool = time_tool
        self.runs = {}

    def time(self, jobs, rounds, warm_up=()):
        """`warm_up`: commands run once first, untimed (a binary's first start reads it from disk)."""
        for command in warm_up:
            measure(command, self.time_tool)
        for _ in range(rounds):
            for key, command in jobs:
                self.runs.setdefault(key, []).append(measure(command, self.time_tool))

    def median(self, key, field="wall"):
        return statistics.median(getattr(run, field) for run in self.runs[key])

    def per_frame_ms(self, key, big, small):
        """Milliseconds a frame: the runs of `key` + (big,) against those of `key` + (small,)."""
        return (self.median(key + (big,)) - self.median(key + (small,))) * 1000 / (big - small)

    def count(self, key):
        return len(self.runs[key])


@dataclass
class Clip:
    ref: Path
    dist: Path
    width: int = 0  # 0: Y4M, which carries its own format
    height: int = 0

    def io(self, frames):
        raw = ["-w", str(self.width), "-h", str(self.height), "-p", "420", "-b", "8"] if self.width else []
        return ["-r", str(self.ref), "-d", str(self.dist)] + raw + ["--frame_cnt", str(frames)]


def textured_clip(args, size, frames, folder):
    """vq-synth's textured 'mixed' scene, 20 distinct frames repeated to `frames`, raw 4:2:0."""
    width, height = map(int, size.split("x"))
    ref, dist = folder / f"ref_{size}_{frames}.yuv", folder / f"dist_{size}_{frames}.yuv"
    if not ref.exists():
        seed_ref, seed_dist = folder / f"seed_ref_{size}", folder / f"seed_dist_{size}"
        if not seed_ref.exists():
            subprocess.run([args.synth, "--scene", "mixed", "--size", size, "--frames", "20",
                            "--ref", seed_ref, "--dist", seed_dist], check=True,
                           stdout=subprocess.DEVNULL)
        frame_bytes = width * height * 3 // 2
        for seed, out in ((seed_ref, ref), (seed_dist, dist)):
            with open(seed, "rb") as source, open(out, "wb") as f:
                for n in range(frames):
                    source.seek((n % 20) * frame_bytes)
                    f.write(source.read(frame_bytes))
        os.sync()  # written back now, not during the timed runs
    return Clip(ref, dist, width, height)


def ratio(a, b):
    return a / b if b else float("nan")


def natural_clips(folder):
    """bench_cli.sh's natural-looking clips (testsrc2 with temporal noise, x264 CRF 12 against
    CRF 32, decoded to Y4M: grain and coding artefacts) where `folder` has them."""
    clips = {}
    for size in ("1920x1080", "3840x2160"):
        ref, dist = Path(folder) / f"natural_ref_{size}.y4m", Path(folder) / f"natural_dist_{size}.y4m"
        if ref.exists() and dist.exists():
            clips[size] = Clip(ref, dist)
    return clips


def cpu_vmaf(args, work, rounds):
    """Default VMAF on the CPU, vq and the reference at 1, 2 and every thread, 1080p and 4K, on
    the textured synthetic clips and on natural-looking ones where --natural gives them."""
    cores = os.cpu_count()
    cells = [("1920x1080", 1, 60, 20), ("1920x1080", 2, 60, 20), ("1920x1080", cores, 200, 20),
             ("3840x2160", 1, 24, 8), ("3840x2160", 2, 30, 10), ("3840x2160", cores, 60, 10)]
    cells = [cell for n, cell in enumerate(cells) if cell[:2] not in (c[:2] for c in cells[:n])]
    tools = {
        "vq": lambda threads: [args.vq, "-q", "--threads", str(threads)],
        "ref": lambda threads: [args.reference, "-q", "-m", "version=vmaf_v0.6.1", "--threads",
                                str(threads)],
    }
    clips = {("textured", size): textured_clip(args, size, 200, work) for size in ("1920x1080", "3840x2160")}
    if args.natural:
        clips.update({("natural", size): clip for size, clip in natural_clips(args.natural).items()})
    jobs = []
    for content, size in clips:
        for cell_size, threads, big, small in cells:
            if cell_size != size:
                continue
            for tool, command in tools.items():
                for frames in (big, small):
                    out = work / f"{tool}.json"
                    jobs.append(((content, size, threads, tool, frames), command(threads) +
                                 clips[content, size].io(frames) + ["--json", "-o", str(out)]))
    timings = Rounds(args.time)
    timings.time(jobs, rounds, warm_up=[command for key, command in jobs if key[4] <= 10])
    rows = []
    for content, size in clips:
        for cell_size, threads, big, small in cells:
            if cell_size == size:
                rows.append(cpu_row(timings, tools, content, size, threads, big, small))
    return rows


def cpu_row(timings, tools, content, size, threads, big, small):
    per_frame, whole, peak = {}, {}, {}
    for tool in tools:
        key = (content, size, threads, tool)
        per_frame[tool] = timings.per_frame_ms(key, big, small)
        whole[tool] = timings.median(key + (big,))
        peak[tool] = timings.median(key + (big,), "peak_mib")
    return dict(content=content, size=size, threads=threads, frames=f"{big} vs {small}",
                vq_ms=per_frame["vq"], ref_ms=per_frame["ref"],
                frame_ratio=ratio(per_frame["vq"], per_frame["ref"]),
                vq_s=whole["vq"], ref_s=whole["ref"], whole_ratio=ratio(whole["vq"], whole["ref"]),
                vq_mib=peak["vq"], ref_mib=peak["ref"],
                rounds=timings.count((content, size, threads, "ref", small)))


def startup_and_psnr(args, work, rounds):
    """vq --feature psnr on a tiny Y4M (start-up), and PSNR whole process at 1080p and 4K."""
    tiny_ref, tiny_dist = work / "tiny_ref.y4m", work / "tiny_dist.y4m"
    subprocess.run([args.synth, "--scene", "mixed", "--size", "64x64", "--frames", "2", "--y4m",
                    "--ref", tiny_ref, "--dist", tiny_dist], check=True, stdout=subprocess.DEVNULL)
    psnr = ["--no_prediction", "--feature", "psnr", "--json"]
    jobs = [("true", ["/bin/true"]),
            ("tiny vq", [args.vq, "-q", "-r", tiny_ref, "-d", tiny_dist] + psnr + ["-o", work / "t.json"]),
            ("tiny ref", [args.reference, "-q", "-r", tiny_ref, "-d", tiny_dist] + psnr +
             ["-o", work / "t.json"])]
    for size, frames in (("1920x1080", 20), ("3840x2160", 10)):
        clip = textured_clip(args, size, frames, work)
        for tool, binary in (("vq", args.vq), ("ref", args.reference)):
            jobs.append((f"{size} {tool}", [binary, "-q", "--threads", "1"] + clip.io(frames) + psnr +
                         ["-o", work / "p.json"]))
    timings = Rounds(args.time)
    timings.time(jobs, 4 * rounds + 1)  # short runs: more of them
    median = timings.median
    # Above /bin/true's run: what this script's launching (fork, GNU time, exec) costs is not vq's.
    startup = dict(cpu_ms=(median("tiny vq", "cpu") - median("true", "cpu")) * 1000,
                   wall_ms=(median("tiny vq") - median("true")) * 1000,
                   true_cpu_ms=median("true", "cpu") * 1000, true_wall_ms=median("true") * 1000,
                   peak_mib=median("tiny vq", "peak_mib"),
                   ref_cpu_ms=(median("tiny ref", "cpu") - median("true", "cpu")) * 1000,
                   ref_peak_mib=median("tiny ref", "peak_mib"), runs=timings.count("tiny vq"))
    psnr_rows = []
    for size in ("1920x1080", "3840x2160"):
        vq_key, ref_key = f"{size} vq", f"{size} ref"
        psnr_rows.append(dict(size=size, vq_s=median(vq_key), ref_s=median(ref_key),
                              wall_ratio=ratio(median(vq_key), median(ref_key)),
                              vq_mib=median(vq_key, "peak_mib"), ref_mib=median(ref_key, "peak_mib"),
                              peak_ratio=ratio(median(vq_key, "peak_mib"), median(ref_key, "peak_mib"))))
    return startup, psnr_rows


def gpu_kernels(args):
    """VIF + ADM + motion on CUDA as the executor enqueues them: CUDA events, vq_bench."""
    result = subprocess.run([args.bench, "--benchmark_filter=GpuFeature/vmaf/",
                             "--benchmark_repetitions=5", "--benchmark_format=json"],
                            check=True, capture_output=True, text=True)
    medians = {}
    for entry in json.loads(result.stdout)["benchmarks"]:
        if entry.get("aggregate_name") == "median":
            size = entry["run_name"].split("/")[2]
            medians[size] = entry["real_time"]  # milliseconds (the benchmark's unit)
    return medians


def gpu_end_to_end(args, work, rounds):
    """Default VMAF on CUDA against the read floor over the same frames."""
    cells = [("1920x1080", 200, 20), ("1920x1080", 1000, 100), ("3840x2160", 200, 20)]
    jobs = []
    for size, big, small in cells:
        for frames in (big, small):
            clip = textured_clip(args, size, frames, work)
            jobs.append(((size, big, "vq", frames), [args.vq, "-q", "--backend", "cuda"] +
                         clip.io(frames) + ["--json", "-o", work / "g.json"]))
            jobs.append(((size, big, "floor", frames), [args.read_floor, clip.ref, clip.dist,
                                                        str(clip.width), str(clip.height)]))
    timings = Rounds(args.time)
    timings.time(jobs, rounds, warm_up=[command for key, command in jobs if key[3] == 20])
    rows = []
    for size, big, small in cells:
        cost = {tool: timings.per_frame_ms((size, big, tool), big, small) for tool in ("vq", "floor")}
        rows.append(dict(size=size, frames=f"{big} vs {small}", vq_ms=cost["vq"], floor_ms=cost["floor"],
                         ratio=ratio(cost["vq"], cost["floor"])))
    return rows


def same_scores(a, b):
    """Two JSON outputs alike but for fps and which decoder read the inputs."""
    loaded = []
    for path in (a, b):
        data = json.loads(Path(path).read_text())
        data.pop("fps", None)
        data.pop("input_decoders", None)
        loaded.append(data)
    return loaded[0] == loaded[1]


def nvdec(args, work, rounds):
    """The 4K HEVC 10-bit pair (200 frames), default VMAF on CUDA, NVDEC against the CPU decoder;
    and each codec's small clip decoded both ways."""
    bench = Path(args.clips) / "bench"
    pair = ["-r", bench / "ref_3840x2160_hevc10.mp4", "-d", bench / "dist_3840x2160_hevc10.mp4"]
    jobs = []
    for hwdec in ("cuda", "none"):
        for frames in (200, 20):
            jobs.append(((hwdec, frames), [args.vq, "-q", "--backend", "cuda", "--hwdec", hwdec] + pair +
                         ["--frame_cnt", str(frames), "--json", "-o", work / f"nvdec_{hwdec}_{frames}.json"]))
    timings = Rounds(args.time)
    timings.time(jobs, rounds, warm_up=[command for (_, frames), command in jobs if frames == 20])
    decoders = {}
    for hwdec in ("cuda", "none"):
        whole = timings.median((hwdec, 200))
        per_frame = timings.per_frame_ms((hwdec,), 200, 20)
        decoders[hwdec] = dict(whole_s=whole, whole_fps=200 / whole, frame_ms=per_frame,
                               frame_fps=1000 / per_frame)
    equal = same_scores(work / "nvdec_cuda_200.json", work / "nvdec_none_200.json")
    parity = []
    clips = Path(args.clips) / "parity"
    for dist, ref in (("h264_8bit.mp4", "hevc_8bit.mkv"), ("hevc_8bit.mkv", "vp9_8bit.webm"),
                      ("vp9_8bit.webm", "h264_8bit.mp4"), ("hevc_10bit.mkv", "vp9_10bit.webm"),
                      ("vp9_10bit.webm", "hevc_10bit.mkv"), ("av1_8bit.mkv", "h264_8bit.mp4"),
                      ("av1_10bit.mkv", "hevc_10bit.mkv")):
        base = [args.vq, "-q", "-r", clips / ref, "-d", clips / dist, "--backend", "cuda",
                "--feature", "psnr", "--json"]
        try:
            measure(base + ["--hwdec", "cuda", "-o", work / "gpu.json"], args.time)
        except RuntimeError as error:
            lacking = "lacking required capabilities" in str(error)
            parity.append((dist, ref, "NVDEC lacks the codec" if lacking else f"failed: {error}"))
            continue
        measure(base + ["--hwdec", "none", "-o", work / "cpu.json"], args.time)
        parity.append((dist, ref, "equal" if same_scores(work / "gpu.json", work / "cpu.json") else "DIFFER"))
    return decoders, equal, parity


def report(cpu_rows, startup, psnr_rows, kernels, e2e_rows, nvdec_result, machine):
    lines = [f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {machine}.", ""]
    aims = []

    def aim(name, target, measured, met):
        aims.append(f"| {name} | {target} | {measured} | {'yes' if met else 'no'} |")

    for row in cpu_rows:
        threads = f"{row['threads']} thread" + ("s" if row["threads"] > 1 else "")
        aim(f"CPU VMAF, {row['size']} {row['content']}, {threads}", "≤ 0.5× the reference, per frame and whole",
            f"{row['frame_ratio']:.2f}× per frame ({row['vq_ms']:.2f} vs {row['ref_ms']:.2f} ms), "
            f"{row['whole_ratio']:.2f}× whole ({row['vq_s']:.3f} vs {row['ref_s']:.3f} s)",
            row["frame_ratio"] <= 0.5 and row["whole_ratio"] <= 0.5)
    if startup:
        aim("`vq --feature psnr` start-up, 64x64 Y4M", "≤ 10 ms, ≤ 10 MiB",
            f"{startup['cpu_ms']:.1f} ms CPU and {startup['wall_ms']:.1f} ms wall above `/bin/true` "
            f"launched alike ({startup['true_cpu_ms']:.1f} and {startup['true_wall_ms']:.1f} ms), "
            f"{startup['peak_mib']:.1f} MiB (the reference: {startup['ref_cpu_ms']:.1f} ms CPU, "
            f"{startup['ref_peak_mib']:.1f} MiB)",
            startup["cpu_ms"] <= 10 and startup["wall_ms"] <= 10 and startup["peak_mib"] <= 10)
        for row in psnr_rows:
            aim(f"PSNR whole process, {row['size']}, 1 thread", "≤ 1.0× the reference, peak ≤ 1.2×",
                f"{row['wall_ratio']:.2f}× ({row['vq_s']:.3f} vs {row['ref_s']:.3f} s), peak "
                f"{row['peak_ratio']:.2f}× ({row['vq_mib']:.0f} vs {row['ref_mib']:.0f} MiB)",
                row["wall_ratio"] <= 1.0 and row["peak_ratio"] <= 1.2)
    for size, limit in (("1080p", 0.15), ("4K", 0.5)):
        if size in kernels:
            aim(f"VIF + ADM + motion on CUDA, {size}", f"≤ {limit} ms a frame",
                f"{kernels[size]:.3f} ms (CUDA events, median of 5)", kernels[size] <= limit)
    for row in e2e_rows:
        limit = 1.5 if row["size"] == "1920x1080" else 1.05
        aim(f"default VMAF on CUDA end to end, {row['size']}, {row['frames']} frames", f"≤ {limit}× the read floor",
            f"{row['ratio']:.2f}× ({row['vq_ms']:.3f} vs {row['floor_ms']:.3f} ms a frame)", row["ratio"] <= limit)
    if nvdec_result:
        decoders, equal, parity = nvdec_result
        gpu, cpu = decoders["cuda"], decoders["none"]
        aim("4K HEVC 10-bit pair (200 frames), default VMAF on CUDA, NVDEC, whole process",
            "≥ 300 frames/s and ≥ 3× the CPU decoder's",
            f"{gpu['whole_fps']:.0f} frames/s ({gpu['whole_s']:.3f} s), "
            f"{gpu['whole_fps'] / cpu['whole_fps']:.2f}× the CPU decoder's {cpu['whole_fps']:.0f}; outputs "
            f"{'equal' if equal else 'DIFFER'}",
            gpu["whole_fps"] >= 300 and gpu["whole_fps"] >= 3 * cpu["whole_fps"] and equal)
        aim("the same, per frame (200 against 20 frames)", "≥ 300 frames/s and ≥ 3×",
            f"{gpu['frame_fps']:.0f} frames/s ({gpu['frame_ms']:.3f} ms), {gpu['frame_fps'] / cpu['frame_fps']:.2f}× "
            f"the CPU decoder's {cpu['frame_fps']:.0f}",
            gpu["frame_fps"] >= 300 and gpu["frame_fps"] >= 3 * cpu["frame_fps"])
        aim("NVDEC scores equal the CPU decoder's (H.264, HEVC, VP9, AV1)", "bit-identical",
            "; ".join(f"{d} vs {r}: {what}" for d, r, what in parity),
            all(what in ("equal", "NVDEC lacks the codec") for _, _, what in parity))
    lines += ["| aim | target | measured | met |", "| --- | --- | --- | --- |"] + aims + [""]
    lines += ["| size | content | threads | frames | vq ms/frame | ref ms/frame | ratio | vq whole s | ref whole s | "
              "ratio | vq peak MiB | ref peak MiB | rounds |", "|" + " --- |" * 13]
    for row in cpu_rows:
        lines.append(f"| {row['size']} | {row['content']} | {row['threads']} | {row['frames']} | {row['vq_ms']:.3f} | {row['ref_ms']:.3f} | "
                     f"{row['frame_ratio']:.2f} | {row['vq_s']:.3f} | {row['ref_s']:.3f} | {row['whole_ratio']:.2f} | "
                     f"{row['vq_mib']:.0f} | {row['ref_mib']:.0f} | {row['rounds']} |")
    return "\n".join(lines)


def machine_name():
    try:
        model = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                     if line.startswith("model name"))
    except (OSError, StopIteration):
        model = "unknown CPU"
    gpu = ""
    if shutil.which("nvidia-smi"):
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                             capture_output=True, text=True).stdout.strip()
    return f"{model} ({os.cpu_count()} CPUs)" + (f", {gpu}" if gpu else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vq", required=True)
    parser.add_argument("--reference", required=True, help="libvmaf's vmaf CLI")
    parser.add_argument("--synth", required=True, help="vq-synth")
    parser.add_argument("--read-floor", help="vq-read-floor (with --cuda)")
    parser.add_argument("--bench", help="vq_bench built with CUDA (with --cuda)")
    parser.add_argument("--clips", help="make_codec_clips.sh's folder (with --cuda): the NVDEC rows")
    parser.add_argument("--natural", help="bench_cli.sh's clip folder (VQ_BENCH_DIR): CPU rows on "
                        "its natural_{ref,dist}_SIZE.y4m too")
    parser.add_argument("--cuda", action="store_true", help="the GPU rows too")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--time", default="/usr/bin/time", help="GNU time, for peak memory")
    parser.add_argument("--only", choices=("cpu", "startup", "gpu", "nvdec"), action="append",
                        help="these sections alone (repeatable)")
    parser.add_argument("--work", help="scratch folder (default: a temporary one, removed after)")
    parser.add_argument("--out", help="also write the report here")
    args = parser.parse_args()
    if not os.access(args.time, os.X_OK):
        parser.error(f"needs GNU time at {args.time} (apt-get install time, or --time PATH)")
    if args.cuda and not (args.read_floor and args.bench):
        parser.error("--cuda needs --read-floor and --bench")
    sections = set(args.only or ("cpu", "startup", "gpu", "nvdec"))
    if not args.cuda:
        sections -= {"gpu", "nvdec"}
    if not args.clips:
        sections.discard("nvdec")
    with tempfile.TemporaryDirectory(dir=args.work) as scratch:
        work = Path(scratch)
        started = time.monotonic()

        failures = []

        def section(name, run, empty):
            """A section's result, or `empty` where it failed: the others still run."""
            if name not in sections:
                return empty
            begun = time.monotonic()
            try:
                result = run()
            except (RuntimeError, OSError, subprocess.CalledProcessError, ValueError, KeyError) as error:
                failures.append(f"{name}: {error}")
                result = empty
            # The raw result at once: a run cut short still leaves what it measured.
            print(f"speed_aims: {name} took {time.monotonic() - begun:.0f} s: {result}", file=sys.stderr)
            return result

        # The shortest sections first: a run cut short keeps the most of them.
        kernels = section("gpu", lambda: gpu_kernels(args), {})
        e2e_rows = section("gpu", lambda: gpu_end_to_end(args, work, args.rounds), [])
        nvdec_result = section("nvdec", lambda: nvdec(args, work, args.rounds), None)
        startup, psnr_rows = section("startup", lambda: startup_and_psnr(args, work, args.rounds), ({}, []))
        cpu_rows = section("cpu", lambda: cpu_vmaf(args, work, args.rounds), [])
        text = report(cpu_rows, startup, psnr_rows, kernels, e2e_rows, nvdec_result, machine_name())
        if failures:
            text += "\n\nNot measured (the section failed):\n" + "\n".join(f"- {f}" for f in failures)
        print(f"speed_aims: {time.monotonic() - started:.0f} s in all", file=sys.stderr)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
