"""Profiles in the XDG config file: stored by `register`, chosen by --profile, overridden by the
environment, written with mode 0600."""

from __future__ import annotations

import json
import stat

from client import config

USER = {"id": "u1", "name": "Ada", "email": "ada@example.com", "token": "tok-ada"}


REGISTERED = {"message": "a mail is on its way to ada@example.com: ..."}
CONFIRMED = dict(USER, verified=True, message="ada@example.com is confirmed: ...")


def test_register_then_confirm_stores_the_token_in_a_private_toml_file(run, standin, isolated):
    standin.answer("POST", "/users", 202, REGISTERED)
    result = run("--server", standin.url, "register", "--name", "Ada", "--email",
                 "ada@example.com")
    assert result.exit_code == 0, result.output
    path = isolated / "config" / "iridescia" / "config.toml"
    assert result.output == (
        "A mail is on its way to ada@example.com. Run the `iridescia confirm --code CODE` it "
        "shows (or open its link) to confirm the address and save your token in this profile. "
        "If the address already had an account, the mail shows how to get a new token instead "
        "(`iridescia recover --code CODE`).\n")
    assert not path.exists()  # the token travels by mail only
    standin.answer("POST", "/users/verify", 200, CONFIRMED)
    confirmed = run("--server", standin.url, "confirm", "--code", "c0de")
    assert confirmed.exit_code == 0, confirmed.output
    assert confirmed.output == (
        "ada@example.com is confirmed: the server mails it your turns from now on.\n"
        f"Token of Ada saved in profile 'default' of {path}.\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    saved = config.load(path)
    assert saved.profile("default").token == "tok-ada"
    assert saved.profile("default").server == standin.url
    assert standin.requests[0]["json"] == {"name": "Ada", "email": "ada@example.com"}
    assert standin.requests[1]["json"] == {"code": "c0de"}
    assert not any("Authorization" in r["headers"] for r in standin.requests)


def test_profiles_keep_separate_tokens_and_the_token_is_sent(run, standin):
    standin.answer("POST", "/users/verify", 200, CONFIRMED)
    assert run("--server", standin.url, "confirm", "--code", "a").exit_code == 0
    standin.answers.clear()
    standin.answer("POST", "/users/verify", 200,
                   dict(CONFIRMED, id="u2", name="Bob", token="tok-bob"))
    assert run("--profile", "bob", "--server", standin.url, "confirm", "--code", "b"
               ).exit_code == 0
    standin.answer("GET", "/users/me", 200, {"id": "u2", "name": "Bob", "email": "b@x",
                                             "preferences": {"email": "none"}})
    result = run("--profile", "bob", "whoami")
    assert result.exit_code == 0, result.output
    assert standin.requests[-1]["headers"]["Authorization"] == "Bearer tok-bob"
    run("whoami")
    assert standin.requests[-1]["headers"]["Authorization"] == "Bearer tok-ada"


def test_environment_overrides_the_profile(run, standin):
    standin.answer("GET", "/users/me", 200, {"id": "u9", "name": "Env", "email": "e@x",
                                             "preferences": {"email": "reminders"}})
    result = run("whoami", env={"IRIDESCIA_SERVER": standin.url, "IRIDESCIA_TOKEN": "tok-env"})
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Env <e@x>\n"
        f"server {standin.url}, profile default, email reminders\n"
    )
    assert standin.requests[-1]["headers"]["Authorization"] == "Bearer tok-env"


def test_a_json_config_file_is_read(run, isolated, standin):
    directory = isolated / "config" / "iridescia"
    directory.mkdir(parents=True)
    (directory / "config.json").write_text(json.dumps({
        "default_profile": "work",
        "profiles": {"work": {"server": standin.url, "token": "tok-json"}},
    }))
    result = run("config", "show")
    assert result.exit_code == 0, result.output
    assert result.output == (
        f"file: {directory / 'config.json'}\nprofile: work\nserver: {standin.url}\n"
        "token: set\nprofiles: work\n"
    )


def test_config_set_writes_the_profile(run, isolated):
    result = run("--profile", "home", "config", "set", "--server", "http://example.org:8000/",
                 "--default")
    assert result.exit_code == 0, result.output
    shown = run("config", "show", "--json")
    data = json.loads(shown.output)
    assert data["profile"] == "home"
    assert data["server"] == "http://example.org:8000"
    assert data["token"] == "missing"


def test_a_broken_config_file_is_a_clear_error(run, isolated):
    directory = isolated / "config" / "iridescia"
    directory.mkdir(parents=True)
    (directory / "config.toml").write_text("profiles = [not toml")
    result = run("whoami")
    assert result.exit_code == 1
    assert result.output.startswith(
        f"Error: cannot read the config file {directory / 'config.toml'}:"
    )
    assert "Traceback" not in result.output


