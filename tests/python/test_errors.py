"""Every error a caller can cause is a Python exception with a one-line message: vq.UsageError (a
ValueError) for bad requests and arrays, vq.RunError (a RuntimeError) for failures while running."""

import numpy as np
import pytest

import vq

VIDEO = vq.VideoFormat(64, 48, 8, "420")
VIDEO10 = vq.VideoFormat(64, 48, 10, "420")


def frame(video=VIDEO):
    return np.zeros(video.packed_shape(), video.dtype)


def push_error(dist, video=VIDEO, ref=None, **kwargs) -> str:
    session = vq.Session(features=["psnr"], format=video, **kwargs)
    with pytest.raises(vq.UsageError) as error:
        session.push(frame(video) if ref is None else ref, dist)
    message = str(error.value)
    assert "\n" not in message
    return message


def test_the_error_classes():
    assert issubclass(vq.UsageError, ValueError) and issubclass(vq.UsageError, vq.Error)
    assert issubclass(vq.RunError, RuntimeError) and issubclass(vq.RunError, vq.Error)
    assert vq.UsageError.__module__ == "vq" and vq.RunError.__name__ == "RunError"


BAD_ARRAYS = [
    ("uint8 for 10-bit", VIDEO10, lambda: frame(VIDEO),
     "dist: expected uint16 array for 10-bit video, got uint8"),
    ("uint16 for 8-bit", VIDEO, lambda: frame(VIDEO10),
     "dist: expected uint8 array for 8-bit video, got uint16"),
    ("big-endian uint16", VIDEO10, lambda: frame(VIDEO10).astype(">u2"),
     "dist: expected uint16 array for 10-bit video, got >u2"),
    ("float", VIDEO, lambda: frame().astype(np.float32),
     "dist: expected uint8 array for 8-bit video, got float32"),
    ("not an array", VIDEO, lambda: b"\0" * 4608,
     "dist: expected a numpy array or a tuple (Y, U, V) of arrays, got bytes"),
    ("luma only for 4:2:0", VIDEO, lambda: np.zeros((48, 64), np.uint8),
     "dist: a single array must hold the whole 64x48 8-bit 4:2:0 frame (Y, then U, then V), "
     "shape (72, 64) or (4608,); got shape (48, 64) (pass a tuple (Y, U, V) for separate planes)"),
    ("3-D", VIDEO, lambda: np.zeros((72, 64, 1), np.uint8),
     "dist: a single array must hold the whole 64x48 8-bit 4:2:0 frame"),
    ("strided view", VIDEO, lambda: np.zeros((72, 128), np.uint8)[:, ::2],
     "dist: the frame array's strides do not match its packed layout (it is a view, not "
     "C-contiguous); pass numpy.ascontiguousarray(...) or a tuple (Y, U, V)"),
    ("two planes", VIDEO, lambda: (np.zeros((48, 64), np.uint8),) * 2,
     "dist: expected a tuple (Y, U, V) for 64x48 8-bit 4:2:0 video, got a sequence of 2"),
    ("wrong plane shape", VIDEO,
     lambda: (np.zeros((48, 64), np.uint8), np.zeros((24, 32), np.uint8), np.zeros((48, 32), np.uint8)),
     "dist plane V: expected shape (24, 32) for 64x48 8-bit 4:2:0 video, got (48, 32)"),
    ("plane of the wrong type", VIDEO10,
     lambda: (np.zeros((48, 64), np.uint16), np.zeros((24, 32), np.uint8), np.zeros((24, 32), np.uint16)),
     "dist plane U: expected uint16 array for 10-bit video, got uint8"),
    ("plane with spaced samples", VIDEO,
     lambda: (np.zeros((48, 128), np.uint8)[:, ::2], np.zeros((24, 32), np.uint8), np.zeros((24, 32), np.uint8)),
     "dist plane Y: samples are 2 bytes apart, not 1 (not contiguous within a row); pass "
     "numpy.ascontiguousarray(...)"),
]


@pytest.mark.parametrize("video, make, message", [c[1:] for c in BAD_ARRAYS],
                         ids=[c[0] for c in BAD_ARRAYS])
def test_bad_arrays_are_usage_errors_naming_the_array(video, make, message):
    assert push_error(make(), video).startswith(message)


