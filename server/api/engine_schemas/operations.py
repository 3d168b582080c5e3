"""Operation ids (camelCase verb + noun, what a generated client names its functions) and the
links from the operations that hand out a game id to the operations on that game."""

from __future__ import annotations

from apispec import BasePlugin

# "METHOD path" -> operationId. A new operation needs its line here (a test checks every
# operation has one, unique); until then it gets a name made from its method and path.
OPERATION_IDS: dict[str, str] = {
    "POST /api/v1/users": "registerUser",
    "POST /api/v1/users/verify": "verifyAddress",
    "POST /api/v1/users/recover": "recoverToken",
    "POST /api/v1/users/recover/confirm": "confirmRecovery",
    "GET /api/v1/users/me": "getMe",
    "POST /api/v1/users/me/verification": "resendVerification",
    "POST /api/v1/users/me/token": "rotateToken",
    "PATCH /api/v1/users/me/preferences": "updatePreferences",
    "GET /api/v1/games": "listGames",
    "POST /api/v1/games": "createGame",
    "POST /api/v1/games/join": "joinGame",
    "GET /api/v1/games/{game_id}": "getGame",
    "POST /api/v1/games/{game_id}/invitations": "inviteToGame",
    "POST /api/v1/games/{game_id}/leave": "leaveGame",
    "POST /api/v1/games/{game_id}/start": "startGame",
    "POST /api/v1/games/{game_id}/back": "comeBack",
    "GET /api/v1/games/{game_id}/view": "getView",
    "GET /api/v1/games/{game_id}/legal": "getLegal",
    "GET /api/v1/games/{game_id}/hint": "getHint",
    "POST /api/v1/games/{game_id}/commands": "postCommand",
    "GET /api/v1/games/{game_id}/events": "listEvents",
    "GET /api/v1/games/{game_id}/export": "exportGame",
    "GET /api/v1/games/{game_id}/messages": "listMessages",
    "POST /api/v1/games/{game_id}/messages": "postMessage",
    "GET /api/v1/rules/cards": "listRuleCards",
    "GET /api/v1/games/{game_id}/plan": "getPlan",
    "PUT /api/v1/games/{game_id}/plan": "setPlan",
    "DELETE /api/v1/games/{game_id}/plan": "deletePlan",
    "GET /api/v1/games/{game_id}/webhook": "getWebhook",
    "PUT /api/v1/games/{game_id}/webhook": "setWebhook",
    "DELETE /api/v1/games/{game_id}/webhook": "deleteWebhook",
    "GET /api/v1/users/me/vacation": "getVacation",
    "POST /api/v1/users/me/vacation": "startVacation",
    "DELETE /api/v1/users/me/vacation": "endVacation",
    "POST /api/v1/games/{game_id}/pause": "pauseGame",
    "POST /api/v1/games/{game_id}/resume": "resumeGame",
    "GET /api/v1/games/{game_id}/notifications": "getGameNotifications",
    "PUT /api/v1/games/{game_id}/notifications": "setGameNotifications",
    "GET /api/v1/health": "getHealth",
    "GET /api/v1/mail/unsubscribe/{token}": "describeUnsubscribe",
    "POST /api/v1/mail/unsubscribe/{token}": "unsubscribe",
    "POST /api/v1/games/{game_id}/rematch": "rematchGame",
    "GET /api/v1/games/open": "listOpenGames",
    "POST /api/v1/seeks": "seekGame",
    "GET /api/v1/seeks": "listSeeks",
    "GET /api/v1/seeks/{seek_id}": "getSeek",
    "DELETE /api/v1/seeks/{seek_id}": "cancelSeek",
    "GET /api/v1/users/{user_id}": "getPlayer",
    "GET /api/v1/leaderboard": "getLeaderboard",
}

# The operations that answer a game (its `id`), with the status they answer it with: each links
# to every operation on that game, which is how schemathesis's stateful phase (and a reader)
# goes from a new game to playing it.
GAME_SOURCES = {"createGame": 201, "joinGame": 200}
GAME_PATH = "/api/v1/games/{game_id}"


def fallback_id(method: str, path: str) -> str:
    words = [part.strip("{}") for part in path.split("/") if part and part not in ("api", "v1")]
    name = method.lower() + "".join(w.title().replace("_", "") for w in words)
    return name


class OperationIds(BasePlugin):
    """An apispec plugin: names every operation and adds the game links."""

    def __init__(self) -> None:
        self.game_operations: dict[str, str] = {}  # operationId -> its game_id parameter's name
        self.sources: list[dict] = []

    def operation_helper(self, path=None, operations=None, **_kwargs) -> None:  # noqa: ANN001
        for method, operation in (operations or {}).items():
            key = f"{method.upper()} {path}"
            operation_id = OPERATION_IDS.get(key) or fallback_id(method, path)
            operation["operationId"] = operation_id
            if path.startswith(GAME_PATH):
                self.game_operations[operation_id] = "game_id"
            if operation_id in GAME_SOURCES:
                self.sources.append(operation)
        self._link()

    def _link(self) -> None:
        # Blueprints register in any order: (re)write the links once both ends are known.
        for operation in self.sources:
            status = GAME_SOURCES[operation["operationId"]]
            responses = operation.get("responses", {})
            response = responses.get(status) or responses.get(str(status))
            if response is None:
                continue
            response["links"] = {
                target[0].upper() + target[1:]: {
                    "operationId": target, "parameters": {parameter: "$response.body#/id"}}
                for target, parameter in sorted(self.game_operations.items())}
