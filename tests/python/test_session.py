"""vq.Session: zero-copy packed frames, copied planes, threads, no-reference runs."""

import gc
import sys
import threading

import numpy as np
import pytest

import vq

VIDEO = vq.VideoFormat(96, 64, 8, "420")


def clip(count, video=VIDEO, seed=1):
    """Packed reference and distorted frames of `video` (natural enough: noise over a gradient)."""
    rng = np.random.default_rng(seed)
    top = (1 << video.bit_depth) - 1
    rows, columns = video.packed_shape()
    base = (np.arange(rows * columns).reshape(rows, columns) * 7) % (top + 1)
    refs, dists = [], []
    for i in range(count):
        ref = ((base + i * 5) % (top + 1)).astype(video.dtype)
        noise = rng.integers(-4 << (video.bit_depth - 8), 5 << (video.bit_depth - 8), ref.shape)
        refs.append(ref)
        dists.append(np.clip(ref.astype(np.int64) + noise, 0, top).astype(video.dtype))
    return refs, dists


def planes(frame, video=VIDEO):
    flat, result, offset = frame.reshape(-1), [], 0
    for rows, columns in video.plane_shapes():
        result.append(flat[offset:offset + rows * columns].reshape(rows, columns))
        offset += rows * columns
    return tuple(result)


def scores(refs, dists, **kwargs):
    session = vq.Session(format=VIDEO, threads=2, **kwargs)
    for ref, dist in zip(refs, dists):
        session.push(ref, dist)
    return session.finish()


def same_numbers(a: vq.Result, b: vq.Result):
    assert a.names == b.names
    for name in a.names:
        assert np.array_equal(a.frames[name], b.frames[name], equal_nan=True), name
    assert a.pooled == b.pooled


def test_packed_arrays_are_pushed_without_a_copy_and_released_when_done():
    refs, dists = clip(6)
    # Counted outside the asserts: pytest's assertion rewriting holds references of its own.
    counts = lambda: [sys.getrefcount(d) for d in dists]  # noqa: E731
    before = counts()
    session = vq.Session(format=VIDEO, threads=2)
    for i in range(6):
        session.push(refs[i], dists[i])
    held = counts()
    # The session holds the last arrays themselves (references, not copies) while it may still
    # read them, and lets every one go when it is done.
    assert held[-1] > before[-1]
    session.finish()
    gc.collect()
    after = counts()
    assert after == before


def test_arrays_dropped_by_the_caller_right_after_push_are_still_scored_right():
    refs, dists = clip(8)
    expected = scores([r.copy() for r in refs], [d.copy() for d in dists])
    session = vq.Session(format=VIDEO, threads=2)
    for i in range(8):
        ref, dist = refs[i].copy(), dists[i].copy()
        session.push(ref, dist)
        del ref, dist
        gc.collect()
    same_numbers(session.finish(), expected)


def test_planes_strided_views_and_1d_arrays_give_the_packed_numbers():
    refs, dists = clip(5)
    packed = scores(refs, dists)
    same_numbers(scores([planes(r) for r in refs], [planes(d) for d in dists]), packed)
    same_numbers(scores([r.reshape(-1) for r in refs], [d.reshape(-1) for d in dists]), packed)
    # Each plane a crop of a larger array: rows further apart than their width (copied).
    def cropped(frame):
        return tuple(np.pad(p, ((0, 3), (2, 5)))[:p.shape[0], 2:2 + p.shape[1]] for p in planes(frame))
    same_numbers(scores([cropped(r) for r in refs], [cropped(d) for d in dists]), packed)


def test_format_is_inferred_from_plane_tuples_and_10_bit_needs_bit_depth():
    video = vq.VideoFormat(64, 48, 10, "444")
    refs, dists = clip(3, video)
    session = vq.Session(features=["psnr"], bit_depth=10)
    for ref, dist in zip(refs, dists):
        session.push(planes(ref, video), planes(dist, video))
    assert session.format == video
    assert len(session.finish().frames) == 3


