"""HTTP plumbing of the policy service: JSON in and out, errors as OpenAI-style error objects."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, Optional

from .samples import SampleError, parse_jsonl


class ApiError(Exception):
    def __init__(self, status: int, message: str, kind: str = "invalid_request_error", extra: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.status, self.message, self.kind = status, message, kind
        #: top-level fields beside `error` (SGLang-style routes answer `{success: false, message}`)
        self.extra = extra or {}


def bad_request(message: str) -> ApiError:
    return ApiError(400, message)


class _Handler(BaseHTTPRequestHandler):
    service: Any
    verbose = False
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY: a response goes out at once; with Nagle's algorithm a write that follows
    # another unacknowledged one would wait for the client's delayed ACK (~40 ms).
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        if self.verbose:
            super().log_message(format, *args)

    def _send(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        # Headers and body in one write (end_headers would send the headers alone): one system
        # call and one packet, and, while the sampling engine runs, one wait for the GIL fewer.
        self._headers_buffer.append(b"\r\n" + data)
        self.flush_headers()

    def _parse(self, raw: bytes) -> Any:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise bad_request("the request body is not UTF-8") from None
        kind = (self.headers.get("Content-Type") or "").lower()
        if "ndjson" in kind or "jsonl" in kind:
            return parse_jsonl(text, "request body")
        try:
            return json.loads(text) if text.strip() else {}
        except json.JSONDecodeError as error:
            raise bad_request(f"the request body is not JSON: {error.msg} at position {error.pos}") from None

    def _dispatch(self, routes: Dict[str, Callable[..., dict]], with_body: bool) -> None:
        # Read the whole body first, whatever happens next: on a kept-alive connection an unread
        # body would be taken for the next request.
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        path = self.path.split("?", 1)[0].rstrip("/") or "/"
        try:
            route = routes.get(path)
            if route is None:
                raise ApiError(404, f"no route {self.command} {path}", "NotFoundError")
            if with_body:
                body = self._parse(raw)
                if path != "/train/step" and not isinstance(body, dict):
                    raise bad_request("the request body must be a JSON object")
                self._send(200, route(body))
            else:
                self._send(200, route())
        except ApiError as error:
            self._send(error.status, {**error.extra, "error": {"message": error.message, "type": error.kind, "code": error.status}})
        except SampleError as error:
            self._send(400, {"error": {"message": str(error), "type": "invalid_request_error", "code": 400}})
        except Exception as error:  # the service must answer, not drop the connection
            self._send(500, {"error": {"message": f"{type(error).__name__}: {error}", "type": "internal_error", "code": 500}})

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        s = self.service
        self._dispatch({"/health": s.health, "/v1/models": s.models}, with_body=False)

    def do_POST(self) -> None:  # noqa: N802
        s = self.service
        self._dispatch({"/tokenize": s.tokenize, "/v1/completions": s.completions, "/v1/chat/completions": s.chat_completions,
                        "/train/step": s.train_step, "/weights/save": s.save, "/update_weights_from_disk": s.update_weights_from_disk,
                        "/logprobs": s.logprobs}, with_body=True)


def make_server(service: Any, host: str = "127.0.0.1", port: int = 0, verbose: bool = False) -> ThreadingHTTPServer:
    """A threaded server for `service` (a PolicyService); port 0 picks a free port."""
    handler = type("Handler", (_Handler,), {"service": service, "verbose": verbose})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server
