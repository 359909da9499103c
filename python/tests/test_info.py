"""rlx.version(), rlx.devices(), rlx.backends(), rlx.check(): what the
package says about the machine and a model, checked against the CLI."""
import json
import os
import subprocess

import pytest

import rlx


def cli_devices():
    out = subprocess.run([os.environ["RLX_TEST_RLX_BIN"], "devices", "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_version_matches_cli():
    assert rlx.version() == cli_devices()["rlx_version"]
    assert rlx.__version__ == rlx.version()


def test_backends_match_cli():
    cli = {b["id"]: b for b in cli_devices()["backends"]}
    mine = {b["id"]: b for b in rlx.backends()}
    assert set(mine) == set(cli)
    for bid, b in mine.items():
        for key in ("device", "priority", "executes", "available",
                    "device_count", "reason", "fix", "chosen", "allowed"):
            assert b[key] == cli[bid][key], (bid, key)
    assert mine["cpu-ref"]["available"] and mine["cpu-ref"]["reason"] is None


def test_devices_list_what_cli_lists():
    cli = cli_devices()["backends"]
    want = sorted(f"{b['device']}:{i}" for b in cli
                  if b["available"] and b["executes"]
                  for i in range(b["device_count"]))
    got = sorted({d["name"] for d in rlx.devices()})
    assert got == sorted(set(want))
    cpu = [d for d in rlx.devices() if d["backend"] == "cpu-ref"]
    assert cpu and cpu[0]["name"] == "cpu:0" and cpu[0]["kind"] == "cpu"


def test_check_reports_a_model(mlp, onnx_model):
    r = rlx.check(mlp[0], device="cpu")
    assert r["ok"] and r["error"] is None
    assert r["format"] == "rlx" and r["device"] == "cpu:0"
    assert r["unsupported"] == [] and "nodes on cpu:0" in r["placement"]
    r = rlx.check(onnx_model[0])
    assert r["ok"] and r["format"] == "onnx"


def test_check_missing_model_raises(tmp_path):
    with pytest.raises(rlx.Error) as e:
        rlx.check(tmp_path / "nope.yaml")
    assert "nope.yaml" in str(e.value) and e.value.fix


def test_check_unknown_device_raises(mlp):
    with pytest.raises(rlx.Error) as e:
        rlx.check(mlp[0], device="no-such-device")
    assert e.value.fix
