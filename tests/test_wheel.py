"""The presets ship inside the wheel: a plain `pip install .` can list and load them."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str | Path, cwd: Path) -> str:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_installed_wheel_lists_and_loads_the_presets(tmp_path: Path) -> None:
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp_path / "dist", ROOT, cwd=tmp_path)
    wheel = next((tmp_path / "dist").glob("cardtui-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(n for n in names if n.startswith("cardtui/config/"))
    assert shipped == [f"cardtui/config/{p.name}" for p in sorted((ROOT / "config").glob("*.toml"))]
    # A fresh environment that borrows the dependencies but holds only the wheel's cardtui.
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    # This environment's pip installs into the new one (no pip of its own to set up: seconds saved).
    # Install before borrowing, or pip would find this environment's cardtui and skip the wheel.
    run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "-q", wheel, cwd=tmp_path)
    own = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).strip())
    # The dependencies come from this environment, after the venv's own packages, so its cardtui is the wheel's.
    (own / "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    code = (
        "from cardtui.rules import list_presets, load_preset, preset_dir\n"
        "print(preset_dir())\n"
        "print(' '.join(r.name for r in list_presets()))\n"
        "print(load_preset('spades-blind').bag_limit)\n"
    )
    where, names_line, bags = run(python, "-c", code, cwd=tmp_path).splitlines()
    assert Path(where).is_relative_to(venv)
    assert names_line.split() == [
        *("cutthroat", "cutthroat-3", "eight-of-spades"),
        *("hearts", "hearts-3", "hearts-5", "hearts-6", "spades-blind", "spades"),
    ]
    assert bags == "7"
