"""OpenVINO's telemetry stays off: importing seamcut and embedding a text with the default
embedder (OpenVINO) sends nothing and writes nothing under the home folder. Without seamcut's
guard, ``import openvino`` starts a process that posts an event to Google Analytics and writes
``~/intel/openvino_ga_cid`` (``seamcut.embed.e5_openvino.import_openvino``)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from seamcut.ground.cache import cache_root

SCRIPT = r"""
import json, multiprocessing, os

started = []
start = multiprocessing.Process.start

def watched(self, *args, **kwargs):
    started.append(repr(getattr(self, "_target", None)))
    return start(self, *args, **kwargs)

multiprocessing.Process.start = watched

import seamcut
vectors = seamcut.load_embedder().embed_passages(["Cotton needs well-drained soil."])
import openvino.tools.ovc.telemetry_utils as ovc_telemetry

print(json.dumps({"shape": list(vectors.shape), "started": started,
                  "telemetry": ovc_telemetry.tm.__name__,
                  "importable_after": bool(__import__("importlib").import_module("openvino_telemetry")),
                  "home": sorted(os.listdir(os.path.expanduser("~")))}))
"""


def test_the_default_embedder_sends_no_telemetry_and_writes_nothing_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), SEAMCUT_CACHE=str(cache_root()), OMP_NUM_THREADS="1")
    env.pop("CI", None)  # OpenVINO's own CI switch must not be what keeps it quiet here
    src = Path(__file__).resolve().parents[2] / "src"
    env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["shape"] == [1, 384]
    assert got["started"] == []  # no process: OpenVINO's telemetry posts from a forked one
    assert got["telemetry"] == "openvino.tools.ovc.telemetry_stub"
    assert got["importable_after"]  # refused only while openvino loads, for anyone else after
    assert got["home"] == [] and not (home / "intel").exists()
