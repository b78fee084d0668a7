"""vq.dask on a LocalCluster of two worker processes on this machine (loopback only): a ladder
catalogue, a chunked title at several chunk sizes, a worker killed mid-run and a bad input, each
compared with the vq command's own output files, bit for bit but for the measured "fps"."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import BUILD

distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed "
                                  "(apt-get install python3-distributed)")
import vq  # noqa: E402
import vq.dask  # noqa: E402

WIDTH, HEIGHT = 96, 64


def write_y4m(path: Path, frames: list[np.ndarray]) -> Path:
    with open(path, "wb") as file:
        file.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F25:1 Ip A1:1 C420jpeg\n".encode())
        for frame in frames:
            file.write(b"FRAME\n" + frame.astype(np.uint8).tobytes())
    return path


def clip(seed: int, count: int, distortion: float) -> list[np.ndarray]:
    """A moving gradient with texture (motion sees it move), plus noise for the distorted ones."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    texture = rng.integers(0, 40, (HEIGHT, WIDTH))
    frames = []
    for i in range(count):
        luma = (x * 2 + y + 3 * i + texture + rng.normal(0, distortion, (HEIGHT, WIDTH)))
        chroma = np.full(WIDTH * HEIGHT // 2, 128)
        frames.append(np.concatenate([np.clip(luma, 0, 255).ravel(), chroma]))
    return frames


@pytest.fixture(scope="module")
def videos(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("dask_clips")
    return {
        "ref": write_y4m(folder / "ref.y4m", clip(1, 13, 0)),
        "a": write_y4m(folder / "a.y4m", clip(1, 13, 4)),
        "b": write_y4m(folder / "b.y4m", clip(1, 13, 12)),
        "ref2": write_y4m(folder / "ref2.y4m", clip(2, 9, 0)),
        "c": write_y4m(folder / "c.y4m", clip(2, 9, 8)),
        "small": folder / "missing.y4m",
    }


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None,
                                       worker_dashboard_address=None)
    with cluster, distributed.Client(cluster, timeout=60) as client:
        yield client


def cli_report(ref: Path, dist: Path, out: Path, *arguments: str) -> bytes:
    """The vq command's report for the pair."""
    subprocess.run([str(BUILD / "vq"), "-r", str(ref), "-d", str(dist), "-o", str(out),
                    *arguments], check=True, timeout=60, stdout=subprocess.DEVNULL)
    return out.read_bytes()


def without_fps(report: bytes) -> bytes:
    """A report without the measured speed: JSON's "fps" line, XML's <fyi fps=.../>."""
    return re.sub(rb'\n *"fps": [^\n]*|\n *<fyi fps="[^"]*" />', b"", report)


def test_catalogue_gives_the_commands_files(client, videos, tmp_path):
    jobs = [vq.dask.Job(videos["ref"], [videos["a"], videos["b"]], features=["psnr"],
                        models=["version=vmaf_v0.6.1"]),
            vq.dask.Job(videos["ref2"], [videos["c"]], features=["psnr"],
                        models=["version=vmaf_v0.6.1"]),
            vq.dask.Job(videos["ref"], [videos["small"]], features=["psnr"],
                        models=["version=vmaf_v0.6.1"], names=["bad"])]
    outcomes = vq.dask.score_catalogue(jobs, client=client, output_dir=tmp_path / "results",
                                       formats=["json", "xml"], progress=True)
    assert [(o.job, o.name) for o in outcomes] == [(0, "a"), (0, "b"), (1, "c"), (2, "bad")]
    # The bad input shared its reference's run with a and b, and failed alone.
    assert outcomes[3].result is None and outcomes[3].error_kind == "runtime"
    assert "missing.y4m" in outcomes[3].error
    for outcome, ref in zip(outcomes[:3], [videos["ref"], videos["ref"], videos["ref2"]]):
        assert outcome.error is None, outcome.error
        assert outcome.worker.startswith("tcp://127.0.0.1:")
        for format in ("json", "xml"):
            mine = (tmp_path / "results" / f"{outcome.name}.{format}").read_bytes()
            theirs = cli_report(ref, Path(outcome.distorted), tmp_path / f"cli.{format}",
                                "--model", "version=vmaf_v0.6.1", "--feature", "psnr",
                                f"--{format}")
            assert without_fps(mine) == without_fps(theirs), f"{outcome.name}.{format}"


@pytest.mark.parametrize("chunk_frames", [1, 4, 5, 13, 40])
def test_chunked_title_equals_the_single_run(client, videos, tmp_path, chunk_frames):
    features = ["psnr", "motion=motion_five_frame_window=true:motion_moving_average=true"]
    result = vq.dask.score_chunked(videos["ref"], videos["b"], client=client,
                                   chunk_frames=chunk_frames, features=features,
                                   models=["version=vmaf_v0.6.1"],
                                   outputs={"json": tmp_path / "chunked.json"})
    single = vq.score(videos["ref"], videos["b"], features=features,
                      models=["version=vmaf_v0.6.1"], threads=1)
    assert result.frames.tobytes() == single.frames.tobytes()
    assert result.pooled == single.pooled
    assert len(result.chunks) == -(-13 // chunk_frames)
    assert {chunk["backend_used"] for chunk in result.chunks} == {"cpu"}
    theirs = cli_report(videos["ref"], videos["b"], tmp_path / "cli.json", "--json", "--model",
                        "version=vmaf_v0.6.1", "--feature", "psnr", "--feature", features[1])
    assert without_fps((tmp_path / "chunked.json").read_bytes()) == without_fps(theirs)


def test_more_chunks_than_frames_and_subsample(client, videos):
    result = vq.dask.score_chunked(videos["ref2"], videos["c"], client=client, chunks=20,
                                   subsample=3, models=["version=vmaf_v0.6.1"])
    single = vq.score(videos["ref2"], videos["c"], subsample=3, threads=1)
    assert result.frames.tobytes() == single.frames.tobytes()
    assert result.pooled == single.pooled
    assert len(result.chunks) == 9  # one frame each: no chunk is empty


def test_chunked_refusals(client, videos):
    with pytest.raises(vq.UsageError, match="psnr=enable_apsnr sums the squared errors"):
        vq.dask.score_chunked(videos["ref"], videos["a"], client=client, chunk_frames=4,
                              features=["psnr=enable_apsnr=true"])
    with pytest.raises(vq.UsageError, match="give chunk_frames or chunks"):
        vq.dask.score_chunked(videos["ref"], videos["a"], client=client)
    with pytest.raises(vq.RunError, match="missing.y4m"):
        vq.dask.score_chunked(videos["ref"], videos["small"], client=client, chunk_frames=4)


def test_a_killed_worker_costs_a_retry(client, videos, tmp_path):
    """Kills the worker running a job; the job runs again elsewhere, and every result comes back
    once, equal to a local run."""
    big = tmp_path / "big"
    big.mkdir()
    ref = write_y4m(big / "ref.y4m", clip(3, 60, 0))
    dists = [write_y4m(big / f"d{i}.y4m", clip(3, 60, 3 + 3 * i)) for i in range(2)]
    jobs = [vq.dask.Job(ref, [dist], features=[f"psnr=enable_mse={'true' if i else 'false'}"],
                        models=["version=vmaf_v0.6.1"]) for i, dist in enumerate(dists)]
    pids = client.run(os.getpid)
    killed = []

    def kill_a_busy_worker():
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            busy = [worker for worker, tasks in client.processing().items() if tasks]
            if busy:
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed.append(busy[0])
                return
            time.sleep(0.005)

    import threading
    killer = threading.Thread(target=kill_a_busy_worker)
    killer.start()
    outcomes = vq.dask.score_catalogue(jobs, client=client, output_dir=tmp_path / "results")
    killer.join()
    assert killed, "no worker was seen busy"
    assert [o.name for o in outcomes] == ["d0", "d1"]
    for outcome, job in zip(outcomes, jobs):
        assert outcome.error is None, outcome.error
        assert outcome.worker != killed[0]
        local = vq.score(ref, outcome.distorted, features=job.features, models=job.models)
        assert outcome.result.frames.tobytes() == local.frames.tobytes()
    client.wait_for_workers(2, timeout=60)  # the nanny restarts the killed one for later tests


def test_command_line(client, videos, tmp_path):
    jobs = tmp_path / "jobs.csv"
    jobs.write_text(f"reference,distorted,name,features\n{videos['ref']},{videos['a']},a,psnr\n"
                    f"{videos['ref']},{videos['small']},bad,psnr\n")
    address = client.scheduler.address
    done = subprocess.run([sys.executable, "-m", "vq.dask",
                           str(jobs), "--scheduler", address, "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=90)
    assert done.returncode == 1
    assert "vq.dask: bad: " in done.stderr and "missing.y4m" in done.stderr
    assert (tmp_path / "out" / "a.json").exists() and not (tmp_path / "out" / "bad.json").exists()


def test_usage_errors(client, videos, tmp_path):
    with pytest.raises(vq.UsageError, match="unknown report format 'pdf'"):
        vq.dask.score_catalogue([vq.dask.Job(videos["ref"], [videos["a"]])], client=client,
                                formats=["pdf"])
    with pytest.raises(vq.UsageError, match="job 0: 2 names for 1 inputs"):
        vq.dask.score_catalogue([vq.dask.Job(videos["ref"], [videos["a"]], names=["x", "y"])],
                                client=client)
    with pytest.raises(vq.UsageError, match="chunk_frames and chunks must be at least 1"):
        vq.dask.score_chunked(videos["ref"], videos["a"], client=client, chunk_frames=0)
    bad = tmp_path / "bad.csv"
    bad.write_text(f"reference,distorted,subsample\n{videos['ref']},,1\n")
    with pytest.raises(vq.UsageError, match=r"bad.csv:2: a row needs a reference and a distorted"):
        vq.dask.read_jobs(bad)
    bad.write_text(f"reference,distorted,subsample\n{videos['ref']},{videos['a']},two\n")
    with pytest.raises(vq.UsageError, match=r"bad.csv:2: subsample: expected a whole number"):
        vq.dask.read_jobs(bad)
    done = subprocess.run([sys.executable, "-m", "vq.dask", str(bad), "--scheduler",
                           client.scheduler.address, "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith("vq.dask: ")