def test_pushing_from_several_threads_scores_every_frame():
    refs, dists = clip(24)
    expected = scores(refs, dists, features=["psnr"])
    session = vq.Session(features=["psnr"], format=VIDEO, threads=2)
    errors = []

    def push(indices):
        try:
            for i in indices:
                session.push(refs[i], dists[i])
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    workers = [threading.Thread(target=push, args=(range(t, 24, 4),)) for t in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert not errors
    assert session.frames_pushed == 24
    result = session.finish()
    # PSNR is per frame: the same values, in the order the threads happened to push.
    assert sorted(result.frames["psnr_y"]) == sorted(expected.frames["psnr_y"])


def test_no_reference_features_take_none_for_ref():
    video = vq.VideoFormat(224, 16)  # CAMBI needs a side of 216 or more
    refs, dists = clip(3, video)
    session = vq.Session(features=["cambi"], format=video)
    assert not session.needs_reference
    for dist in dists:
        session.push(None, dist)
    result = session.finish()
    assert result.names == ["cambi"]
    assert result.receipt == [
        {"feature": "cambi", "backend": "cpu", "outputs": ["cambi"], "notes": []}]


def test_default_is_the_cli_default_model_and_subsample_selects_frames():
    refs, dists = clip(5)
    result = scores(refs, dists, subsample=2)
    assert "vmaf" in result.names
    assert list(result.frames["frame"]) == [0, 2, 4]
    assert set(result.pooled["vmaf"]) == {"min", "max", "mean", "harmonic_mean"}


def test_score_takes_iterables_with_frames_and_skips():
    refs, dists = clip(6)
    result = vq.score(iter(refs), iter(dists), features=["psnr"], format=VIDEO, frames=3,
                      skip_ref=1, skip_dist=1)
    expected = scores(refs[1:4], dists[1:4], features=["psnr"])
    same_numbers(result, expected)


def test_to_pandas_indexes_by_frame():
    pandas = pytest.importorskip("pandas")
    refs, dists = clip(2)
    table = scores(refs, dists, features=["psnr"]).to_pandas()
    assert isinstance(table, pandas.DataFrame)
    assert list(table.columns) == ["psnr_y", "psnr_cb", "psnr_cr"]
    assert list(table.index) == [0, 1]


def test_scores_stream_out_as_frames_complete_and_equal_finish():
    refs, dists = clip(10)
    session = vq.Session(format=VIDEO, threads=2, features=["psnr"], models=["version=vmaf_v0.6.1"])
    assert session.frames_ready == 0
    streamed, ready = [], []
    for ref, dist in zip(refs, dists):
        session.push(ref, dist)
        streamed.append(session.new_scores())
        ready.append(session.frames_ready)
    assert ready == sorted(ready) and ready[-1] >= 1
    so_far = session.scores()
    assert len(so_far) == ready[-1]
    streamed = np.concatenate(streamed)
    assert list(streamed["frame"]) == list(range(ready[-1]))  # each frame once, in order
    result = session.finish()
    assert streamed.dtype == result.frames.dtype
    for name in result.names:  # bit-equal to finish()'s, the models' scores included
        assert np.array_equal(streamed[name], result.frames[name][:len(streamed)]), name
        assert np.array_equal(so_far[name], result.frames[name][:len(so_far)]), name


def test_a_session_dropped_with_frames_in_flight_lets_them_go():
    refs, dists = clip(6)
    before = [sys.getrefcount(d) for d in dists]
    session = vq.Session(format=VIDEO, threads=2)
    for i in range(6):
        session.push(refs[i], dists[i])
    del session  # no finish(): the workers stop, each borrowed array released with the GIL
    gc.collect()
    after = [sys.getrefcount(d) for d in dists]
    assert after == before


def test_ctrl_c_stops_a_file_run(tmp_path):
    # The distorted input is a FIFO fed by a thread, which presses Ctrl-C (interrupt_main) once a
    # few frames are in, then keeps feeding until the run has stopped.
    import _thread
    import os

    import y4m

    video = vq.VideoFormat(64, 48)
    refs, dists = clip(2, video)
    y4m.write(tmp_path / "ref.y4m", video, refs * 200)
    fifo = tmp_path / "dist.y4m"
    os.mkfifo(fifo)
    stopped = threading.Event()
    written = []

    def feed():
        with open(fifo, "wb") as out:
            try:
                out.write(b"YUV4MPEG2 W64 H48 F25:1 Ip A1:1 C420jpeg\n")
                for i in range(400):
                    out.write(b"FRAME\n" + dists[i % 2].tobytes())
                    out.flush()
                    written.append(i)
                    if i == 3:
                        _thread.interrupt_main()
                    if stopped.is_set():
                        return
            except BrokenPipeError:
                return

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            vq.score(tmp_path / "ref.y4m", fifo, features=["psnr"], threads=1)
    finally:
        stopped.set()
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))  # a feeder still opening the FIFO
        feeder.join()
    assert len(written) < 400  # stopped between frames, not at the end of the input
