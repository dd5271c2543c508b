"""Calls a local stack as E2B's Python SDK does, over HTTP/2 with httpx and h2 (Debian's
python3-httpx and python3-h2): creates a sandbox through the platform API, opens a
process.Process/Start stream and a filesystem.Filesystem/WatchDir stream to its runtime, then,
with both still open on the same connection, makes a unary filesystem.Filesystem/Stat call, and
kills the sandbox. Also reads the server's own SETTINGS frame with h2.

    python3 http2Streams.py BASE_URL API_KEY

Prints one JSON object (what happened), exits 0; a Python error exits non-zero with its trace.
"""

import contextlib
import json
import socket
import ssl
import struct
import sys
import time
from urllib.parse import urlsplit

import h2.config
import h2.connection
import h2.events
import h2.settings
import httpx

RUNTIME_PORT = "49983"


def envelope(message):
    """A Connect streaming request body: one message, flag 0, its length, its JSON."""
    data = json.dumps(message).encode()
    return struct.pack(">BI", 0, len(data)) + data


def first_message(response):
    """Reads a Connect stream until its first whole envelope; returns (flags, JSON)."""
    buffered = b""
    for chunk in response.iter_raw():
        buffered += chunk
        if len(buffered) >= 5:
            flags, length = struct.unpack(">BI", buffered[:5])
            if len(buffered) >= 5 + length:
                return flags, json.loads(buffered[5 : 5 + length])
    raise RuntimeError(f"the stream ended before its first message: {buffered!r}")


def advertised_settings(base_url):
    """The server's SETTINGS, as h2 reads them from a connection of its own (ALPN h2)."""
    url = urlsplit(base_url)
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(["h2"])
    with socket.create_connection((url.hostname, url.port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname=url.hostname) as tls:
            if tls.selected_alpn_protocol() != "h2":
                raise RuntimeError(f"ALPN chose {tls.selected_alpn_protocol()!r}, not h2")
            conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
            conn.initiate_connection()
            tls.sendall(conn.data_to_send())
            while True:
                data = tls.recv(65535)
                if not data:
                    raise RuntimeError("the server closed the connection before its SETTINGS")
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.RemoteSettingsChanged):
                        return {
                            getattr(code, "name", str(code)): change.new_value
                            for code, change in event.changed_settings.items()
                        }


def main():
    base_url, api_key = sys.argv[1:3]
    result = {"settings": advertised_settings(base_url)}
    # The self-signed certificate of a local stack: this checks the protocol, not trust.
    with httpx.Client(http2=True, verify=False, timeout=10.0) as client:
        created = client.post(f"{base_url}/v2/sandboxes", headers={"X-API-Key": api_key}, json={})
        created.raise_for_status()
        sandbox = created.json()
        try:
            result.update(call_runtime(client, base_url, sandbox["sandboxID"], sandbox["envdAccessToken"]))
        finally:
            client.delete(f"{base_url}/sandboxes/{sandbox['sandboxID']}", headers={"X-API-Key": api_key})
    print(json.dumps(result))


def call_runtime(client, base_url, sandbox_id, token):
    """Start and WatchDir left open, then Stat, on the client's one connection."""
    headers = {
        "E2b-Sandbox-Id": sandbox_id,
        "E2b-Sandbox-Port": RUNTIME_PORT,
        "X-Access-Token": token,
        "Connect-Protocol-Version": "1",
    }
    stream_headers = {**headers, "Content-Type": "application/connect+json"}
    result = {}
    with contextlib.ExitStack() as open_streams:
        start = open_streams.enter_context(
            client.stream(
                "POST",
                f"{base_url}/process.Process/Start",
                headers=stream_headers,
                content=envelope({"process": {"cmd": "/bin/bash", "args": ["-c", "sleep 30"]}}),
            )
        )
        result["start"] = {
            "status": start.status_code,
            "httpVersion": start.http_version,
            "streamId": start.extensions.get("stream_id"),
            "first": first_message(start)[1],
        }
        watch = open_streams.enter_context(
            client.stream(
                "POST",
                f"{base_url}/filesystem.Filesystem/WatchDir",
                headers=stream_headers,
                content=envelope({"path": "/home/user"}),
            )
        )
        result["watch"] = {
            "status": watch.status_code,
            "httpVersion": watch.http_version,
            "streamId": watch.extensions.get("stream_id"),
            "first": first_message(watch)[1],
        }
        began = time.monotonic()
        stat = client.post(
            f"{base_url}/filesystem.Filesystem/Stat",
            headers={**headers, "Content-Type": "application/json"},
            json={"path": "/home/user"},
        )
        result["stat"] = {
            "status": stat.status_code,
            "httpVersion": stat.http_version,
            "streamId": stat.extensions.get("stream_id"),
            "body": stat.json(),
            "ms": round((time.monotonic() - began) * 1000),
        }
        # Both streams are still open: neither ended while the unary call was made.
        result["streamsStillOpen"] = not start.is_closed and not watch.is_closed
    return result


if __name__ == "__main__":
    main()
