"""Scores through the Python API equal the reference's goldens bit for bit (as
tests/cli_golden_test.cpp checks the CLI's): from file paths, and from the same frames pushed as
numpy arrays, both as packed arrays (the zero-copy path) and as tuples of planes (the copy)."""

import json

import numpy as np
import pytest

import vq
import y4m

CASES = [
    # golden, fixture, score() arguments
    ("grad_576x324_8b_420__vmaf.json", "grad_576x324_8b_420", {}),
    ("grad_576x324_10b_420__vmaf.json", "grad_576x324_10b_420", {}),
    ("grad_576x324_8b_420__feat.json", "grad_576x324_8b_420",
     {"features": ["cambi", "ciede", "psnr"]}),
    ("grad_576x324_10b_420__feat.json", "grad_576x324_10b_420",
     {"features": ["cambi", "ciede", "psnr"]}),
    ("grad_576x324_10b_420__psnr_opts.json", "grad_576x324_10b_420",
     {"features": ["psnr=enable_mse=true:enable_apsnr=true"]}),
]


def expect_golden(result: vq.Result, golden: dict, where: str) -> None:
    expected_names = list(golden["frames"][0]["metrics"])
    assert sorted(result.names) == sorted(expected_names), where
    assert len(result.frames) == len(golden["frames"]), where
    for i, frame in enumerate(golden["frames"]):
        assert result.frames["frame"][i] == frame["frameNum"], where
        for name, value in frame["metrics"].items():
            assert result.frames[name][i] == value, f"{where}: frame {i} {name}"
    for name, methods in golden["pooled_metrics"].items():
        assert result.pooled[name] == methods, f"{where}: pooled {name}"
    assert result.aggregates == golden["aggregate_metrics"], where


@pytest.mark.parametrize("golden_name, fixture, arguments", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("source", ["paths", "packed arrays", "plane tuples"])
def test_api_gives_the_golden_numbers(fixtures, golden_dir, golden_name, fixture, arguments,
                                      source):
    golden = json.loads((golden_dir / golden_name).read_text())
    ref, dist = fixtures / fixture / "ref.y4m", fixtures / fixture / "dist.y4m"
    video = y4m.read_format(dist)
    if source == "paths":
        result = vq.score(str(ref), dist, threads=2, **arguments)
    elif source == "packed arrays":
        result = vq.score(y4m.frames(ref), y4m.frames(dist), format=video, threads=2, **arguments)
    else:
        as_planes = lambda path: (y4m.planes(f, video) for f in y4m.frames(path))  # noqa: E731
        result = vq.score(as_planes(ref), as_planes(dist), bit_depth=video.bit_depth, threads=2,
                          **arguments)
    expect_golden(result, golden, f"{golden_name} from {source}")
    assert result.backend_used == "cpu"
    assert result.width == video.width and result.height == video.height


def test_raw_yuv_paths_give_the_golden_numbers(fixtures, golden_dir, tmp_path):
    # The reference read this clip as raw YUV: the Y4M without its headers, -w 352 -h 288 -p 422.
    golden = json.loads((golden_dir / "testsrc_352x288_8b_422__vmaf.json").read_text())
    paths = []
    for name in ("ref", "dist"):
        raw = tmp_path / f"{name}.yuv"
        with open(raw, "wb") as out:
            for frame in y4m.frames(fixtures / "testsrc_352x288_8b_422" / f"{name}.y4m"):
                out.write(frame.tobytes())
        paths.append(raw)
    result = vq.score(*paths, format=vq.VideoFormat(352, 288, 8, "422"), threads=2)
    expect_golden(result, golden, "testsrc_352x288_8b_422 raw")
