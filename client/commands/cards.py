"""Card help: `iridescia explain [NAME]`, from the rules engine the client is built with (the
same words as the server's GET /api/v1/rules/cards), so it needs no server and no account."""

from __future__ import annotations

import click

import engine
from client.app import emit_json, example, json_option
from client.i18n import engine_catalog, refusal
from engine.text import card_help


@click.command()
@click.argument("name", nargs=-1, metavar="[NAME]")
@click.option("--rules-version", metavar="V",
              help="The rules version a game is played under (default: the current one).")
@json_option
@example("""
iridescia explain
iridescia explain jolty jackhammer
iridescia explain sapphire_spyglass
iridescia explain "Master Miner" --rules-version 1
""")
def explain(name: tuple[str, ...], rules_version: str | None, as_json: bool) -> None:
    """Tell what a card does: an item's effect and when it is played, a secret objective's
    condition, a relic's gems, points, category and lead gem, a tile's bonus. NAME is a name or
    an id (any case); a part of one lists every card it matches. Without NAME: every card."""

    wanted = " ".join(name).strip()
    try:
        if not wanted:
            if as_json:
                emit_json(card_help.catalogue(rules_version))
                return
            lines = card_help.list_lines(rules_version, engine_catalog())
        else:
            cards = card_help.find(wanted, rules_version, None if as_json else engine_catalog())
            if as_json:
                emit_json(cards)
                return
            lines = card_help.explain_lines(cards, engine_catalog())
    except (card_help.UnknownCard, engine.UnsupportedRulesVersion) as error:
        raise click.ClickException(refusal(error).strip("'\"")) from None
    for line in lines:
        click.echo(line)


COMMANDS = [explain]
