"""Bot API errors in Telegram's own shape: `{"ok": false, "error_code": N, "description": "..."}`.

Every failure a method can produce is an `ApiError`; the HTTP layer turns it into the JSON body and status.
The descriptions are the ones Telegram sends, because bots (and aiogram) match on them.
"""

from typing import Any


class ApiError(Exception):
    """A failed Bot API call: HTTP status, Telegram's description and optional `parameters`."""

    def __init__(self, code: int, description: str, parameters: dict[str, int] | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            body["parameters"] = dict(self.parameters)
        return body


def bad_request(reason: str) -> ApiError:
    return ApiError(400, f"Bad Request: {reason}")


def forbidden(reason: str) -> ApiError:
    return ApiError(403, f"Forbidden: {reason}")


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after})


def migrated(to_chat_id: int) -> ApiError:
    return ApiError(
        400, "Bad Request: group chat was upgraded to a supergroup chat", {"migrate_to_chat_id": to_chat_id}
    )


UNAUTHORIZED = ApiError(401, "Unauthorized")
METHOD_NOT_FOUND = ApiError(404, "Not Found: method not found")
