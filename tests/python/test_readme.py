"""README.md's Python example runs as written (on frames it makes itself, so it runs anywhere)."""

import contextlib
import io
import os
import re

from conftest import REPOSITORY


def python_example() -> str:
    readme = (REPOSITORY / "README.md").read_text()
    section = readme[readme.index("\n## Python\n"):]
    section = section[:section.index("\n## ", 1)]
    blocks = re.findall(r"^```python\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    assert blocks, "README.md's Python section has no ```python example"
    return blocks[0]


def test_the_readme_example_runs_as_written(tmp_path):
    output = io.StringIO()
    previous = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(output):
            exec(compile(python_example(), "README.md (## Python)", "exec"), {})
    finally:
        os.chdir(previous)
    lines = output.getvalue().splitlines()
    assert any(line.startswith("frame 0 vmaf ") for line in lines), output.getvalue()
    assert "'mean'" in lines[-1], output.getvalue()
