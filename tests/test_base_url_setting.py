"""The instance's saved base URL (cardgen.site): ``companion base-url`` saves it, and ``cardgen build``/``proof``/
``export`` and ``companion serve`` use it whenever no ``--base-url`` is given, so cards printed today and the
server started next month agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import _base_url
from cardgen.cli import main as cardgen_main
from cardgen.site import SiteError, instance_dir, saved_base_url, settings_path
from companion.cli import main as companion_main
from companion.web import create_app


@pytest.fixture(autouse=True)
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SPELLBOOK_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("SPELLBOOK_BASE_URL", raising=False)
    return tmp_path / "instance"


def base_url(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(companion_main, ["base-url", *args])
    return result.exit_code, result.output


def test_saved_shown_and_forgotten(instance: Path) -> None:
    code, said = base_url()
    assert code == 0 and "No base URL saved" in said and str(instance / "settings.toml") in said
    code, said = base_url("https://club.example/")
    assert code == 0 and "cards and links use https://club.example" in said
    assert saved_base_url() == "https://club.example" and settings_path() == instance / "settings.toml"
    assert base_url() == (0, "https://club.example\n")
    code, said = base_url("--forget")
    assert code == 0 and saved_base_url() is None and "no base URL" in said


def test_a_bad_address_is_refused_and_the_saved_one_kept() -> None:
    assert base_url("http://spellbook.local:8000")[0] == 0
    for bad in ("ftp://club.example", "club.example", "https://club.example/?x=1", "https://a b",
                # (the serving audit: saved before, the cards printed with them opened nothing)
                "http://club.example:99999", 'https://club"x.example', "https://club.example/spellbook"):
        code, said = base_url(bad)
        assert code != 0 and "base URL must" in said, (bad, said)
    assert saved_base_url() == "http://spellbook.local:8000"
    assert "with no path (it answers at its root: https://club.example)" in base_url("https://club.example/spellbook")[1]
    for good in ("http://[::1]:8000", "http://192.168.1.20:8000", "https://club.example.:8443/"):
        assert base_url(good)[0] == 0, good
    assert base_url("http://spellbook.local:8000")[0] == 0
    code, said = base_url("https://x.example", "--forget")
    assert code != 0 and "not both" in said and saved_base_url() == "http://spellbook.local:8000"


def test_a_loopback_address_is_saved_with_the_warning_the_build_gives() -> None:
    code, said = base_url("http://localhost:8000")
    assert code == 0 and "Warning:" in said and "loopback" in said.lower()


def test_the_print_kit_takes_the_flag_then_the_environment_then_the_saved_one(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _base_url(None) == "http://localhost:8000"  # nothing saved: the default (which the build warns about)
    assert base_url("https://club.example")[0] == 0
    assert _base_url(None) == "https://club.example"
    monkeypatch.setenv("SPELLBOOK_BASE_URL", "https://elsewhere.example")
    assert _base_url(None) == "https://elsewhere.example"
    assert _base_url("http://given.example:9000") == "http://given.example:9000"


def test_a_broken_settings_file_names_itself_and_the_field(instance: Path, tmp_path: Path) -> None:
    instance.mkdir(parents=True)
    (instance / "settings.toml").write_text('base_url = "gopher://x"\n', encoding="utf-8")
    with pytest.raises(SiteError, match=r"settings\.toml: base_url: base URL must start with http"):
        saved_base_url()
    result = CliRunner().invoke(cardgen_main, ["build", "--game", "fillory", "--only", "deck",
                                               "--out", str(tmp_path / "kit")])
    assert result.exit_code == 1 and "settings.toml: base_url" in result.output
    assert not (tmp_path / "kit").exists()  # nothing built with an address nobody chose
    (instance / "settings.toml").write_text("base_url = [", encoding="utf-8")
    code, said = base_url()
    assert code == 1 and "cannot read the instance settings" in said and "settings.toml" in said
    # saving over it says how to get out (the serving audit: nothing said what to do)
    code, said = base_url("https://club.example")
    assert code == 1 and "mend the file, or delete it and save the address again with companion base-url URL" in said
    serve = CliRunner().invoke(companion_main, ["serve", "--port", "1", "--no-qr"])
    assert serve.exit_code == 1 and "cannot read the instance settings" in serve.output


def test_the_server_keeps_its_database_and_key_in_the_same_instance_folder(instance: Path) -> None:
    app = create_app({"TESTING": True})
    try:
        assert Path(app.instance_path) == instance_dir() == instance.absolute()
        assert Path(app.config["DATABASE"]).parent == instance.absolute()
    finally:
        app.extensions["store"].close()


def test_an_instance_folder_that_is_a_file_is_said_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """$SPELLBOOK_INSTANCE naming a file answered "cannot open the database: [Errno 17] File exists" (the serving
    audit)."""
    a_file = tmp_path / "not-a-folder"
    a_file.write_text("x", encoding="utf-8")
    monkeypatch.setenv("SPELLBOOK_INSTANCE", str(a_file))
    result = CliRunner().invoke(companion_main, ["games"])
    assert result.exit_code == 1
    assert f"the instance folder {a_file} ($SPELLBOOK_INSTANCE) is a file, not a folder" in result.output


@pytest.mark.parametrize("command", ["build", "export", "proof"])
@pytest.mark.parametrize(("bad", "reason"), [
    ("https://club.example/spellbook", "with no path (it answers at its root: https://club.example)"),
    ("http://club.example:99999", "must have a port from 1 to 65535"),
    ('https://club"x.example', "must name a host")])
def test_the_print_kit_refuses_an_address_the_companion_cannot_answer_at(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, bad: str, reason: str) -> None:
    """The print audit: cards built with a path (or port 99999, or a host with a quote) opened 404 or nothing,
    while companion base-url refused the same address. Flag, environment and an old saved file all refused."""
    out = tmp_path / "kit"
    given = CliRunner().invoke(cardgen_main, [command, "--game", "barony-sorcery", "--base-url", bad, "--out", str(out)])
    assert given.exit_code == 1 and "base URL must" in given.output and reason in given.output, given.output
    monkeypatch.setenv("SPELLBOOK_BASE_URL", bad)
    from_env = CliRunner().invoke(cardgen_main, [command, "--game", "barony-sorcery", "--out", str(out)])
    assert from_env.exit_code == 1 and reason in from_env.output and "(SPELLBOOK_BASE_URL)" in from_env.output
    monkeypatch.delenv("SPELLBOOK_BASE_URL")
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(f"base_url = {json.dumps(bad)}\n", encoding="utf-8")  # saved before the check
    saved = CliRunner().invoke(cardgen_main, [command, "--game", "barony-sorcery", "--out", str(out)])
    assert saved.exit_code == 1 and reason in saved.output and str(settings_path()) in saved.output, saved.output
    assert not out.exists()


def test_the_print_kit_still_takes_the_addresses_the_companion_takes() -> None:
    for good, kept in (("http://[::1]:8000", "http://[::1]:8000"),
                       ("http://192.168.1.20:8000/", "http://192.168.1.20:8000"),
                       ("https://club.example.:8443/", "https://club.example.:8443"),
                       ("http://spellbook.local", "http://spellbook.local")):
        assert _base_url(good) == kept