def test_no_token_says_how_to_get_one(run):
    result = run("games")
    assert result.exit_code == 1
    assert result.output == (
        "Error: no token for profile 'default': run `iridescia register --name NAME --email "
        "EMAIL` or set IRIDESCIA_TOKEN\n"
    )


def test_an_unwritable_config_directory_is_a_clear_error(run, isolated, monkeypatch):
    blocker = isolated / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker))
    result = run("config", "set", "--server", "http://example.org")
    assert result.exit_code == 1
    assert result.output.startswith(
        f"Error: cannot write the config file {blocker / 'iridescia' / 'config.toml'}: "
    )


def test_toml_strings_with_quotes_survive_a_round_trip(isolated):
    path = isolated / "config.toml"
    cfg = config.Config(path=path)
    cfg.put(config.Profile(name='odd "name"', server="http://h/\\x", token='t"o\\k'))
    config.save(cfg)
    loaded = config.load(path).profile('odd "name"')
    assert (loaded.server, loaded.token) == ("http://h/\\x", 't"o\\k')


def test_recover_asks_for_a_link_then_trades_its_code_for_a_saved_token(run, standin, isolated):
    standin.answer("POST", "/users/recover", 202,
                   {"message": "if ada@example.com has an account, a mail with a link to a new "
                               "token is on its way to it"})
    asked = run("--server", standin.url, "recover", "--email", "ada@example.com")
    assert asked.output == ("if ada@example.com has an account, a mail with a link to a new "
                            "token is on its way to it\n")
    assert standin.requests[-1]["json"] == {"email": "ada@example.com"}
    assert "Authorization" not in standin.requests[-1]["headers"]

    standin.answer("POST", "/users/recover/confirm", 201, dict(USER, token="tok-new"))
    traded = run("--server", standin.url, "recover", "--code", "the-code")
    path = isolated / "config" / "iridescia" / "config.toml"
    assert traded.output == (f"New token for Ada <ada@example.com> saved in profile 'default' "
                             f"of {path}; the old one no longer works.\n")
    assert standin.requests[-1]["json"] == {"code": "the-code"}
    assert config.load(path).profile("default").token == "tok-new"
    assert run("recover").exit_code == 2


def test_confirm_sends_the_code_or_asks_for_a_new_link(run, standin):
    # An address confirmed before (its mail bounced) keeps its token: nothing is saved.
    standin.answer("POST", "/users/verify", 200, dict(CONFIRMED, token=None))
    confirmed = run("--server", standin.url, "confirm", "--code", "c0de")
    assert confirmed.output == ("ada@example.com is confirmed: the server mails it your turns "
                                "from now on.\n")
    assert standin.requests[-1]["json"] == {"code": "c0de"}
    standin.answer("POST", "/users/me/verification", 202,
                   {"message": "a new confirmation link is on its way to ada@example.com"})
    resent = run("--server", standin.url, "confirm", "--resend", env={"IRIDESCIA_TOKEN": "t"})
    assert resent.output == "a new confirmation link is on its way to ada@example.com\n"


def test_register_and_whoami_speak_japanese_under_a_japanese_lang(run, standin, isolated):
    standin.answer("POST", "/users", 202, REGISTERED)
    japanese = {"LANG": "ja_JP.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    result = run("--server", standin.url, "register", "--name", "Ada", "--email",
                 "ada@example.com", env=japanese)
    assert result.exit_code == 0, result.output
    path = isolated / "config" / "iridescia" / "config.toml"
    assert result.output == (
        "ada@example.com にメールを送りました。メールにある `iridescia confirm --code CODE` を実行すると"
        "（またはリンクを開くと）、アドレスが確認され、トークンがこのプロファイルに保存されます。"
        "このアドレスにすでにアカウントがある場合は、メールに新しいトークンの受け取り方が書いてあります"
        "（`iridescia recover --code CODE`）。\n")
    standin.answer("POST", "/users/verify", 200, CONFIRMED)
    confirmed = run("--server", standin.url, "confirm", "--code", "c0de", env=japanese)
    assert confirmed.output.endswith(
        f"Ada のトークンを {path} のプロファイル 'default' に保存しました。\n"), confirmed.output
    standin.answer("GET", "/users/me", 200, {"id": "u1", "name": "Ada", "email": "ada@example.com",
                                             "preferences": {"email": "digest"}})
    assert run("whoami", env=japanese).output == (
        "Ada <ada@example.com>\n"
        f"サーバー {standin.url}、プロファイル default、メール digest\n")
