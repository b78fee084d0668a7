#!/usr/bin/python3
"""Tries vq as a hostile or careless user would (issue 21) and prints what held.

    scripts/hostile_inputs.py [--vq build/vq] [--frames 1000,10000,100000,1000000]

Each class of failure is tried over its cases; a case passes when vq ends as the README promises
(one line naming what is wrong and exit 1 or 2, or output every parser reads; never a crash, a
hang, a quiet wrong score or a file left behind). Then the peak resident memory of PSNR runs of
16x16 raw video, by frame count. Everything is written in a temporary folder, removed at the end.
"""
import argparse
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree

DEADLINE = 60  # seconds: a run that takes longer has hung


class Run:
    def __init__(self, status, output, seconds):
        self.status, self.output, self.seconds = status, output, seconds


def run(vq, arguments, limits=""):
    """vq, under optional shell ulimit commands; status 124 for a hang, -N for a signal."""
    command = [vq] + arguments
    if limits:  # the arguments still reach vq as they are, through "$@"
        command = ["/bin/sh", "-c", limits + '; exec "$0" "$@"'] + command
    start = time.monotonic()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    try:
        output, _ = process.communicate(timeout=DEADLINE)
        status = process.returncode
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        status = 124
    return Run(status, output.decode("utf-8", "replace"), time.monotonic() - start)


def shlex_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def one_line_error(result, status, *names):
    return (result.status == status and result.output.count("\n") == 1
            and all(name in result.output for name in names))


class Classes:
    def __init__(self, vq, folder):
        self.vq, self.folder = vq, folder
        self.results = {}  # class -> [tried, passed, failures]

    def case(self, klass, name, passed):
        entry = self.results.setdefault(klass, [0, 0, []])
        entry[0] += 1
        if passed:
            entry[1] += 1
        else:
            entry[2].append(name)

    def path(self, name):
        return os.path.join(self.folder, name)

    def write(self, name, data):
        path = self.path(name)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return path

    def files_beside(self, name):
        return sorted(os.listdir(self.path(name)))


