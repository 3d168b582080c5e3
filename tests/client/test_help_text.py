"""`--help` in the language of `LANG` (issue 30, client/help_text.py): the commands' and options'
help, Click's own words and the example's heading in Japanese, the example's commands as they
are; English as before; and no command or option without its Japanese."""

from __future__ import annotations

import pytest

from client.cli import cli
from client.i18n import _catalog
from engine.text.columns import columns
from tests.client.test_help import ALL

JAPANESE = {"LANG": "ja_JP.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
ENGLISH = {"LANG": "en_US.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}


def test_the_groups_help_in_japanese(run):
    result = run("--help", env=JAPANESE)
    assert result.exit_code == 0, result.output
    assert result.output.split("コマンド:\n")[0] == (
        "使い方: cli [OPTIONS] COMMAND [ARGS]...\n"
        "\n"
        "  ターミナルからメールで Gems of Iridescia を遊ぶ。\n"
        "\n"
        "  サーバーのアドレスとトークンは $XDG_CONFIG_HOME/iridescia/config.toml のプロ\n"
        "  ファイルから読みます。IRIDESCIA_SERVER と IRIDESCIA_TOKEN はそれより優先されま\n"
        "  す。\n"
        "\n"
        "  例:\n"
        "    iridescia register --name Ada --email ada@example.com\n"
        "    iridescia new --seats 1\n"
        "    iridescia show g7Kq2\n"
        "\n"
        "オプション:\n"
        "  --profile NAME  使う保存済みプロファイル（既定：既定のプロファイル）。\n"
        "  --server URL    プロファイルのサーバーではなく、このサーバーと通信する。\n"
        "  --version       バージョンを表示して終了する。\n"
        "  -h, --help      このメッセージを表示して終了する。\n"
        "\n")
    commands = result.output.split("コマンド:\n")[1].splitlines()
    assert "  games              自分のゲームの一覧：自分の手番のものが先、次に期…" in commands
    assert "  new                ゲームを作る。" in commands


def test_a_commands_help_in_japanese(run):
    result = run("join", "--help", env=JAPANESE)
    assert result.exit_code == 0, result.output
    assert result.output == (
        "使い方: cli join [OPTIONS] CODE\n"
        "\n"
        "  参加コード CODE のゲームに席を取る。\n"
        "\n"
        "  例:\n"
        "    iridescia join X7P2QK\n"
        "    iridescia join X7P2QK --stand-in easy\n"
        "    iridescia join X7P2QK --word tolami-veruko\n"
        "\n"
        "オプション:\n"
        "  --stand-in [easy|medium|hard|random|cautious|greedy|strong]\n"
        "                                  期限が過ぎたときにこのゲームであなたの手番を指\n"
        "                                  すボット：easy（何も使わない）、medium、hard。\n"
        "                                  [既定：あなたの設定、なければ hard]\n"
        "  --word WORD                     ダイスのためのあなたの言葉。開始時にサーバーの\n"
        "                                  シードと混ぜるので、誰も1人ではダイスを決めら\n"
        "                                  れない。[既定：ここで作るランダムな言葉]\n"
        "  --json                          テキストではなく JSON で出力する（スクリプト\n"
        "                                  用）。\n"
        "  -h, --help                      このメッセージを表示して終了する。\n")


def test_clicks_default_note_in_japanese_kept_whole_on_a_line(run):
    result = run("leaderboard", "--help", env=JAPANESE)
    assert ("  --track [2|3|4|solo]  2人、3人、4人のゲーム、またはロムとの1人ゲーム。\n"
            "                        [既定：2]\n") in result.output


def test_english_as_before_and_after_a_japanese_run(run):
    english = (
        "Usage: cli games [OPTIONS]\n"
        "\n"
        "  List my games: my turn first, then by nearest deadline.\n"
        "\n"
        "  Example:\n"
        "    iridescia games\n"
        "\n"
        "Options:\n"
        "  --json      Print JSON instead of text, for scripts.\n"
        "  -h, --help  Show this message and exit.\n")
    assert run("games", "--help", env=ENGLISH).output == english
    assert run("games", "--help", env=JAPANESE).output.startswith("使い方: cli games")
    assert run("games", "--help", env=ENGLISH).output == english
    root = run("--help", env=ENGLISH).output
    assert "  games              List my games: my turn first, then by nearest deadline.\n" in root
    assert "  new                Create a game; you take its first seat.\n" in root


@pytest.mark.parametrize("path", [p for p, _ in ALL], ids=lambda p: " ".join(p) or "iridescia")
def test_every_command_and_option_has_its_japanese(run, path):
    """Each help Click shows has a Japanese entry in the catalog; the page has no line wider
    than the terminal (80 columns) but the example's and the usage's commands."""
    run("--help", env=ENGLISH)  # the tree in English, as Click holds it
    command = dict(ALL)[path]
    japanese = _catalog("ja")
    body = command.help.split("\n\b\nExample:\n")[0].rstrip()
    assert japanese.gettext(body) != body, f"no Japanese for {' '.join(path)}'s help"
    for param in command.params:
        if getattr(param, "help", None):
            assert japanese.gettext(param.help) != param.help, f"no Japanese for {param.opts}"
    page = run(*path, "--help", env=JAPANESE).output
    wide = [line for line in page.splitlines() if columns(line) > 80 and columns(line) != len(line)]
    assert wide == []


def test_the_root_groups_class_translates_before_click_parses():
    assert cli.context_class.formatter_class.__name__ == "HelpFormatter"