def test_the_reference_array_is_named_too():
    assert push_error(frame(), ref=frame(VIDEO10)) == \
        "ref: expected uint8 array for 8-bit video, got uint16"


def test_a_missing_reference_is_a_usage_error():
    session = vq.Session(features=["psnr"], format=VIDEO)
    with pytest.raises(vq.UsageError, match="^ref: the requested features need a reference frame, got None$"):
        session.push(None, frame())


def test_a_single_array_needs_the_format_and_uint16_planes_the_bit_depth():
    with pytest.raises(vq.UsageError, match="^dist: a single array needs the session's format"):
        vq.Session(features=["psnr"]).push(frame(), frame())
    planes = (np.zeros((48, 64), np.uint16), np.zeros((24, 32), np.uint16), np.zeros((24, 32), np.uint16))
    with pytest.raises(vq.UsageError, match=r"^dist: uint16 samples need the bit depth \(9..16\)"):
        vq.Session(features=["psnr"]).push(planes, planes)


@pytest.mark.parametrize("video, message", [
    (vq.VideoFormat(64, 48, 17), "bit depth"),
    (vq.VideoFormat(64, 48, 7), "bit depth"),
    (vq.VideoFormat(0, 48), r"^unsupported picture size 0x48 \(each side must be 1..16384\)$"),
    (vq.VideoFormat(64, 48, 8, "411"), "chroma: expected '420', '422', '444' or '400', got '411'"),
])
def test_bad_formats_are_usage_errors(video, message):
    with pytest.raises(vq.UsageError, match=message):
        vq.Session(features=["psnr"], format=video)


def test_bad_requests_carry_the_cli_messages():
    with pytest.raises(vq.UsageError, match=r"^unknown feature 'nope' \(vq --list-features lists them\)$"):
        vq.Session(features=["nope"])
    with pytest.raises(vq.UsageError, match="window_size"):
        vq.Session(features=["cambi=window_size=1000"])
    with pytest.raises(vq.UsageError, match="nope"):
        vq.Session(models=["version=nope"])
    with pytest.raises(vq.UsageError, match="^backend: expected 'cpu', 'cuda' or 'auto', got 'gpu'$"):
        vq.Session(backend="gpu")


def test_cuda_without_a_device_is_a_usage_error():
    try:
        vq.Session(features=["psnr"], backend="cuda", format=VIDEO)
    except vq.UsageError as error:
        assert str(error) in ("--backend cuda: this vq was built without CUDA",
                              "--backend cuda: no usable CUDA device found")
    else:
        pytest.skip("a CUDA device is usable here: the error is for machines without one")


def test_a_finished_session_refuses_more_work():
    session = vq.Session(features=["psnr"], format=VIDEO)
    session.push(frame(), frame())
    session.finish()
    for call in (lambda: session.push(frame(), frame()), session.finish):
        with pytest.raises(vq.UsageError, match="^the session has finished; start a new one$"):
            call()


def test_file_errors_are_run_errors_with_the_cli_message(tmp_path):
    with pytest.raises(vq.RunError) as error:
        vq.score(tmp_path / "missing.y4m", tmp_path / "missing.y4m")
    assert "missing.y4m" in str(error.value) and "\n" not in str(error.value)
    small, large = tmp_path / "small.yuv", tmp_path / "large.yuv"
    small.write_bytes(bytes(64 * 48 * 3 // 2))
    large.write_bytes(bytes(64 * 48 * 3 // 2))
    with pytest.raises(vq.UsageError, match="-r/--reference is required"):
        vq.score(None, small, format=VIDEO)
    with pytest.raises(vq.RunError, match="no frames to score"):
        vq.score(small, large, format=VIDEO, skip_dist=1, features=["psnr"])


def test_mixing_paths_and_frames_is_a_usage_error(tmp_path):
    with pytest.raises(vq.UsageError, match="^ref: expected a file path like dist, or None$"):
        vq.score([frame()], tmp_path / "dist.y4m")
    with pytest.raises(vq.UsageError, match="^dist: expected a file path like ref"):
        vq.score(tmp_path / "ref.y4m", [frame()])


def test_to_pandas_without_pandas_says_how_to_get_it(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)

    session = vq.Session(features=["psnr"], format=VIDEO)
    session.push(frame(), frame())
    result = session.finish()
    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match="needs pandas: apt-get install python3-pandas"):
        result.to_pandas()