def y4m(width, height, frames, depth=8, poke=None):
    """A Y4M clip of distinct samples; `poke` = (frame, byte offset in the frame, bytes)."""
    tag = "" if depth == 8 else "p%d" % depth
    size = 2 if depth > 8 else 1
    frame_bytes = width * height * 3 // 2 * size
    data = b"YUV4MPEG2 W%d H%d F25:1 Ip C420%s\n" % (width, height, tag.encode())
    for f in range(frames):
        frame = bytearray(((f * 7 + i * 3) & 0xFF) if size == 1 else (((i // 2) * 5 + f) & 0xFF
                          if i % 2 == 0 else 0) for i in range(frame_bytes))
        if poke and poke[0] == f:
            frame[poke[1]:poke[1] + len(poke[2])] = poke[2]
        data += b"FRAME\n" + bytes(frame)
    return data


def try_resources(c):
    k = "1 resource exhaustion ends cleanly"
    clip = c.write("r.y4m", y4m(64, 48, 12))
    big = c.path("big.yuv")
    with open(big, "wb") as f:
        f.truncate(8192 * 8192 * 3 // 2 * 4)  # sparse
    no_second_thread = "ulimit -s 1048576 && ulimit -v 1572864"
    # Over 1 MiB, so that vq reads it ahead on threads of its own (a smaller input is read inline).
    large = c.write("large.y4m", y4m(640, 480, 4))
    for threads in ([], ["--threads", "1"], ["--threads", "2"], ["--threads", "64"]):
        r = run(c.vq, ["-r", large, "-d", large, "-q", "--feature", "psnr"] + threads,
                no_second_thread)
        c.case(k, "no thread " + " ".join(threads), one_line_error(r, 1, "thread"))
    for limit in ("400000", "600000", "900000"):
        r = run(c.vq, ["-r", big, "-d", big, "-q", "--feature", "psnr", "-w", "8192", "-h",
                       "8192", "-p", "420", "-b", "8", "--threads", "2"], "ulimit -v " + limit)
        # Near the edge (900 MB) the run may fit, depending on when each buffer is taken: then it
        # must give the right score (identical inputs: PSNR's 60 dB ceiling on every plane).
        fitted = r.status == 0 and r.output.count("60.000000") == 9
        c.case(k, "ulimit -v " + limit, fitted or (r.status == 1 and r.output.count("\n") == 1))
    for flag in ("--threads", "--decode-threads"):
        r = run(c.vq, ["-r", clip, "-d", clip, "-q", "--feature", "psnr", flag, "3000"])
        c.case(k, flag + " 3000", r.status == 0 and r.seconds < 10)
    if os.geteuid() != 0:  # root is exempt from RLIMIT_NPROC
        r = run(c.vq, ["-r", clip, "-d", clip, "-q", "--feature", "psnr"], "ulimit -u 1")
        c.case(k, "ulimit -u 1", r.status == 1 and r.output.count("\n") == 1)


def try_structures(c):
    k = "2 hostile structures are bounded"
    clip = c.write("s.y4m", y4m(64, 48, 3))
    base = ["-r", clip, "-d", clip, "-q"]
    for depth in (100, 1000, 100000, 1000000):
        for name, text in (("arrays", "[" * depth + "]" * depth),
                           ("objects", '{"a":' * depth + "1" + "}" * depth),
                           ("member", '{"model_dict":' + "[" * depth + "]" * depth + "}")):
            model = c.write("deep_%s_%d.json" % (name, depth), text)
            r = run(c.vq, base + ["-m", "path=" + model])
            c.case(k, "deep model %s %d" % (name, depth), one_line_error(r, 2, "nested"))
    for text in (":" * 100000, "version=" + "x" * 100000, "version=vmaf_v0.6.1" + ":a.b=1" * 20000):
        r = run(c.vq, base + ["-m", text])
        c.case(k, "model string %d bytes" % len(text), one_line_error(r, 2, "model"))
    for text in ("psnr=" + ":" * 100000, "psnr" + "=a" * 50000, "x" * 100000):
        r = run(c.vq, base + ["--feature", text])
        c.case(k, "feature string %d bytes" % len(text), r.status == 2 and r.output.count("\n") == 1)
    headers = {"long header": b"YUV4MPEG2 W64 H48 " + b"X" * 1000000 + b"\n",
               "huge size": b"YUV4MPEG2 W999999999 H999999999 C420\nFRAME\n",
               "oversize": b"YUV4MPEG2 W16384 H16384 C444p16\nFRAME\n",
               "long FRAME line": b"YUV4MPEG2 W64 H48 C420\nFRAME" + b" X" * 500000 + b"\n",
               "no newline": b"YUV4MPEG2 W64 H48 C420" + b" " * 100000}
    for name, data in headers.items():
        bad = c.write(name.replace(" ", "_") + ".y4m", data)
        r = run(c.vq, ["-r", clip, "-d", bad, "-q", "--feature", "psnr"])
        c.case(k, "y4m " + name, r.status == 1 and r.output.count("\n") == 1)
    for name, data in (("zeros.mkv", b"\0" * 100000), ("ebml.mkv", b"\x1a\x45\xdf\xa3" + b"\xff" * 4096)):
        bad = c.write(name, data)
        r = run(c.vq, ["-r", clip, "-d", bad, "-q", "--feature", "psnr"])
        c.case(k, "container " + name, r.status == 1 and r.output.count("\n") == 1)


def try_outputs(c):
    k = "3 outputs always parse"
    clip = c.write("o.y4m", y4m(64, 48, 3))
    os.mkdir(c.path("out"))
    out = c.path("out/scores")
    for name in ('a"b', "a<b>", "a&b", "a,b", "a b", "a\nb", "a\\b", "a'b", "1vmaf", "-v", ".v",
                 "a\x1b[31mb", "n" * 300, "a\tb", "a;b", "a{b}", "a=b"):
        for fmt in ("--json", "--xml", "--csv", "--sub"):
            r = run(c.vq, ["-r", clip, "-d", clip, "-q", fmt, "-o", out, "-m",
                           "version=vmaf_v0.6.1:name=" + name])
            c.case(k, "name %r %s" % (name, fmt),
                   r.status in (1, 2) and r.output.count("\n") == 1 and not os.path.exists(out))
    readers = {"--json": lambda p: json.load(open(p)),
               "--xml": lambda p: ElementTree.parse(p),
               "--csv": lambda p: list(csv.reader(open(p, newline="")))}
    for name in ("_Odd.name-2", "b.o-o_t", "V" * 200):
        for fmt, read in readers.items():
            r = run(c.vq, ["-r", clip, "-d", clip, "-q", fmt, "-o", out, "-m",
                           "version=vmaf_v0.6.1:name=" + name])
            try:
                read(out)
                parsed = True
            except Exception:
                parsed = False
            c.case(k, "accepted name %r %s" % (name, fmt), r.status == 0 and parsed)
    missing = "no\nsuch\x1b[2Jclip\r.y4m"
    r = run(c.vq, ["-r", clip, "-d", missing, "-q", "--feature", "psnr"])
    c.case(k, "control characters in a file name", one_line_error(r, 1, "no\\x0asuch\\x1b[2Jclip"))


def try_leftovers(c):
    k = "4 nothing left behind"
    for sig in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM",
                "SIGPIPE", "SIGXCPU", "SIGSEGV", "SIGBUS", "SIGABRT", "SIGKILL"):
        number = getattr(signal, sig)
        folder = c.path("sig_" + sig)
        os.mkdir(folder)
        clip = os.path.join(folder, "ref.y4m")
        with open(clip, "wb") as f:
            f.write(y4m(64, 48, 3))
        fifo = os.path.join(folder, "dist.fifo")
        os.mkfifo(fifo)
        process = subprocess.Popen([c.vq, "-r", clip, "-d", fifo, "--feature", "psnr", "--json",
                                    "-o", os.path.join(folder, "out.json")],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        feed = open(fifo, "wb")
        feed.write(y4m(64, 48, 1))
        feed.flush()
        time.sleep(0.3)
        process.send_signal(number)
        try:
            process.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            process.kill()
        try:
            feed.close()
        except BrokenPipeError:
            pass
        left = sorted(os.listdir(folder))
        c.case(k, sig, left == ["dist.fifo", "ref.y4m"] and process.returncode != 0)
    clip = c.write("l.y4m", y4m(64, 48, 3))
    r = run(c.vq, ["-r", clip, "-d", clip, "-q", "--feature", "psnr", "-o", ""])
    c.case(k, "-o ''", one_line_error(r, 2, "-o/--output"))
    os.mkdir(c.path("long"))
    long_name = c.path("long/" + "x" * 250 + ".json")
    r = run(c.vq, ["-r", clip, "-d", clip, "-q", "--feature", "psnr", "--json", "-o", long_name])
    c.case(k, "250-byte -o name", r.status == 0 and os.listdir(c.path("long")) == [os.path.basename(long_name)])
    for model in ("version=vmaf_v0.6.1:version=vmaf_v0.6.1", "version=vmaf_v0.6.1:name=a:name=b",
                  "path=x.json:path=y.json", "version=vmaf_v0.6.1:disable_clip:disable_clip"):
        r = run(c.vq, ["-r", clip, "-d", clip, "-q", "-m", model])
        c.case(k, "repeated key " + model, one_line_error(r, 2, "given twice"))


def try_scores(c):
    k = "5 no quiet wrong score"
    width, height = 256, 144  # CAMBI wants a side of 216 or more
    good = c.write("good10.y4m", y4m(width, height, 3, 10))
    plane_u = width * height * 2
    for frame, offset, plane in ((0, 10, "Y"), (1, plane_u + 140, "U"),
                                 (2, plane_u + plane_u // 4 + 2, "V")):
        bad = c.write("bad10_%d.y4m" % frame, y4m(width, height, 3, 10, (frame, offset, b"\xff\xff")))
        raw = c.write("bad10_%d.yuv" % frame, y4m(width, height, 3, 10, (frame, offset, b"\xff\xff"))
                      .split(b"\n", 1)[1].replace(b"FRAME\n", b""))
        for feature in ("psnr", "ciede", "cambi", "motion", "vif", "adm", None):
            what = ["--feature", feature] if feature else []
            r = run(c.vq, ["-r", good, "-d", bad, "-q"] + what)
            c.case(k, "16-bit value in 10-bit y4m, %s, %s" % (plane, feature),
                   one_line_error(r, 1, os.path.basename(bad), "frame %d" % frame, "plane " + plane))
            r = run(c.vq, ["-r", raw, "-d", raw, "-q", "-w", str(width), "-h", str(height), "-p",
                           "420", "-b", "10"] + what)
            c.case(k, "16-bit value in 10-bit yuv, %s, %s" % (plane, feature),
                   one_line_error(r, 1, os.path.basename(raw), "frame %d" % frame, "plane " + plane))
    if shutil.which("ffmpeg"):
        for name, args in (("streamed.mkv", "-c:v ffv1 -f matroska"), ("seekable.mkv", "-c:v ffv1"),
                           ("raw.avi", "-c:v rawvideo"), ("raw.nut", "-c:v rawvideo -f nut"),
                           ("ffv1.nut", "-c:v ffv1 -f nut"), ("mpeg4.avi", "-c:v mpeg4")):
            whole = c.path("whole_" + name)
            target = "pipe:1 > " + shlex_quote(whole) if "-f" in args else shlex_quote(whole)
            subprocess.run("ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i "
                           "testsrc=size=64x48:rate=25 -frames:v 20 -pix_fmt yuv420p %s %s"
                           % (args, target), shell=True, check=True)
            r = run(c.vq, ["-r", whole, "-d", whole, "-q", "--feature", "psnr"])
            c.case(k, "whole %s scores" % name, r.status == 0)
            data = open(whole, "rb").read()
            for fraction in (0.5, 0.7, 0.9):
                cut = c.write("cut%d_%s" % (fraction * 10, name), data[:int(len(data) * fraction)])
                r = run(c.vq, ["-r", whole, "-d", cut, "-q", "--feature", "psnr"])
                c.case(k, "truncated %s at %d%%" % (name, fraction * 100),
                       r.status == 1 and r.output.count("\n") == 1 and os.path.basename(cut) in r.output)


def peak_rss_kib(vq, arguments):
    process = subprocess.Popen([vq] + arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, _, usage = os.wait4(process.pid, 0)
    return usage.ru_maxrss


def memory_table(vq, folder, counts):
    frame = b"\x80" * (16 * 16 * 3 // 2)
    rows = []
    for count in [100] + counts:
        path = os.path.join(folder, "zero_%d.yuv" % count)
        with open(path, "wb") as f:
            block = frame * 10000
            for _ in range(count // 10000):
                f.write(block)
            f.write(frame * (count % 10000))
        out = os.path.join(folder, "scores_%d.xml" % count)
        start = time.monotonic()
        rss = peak_rss_kib(vq, ["-r", path, "-d", path, "-w", "16", "-h", "16", "-p", "420",
                                "-b", "8", "--feature", "psnr", "-q", "-o", out])
        rows.append((count, rss, time.monotonic() - start))
        os.remove(path)
        os.remove(out)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--vq", default=os.path.join(here, "..", "build", "vq"))
    parser.add_argument("--frames", default="1000,10000,100000,1000000",
                        help="frame counts of the memory table (empty: no table)")
    parser.add_argument("--classes", default="12345", help="which classes to try")
    options = parser.parse_args()
    vq = os.path.abspath(options.vq)
    folder = tempfile.mkdtemp(prefix="vq-hostile-")
    try:
        classes = Classes(vq, folder)
        tries = {"1": try_resources, "2": try_structures, "3": try_outputs, "4": try_leftovers,
                 "5": try_scores}
        for key in options.classes:
            tries[key](classes)
        print("| class | cases tried | passed |")
        print("|---|---:|---:|")
        for klass, (tried, passed, _) in sorted(classes.results.items()):
            print("| %s | %d | %d |" % (klass[2:], tried, passed))
        for klass, (_, _, failures) in sorted(classes.results.items()):
            for failure in failures:
                print("FAILED %s: %r" % (klass[2:], failure))
        if options.frames:
            counts = [int(n) for n in options.frames.split(",")]
            rows = memory_table(vq, folder, counts)
            base = rows[0][1]
            print()
            print("| frames (16x16 PSNR, XML to a file) | peak RSS | above 100 frames | seconds |")
            print("|---:|---:|---:|---:|")
            for count, rss, seconds in rows[1:]:
                print("| %d | %.1f MiB | %.1f MiB | %.1f |" % (count, rss / 1024, (rss - base) / 1024,
                                                           seconds))
        failed = sum(len(f) for _, _, f in classes.results.values())
        return 1 if failed else 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
